package org.privadapt.privacy.accounting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.events.ComposedEvent;
import org.privadapt.privacy.events.DpEvent;
import org.privadapt.privacy.events.EventJson;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.events.LaplaceEvent;
import org.privadapt.privacy.events.PoissonSampledRowsEvent;
import org.privadapt.privacy.events.SelfComposedEvent;
import org.privadapt.privacy.accounting.pld.PldAccountant;

/** The RDP of Poisson-sampled per-record releases (joint-convexity bound), checked against a direct integral. */
class SampledRowsRdpTest {
    static final double[] ORDERS = {1.5, 2, 3, 5, 8, 16};

    static RdpAccountant replace() {
        return new RdpAccountant(NeighbouringRelation.REPLACE_ONE, ORDERS, w -> { });
    }

    /**
     * The bound is attained by the mixture "absent with probability 1-q, else one Gaussian row": P = (1-q)[none] +
     * q N(0, s^2), Q = (1-q)[none] + q N(1, s^2). Its Rényi divergence, by numerical integration, must equal the
     * accountant's curve (the joint-convexity bound is tight there).
     */
    @ParameterizedTest
    @CsvSource({"0.1, 1.1", "0.01, 0.7", "0.5, 2.0", "0.134, 1.3"})
    void boundIsAttainedByTheAbsentOrGaussianRow(double q, double s) {
        double[] r = replace().rdp(new PoissonSampledRowsEvent(q, new GaussianEvent(s)));
        for (int i = 0; i < ORDERS.length; i++) {
            double a = ORDERS[i];
            // E_Q[(P/Q)^a] = (1-q) + q * integral N(x;0,s)^a N(x;1,s)^(1-a) dx, integral by the trapezoid rule
            double lo = -60 * s - 60, hi = 60 * s + 60;
            int m = 400_000;
            double h = (hi - lo) / m, sum = 0;
            for (int k = 0; k <= m; k++) {
                double x = lo + k * h;
                double lp = -x * x / (2 * s * s), lq = -(x - 1) * (x - 1) / (2 * s * s);
                double f = Math.exp(a * lp + (1 - a) * lq) / (s * Math.sqrt(2 * Math.PI));
                sum += (k == 0 || k == m) ? f / 2 : f;
            }
            double direct = Math.log((1 - q) + q * sum * h) / (a - 1);
            assertThat(r[i]).as("alpha %s", a).isCloseTo(direct, withinPercentage(1e-6));
        }
    }

    @Test
    void fullSamplingIsTheInnerMechanismAndSmallQAmplifiesLinearly() {
        DpEvent inner = ComposedEvent.of(new GaussianEvent(1.1), new LaplaceEvent(3.0));
        RdpAccountant acc = replace();
        double[] full = acc.rdp(new PoissonSampledRowsEvent(1.0, inner));
        double[] plain = acc.rdp(inner);
        double[] small = acc.rdp(new PoissonSampledRowsEvent(1e-4, inner));
        for (int i = 0; i < ORDERS.length; i++) {
            assertThat(full[i]).isCloseTo(plain[i], withinPercentage(1e-9));
            double a = ORDERS[i];
            double growth = 1e-4 * Math.expm1((a - 1) * plain[i]);
            if (growth < 1e-3) { // log(1 + y) = y (1 - y/2 + ...): linear in q while q (e^x - 1) is small
                assertThat(small[i]).isCloseTo(growth / (a - 1), withinPercentage(0.1));
            } else {
                assertThat(small[i]).isLessThan(plain[i]);
            }
        }
    }

    @Test
    void hugeInnerLossDoesNotOverflow() {
        double[] r = replace().rdp(new PoissonSampledRowsEvent(0.1, new GaussianEvent(0.05)));
        for (int i = 0; i < ORDERS.length; i++) {
            double inner = ORDERS[i] / (2 * 0.05 * 0.05);
            assertThat(r[i]).isFinite().isLessThanOrEqualTo(inner);
            assertThat(r[i]).isCloseTo(inner + Math.log(0.1) / (ORDERS[i] - 1), withinPercentage(1e-6));
        }
    }

    @Test
    void refusedUnderAddRemoveAndByPld() {
        DpEvent e = new SelfComposedEvent(new PoissonSampledRowsEvent(0.1, new GaussianEvent(1)), 10);
        assertThat(new RdpAccountant(NeighbouringRelation.ADD_OR_REMOVE_ONE).unsupported(e))
                .hasValueSatisfying(m -> assertThat(m).contains("replace-one"));
        assertThat(new PldAccountant(NeighbouringRelation.REPLACE_ONE).unsupported(e)).isPresent();
        // the certifier falls back to the accountant that can analyse it
        Accountants.Certified c = Accountants.certify(NeighbouringRelation.REPLACE_ONE, e, 1e-5);
        assertThat(c.accountant()).isEqualTo("rdp");
        assertThat(c.epsilon()).isFinite().isPositive();
    }

    @Test
    void jsonRoundTrip() {
        DpEvent e = new SelfComposedEvent(new PoissonSampledRowsEvent(0.125, new GaussianEvent(1.1)), 300);
        JsonNode n = EventJson.write(e);
        assertThat(n.toString()).contains("poisson_sampled_rows");
        assertThat(EventJson.read(n)).isEqualTo(e);
    }
}
