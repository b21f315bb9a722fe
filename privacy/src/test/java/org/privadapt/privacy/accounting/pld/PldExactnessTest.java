package org.privadapt.privacy.accounting.pld;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.commons.statistics.distribution.NormalDistribution;
import org.junit.jupiter.api.Test;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.events.DpEvent;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.events.LaplaceEvent;
import org.privadapt.privacy.events.PoissonSampledEvent;
import org.privadapt.privacy.events.SelfComposedEvent;

/**
 * The discretised PLDs against closed forms of the mechanisms' hockey-stick divergences: pessimistic (never below
 * the exact delta, beyond floating-point round-off) and close.
 *
 * <p>Tolerances: connect-the-dots is exact at grid points and a chord in {@code e^eps} between them, so it may
 * exceed the exact delta by O(h^2) (observed <= 3e-9 with h = 1e-4), plus the mass moved to infinity by tail
 * truncation (<= 1e-15 per mechanism). At grid points it equals the exact value up to round-off in sums of CDF
 * differences, so "never below" is checked with a slack of {@value #ROUND_OFF}. Round-up may exceed the exact
 * delta by about {@code h/2} times the density of the loss (observed <= 3e-5 for one mechanism).
 */
class PldExactnessTest {
    private static final NormalDistribution PHI = NormalDistribution.of(0.0, 1.0);
    private static final double ROUND_OFF = 1e-14;
    private static final double[] EPSILONS = {0.0, 0.12345, 0.5, 1.0, 2.0, 3.00005};

    private final PldAccountant ctd = new PldAccountant();
    private final PldAccountant roundUp =
            new PldAccountant(NeighbouringRelation.ADD_OR_REMOVE_ONE, 1e-4, Discretisation.ROUND_UP);

    /** Balle and Wang (2018), Theorem 8: delta(eps) = Phi(-eps s + 1/(2s)) - e^eps Phi(-eps s - 1/(2s)). */
    static double exactGaussianDelta(double s, double eps) {
        return PHI.cumulativeProbability(-eps * s + 1 / (2 * s)) - Math.exp(eps) * PHI.cumulativeProbability(-eps * s - 1 / (2 * s));
    }

    /**
     * Laplace(b) vs its shift by 1: the loss is 1/b on x <= 0 (mass 1/2), (1 - 2x)/b on (0, 1) and -1/b on x >= 1.
     * For 0 <= eps < 1/b, with c = (1 - b eps)/2 the point where the loss crosses eps,
     * delta = 1/2 (1 - e^{eps - 1/b}) + int_0^c (e^{-x/b} / 2b)(1 - e^{eps - (1 - 2x)/b}) dx
     *       = 1 - e^{-m}/2 - e^{eps - 1/b + m}/2 with m = c/b = (1/b - eps)/2, and eps - 1/b + m = -m,
     * so delta(eps) = 1 - e^{(eps - 1/b)/2}; and 0 for eps >= 1/b (the loss never exceeds 1/b).
     */
    static double exactLaplaceDelta(double b, double eps) {
        return eps >= 1 / b ? 0.0 : -Math.expm1((eps - 1 / b) / 2);
    }

    @Test
    void singleGaussianMatchesBalleWang() {
        for (double s : new double[] {0.5, 1.0, 2.0, 5.0}) {
            DpEvent event = new GaussianEvent(s);
            for (double eps : EPSILONS) {
                double exact = exactGaussianDelta(s, eps);
                double c = ctd.delta(event, eps);
                double r = roundUp.delta(event, eps);
                assertThat(c).as("CTD s=%s eps=%s", s, eps).isGreaterThanOrEqualTo(exact - ROUND_OFF)
                        .isLessThanOrEqualTo(exact + 1e-8);
                assertThat(r).as("round-up s=%s eps=%s", s, eps).isGreaterThanOrEqualTo(c - ROUND_OFF)
                        .isLessThanOrEqualTo(exact + 5e-5);
            }
            // strictly above between grid points, where the chord lies above the curve
            assertThat(ctd.delta(event, 0.12345)).isGreaterThan(exactGaussianDelta(s, 0.12345));
        }
    }

    @Test
    void singleLaplaceMatchesClosedForm() {
        for (double b : new double[] {0.5, 1.0, 3.0}) {
            DpEvent event = new LaplaceEvent(b);
            for (double eps : new double[] {0.0, 0.12345, 0.5, 1.0, 1.99995, 2.5}) {
                double exact = exactLaplaceDelta(b, eps);
                double c = ctd.delta(event, eps);
                double r = roundUp.delta(event, eps);
                assertThat(c).as("CTD b=%s eps=%s", b, eps).isGreaterThanOrEqualTo(exact - ROUND_OFF)
                        .isLessThanOrEqualTo(exact + 1e-8);
                assertThat(r).as("round-up b=%s eps=%s", b, eps).isGreaterThanOrEqualTo(c - ROUND_OFF)
                        .isLessThanOrEqualTo(exact + 5e-5);
            }
            // pure DP: delta vanishes within one grid step of eps = 1/b (the atom at 1/b is split onto the grid)
            assertThat(ctd.epsilon(event, 1e-12)).isCloseTo(1 / b, org.assertj.core.api.Assertions.within(1e-4));
        }
    }

    /**
     * One Poisson-subsampled Gaussian, each direction against its own closed form in the original (unreflected)
     * coordinates, with s the noise multiplier and x the output:
     * remove: P = (1-q) N(0,s^2) + q N(1,s^2), Q = N(0,s^2); L > eps iff x > x_r = 1/2 + s^2 ln((e^eps - 1 + q)/q),
     *         delta = (1-q) Phi^c(x_r/s) + q Phi^c((x_r - 1)/s) - e^eps Phi^c(x_r/s);
     * add:    P = N(0,s^2), Q = (1-q) N(0,s^2) + q N(1,s^2); L > eps iff x < x_a = 1/2 + s^2 ln((e^-eps - 1 + q)/q)
     *         (none if e^-eps <= 1 - q), delta = Phi(x_a/s) - e^eps ((1-q) Phi(x_a/s) + q Phi((x_a - 1)/s)).
     */
    @Test
    void singleSubsampledGaussianMatchesClosedFormsInBothDirections() {
        double q = 0.2;
        double s = 1.0;
        PldAccountant.PldPair pair = ctd.pld(new PoissonSampledEvent(q, new GaussianEvent(s)));
        assertThat(pair.isSymmetric()).isFalse();
        for (double eps : new double[] {0.0, 0.05, 0.12345, 0.2, 0.5, 1.0, 2.0}) {
            double xr = 0.5 + s * s * Math.log((Math.expm1(eps) + q) / q);
            double remove = (1 - q) * PHI.survivalProbability(xr / s) + q * PHI.survivalProbability((xr - 1) / s)
                    - Math.exp(eps) * PHI.survivalProbability(xr / s);
            double add = 0.0;
            if (-eps > Math.log1p(-q)) {
                double xa = 0.5 + s * s * Math.log((Math.expm1(-eps) + q) / q);
                add = PHI.cumulativeProbability(xa / s) - Math.exp(eps)
                        * ((1 - q) * PHI.cumulativeProbability(xa / s) + q * PHI.cumulativeProbability((xa - 1) / s));
            }
            assertThat(pair.remove().delta(eps)).as("remove eps=%s", eps).isGreaterThanOrEqualTo(remove - ROUND_OFF)
                    .isLessThanOrEqualTo(remove + 1e-8);
            assertThat(pair.add().delta(eps)).as("add eps=%s", eps).isGreaterThanOrEqualTo(add - ROUND_OFF)
                    .isLessThanOrEqualTo(add + 1e-8);
            assertThat(ctd.delta(new PoissonSampledEvent(q, new GaussianEvent(s)), eps))
                    .isEqualTo(Math.max(pair.remove().delta(eps), pair.add().delta(eps)));
        }
    }

    /** k Gaussians with noise multiplier s compose exactly to one with s / sqrt(k): a check of the convolutions. */
    @Test
    void composedGaussiansMatchTheEquivalentSingleGaussian() {
        DpEvent sixteen = new SelfComposedEvent(new GaussianEvent(2.0), 16);
        for (double eps : EPSILONS) {
            double exact = exactGaussianDelta(0.5, eps);
            assertThat(ctd.delta(sixteen, eps)).as("eps=%s", eps).isGreaterThanOrEqualTo(exact - ROUND_OFF)
                    .isLessThanOrEqualTo(exact + 1e-8);
            assertThat(roundUp.delta(sixteen, eps)).as("eps=%s", eps).isGreaterThanOrEqualTo(ctd.delta(sixteen, eps));
        }
    }

    @Test
    void discretisedMassesSumToOne() {
        for (AdditiveNoiseLoss.Noise noise : AdditiveNoiseLoss.Noise.values()) {
            for (AdditiveNoiseLoss.Direction direction : AdditiveNoiseLoss.Direction.values()) {
                for (Discretisation mode : Discretisation.values()) {
                    DiscretePld pld = new AdditiveNoiseLoss(noise, 0.7, direction, 0.3).discretise(1e-4, mode, 1e-15);
                    assertThat(pld.totalMass()).as("%s %s %s", noise, direction, mode)
                            .isCloseTo(1.0, org.assertj.core.api.Assertions.within(1e-13));
                    assertThat(pld.truncatedMass()).isLessThanOrEqualTo(2e-15);
                }
            }
        }
    }

    /** Round-up moves whole atoms up where connect-the-dots splits them, so it dominates after compositions too. */
    @Test
    void roundUpDominatesConnectTheDotsAfterComposition() {
        DpEvent event = new SelfComposedEvent(new PoissonSampledEvent(0.1, new GaussianEvent(1.0)), 50);
        for (double eps : new double[] {0.0, 0.5, 1.0, 2.0}) {
            assertThat(roundUp.delta(event, eps)).as("eps=%s", eps).isGreaterThanOrEqualTo(ctd.delta(event, eps));
        }
        assertThat(roundUp.epsilon(event, 1e-5)).isGreaterThan(ctd.epsilon(event, 1e-5));
    }
}
