package org.privadapt.privacy.accounting;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.events.PoissonSampledEvent;
import org.privadapt.privacy.events.SelfComposedEvent;

/**
 * Issue 30's audit: the fallback for fractional orders whose series does not converge (q = 0.5, every g-dpda run)
 * keeps the bound valid, so the default accountant no longer prints it on every command; a caller with its own
 * warning consumer still receives it.
 */
class RdpQuietFallbackTest {
    @Test
    void theFallbackIsNotPrintedByDefaultButStillReported() {
        // a multiplier no other test uses, so that the memoised curve is computed here
        SelfComposedEvent e = new SelfComposedEvent(new PoissonSampledEvent(0.5, new GaussianEvent(8.0123457)), 10);
        List<String> got = new ArrayList<>();
        double withConsumer = new RdpAccountant(NeighbouringRelation.ADD_OR_REMOVE_ONE, RdpAccountant.DEFAULT_ORDERS, got::add)
                .epsilon(e, 1e-5);
        assertThat(got).anyMatch(w -> w.contains("did not converge"));
        PrintStream old = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        SelfComposedEvent e2 = new SelfComposedEvent(new PoissonSampledEvent(0.5, new GaussianEvent(8.0123458)), 10);
        double quiet;
        try {
            System.setErr(new PrintStream(err, true));
            quiet = new RdpAccountant(NeighbouringRelation.ADD_OR_REMOVE_ONE).epsilon(e2, 1e-5);
        } finally {
            System.setErr(old);
        }
        if (!RdpAccountant.VERBOSE) {
            assertThat(err.toString()).doesNotContain("did not converge");
        }
        assertThat(quiet).isCloseTo(withConsumer, org.assertj.core.api.Assertions.within(1e-3 * withConsumer));
    }
}
