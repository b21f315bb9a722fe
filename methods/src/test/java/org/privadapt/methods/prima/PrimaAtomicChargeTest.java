package org.privadapt.methods.prima;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.methods.core.AdaptationTask;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.ledger.BudgetLedger;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * Issue 14.7: the target's release (forward-selection moments + subspace moments) and the source's training (own
 * moments + DP-SGD) are each charged as one plan; a ledger that can pay the first part but not the whole refuses the
 * whole, and its file is unchanged (before the fix the first part stayed charged with nothing released).
 */
class PrimaAtomicChargeTest {
    static final NeighbouringRelation AR = NeighbouringRelation.ADD_OR_REMOVE_ONE;

    @TempDir
    Path dir;

    @Test
    void aPlanThatDoesNotFitLeavesTheLedgerUnchanged() throws Exception {
        AdaptationTask t = PrimaPipelineTest.task();
        PrimaConfig cfg = PrimaMethod.prima().config(PrimaPipelineTest.config("lr"), t.preprocessing());

        // target: a ledger of 1.5 cannot pay a run planned at 2 (the forward-selection part alone, 1/5 of it, would fit)
        Path tl = dir.resolve("t.ledger");
        BudgetLedger tLedger = BudgetLedger.openOrCreate(tl, "target", new PrivacyBudget(1.5, 1e-5), AR);
        byte[] before = Files.readAllBytes(tl);
        PrivacySession ts = new PrivacySession("target", new PrivacyBudget(2.0, 1e-5), AR, NoiseSource.seeded(1), tLedger);
        assertThatThrownBy(() -> Prima.release(t.target(), cfg, t.preprocessing(), "prima", 1, "r", ts))
                .isInstanceOf(BudgetExceededException.class).hasMessageContaining("plan");
        assertThat(Files.readAllBytes(tl)).isEqualTo(before);
        assertThat(ts.events()).isEmpty();

        // source: its own moments (a share of epsilon) would fit in 1.0, moments + DP-SGD at 2 do not
        PrivacySession ok = new PrivacySession("target", new PrivacyBudget(2.0, 1e-5), AR, NoiseSource.seeded(1), null);
        TargetRelease r = Prima.release(t.target(), cfg, t.preprocessing(), "prima", 1, "r", ok);
        Path sl = dir.resolve("s.ledger");
        BudgetLedger sLedger = BudgetLedger.openOrCreate(sl, "source", new PrivacyBudget(1.0, 1e-5), AR);
        byte[] sBefore = Files.readAllBytes(sl);
        PrivacySession ss = new PrivacySession("source", new PrivacyBudget(2.0, 1e-5), AR, NoiseSource.seeded(2), sLedger);
        assertThatThrownBy(() -> Prima.train(t.source(), r, PrimaPipelineTest.config("lr"), ss)).isInstanceOf(BudgetExceededException.class);
        assertThat(Files.readAllBytes(sl)).isEqualTo(sBefore);
        assertThat(ss.events()).isEmpty();

        // a ledger that can pay the whole plan records both parts, chained, the second at the plan's total
        Path big = dir.resolve("big.ledger");
        BudgetLedger bLedger = BudgetLedger.openOrCreate(big, "target", new PrivacyBudget(2.0, 1e-5), AR);
        PrivacySession bs = new PrivacySession("target", new PrivacyBudget(2.0, 1e-5), AR, NoiseSource.seeded(1), bLedger);
        Prima.release(t.target(), cfg, t.preprocessing(), "prima", 1, "r", bs);
        BudgetLedger.Snapshot snap = BudgetLedger.open(big).read();
        assertThat(snap.entries()).hasSize(2);
        assertThat(snap.entries().get(0).epsilonAfter()).isLessThan(snap.entries().get(1).epsilonAfter());
        assertThat(snap.epsilonSpent()).isLessThanOrEqualTo(2.0);
    }

    /**
     * One run charges both parties (the target's release, then the source's model): a source ledger that cannot pay
     * the source's plan leaves the target's ledger byte for byte unchanged (before the staging the target's release
     * stayed charged with nothing released to anyone); a run both ledgers can pay writes both, as before.
     */
    @Test
    void aRunWhoseSourceIsRefusedLeavesTheTargetsLedgerUntouched() throws Exception {
        AdaptationTask t = PrimaPipelineTest.task();
        org.privadapt.methods.core.MethodConfig mc = PrimaPipelineTest.config("lr");
        Path tl = dir.resolve("run-t.ledger");
        BudgetLedger tLedger = BudgetLedger.openOrCreate(tl, "target", new PrivacyBudget(4.0, 1e-5), AR);
        byte[] before = Files.readAllBytes(tl);
        Path sl = dir.resolve("run-s.ledger");
        BudgetLedger sLedger = BudgetLedger.openOrCreate(sl, "source", new PrivacyBudget(1.0, 1e-5), AR);
        byte[] sBefore = Files.readAllBytes(sl);
        org.privadapt.methods.core.PrivacyContext ctx = new org.privadapt.methods.core.PrivacyContext(
                new PrivacySession("source", new PrivacyBudget(2.0, 1e-5), AR, NoiseSource.seeded(2), sLedger),
                new PrivacySession("target", new PrivacyBudget(2.0, 1e-5), AR, NoiseSource.seeded(1), tLedger));
        assertThatThrownBy(() -> PrimaMethod.prima().run(t, mc, ctx)).isInstanceOf(BudgetExceededException.class);
        assertThat(Files.readAllBytes(tl)).as("the target's ledger").isEqualTo(before);
        assertThat(Files.readAllBytes(sl)).as("the source's ledger").isEqualTo(sBefore);
        assertThat(ctx.target().events()).isEmpty();
        assertThat(ctx.source().events()).isEmpty();

        // both can pay: both written, each with its plan (the target's two releases, the source's two)
        Path sl2 = dir.resolve("run-s2.ledger");
        BudgetLedger sLedger2 = BudgetLedger.openOrCreate(sl2, "source", new PrivacyBudget(4.0, 1e-5), AR);
        org.privadapt.methods.core.PrivacyContext ok = new org.privadapt.methods.core.PrivacyContext(
                new PrivacySession("source", new PrivacyBudget(2.0, 1e-5), AR, NoiseSource.seeded(2), sLedger2),
                new PrivacySession("target", new PrivacyBudget(2.0, 1e-5), AR, NoiseSource.seeded(1), tLedger));
        org.privadapt.methods.core.AdaptationOutcome out = PrimaMethod.prima().run(t, mc, ok);
        assertThat(BudgetLedger.open(tl).read().entries()).hasSize(2);
        assertThat(BudgetLedger.open(sl2).read().entries()).hasSize(2);
        assertThat(BudgetLedger.open(tl).read().epsilonSpent()).isLessThanOrEqualTo(2.0);
        assertThat(out.privacy().get("target").epsilon()).isEqualTo(ok.target().spent().epsilon()).isGreaterThan(1.0);
        // the same seeds without ledgers give the same model (staging changes nothing but when the ledgers are written)
        org.privadapt.methods.core.AdaptationOutcome free = PrimaMethod.prima().run(t, mc, new org.privadapt.methods.core.PrivacyContext(
                new PrivacySession("source", new PrivacyBudget(2.0, 1e-5), AR, NoiseSource.seeded(2), null),
                new PrivacySession("target", new PrivacyBudget(2.0, 1e-5), AR, NoiseSource.seeded(1), null)));
        assertThat(free.predictions()).isEqualTo(out.predictions());
    }
}
