package org.privadapt.privacy.accounting.pld;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.accounting.Accountants;
import org.privadapt.privacy.accounting.RdpAccountant;
import org.privadapt.privacy.events.ApproximateDpEvent;
import org.privadapt.privacy.events.ComposedEvent;
import org.privadapt.privacy.events.EventJson;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.events.SelfComposedEvent;
import org.privadapt.privacy.mechanisms.GaussianCalibration;

/**
 * A bare (eps, delta) guarantee: its dominating pair, its PLD, and its optimal composition (Kairouz, Oh and
 * Viswanath 2015, Thm. 3.3, checked at the two ends of the two-fold case by hand below).
 */
class ApproximateDpPldTest {
    private static final double H = PldAccountant.DEFAULT_DISCRETISATION_INTERVAL;

    /** The hockey-stick divergence of the four-outcome pair, summed outcome by outcome. */
    private static double hockeyStick(double eps, double delta, double epsPrime) {
        double e = Math.exp(eps);
        double[] p = {delta, (1 - delta) * e / (1 + e), (1 - delta) / (1 + e), 0};
        double[] q = {0, (1 - delta) / (1 + e), (1 - delta) * e / (1 + e), delta};
        double s = 0;
        for (int i = 0; i < 4; i++) {
            s += Math.max(0, p[i] - Math.exp(epsPrime) * q[i]);
        }
        return s;
    }

    @Test
    void deltaAtIsTheHockeyStickOfTheDominatingPair() {
        ApproximateDpEvent a = new ApproximateDpEvent(1.5, 1e-6);
        for (double ep : new double[] {0, 0.3, 1.0, 1.49, 1.5, 2, 10}) {
            assertThat(a.deltaAt(ep)).as("eps' %s", ep).isCloseTo(hockeyStick(1.5, 1e-6, ep), within(1e-15));
        }
        assertThat(a.deltaAt(0)).isCloseTo(1e-6 + (1 - 1e-6) * (Math.exp(1.5) - 1) / (1 + Math.exp(1.5)), within(1e-15));
    }

    @Test
    void oneEventCertifiesItsOwnPair() {
        PldAccountant pld = new PldAccountant();
        ApproximateDpEvent a = new ApproximateDpEvent(1.2, 1e-6);
        // the grid rounds the loss +-1.2 up: epsilon within one grid step above, never below
        assertThat(pld.epsilon(a, 1e-6)).isBetween(1.2, 1.2 + 2 * H);
        assertThat(pld.delta(a, 1.2 + H)).isCloseTo(1e-6, within(1e-12));
        assertThat(pld.delta(a, 0.5)).isGreaterThanOrEqualTo(a.deltaAt(0.5)).isCloseTo(a.deltaAt(0.5), within(1e-3));
        // delta below the infinite-loss mass: no finite epsilon
        assertThat(pld.epsilon(a, 5e-7)).isEqualTo(Double.POSITIVE_INFINITY);
        // the ledger's certificate is the pair itself, exactly, at any delta the pair covers
        assertThat(Accountants.certify(NeighbouringRelation.ADD_OR_REMOVE_ONE, a, 1e-6).epsilon()).isEqualTo(1.2);
        assertThat(Accountants.certify(NeighbouringRelation.REPLACE_ONE, a, 1e-5).epsilon()).isEqualTo(1.2);
    }

    @Test
    void twoFoldCompositionIsTheOptimalComposition() {
        double eps = 0.7;
        double delta = 1e-4;
        PldAccountant pld = new PldAccountant(NeighbouringRelation.ADD_OR_REMOVE_ONE, 1e-5);
        SelfComposedEvent two = new SelfComposedEvent(new ApproximateDpEvent(eps, delta), 2);
        double e = Math.exp(eps);
        // at 2 eps only the infinite-loss mass remains: 1 - (1 - delta)^2
        assertThat(pld.delta(two, 2 * eps + 1e-4)).isCloseTo(1 - (1 - delta) * (1 - delta), within(1e-12));
        // at 0: 1 - (1 - delta)^2 (1 - (e^eps - 1) / (e^eps + 1)) (Kairouz et al., k = 2, i = 1)
        double atZero = 1 - (1 - delta) * (1 - delta) * (1 - (e - 1) / (e + 1));
        assertThat(pld.delta(two, 0)).isGreaterThanOrEqualTo(atZero - 1e-15).isCloseTo(atZero, within(1e-4));
        // the same as composing the two events one after the other
        assertThat(pld.delta(new ComposedEvent(java.util.List.of(new ApproximateDpEvent(eps, delta),
                new ApproximateDpEvent(eps, delta))), 0.5)).isCloseTo(pld.delta(two, 0.5), within(1e-12));
    }

    @Test
    void composesWithAGaussianBetweenTheBoundsItMustRespect() {
        double s = GaussianCalibration.analyticSigma(1.0, 5e-6, 1.0);
        ComposedEvent both = new ComposedEvent(java.util.List.of(new GaussianEvent(s), new ApproximateDpEvent(1.0, 5e-6)));
        double eps = Accountants.certify(NeighbouringRelation.ADD_OR_REMOVE_ONE, both, 1e-5).epsilon();
        // no better than either part alone, no worse than basic composition (1 + 1 at 5e-6 + 5e-6)
        assertThat(eps).isGreaterThan(1.0).isLessThanOrEqualTo(2.0 + 2 * H);
    }

    @Test
    void withAReleaseOnlyTheRdpAccountantAnalysesItFallsBackToBasicComposition() {
        // DP-SGD under replace-one: the PLD accountant refuses Poisson subsampling there, the RDP accountant refuses the
        // bare pair; basic composition still holds: eps(DP-SGD at delta - 3e-6) + 3 x 0.2
        org.privadapt.privacy.events.DpEvent dpSgd = new SelfComposedEvent(
                new org.privadapt.privacy.events.PoissonSampledEvent(0.01, new GaussianEvent(5.0)), 20);
        SelfComposedEvent three = new SelfComposedEvent(new ApproximateDpEvent(0.2, 1e-6), 3);
        Accountants.Certified both = Accountants.certify(NeighbouringRelation.REPLACE_ONE,
                new ComposedEvent(java.util.List.of(dpSgd, three)), 1e-5);
        double alone = Accountants.certify(NeighbouringRelation.REPLACE_ONE, dpSgd, 1e-5 - 3e-6).epsilon();
        assertThat(both).isNotNull();
        assertThat(both.epsilon()).isCloseTo(alone + 0.6, within(1e-12));
        assertThat(both.accountant()).startsWith("basic-composition");
        // the bare deltas alone exceed the target: nothing certifies
        assertThat(Accountants.certify(NeighbouringRelation.REPLACE_ONE, new ComposedEvent(java.util.List.of(dpSgd,
                new SelfComposedEvent(new ApproximateDpEvent(0.2, 1e-5), 3))), 1e-5)).isNull();
    }

    @Test
    void rdpRefusesAndJsonRoundTrips() {
        ApproximateDpEvent a = new ApproximateDpEvent(0.25, 3e-7);
        assertThat(new RdpAccountant(NeighbouringRelation.ADD_OR_REMOVE_ONE).unsupported(a)).hasValueSatisfying(m -> assertThat(m).contains("PLD"));
        assertThat(EventJson.read(EventJson.write(a))).isEqualTo(a);
        assertThat(EventJson.write(a).get("type").asText()).isEqualTo("approximate_dp");
        assertThatThrownBy(() -> new ApproximateDpEvent(-1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ApproximateDpEvent(1, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ApproximateDpEvent(Double.POSITIVE_INFINITY, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
