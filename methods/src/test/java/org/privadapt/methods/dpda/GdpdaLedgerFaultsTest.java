package org.privadapt.methods.dpda;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.methods.core.AdaptationTask;
import org.privadapt.methods.core.LedgerFaults;
import org.privadapt.methods.core.Methods;

/**
 * Issue 46, item 1: G-DPDA charges the target's and the source's DP-SGD steps in one run; a source ledger that cannot
 * be created or written, or the same path given for both parties, leaves both ledgers as they were (before, the
 * target's ledger held "g-dpda target domain steps" with nothing released).
 */
class GdpdaLedgerFaultsTest {
    @TempDir
    Path dir;

    @Test
    void everyLedgerFaultLeavesBothLedgersAsTheyWere() throws Exception {
        AdaptationTask t = AdversarialMethodTest.task();
        int tried = LedgerFaults.tryAll(dir, 2, 1e-4, ctx -> Methods.get("g-dpda").run(t, AdversarialBudgetTest.cfg("epochs", "1", "sigma", "4"), ctx));
        assertThat(tried).isGreaterThanOrEqualTo(4);
    }
}
