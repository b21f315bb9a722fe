package org.privadapt.privacy.accounting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.accounting.pld.PldAccountant;
import org.privadapt.privacy.events.ComposedEvent;
import org.privadapt.privacy.events.DpEvent;
import org.privadapt.privacy.events.EventJson;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.events.PoissonSampledEvent;
import org.privadapt.privacy.events.RepeatAndSelectEvent;
import org.privadapt.privacy.events.SelfComposedEvent;
import org.privadapt.privacy.events.WorstOfEvent;

/**
 * Private selection's accounting (docs/privacy/selection.md): Papernot and Steinke's Theorem 2 as the RDP accountant
 * applies it, against literal values from an independent 40-digit evaluation (mpmath, the script in the doc), against
 * the exact Rényi divergence of a selection whose output distribution is known in closed form, and the truncated
 * negative binomial sampler against its probabilities.
 */
class RepeatAndSelectTest {
    static final RdpAccountant RDP = new RdpAccountant(NeighbouringRelation.ADD_OR_REMOVE_ONE, RdpAccountant.DEFAULT_ORDERS, w -> { });

    static int orderIndex(double a) {
        double[] o = RDP.orders();
        for (int i = 0; i < o.length; i++) {
            if (o[i] == a) {
                return i;
            }
        }
        throw new AssertionError(a);
    }

    /** Literal values: Gaussian inner event, the default grid, 40-digit oracle (mpmath), relative 1e-12. */
    @ParameterizedTest
    @CsvSource({
        "3, 4, 1, 1.6095543944497121, 1.7085504512390552, 2.4912433382379189, 0.25",
        "3, 4, 0, 1.2756343737687215, 1.3746304305580645, 2.1573233175569282, 0.096649622202145831",
        "2, 10, 1, 3.0939547160423575, 3.4018125988053545, 4.3150722993888254, 0.1",
        "5, 6, 2, 1.3181815389993257, 1.3181815389993257, 1.7973039735248453, 0.26376261582597333"})
    void theoremTwoMatchesTheMultiPrecisionOracle(double s, double mean, double shape, double rdpAt2, double rdpAt10, double epsAt1e5,
                                                   double gamma) {
        DpEvent e = new RepeatAndSelectEvent(new GaussianEvent(s), mean, shape);
        double[] r = RDP.rdp(e);
        assertThat(r[orderIndex(2)]).isCloseTo(rdpAt2, within(1e-12 * rdpAt2));
        assertThat(r[orderIndex(10)]).isCloseTo(rdpAt10, within(1e-12 * rdpAt10));
        assertThat(RDP.epsilon(e, 1e-5)).isCloseTo(epsAt1e5, within(1e-12 * epsAt1e5));
        assertThat(TruncatedNegativeBinomial.gammaForMean(shape, mean)).isCloseTo(gamma, within(1e-12 * gamma));
    }

    /** Selection costs more than one run and less than running every repetition of a large mean. */
    @Test
    void selectionCostsMoreThanOneRunAndLessThanTheMeanNumberOfRuns() {
        double one = RDP.epsilon(new GaussianEvent(4), 1e-5);
        double sel = RDP.epsilon(new RepeatAndSelectEvent(new GaussianEvent(4), 10, 1), 1e-5);
        double ten = RDP.epsilon(new SelfComposedEvent(new GaussianEvent(4), 10), 1e-5);
        assertThat(sel).isGreaterThan(one).isLessThan(ten);
    }

    /**
     * The theorem on a selection whose output law is exact: the base mechanism outputs a Gaussian score rounded to
     * a grid (a post-processing of a Gaussian with sensitivity 1, so its RDP is at most a/(2 s^2)), and the
     * selection outputs the largest of K scores, whose distribution function is E[F(y)^K]. Its Rényi divergences in
     * both directions, computed exactly over the grid, must stay below the accountant's bound, and must exceed one
     * run's (the bound is not vacuous: it is within a stated factor).
     */
    @ParameterizedTest
    @CsvSource({"2, 4, 1", "2, 4, 0", "1, 8, 1", "3, 3, 2"})
    void boundHoldsOnAnExactlyComputableSelection(double s, double mean, double shape) {
        double gamma = TruncatedNegativeBinomial.gammaForMean(shape, mean);
        double step = 0.01;
        int cells = (int) Math.round((24 * s + 1) / step);
        double lo = -12 * s;
        double[] p = bestOfK(lo, step, cells, 0.0, s, shape, gamma);
        double[] q = bestOfK(lo, step, cells, 1.0, s, shape, gamma);
        double[] bound = RDP.rdp(new RepeatAndSelectEvent(new GaussianEvent(s), mean, shape));
        double[] orders = RDP.orders();
        for (int i = 0; i < orders.length; i += 7) {
            double a = orders[i];
            if (a > 40) {
                break; // the grid's tails are too coarse for the highest orders
            }
            double pq = renyi(p, q, a);
            double qp = renyi(q, p, a);
            assertThat(Math.max(pq, qp)).as("order %s", a).isLessThanOrEqualTo(bound[i] + 1e-9);
            // the selection leaks more than one run: the theorem is tested where it matters
            assertThat(Math.max(pq, qp)).as("order %s", a).isGreaterThan(0.5 * a / (2 * s * s));
        }
    }

    /**
     * Output law of the best of K ~ TNB rounded Gaussian scores N(mu, s^2) on the grid cells (the first and last cells
     * take the tails). Cells below the median are differences of {@code E[F^K]}; above it, of {@code E[1 - (1 - S)^K]}
     * with S the survival function, so that the tails' small masses keep their relative accuracy.
     */
    static double[] bestOfK(double lo, double step, int cells, double mu, double s, double shape, double gamma) {
        org.apache.commons.statistics.distribution.NormalDistribution n = org.apache.commons.statistics.distribution.NormalDistribution.of(mu, s);
        double[] out = new double[cells];
        for (int c = 0; c < cells; c++) {
            double a = lo + c * step;
            double b = a + step;
            if (b <= mu) {
                double fa = c == 0 ? 0.0 : n.cumulativeProbability(a);
                out[c] = generating(n.cumulativeProbability(b), shape, gamma) - generating(fa, shape, gamma);
            } else {
                double sb = c == cells - 1 ? 0.0 : n.survivalProbability(b);
                out[c] = atLeastOneAbove(n.survivalProbability(a), shape, gamma) - atLeastOneAbove(sb, shape, gamma);
            }
        }
        return out;
    }

    /** E[1 - (1 - S)^K]: the probability that the best of K exceeds a point with survival S. */
    static double atLeastOneAbove(double surv, double shape, double gamma) {
        double p = TruncatedNegativeBinomial.first(shape, gamma);
        double l = Math.log1p(-surv);
        double sum = 0;
        for (long k = 1; k < 1_000_000 && p > 1e-300; k++) {
            sum += p * -Math.expm1(k * l);
            p *= (1 - gamma) * (k + shape) / (k + 1);
        }
        return sum;
    }

    /** E[x^K] for K ~ TNB(shape, gamma), by summing the series. */
    static double generating(double x, double shape, double gamma) {
        double p = TruncatedNegativeBinomial.first(shape, gamma);
        double sum = 0;
        double xk = x;
        for (long k = 1; k < 1_000_000 && p > 1e-300; k++) {
            sum += p * xk;
            p *= (1 - gamma) * (k + shape) / (k + 1);
            xk *= x;
            if (xk < 1e-300) {
                break;
            }
        }
        return sum;
    }

    static double renyi(double[] p, double[] q, double a) {
        double s = 0;
        for (int i = 0; i < p.length; i++) {
            if (p[i] > 0 && q[i] > 0) {
                s += Math.exp(a * Math.log(p[i]) + (1 - a) * Math.log(q[i]));
            }
        }
        return Math.log(s) / (a - 1);
    }

    @ParameterizedTest
    @CsvSource({"0, 5", "1, 5", "0.5, 3", "2, 12", "0, 1.5"})
    void distributionHasItsMeanAndSumsToOne(double shape, double mean) {
        double gamma = TruncatedNegativeBinomial.gammaForMean(shape, mean);
        assertThat(TruncatedNegativeBinomial.mean(shape, gamma)).isCloseTo(mean, within(1e-9 * mean));
        double total = 0;
        double first = 0;
        for (long k = 1; k < 20_000; k++) {
            double pk = TruncatedNegativeBinomial.pmf(shape, gamma, k);
            total += pk;
            first += k * pk;
        }
        assertThat(total).isCloseTo(1.0, within(1e-9));
        assertThat(first).isCloseTo(mean, within(1e-6 * mean));
    }

    @Test
    void specialCasesAreTheGeometricAndLogarithmicLaws() {
        assertThat(TruncatedNegativeBinomial.pmf(1, 0.3, 4)).isCloseTo(0.3 * Math.pow(0.7, 3), within(1e-15));
        assertThat(TruncatedNegativeBinomial.pmf(0, 0.3, 4)).isCloseTo(Math.pow(0.7, 4) / (4 * Math.log(1 / 0.3)), within(1e-15));
    }

    /** Inversion sampling: 40,000 draws with a fixed seed, each frequency within 5 standard errors of its probability. */
    @ParameterizedTest
    @CsvSource({"1, 4", "0, 4", "2, 6"})
    void samplerFollowsTheProbabilities(double shape, double mean) {
        double gamma = TruncatedNegativeBinomial.gammaForMean(shape, mean);
        Random r = new Random(29);
        int draws = 40_000;
        int[] counts = new int[12];
        for (int i = 0; i < draws; i++) {
            long k = TruncatedNegativeBinomial.sample(shape, gamma, r.nextDouble());
            assertThat(k).isGreaterThanOrEqualTo(1);
            if (k < counts.length) {
                counts[(int) k]++;
            }
        }
        for (int k = 1; k < counts.length; k++) {
            double p = TruncatedNegativeBinomial.pmf(shape, gamma, k);
            double se = Math.sqrt(p * (1 - p) / draws);
            assertThat(counts[k] / (double) draws).as("k=%d", k).isCloseTo(p, within(5 * se + 1e-12));
        }
    }

    @Test
    void worstOfIsThePointwiseMaximumAndTheWorstPartsCertificate() {
        DpEvent a = new GaussianEvent(2);
        DpEvent b = new SelfComposedEvent(new PoissonSampledEvent(0.1, new GaussianEvent(1.2)), 50);
        double[] ra = RDP.rdp(a);
        double[] rb = RDP.rdp(b);
        double[] rw = RDP.rdp(WorstOfEvent.of(a, b));
        for (int i = 0; i < ra.length; i++) {
            assertThat(rw[i]).isEqualTo(Math.max(ra[i], rb[i]));
        }
        // the certificate of a worst-of is at most its worst part's, and never below any part's
        double ea = Accountants.certify(NeighbouringRelation.ADD_OR_REMOVE_ONE, a, 1e-5).epsilon();
        double eb = Accountants.certify(NeighbouringRelation.ADD_OR_REMOVE_ONE, b, 1e-5).epsilon();
        double ew = Accountants.certify(NeighbouringRelation.ADD_OR_REMOVE_ONE, WorstOfEvent.of(a, b), 1e-5).epsilon();
        assertThat(ew).isLessThanOrEqualTo(Math.max(ea, eb) + 1e-12).isGreaterThanOrEqualTo(Math.min(ea, eb) - 1e-12);
        // of two Gaussians the noisier one costs nothing
        assertThat(Accountants.certify(NeighbouringRelation.ADD_OR_REMOVE_ONE, WorstOfEvent.of(new GaussianEvent(2), new GaussianEvent(3)),
                1e-5).epsilon()).isCloseTo(GaussianProfile.epsilon(2, 1e-5), within(1e-12));
        // inside a composition (a ledger's total) the RDP accountant composes it
        DpEvent total = new ComposedEvent(java.util.List.of(WorstOfEvent.of(a, b), new GaussianEvent(5)));
        assertThat(Accountants.certify(NeighbouringRelation.ADD_OR_REMOVE_ONE, total, 1e-5)).isNotNull();
    }

    @Test
    void pldRefusesAndJsonRoundTrips() {
        DpEvent e = new RepeatAndSelectEvent(WorstOfEvent.of(new GaussianEvent(2), new GaussianEvent(3)), 4, 1);
        PldAccountant pld = new PldAccountant(NeighbouringRelation.ADD_OR_REMOVE_ONE);
        assertThat(pld.unsupported(e)).isPresent();
        assertThat(pld.unsupported(WorstOfEvent.of(new GaussianEvent(2)))).isPresent();
        assertThat(EventJson.read(EventJson.write(e))).isEqualTo(e);
        assertThat(Accountants.certify(NeighbouringRelation.ADD_OR_REMOVE_ONE, e, 1e-5).accountant()).isEqualTo("rdp");
    }
}
