package org.privadapt.privacy.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * Issue 46, item 1: a run that charges two parties charges both or neither, whatever fails. Each fault is tried on
 * either ledger, with new (lazily created) and existing ledgers; afterwards every file in the directories is byte for
 * byte as before and none was added (no ledger, no temporary file, no backup, no lock file of a new ledger).
 */
class LedgerTransactionTest {
    static final NeighbouringRelation AR = NeighbouringRelation.ADD_OR_REMOVE_ONE;

    @TempDir
    Path dir;

    @AfterEach
    void noHook() {
        LedgerCommit.faults = (step, ledger) -> { };
    }

    static BudgetLedger.Charge gaussian(String label, double sigma) {
        return new BudgetLedger.Charge(label, "gaussian", new GaussianEvent(sigma), Map.of(), "test sampler", true);
    }

    static BudgetLedger lazy(Path f, String party, double eps) throws Exception {
        return BudgetLedger.openOrCreateLazily(f, party, new PrivacyBudget(eps, 1e-5), AR, false);
    }

    /** Every file under {@code root} with its bytes (lock files included). */
    static Map<String, String> tree(Path root) throws IOException {
        Map<String, String> out = new TreeMap<>();
        if (!Files.exists(root)) {
            return out;
        }
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                if (p.equals(root)) {
                    continue;
                }
                out.put(root.relativize(p).toString(), Files.isRegularFile(p)
                        ? java.util.HexFormat.of().formatHex(Files.readAllBytes(p)) : "dir");
            }
        }
        return out;
    }

    /** Two existing ledgers, each with one entry already. */
    BudgetLedger[] existing() throws Exception {
        BudgetLedger t = lazy(dir.resolve("target.json"), "target", 4);
        BudgetLedger s = lazy(dir.resolve("source.json"), "source", 4);
        t.charge(gaussian("earlier target release", 4));
        s.charge(gaussian("earlier source release", 4));
        return new BudgetLedger[] {t, s};
    }

    static List<BudgetLedger.Share> plans(BudgetLedger t, BudgetLedger s) {
        return List.of(new BudgetLedger.Share(t, List.of(gaussian("t step", 3))),
                new BudgetLedger.Share(s, List.of(gaussian("s step a", 3), gaussian("s step b", 3))));
    }

    @Test
    void bothAreWrittenInOneTransactionWhenBothFit() throws Exception {
        BudgetLedger[] l = existing();
        List<List<BudgetLedger.Entry>> e = BudgetLedger.chargeTogether(plans(l[0], l[1]));
        assertThat(e.get(0)).extracting(BudgetLedger.Entry::label).containsExactly("t step");
        assertThat(e.get(1)).extracting(BudgetLedger.Entry::label).containsExactly("s step a", "s step b");
        assertThat(l[0].read().entries()).hasSize(2);
        assertThat(l[1].read().entries()).hasSize(3);
        try (Stream<Path> s = Files.list(dir)) {
            assertThat(s.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("target.json", "target.json.lock",
                    "source.json", "source.json.lock");
        }
    }

    @Test
    void aFaultAtAnyStepOfEitherLedgerLeavesBothAsTheyWere() throws Exception {
        BudgetLedger[] l = existing();
        for (String step : List.of("lock", "write", "backup", "rename")) {
            for (BudgetLedger victim : l) {
                Map<String, String> before = tree(dir);
                LedgerCommit.faults = (at, ledger) -> {
                    if (at.equals(step) && ledger.equals(victim.file())) {
                        throw new IOException("simulated fault (" + step + ")");
                    }
                };
                assertThatThrownBy(() -> BudgetLedger.chargeTogether(plans(l[0], l[1])))
                        .as(step + " on " + victim.file().getFileName()).isInstanceOf(BudgetLedger.LedgerException.class)
                        .hasMessageContaining("simulated fault").hasMessageContaining("no ledger was charged");
                assertThat(tree(dir)).as(step + " on " + victim.file().getFileName()).isEqualTo(before);
            }
        }
        noHook();
        assertThat(l[0].read().entries()).hasSize(1);
        assertThat(l[1].read().entries()).hasSize(1);
    }

    @Test
    void newLedgersLeaveNoFileWhenTheOtherFailsBeforeItsLock() throws Exception {
        for (String step : List.of("write", "rename")) {
            Path sub = dir.resolve("new-" + step);
            Files.createDirectories(sub);
            BudgetLedger t = lazy(sub.resolve("a-target.json"), "target", 4);
            BudgetLedger s = lazy(sub.resolve("b-source.json"), "source", 4);
            LedgerCommit.faults = (at, ledger) -> {
                if (at.equals(step) && ledger.equals(s.file())) {
                    throw new IOException("disk full (simulated)");
                }
            };
            assertThatThrownBy(() -> BudgetLedger.chargeTogether(plans(t, s))).isInstanceOf(BudgetLedger.LedgerException.class);
            // the ledgers were never written; only the lock files of the two new ledgers (an I/O fault came after the
            // locks were taken) may remain, empty
            try (Stream<Path> f = Files.list(sub)) {
                assertThat(f.map(p -> p.getFileName().toString()).filter(n -> !n.endsWith(".lock"))).isEmpty();
            }
            assertThat(t.read().entries()).isEmpty();
            assertThat(s.read().entries()).isEmpty();
        }
    }

    @Test
    void anUncreatablePathIsRefusedBeforeAnythingIsLockedOrCreated() throws Exception {
        BudgetLedger[] l = existing();
        Files.writeString(dir.resolve("plain-file"), "x");
        Map<String, String> before = tree(dir);
        BudgetLedger uncreatable = lazy(dir.resolve("plain-file").resolve("source.json"), "source", 4);
        assertThatThrownBy(() -> BudgetLedger.chargeTogether(plans(l[0], uncreatable)))
                .isInstanceOf(BudgetLedger.LedgerException.class).hasMessageContaining("is not a directory");
        assertThat(tree(dir)).isEqualTo(before);
        // a new target ledger beside it is not created either
        BudgetLedger newTarget = lazy(dir.resolve("fresh").resolve("target.json"), "target", 4);
        assertThatThrownBy(() -> BudgetLedger.chargeTogether(plans(newTarget, uncreatable)))
                .isInstanceOf(BudgetLedger.LedgerException.class);
        assertThat(tree(dir)).isEqualTo(before);
        // a path that is a directory
        Files.createDirectories(dir.resolve("a-dir.json"));
        Map<String, String> withDir = tree(dir);
        assertThatThrownBy(() -> lazy(dir.resolve("a-dir.json"), "source", 4))
                .isInstanceOf(BudgetLedger.LedgerException.class).hasMessageContaining("is a directory");
        assertThatThrownBy(() -> LedgerCommit.requireWritable(dir.resolve("a-dir.json")))
                .isInstanceOf(BudgetLedger.LedgerException.class).hasMessageContaining("is a directory");
        assertThat(tree(dir)).isEqualTo(withDir);
    }

    @Test
    void aPathUnderProcCannotBeCreatedAndNothingIsWritten() throws Exception {
        Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self")), "needs Linux /proc");
        BudgetLedger[] l = existing();
        Map<String, String> before = tree(dir);
        BudgetLedger proc = lazy(Path.of("/proc/privadapt-no-such-dir/source.json"), "source", 4);
        assertThatThrownBy(() -> BudgetLedger.chargeTogether(plans(l[0], proc))).isInstanceOf(BudgetLedger.LedgerException.class);
        assertThat(tree(dir)).isEqualTo(before);
    }

    /** A full disk, or a directory nobody may write to (root included): {@code chattr +i}, where it is allowed. */
    @Test
    void anImmutableDirectoryLeavesTheOtherLedgerUntouched() throws Exception {
        BudgetLedger[] l = existing();
        Path frozen = dir.resolve("frozen");
        Files.createDirectories(frozen);
        Assumptions.assumeTrue(chattr("+i", frozen), "chattr +i is not available here (not root, or no such attribute)");
        try {
            Map<String, String> before = tree(dir);
            BudgetLedger s = lazy(frozen.resolve("source.json"), "source", 4);
            assertThatThrownBy(() -> BudgetLedger.chargeTogether(plans(l[0], s))).isInstanceOf(BudgetLedger.LedgerException.class);
            assertThat(tree(dir)).isEqualTo(before);
            // past the preflight (as a full disk would be: found only when writing), the write step refuses
            assertThatThrownBy(() -> LedgerCommit.writeOne(frozen.resolve("x.json"), new byte[] {1}))
                    .isInstanceOf(BudgetLedger.LedgerException.class);
            assertThat(tree(dir)).isEqualTo(before);
        } finally {
            chattr("-i", frozen);
        }
    }

    static boolean chattr(String flag, Path p) {
        try {
            Process pr = new ProcessBuilder("chattr", flag, p.toString()).redirectErrorStream(true).start();
            pr.getInputStream().readAllBytes();
            return pr.waitFor() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Test
    void theSameNewPathForBothPartiesIsRefusedAndNotCreated() throws Exception {
        Path f = dir.resolve("shared.json");
        BudgetLedger t = lazy(f, "target", 4);
        BudgetLedger s = lazy(f, "source", 4);
        assertThatThrownBy(() -> BudgetLedger.chargeTogether(plans(t, s))).isInstanceOf(BudgetLedger.LedgerException.class)
                .hasMessageContaining("same ledger file");
        assertThat(tree(dir)).isEmpty();
    }

    @Test
    void aChargeByAnotherProcessBetweenCheckAndLockRefusesBoth() throws Exception {
        BudgetLedger[] l = existing();
        Map<String, String> before = tree(dir);
        // just before the first lock is taken, another writer spends most of the source's budget
        BudgetLedger other = BudgetLedger.open(l[1].file());
        double sigma = 0.5;
        while (other.epsilonIfCharged(new GaussianEvent(sigma)) > 4) {
            sigma += 0.05; // the most the other writer can spend alone
        }
        List<org.privadapt.privacy.events.DpEvent> both = List.of(new GaussianEvent(sigma), new GaussianEvent(3), new GaussianEvent(3));
        assertThat(other.epsilonIfCharged(new org.privadapt.privacy.events.ComposedEvent(both))).as("precondition").isGreaterThan(4);
        double concurrentSigma = sigma;
        java.util.concurrent.atomic.AtomicBoolean once = new java.util.concurrent.atomic.AtomicBoolean();
        LedgerCommit.faults = (at, ledger) -> {
            if (at.equals("lock") && ledger.equals(l[1].file()) && once.compareAndSet(false, true)) {
                try {
                    other.charge(gaussian("concurrent", concurrentSigma));
                } catch (Exception e) {
                    throw new IOException(e);
                }
            }
        };
        assertThatThrownBy(() -> BudgetLedger.chargeTogether(plans(l[0], l[1]))).isInstanceOf(BudgetExceededException.class);
        noHook();
        assertThat(Files.readAllBytes(l[0].file())).isEqualTo(java.util.HexFormat.of().parseHex(before.get("target.json")));
        assertThat(l[1].read().entries()).extracting(BudgetLedger.Entry::label).containsExactly("earlier source release", "concurrent");
    }

    @Test
    void aRenameThatFailsAfterTheFirstIsUndone() throws Exception {
        BudgetLedger[] l = existing();
        Map<String, String> before = tree(dir);
        // sorted by path: source.json is renamed first, target.json second; the second fails, the first is undone
        LedgerCommit.faults = (at, ledger) -> {
            if (at.equals("rename") && ledger.equals(l[0].file())) {
                throw new IOException("rename failed (simulated)");
            }
        };
        assertThatThrownBy(() -> BudgetLedger.chargeTogether(plans(l[0], l[1]))).hasMessageContaining("no ledger was charged");
        assertThat(tree(dir)).isEqualTo(before);
        // if the undo fails too, the message says which ledger overstates
        LedgerCommit.faults = (at, ledger) -> {
            if ((at.equals("rename") && ledger.equals(l[0].file())) || at.equals("undo")) {
                throw new IOException("simulated");
            }
        };
        assertThatThrownBy(() -> BudgetLedger.chargeTogether(plans(l[0], l[1]))).hasMessageContaining("could not undo")
                .hasMessageContaining("source.json");
        noHook();
        assertThat(l[0].read().entries()).hasSize(1);
        assertThat(l[1].read().entries()).hasSize(3);
    }

    @Test
    void sessionsChargeTogetherOrNotAtAll() throws Exception {
        BudgetLedger[] l = existing();
        Map<String, String> before = tree(dir);
        PrivacySession t = new PrivacySession("target", new PrivacyBudget(4, 1e-5), AR, NoiseSource.seeded(1), l[0]);
        PrivacySession s = new PrivacySession("source", new PrivacyBudget(4, 1e-5), AR, NoiseSource.seeded(2), l[1]);
        List<PrivacySession.Release> tp = List.of(new PrivacySession.Release("t", "gaussian", new GaussianEvent(3), Map.of()));
        List<PrivacySession.Release> sp = List.of(new PrivacySession.Release("s", "gaussian", new GaussianEvent(3), Map.of()));
        LedgerCommit.faults = (at, ledger) -> {
            if (at.equals("write") && ledger.equals(l[0].file())) {
                throw new IOException("disk full (simulated)");
            }
        };
        assertThatThrownBy(() -> PrivacySession.chargeTogether(new PrivacySession.Plan(t, tp), new PrivacySession.Plan(s, sp)))
                .isInstanceOf(BudgetLedger.LedgerException.class);
        assertThat(tree(dir)).isEqualTo(before);
        assertThat(t.events()).isEmpty();
        assertThat(s.events()).isEmpty();
        // staged (PRIMA's run): the same fault at commit leaves both ledgers and both sessions as they were
        t.stage();
        s.stage();
        t.chargeAll(tp);
        s.chargeAll(sp);
        assertThatThrownBy(() -> PrivacySession.commitStaged(t, s)).isInstanceOf(BudgetLedger.LedgerException.class);
        assertThat(tree(dir)).isEqualTo(before);
        assertThat(t.events()).isEmpty();
        assertThat(s.events()).isEmpty();
        noHook();
        PrivacySession.chargeTogether(new PrivacySession.Plan(t, tp), new PrivacySession.Plan(s, sp));
        assertThat(t.events()).hasSize(1);
        assertThat(s.events()).hasSize(1);
        assertThat(l[0].read().entries()).hasSize(2);
        assertThat(l[1].read().entries()).hasSize(2);
    }
}
