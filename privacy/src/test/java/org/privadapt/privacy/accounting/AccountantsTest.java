package org.privadapt.privacy.accounting;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.accounting.pld.PldAccountant;
import org.privadapt.privacy.events.ComposedEvent;
import org.privadapt.privacy.events.DpEvent;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.events.LaplaceEvent;
import org.privadapt.privacy.events.PoissonSampledEvent;
import org.privadapt.privacy.events.SelfComposedEvent;

class AccountantsTest {
    static final NeighbouringRelation AR = NeighbouringRelation.ADD_OR_REMOVE_ONE;

    @Test
    void pldIsAtOrBelowRdpOnTheSameEvents() {
        SplittableRandom rng = new SplittableRandom(11);
        RdpAccountant rdp = new RdpAccountant(AR, RdpAccountant.DEFAULT_ORDERS, w -> { });
        PldAccountant pld = new PldAccountant(AR);
        for (int trial = 0; trial < 8; trial++) {
            List<DpEvent> parts = new ArrayList<>();
            parts.add(new SelfComposedEvent(new PoissonSampledEvent(0.005 + 0.05 * rng.nextDouble(),
                    new GaussianEvent(0.8 + 2 * rng.nextDouble())), 50 + rng.nextInt(2000)));
            parts.add(new GaussianEvent(2 + 10 * rng.nextDouble()));
            parts.add(new LaplaceEvent(2 + 10 * rng.nextDouble()));
            DpEvent e = new ComposedEvent(parts);
            double delta = Math.pow(10, -5 - 2 * rng.nextDouble());
            double r = rdp.epsilon(e, delta);
            double p = pld.epsilon(e, delta);
            assertThat(p).as("trial %d: %s", trial, e.describe()).isLessThanOrEqualTo(r).isPositive();
        }
    }

    @Test
    void certifyTakesTheSmallestAndNamesItsAccountant() {
        DpEvent e = new SelfComposedEvent(new PoissonSampledEvent(0.04, new GaussianEvent(1.5)), 2250);
        Accountants.Certified c = Accountants.certify(AR, e, 1e-5);
        assertThat(c.accountant()).isEqualTo("pld");
        assertThat(c.epsilon()).isLessThan(7.33).isGreaterThan(6.7);
        // subsampled Laplace: only the PLD accountant can analyse it
        DpEvent lap = new SelfComposedEvent(new PoissonSampledEvent(0.2, new LaplaceEvent(0.5)), 3);
        assertThat(Accountants.certify(AR, lap, 1e-6).accountant()).isEqualTo("pld");
        // replace-one: the RDP accountant's remove-then-add bound (issue 14), larger than the add/remove epsilon
        Accountants.Certified rep = Accountants.certify(NeighbouringRelation.REPLACE_ONE, e, 1e-5);
        assertThat(rep.accountant()).isEqualTo("rdp");
        assertThat(rep.epsilon()).isGreaterThan(c.epsilon());
        assertThat(Accountants.names()).containsExactly("rdp", "pld");
    }
}
