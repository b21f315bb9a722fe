package org.privadapt.methods.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.ledger.BudgetLedger;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * Issue 46, item 1: the faults a run that charges two parties must survive with both ledgers as they were, opened as
 * the CLI opens them (lazily: a new ledger is written by its first charge). For each fault the run is tried and every
 * file under the directory must be byte for byte as before, with none added.
 */
public final class LedgerFaults {
    static final NeighbouringRelation AR = NeighbouringRelation.ADD_OR_REMOVE_ONE;

    /** A two-party run: the method, its task and config, given a privacy context. */
    @FunctionalInterface
    public interface Run {
        void run(PrivacyContext ctx) throws Exception;
    }

    private LedgerFaults() {
    }

    static BudgetLedger lazy(Path f, String party, double eps, double delta) throws Exception {
        return BudgetLedger.openOrCreateLazily(f, party, new PrivacyBudget(eps, delta), AR, false);
    }

    static PrivacyContext ctx(BudgetLedger source, BudgetLedger target, double eps, double delta) {
        NoiseSource n = NoiseSource.seeded(5);
        return new PrivacyContext(new PrivacySession("source", new PrivacyBudget(eps, delta), AR, n, source),
                new PrivacySession("target", new PrivacyBudget(eps, delta), AR, n.split(), target));
    }

    /**
     * Tries every fault: a source ledger under a regular file (uncreatable), in an immutable directory (where chattr is
     * allowed), the same new path for both parties; with a new and with an existing target ledger. Returns how many
     * faults were tried.
     */
    public static int tryAll(Path dir, double eps, double delta, Run run) throws Exception {
        Files.writeString(dir.resolve("plain-file"), "not a directory");
        Path existingTarget = dir.resolve("target-existing.json");
        BudgetLedger seed = lazy(existingTarget, "target", 10 * eps, delta);
        seed.charge(new BudgetLedger.Charge("earlier release", "gaussian", new org.privadapt.privacy.events.GaussianEvent(20),
                Map.of(), "test", true));
        Path frozen = dir.resolve("frozen");
        Files.createDirectories(frozen);
        boolean immutable = chattr("+i", frozen);
        int tried = 0;
        try {
            for (boolean existing : new boolean[] {false, true}) {
                Path target = existing ? existingTarget : dir.resolve("target-new.json");
                Path[] sources = immutable
                        ? new Path[] {dir.resolve("plain-file").resolve("source.json"), frozen.resolve("source.json"), target}
                        : new Path[] {dir.resolve("plain-file").resolve("source.json"), target};
                for (Path source : sources) {
                    Map<String, String> before = tree(dir);
                    PrivacyContext[] ctx = new PrivacyContext[1];
                    // the same path as an existing ledger of the other party is refused when it is opened; a new one
                    // (or a fault of the path) when the run charges
                    assertThatThrownBy(() -> {
                        ctx[0] = ctx(lazy(source, "source", eps, delta), lazy(target, "target", 10 * eps, delta), eps, delta);
                        run.run(ctx[0]);
                    }).as(source + " with " + target).isInstanceOf(BudgetLedger.LedgerException.class);
                    assertThat(tree(dir)).as("files after the fault " + source + " with " + target).isEqualTo(before);
                    if (ctx[0] != null) {
                        assertThat(ctx[0].target().events()).isEmpty();
                        assertThat(ctx[0].source().events()).isEmpty();
                    }
                    tried++;
                }
            }
        } finally {
            if (immutable) {
                chattr("-i", frozen);
            }
        }
        // and with both ledgers sound, the same run charges both
        PrivacyContext ok = ctx(lazy(dir.resolve("source-ok.json"), "source", eps, delta), lazy(existingTarget, "target", 10 * eps, delta),
                eps, delta);
        run.run(ok);
        assertThat(BudgetLedger.open(dir.resolve("source-ok.json")).read().entries()).isNotEmpty();
        assertThat(BudgetLedger.open(existingTarget).read().entries().size()).isGreaterThan(1);
        return tried;
    }

    static Map<String, String> tree(Path root) throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                if (!p.equals(root)) {
                    out.put(root.relativize(p).toString(), Files.isRegularFile(p)
                            ? java.util.HexFormat.of().formatHex(Files.readAllBytes(p)) : "dir");
                }
            }
        }
        return out;
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
}
