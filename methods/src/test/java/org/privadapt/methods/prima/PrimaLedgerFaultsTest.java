package org.privadapt.methods.prima;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.methods.core.AdaptationTask;
import org.privadapt.methods.core.LedgerFaults;

/**
 * Issue 46, item 1: a PRIMA run stages the target's release and the source's model and commits both ledgers at the
 * end; a source ledger that cannot be created or written, or the same path for both parties, leaves both as they
 * were (before, the target's ledger had spent its whole budget).
 */
class PrimaLedgerFaultsTest {
    @TempDir
    Path dir;

    @Test
    void everyLedgerFaultLeavesBothLedgersAsTheyWere() throws Exception {
        AdaptationTask t = PrimaPipelineTest.task();
        int tried = LedgerFaults.tryAll(dir, 2, 1e-5, ctx -> PrimaMethod.prima().run(t, PrimaPipelineTest.config("lr"), ctx));
        assertThat(tried).isGreaterThanOrEqualTo(4);
    }
}
