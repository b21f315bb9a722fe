package org.privadapt.models.mixture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;
import org.privadapt.models.dp.PublicRandomness;
import org.privadapt.models.dp.SessionRandomness;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.accounting.EventSimplifier;
import org.privadapt.privacy.accounting.NoiseCalibration;
import org.privadapt.privacy.accounting.RdpAccountant;
import org.privadapt.privacy.events.ComposedEvent;
import org.privadapt.privacy.events.DpEvent;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.events.SelfComposedEvent;
import org.privadapt.privacy.noise.NoiseSource;

class DpGaussianMixtureEmTest {
    static final RdpAccountant RDP = new RdpAccountant(NeighbouringRelation.ADD_OR_REMOVE_ONE, RdpAccountant.DEFAULT_ORDERS, w -> { });

    static SessionRandomness seeded(long seed) {
        return new SessionRandomness(NoiseSource.seeded(seed));
    }

    @Test
    void theFitsEventIsOneGaussianWithMuSqrtThreeTimesReleasesOverSigma() {
        for (int t : new int[] {0, 1, 9, 49}) {
            for (double sigma : new double[] {0.5, 3, 40}) {
                DpEvent e = DpGaussianMixtureEm.event(DpGaussianMixtureEm.Config.of(6, CovarianceType.FULL, 10, t, sigma, 1));
                assertThat(e).isInstanceOf(GaussianEvent.class);
                double mu = 1 / ((GaussianEvent) e).noiseMultiplier();
                assertThat(mu).isCloseTo(Math.sqrt(3.0 * (t + 1)) / sigma, within(1e-12 * mu));
                // the same as composing 3 (T + 1) Gaussian mechanisms of multiplier sigma one by one
                GaussianEvent composed = (GaussianEvent) EventSimplifier.simplify(new SelfComposedEvent(new GaussianEvent(sigma), 3L * (t + 1)));
                assertThat(((GaussianEvent) e).noiseMultiplier()).isCloseTo(composed.noiseMultiplier(), within(1e-12 * mu));
            }
        }
    }

    @Test
    void calibratesSigmaForATargetAloneAndAfterDpSgd() {
        int t = 10;
        double sigma = DpGaussianMixtureEm.noiseMultiplier(RDP, 1.0, 1e-6, t);
        assertThat(RDP.epsilon(DpGaussianMixtureEm.event(sigma, t), 1e-6)).isLessThanOrEqualTo(1.0);
        assertThat(RDP.epsilon(DpGaussianMixtureEm.event(sigma * 0.99, t), 1e-6)).isGreaterThan(1.0);
        // composed with the source encoder's DP-SGD in the same ledger: less budget is left, so more noise
        DpEvent sgd = NoiseCalibration.dpSgdEvent(1.1, 0.01, 3000);
        double target = RDP.epsilon(sgd, 1e-6) + 1.0;
        double after = DpGaussianMixtureEm.noiseMultiplier(RDP, target, 1e-6, t, sgd);
        assertThat(RDP.epsilon(ComposedEvent.of(sgd, DpGaussianMixtureEm.event(after, t)), 1e-6)).isLessThanOrEqualTo(target);
        assertThat(after).isGreaterThan(DpGaussianMixtureEm.noiseMultiplier(RDP, target, 1e-6, t));
        assertThatThrownBy(() -> DpGaussianMixtureEm.noiseMultiplier(RDP, 1.0, 1e-6, t, new GaussianEvent(0.01)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void withVeryLargeEpsilonItApproachesNonPrivateEm() {
        DenseMatrix x = GaussianMixtureEmTest.truth().sample(3000, new SplittableRandom(1));
        double ll = GaussianMixtureEm.fit(x, GaussianMixtureEm.Config.of(3, CovarianceType.FULL), new SplittableRandom(2)).meanLogLikelihood();
        for (CovarianceType type : CovarianceType.values()) {
            // R = 50 clips nothing here; sigma = 1e-6 is epsilon in the millions
            DpGaussianMixtureEm.Config c = DpGaussianMixtureEm.Config.of(3, type, 50, 60, 1e-6, 7);
            DpGaussianMixtureEm.Result r = DpGaussianMixtureEm.fit(x, c, seeded(3));
            GaussianMixtureEmTest.assertRecovers(r.model());
            if (type == CovarianceType.FULL) {
                assertThat(r.model().meanLogLikelihood(x)).isCloseTo(ll, within(0.01));
            }
            assertThat(r.releases()).isEqualTo(61);
            assertThat(r.isPrivate()).isFalse();
        }
    }

    @Test
    void atAModerateBudgetTheComponentsAreStillFound() {
        // epsilon 4 at delta 1e-5 over 11 releases, n = 3000, R = 8 (a few rows are clipped)
        DenseMatrix x = GaussianMixtureEmTest.truth().sample(3000, new SplittableRandom(11));
        double sigma = DpGaussianMixtureEm.noiseMultiplier(RDP, 4.0, 1e-5, 10);
        DpGaussianMixtureEm.Config c = DpGaussianMixtureEm.Config.of(3, CovarianceType.DIAGONAL, 8, 10, sigma, 5);
        GaussianMixture m = DpGaussianMixtureEm.fit(x, c, seeded(12)).model();
        int[] match = GaussianMixtureEmTest.match(m);
        for (int k = 0; k < 3; k++) {
            assertThat(GaussianMixtureEmTest.dist(m.mean(match[k]), GaussianMixtureEmTest.TRUE_MEANS[k])).isLessThan(1.0);
        }
    }

    @Test
    void secureNoiseIsTheDefaultAndPublicRandomnessIsRefused() {
        DenseMatrix x = GaussianMixtureEmTest.truth().sample(200, new SplittableRandom(1));
        DpGaussianMixtureEm.Config c = DpGaussianMixtureEm.Config.of(2, CovarianceType.DIAGONAL, 5, 3, 2, 1);
        DpGaussianMixtureEm.Result secure = DpGaussianMixtureEm.fit(x, c);
        assertThat(secure.isPrivate()).isTrue();
        assertThat(secure.noise()).isEqualTo(NoiseSource.secure().samplerDescription());
        assertThat(DpGaussianMixtureEm.fit(x, c, seeded(1)).isPrivate()).isFalse();
        assertThatThrownBy(() -> DpGaussianMixtureEm.fit(x, c, new PublicRandomness(1))).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void chargesTheSessionBeforeDrawingAndRefusesOverBudgetOrReplaceOne() throws Exception {
        DenseMatrix x = GaussianMixtureEmTest.truth().sample(200, new SplittableRandom(1));
        PrivacySession s = new PrivacySession("source", new PrivacyBudget(1.0, 1e-6), NeighbouringRelation.ADD_OR_REMOVE_ONE,
                NoiseSource.seeded(4), null);
        double sigma = DpGaussianMixtureEm.noiseMultiplier(RDP, 1.0, 1e-6, 5);
        DpGaussianMixtureEm.Config c = DpGaussianMixtureEm.Config.of(2, CovarianceType.FULL, 6, 5, sigma, 1);
        DpGaussianMixtureEm.Result r = DpGaussianMixtureEm.fit(x, c, s);
        assertThat(s.events()).containsExactly(DpGaussianMixtureEm.event(c));
        assertThat(s.spent().epsilon()).isLessThanOrEqualTo(1.0 + 1e-9);
        assertThat(r.isPrivate()).isFalse();
        // nothing left: a second fit is refused and nothing is charged
        assertThatThrownBy(() -> DpGaussianMixtureEm.fit(x, c, s)).isInstanceOf(BudgetExceededException.class);
        assertThat(s.events()).hasSize(1);
        PrivacySession replace = new PrivacySession("source", new PrivacyBudget(1.0, 1e-6), NeighbouringRelation.REPLACE_ONE,
                NoiseSource.seeded(4), null);
        assertThatThrownBy(() -> DpGaussianMixtureEm.fit(x, c, replace)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("add/remove");
    }

    @Test
    void alwaysReleasesAValidMixtureEvenFromNoiseAlone() {
        for (CovarianceType type : CovarianceType.values()) {
            for (int n : new int[] {0, 3}) {
                DenseMatrix x = GaussianMixtureEmTest.truth().sample(n, new SplittableRandom(1));
                DpGaussianMixtureEm.Config c = DpGaussianMixtureEm.Config.of(4, type, 2, 5, 50, 1);
                GaussianMixture m = DpGaussianMixtureEm.fit(x, c, seeded(2)).model();
                assertThat(m.components()).isEqualTo(4);
                for (int k = 0; k < 4; k++) {
                    assertThat(GaussianMixtureEmTest.dist(m.mean(k), new double[3])).isLessThanOrEqualTo(2 + 1e-12);
                    for (double v : m.variances(k)) {
                        assertThat(v).isBetween(c.eigenvalueFloor() * (1 - 1e-9), 4.0 * (1 + 1e-9));
                    }
                }
            }
        }
    }

    @Test
    void fullSecondMomentsAreReleasedAsTheScaledUpperTriangleWithSymmetricNoise() {
        int d = 60;
        DenseMatrix rows = DenseMatrix.zeros(5, d);
        SplittableRandom r = new SplittableRandom(3);
        for (int i = 0; i < 5; i++) {
            for (int j = 0; j < d; j++) {
                rows.set(i, j, r.nextGaussian());
            }
        }
        SufficientStatistics s = DpGaussianMixtureEm.initialStatistics(rows, CovarianceType.FULL);
        assertThat(norm(s.secondMomentVector())).isCloseTo(s.secondMoment(0).frobeniusNorm(), within(1e-9));
        // noise of std 1 on each released coordinate: sigma R^2 = 1 on the diagonal, 1 / sqrt(2) off it, symmetric
        SufficientStatistics zero = DpGaussianMixtureEm.initialStatistics(DenseMatrix.zeros(1, d), CovarianceType.FULL);
        DenseMatrix noise = zero.withNoise(1.0, 1.0, seeded(9)).secondMoment(0);
        assertThat(noise.asymmetry()).isZero();
        double diag = 0;
        double off = 0;
        for (int j = 0; j < d; j++) {
            diag += noise.get(j, j) * noise.get(j, j);
            for (int i = j + 1; i < d; i++) {
                off += noise.get(i, j) * noise.get(i, j);
            }
        }
        assertThat(Math.sqrt(diag / d)).isCloseTo(1.0, within(0.2));
        assertThat(Math.sqrt(off / (d * (d - 1) / 2.0))).isCloseTo(1 / Math.sqrt(2), within(0.05));
    }

    static double norm(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x * x;
        }
        return Math.sqrt(s);
    }

    @Test
    void rejectsInvalidConfigurationsAndRowsThatCannotBeClipped() {
        assertThatThrownBy(() -> DpGaussianMixtureEm.Config.of(0, CovarianceType.FULL, 1, 1, 1, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("components");
        assertThatThrownBy(() -> DpGaussianMixtureEm.Config.of(2, CovarianceType.FULL, 0, 1, 1, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("clip norm");
        assertThatThrownBy(() -> DpGaussianMixtureEm.Config.of(2, CovarianceType.FULL, 1, -1, 1, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("iterations");
        assertThatThrownBy(() -> DpGaussianMixtureEm.Config.of(2, CovarianceType.FULL, 1, 1, 0, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("noise multiplier");
        assertThatThrownBy(() -> new DpGaussianMixtureEm.Config(2, CovarianceType.FULL, 1, 1, 1, 0, 1e-6, 1, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("count floor");
        assertThatThrownBy(() -> new DpGaussianMixtureEm.Config(2, CovarianceType.FULL, 1, 1, 1, 1, 2, 1, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("eigenvalue floor");
        DenseMatrix nan = DenseMatrix.fromRows(new double[][] {{1, 1}, {Double.POSITIVE_INFINITY, 0}});
        assertThatThrownBy(() -> DpGaussianMixtureEm.fit(nan, DpGaussianMixtureEm.Config.of(1, CovarianceType.FULL, 1, 1, 1, 1), seeded(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("row 1");
    }
}
