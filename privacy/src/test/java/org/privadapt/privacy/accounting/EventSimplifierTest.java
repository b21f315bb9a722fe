package org.privadapt.privacy.accounting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import org.junit.jupiter.api.Test;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.accounting.pld.PldAccountant;
import org.privadapt.privacy.events.ComposedEvent;
import org.privadapt.privacy.events.DpEvent;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.events.LaplaceEvent;
import org.privadapt.privacy.events.NoOpEvent;
import org.privadapt.privacy.events.PoissonSampledEvent;
import org.privadapt.privacy.events.SelfComposedEvent;

class EventSimplifierTest {
    @Test
    void gaussiansMergeExactlyAndEqualEventsGroup() {
        DpEvent e = ComposedEvent.of(new GaussianEvent(2), new NoOpEvent(), new SelfComposedEvent(new GaussianEvent(4), 4),
                new LaplaceEvent(3), ComposedEvent.of(new LaplaceEvent(3), new PoissonSampledEvent(0.1, new GaussianEvent(1))));
        DpEvent s = EventSimplifier.simplify(e);
        // 1/2^2 + 4/4^2 = 0.5 -> s = sqrt(2)
        assertThat(s).isInstanceOf(ComposedEvent.class);
        ComposedEvent c = (ComposedEvent) s;
        assertThat(((GaussianEvent) c.events().get(0)).noiseMultiplier()).isCloseTo(Math.sqrt(2), offset(1e-15));
        assertThat(c.events().get(1)).isEqualTo(new SelfComposedEvent(new LaplaceEvent(3), 2));
        assertThat(c.events().get(2)).isEqualTo(new PoissonSampledEvent(0.1, new GaussianEvent(1)));
        // the same epsilon under both accountants, before and after
        RdpAccountant rdp = new RdpAccountant(NeighbouringRelation.ADD_OR_REMOVE_ONE, RdpAccountant.DEFAULT_ORDERS, w -> { });
        assertThat(rdp.epsilon(s, 1e-5)).isCloseTo(rdp.epsilon(e, 1e-5), offset(1e-9));
        PldAccountant pld = new PldAccountant(NeighbouringRelation.ADD_OR_REMOVE_ONE);
        assertThat(pld.epsilon(s, 1e-5)).isCloseTo(pld.epsilon(e, 1e-5), offset(2e-3));
        assertThat(EventSimplifier.simplify(ComposedEvent.of(new NoOpEvent()))).isEqualTo(new NoOpEvent());
    }
}
