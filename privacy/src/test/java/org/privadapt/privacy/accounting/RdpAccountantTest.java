package org.privadapt.privacy.accounting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;
import static org.assertj.core.api.Assertions.withinPercentage;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.DoubleStream;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.events.ComposedEvent;
import org.privadapt.privacy.events.DpEvent;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.events.LaplaceEvent;
import org.privadapt.privacy.events.NoOpEvent;
import org.privadapt.privacy.events.NonPrivateEvent;
import org.privadapt.privacy.events.PoissonSampledEvent;
import org.privadapt.privacy.events.SelfComposedEvent;

class RdpAccountantTest {
    static final NeighbouringRelation ADD_REMOVE = NeighbouringRelation.ADD_OR_REMOVE_ONE;

    /** Opacus' RDPAccountant.DEFAULT_ALPHAS: 1.1 ... 10.9, then 12 ... 63. */
    static double[] opacusAlphas() {
        return DoubleStream.concat(IntStream.rangeClosed(1, 99).mapToDouble(x -> 1 + x / 10.0),
                IntStream.range(12, 64).mapToDouble(x -> x)).toArray();
    }

    /** TF Privacy's compute_dp_sgd_privacy orders. */
    static double[] tfpOrders() {
        return DoubleStream.concat(DoubleStream.of(1.25, 1.5, 1.75, 2.0, 2.25, 2.5, 3.0, 3.5, 4.0, 4.5),
                DoubleStream.concat(IntStream.range(5, 64).mapToDouble(x -> x), DoubleStream.of(128, 256, 512))).toArray();
    }

    static RdpAccountant acc(double[] orders, List<String> warnings) {
        return new RdpAccountant(ADD_REMOVE, orders, warnings::add);
    }

    static DpEvent dpSgd(double q, double sigma, long steps) {
        return new SelfComposedEvent(new PoissonSampledEvent(q, new GaussianEvent(sigma)), steps);
    }

    @Test
    void opacusRdpAccountantGoldenValue() {
        // opacus/tests/accountants_test.py::test_rdp_accountant: sigma 1.5, q 0.04, int(90/0.04) = 2250 steps,
        // delta 1e-5 -> 7.32911117143 (re-run 7.3291111714386545, optimal order 3.9)
        List<String> w = new ArrayList<>();
        double[] eo = acc(opacusAlphas(), w).epsilonAndOrder(dpSgd(0.04, 1.5, 2250), 1e-5);
        assertThat(eo[0]).isCloseTo(7.3291111714386545, withinPercentage(1e-4)); // 1e-6 relative
        assertThat(eo[1]).isEqualTo(3.9);
        assertThat(w).isEmpty();
    }

    @Test
    void opacusDocstringComposition() {
        // opacus/accountants/analysis/rdp.py docstring: [(q=1e-5, sigma 1.0, 10 steps), (q=1e-4, sigma 3.0, 4 steps)],
        // orders 2..32, delta 1e-5 -> (0.336, 23); re-run with mpmath-checked code 0.336344063
        double[] orders = IntStream.rangeClosed(2, 32).mapToDouble(x -> x).toArray();
        DpEvent e = ComposedEvent.of(dpSgd(1e-5, 1.0, 10), dpSgd(1e-4, 3.0, 4));
        double[] eo = acc(orders, new ArrayList<>()).epsilonAndOrder(e, 1e-5);
        assertThat(eo[0]).isCloseTo(0.336344063, withinPercentage(1e-4));
        assertThat(eo[1]).isEqualTo(23);
    }

    @Test
    void tfPrivacyComputeDpSgdPrivacyExamples() {
        // tensorflow_privacy compute_dp_sgd_privacy_test.py: (n, batch, sigma, epochs, delta) -> eps, order;
        // q = batch/n, steps = ceil(epochs * n / batch)
        RdpAccountant a = acc(tfpOrders(), new ArrayList<>());
        double[] e1 = a.epsilonAndOrder(dpSgd(150.0 / 60000, 1.3, 6000), 1e-5);
        assertThat(e1[0]).isCloseTo(0.7242234026109595, withinPercentage(1e-4));
        assertThat(e1[1]).isEqualTo(19.0);
        double[] e2 = a.epsilonAndOrder(dpSgd(100.0 / 100000, 1.0, 30000), 1e-7);
        assertThat(e2[0]).isCloseTo(1.4154988495444842, withinPercentage(1e-4));
        assertThat(e2[1]).isEqualTo(13.0);
    }

    @Test
    void pureDpConversionAndGridEdgeWarning() {
        // dp_accounting rdp_privacy_accountant_test.py::test_compute_epsilon_delta_pure_dp: orders 2..32,
        // RDP identically 1.1, delta 1e-5 -> eps 1.32783806176 at order 32 (the upper edge of the grid)
        double[] orders = IntStream.rangeClosed(2, 32).mapToDouble(x -> x).toArray();
        List<String> w = new ArrayList<>();
        RdpAccountant a = acc(orders, w);
        double[] rdp = new double[orders.length];
        java.util.Arrays.fill(rdp, 1.1);
        double[] eo = a.epsilonFromRdp(rdp, 1e-5);
        assertThat(eo[0]).isCloseTo(1.32783806176, offset(1e-10));
        assertThat(eo[1]).isEqualTo(32);
        assertThat(w).singleElement().asString().contains("upper end of the grid");
    }

    @Test
    void gaussianWithFineGridReachesOneAtOneInAMillion() {
        // dp_accounting test_compute_epsilon_delta_gaussian: q = 1, sigma 4.530877117, orders 0.001 i for
        // i in 1000..99999 (we keep those > 1) -> (eps, delta) = (1, 1e-6) both ways
        double[] orders = IntStream.range(1001, 100000).mapToDouble(i -> 0.001 * i).toArray();
        RdpAccountant a = acc(orders, new ArrayList<>());
        DpEvent e = new PoissonSampledEvent(1.0, new GaussianEvent(4.530877117));
        assertThat(a.epsilon(e, 1e-6)).isCloseTo(1.0, offset(1e-7));
        assertThat(a.delta(e, 1.0)).isCloseTo(1e-6, offset(1e-12));
    }

    @Test
    void dpAccountingPoissonSampledGaussianCurve() {
        // dp_accounting test_compute_rdp_poisson_sampled_gaussian: 50 x PoissonSampled(q=0.01, Gaussian(2.5));
        // integer orders 5, 50, 100 as there; fractional orders 1.5 and 2.5 against the exact (mpmath) values
        // 6.500708971867e-04 and 1.085418056917e-03 (dp_accounting sums absolute values there and is 3% higher)
        double[] orders = {1.5, 2.5, 5, 50, 100};
        double[] r = acc(orders, new ArrayList<>()).rdp(dpSgd(0.01, 2.5, 50));
        assertThat(r[0]).isCloseTo(6.500708971867e-04, withinPercentage(1e-6));
        assertThat(r[1]).isCloseTo(1.085418056917e-03, withinPercentage(1e-6));
        assertThat(r[2]).isCloseTo(2.18075656e-03, withinPercentage(1e-5));
        assertThat(r[3]).isCloseTo(2.38460375e-02, withinPercentage(1e-5));
        assertThat(r[4]).isCloseTo(1.67416308e+02, withinPercentage(1e-5));
        assertThat(SampledGaussianRdp.rdp(0.01, 2.5, Double.POSITIVE_INFINITY)).isInfinite();
    }

    @ParameterizedTest(name = "q={0} sigma={1} alpha={2}")
    @CsvSource({
        "0.01, 2.5, 1.5", "0.01, 2.5, 2.5", "0.04, 1.5, 3.9", "0.04, 1.5, 1.1", "0.2, 0.8, 2.3", "0.001, 1.0, 7.7",
        "0.05, 3.0, 10.5", "0.5, 2.0, 4.2", "0.04, 1.5, 12", "0.2, 0.8, 5", "0.01, 2.5, 2",
        // large q: the series' terms decay only polynomially (a case that once failed to converge)
        "0.45592163846838824, 1.0, 1.1", "0.5, 1.0, 2.7", "0.8, 3.0, 1.5"})
    void matchesMultiPrecisionIntegral(double q, double sigma, double alpha) {
        double mine = SampledGaussianRdp.rdp(q, sigma, alpha);
        double oracle = MpOracle.sampledGaussianRdp(q, sigma, alpha);
        assertThat(mine).isCloseTo(oracle, withinPercentage(1e-7)); // 1e-9 relative
    }

    @Test
    void laplaceAndGaussianCurves() {
        RdpAccountant a = acc(new double[] {2, 3, 10}, new ArrayList<>());
        assertThat(a.rdp(new GaussianEvent(2.0))).containsExactly(2 / 8.0, 3 / 8.0, 10 / 8.0);
        // Laplace with b = 1 at alpha = 2: log(2/3 e + 1/3 e^-2)
        assertThat(a.rdp(new LaplaceEvent(1.0))[0]).isCloseTo(Math.log(2.0 / 3 * Math.E + Math.exp(-2) / 3), offset(1e-14));
        // the pure-DP epsilon is an upper bound on Laplace RDP at every order
        for (double r : a.rdp(new LaplaceEvent(0.5))) {
            assertThat(r).isLessThanOrEqualTo(2.0);
        }
        assertThat(a.rdp(new NoOpEvent())).containsOnly(0.0);
        assertThat(a.epsilon(new NonPrivateEvent("test"), 1e-5)).isInfinite();
        assertThat(a.epsilon(ComposedEvent.of(new GaussianEvent(1), new NonPrivateEvent("x")), 1e-5)).isInfinite();
    }

    @Test
    void tinyRdpGivesZeroEpsilonThroughTheKlBound() {
        RdpAccountant a = acc(new double[] {2, 4, 8}, new ArrayList<>());
        // Gaussian with a huge noise multiplier: RDP ~ 1e-10, far below delta^2 = 1e-4
        assertThat(a.epsilon(new GaussianEvent(1e5), 1e-2)).isZero();
    }

    @Test
    void monotoneInStepsSamplingRateAndNoise() {
        RdpAccountant a = new RdpAccountant(ADD_REMOVE);
        double base = a.epsilon(dpSgd(0.02, 1.2, 1000), 1e-5);
        assertThat(a.epsilon(dpSgd(0.02, 1.2, 2000), 1e-5)).isGreaterThan(base);
        assertThat(a.epsilon(dpSgd(0.04, 1.2, 1000), 1e-5)).isGreaterThan(base);
        assertThat(a.epsilon(dpSgd(0.02, 1.5, 1000), 1e-5)).isLessThan(base);
        assertThat(a.epsilon(dpSgd(0.02, 1.2, 1000), 1e-6)).isGreaterThan(base);
    }

    @Test
    void epsilonDeltaRoundTrip() {
        RdpAccountant a = new RdpAccountant(ADD_REMOVE);
        DpEvent e = dpSgd(0.01, 1.1, 5000);
        double eps = a.epsilon(e, 1e-5);
        assertThat(a.delta(e, eps)).isLessThanOrEqualTo(1e-5 * (1 + 1e-9)).isGreaterThan(0.5e-5);
        double delta = a.delta(e, 3.0);
        assertThat(a.epsilon(e, delta)).isCloseTo(3.0, offset(1e-9));
    }

    @Test
    void refusesWhatItCannotAnalyse() {
        RdpAccountant replace = new RdpAccountant(NeighbouringRelation.REPLACE_ONE);
        // the subsampled Gaussian under replace-one is analysed since issue 14 (weak triangle inequality)
        assertThat(replace.unsupported(dpSgd(0.1, 1, 10))).isEmpty();
        assertThat(replace.epsilon(dpSgd(0.1, 1, 10), 1e-5)).isGreaterThan(new RdpAccountant(ADD_REMOVE).epsilon(dpSgd(0.1, 1, 10), 1e-5));
        assertThat(replace.unsupported(new PoissonSampledEvent(0.1, new LaplaceEvent(1)))).isPresent();
        assertThatThrownBy(() -> replace.epsilon(new PoissonSampledEvent(0.1, new LaplaceEvent(1)), 1e-5))
                .isInstanceOf(PrivacyAccountant.UnsupportedEventException.class);
        assertThat(replace.epsilon(new GaussianEvent(2), 1e-5)).isFinite();
        RdpAccountant a = new RdpAccountant(ADD_REMOVE);
        assertThat(a.unsupported(new PoissonSampledEvent(0.1, new LaplaceEvent(1)))).get().asString().contains("PLD");
        assertThatThrownBy(() -> a.epsilon(new GaussianEvent(1), 0)).hasMessageContaining("delta must be in (0, 1)");
        assertThatThrownBy(() -> a.delta(new GaussianEvent(1), -1)).hasMessageContaining("epsilon must be >= 0");
    }

    @Test
    void hundredThousandStepsIsFast() {
        RdpAccountant a = new RdpAccountant(ADD_REMOVE, RdpAccountant.DEFAULT_ORDERS, w -> { });
        long t0 = System.nanoTime();
        double eps = a.epsilon(dpSgd(0.001, 1.0, 100_000), 1e-5);
        // not a timing assertion (benchmarks live in docs/performance.md); the call must simply work
        assertThat(eps).isFinite().isPositive();
        assertThat(System.nanoTime() - t0).isPositive();
    }

    @Test
    void memoisedSampledGaussianCurvesEqualFreshOnesAndCannotBeCorrupted() {
        double[] orders = {1.5, 2, 8, 32};
        RdpAccountant a = new RdpAccountant(NeighbouringRelation.ADD_OR_REMOVE_ONE, orders, w -> { });
        DpEvent e = new PoissonSampledEvent(0.0123, new GaussianEvent(1.37));
        double[] first = a.rdp(e);
        for (int i = 0; i < orders.length; i++) {
            assertThat(first[i]).isEqualTo(SampledGaussianRdp.rdp(0.0123, 1.37, orders[i]));
        }
        first[0] = 99; // the caller's copy, not the memo
        double[] second = new RdpAccountant(NeighbouringRelation.ADD_OR_REMOVE_ONE, orders, w -> { }).rdp(e);
        assertThat(second[0]).isEqualTo(SampledGaussianRdp.rdp(0.0123, 1.37, 1.5));
        // another grid is another curve
        double[] other = new RdpAccountant(NeighbouringRelation.ADD_OR_REMOVE_ONE, new double[] {3, 4}, w -> { }).rdp(e);
        assertThat(other).containsExactly(SampledGaussianRdp.rdp(0.0123, 1.37, 3), SampledGaussianRdp.rdp(0.0123, 1.37, 4));
    }
}
