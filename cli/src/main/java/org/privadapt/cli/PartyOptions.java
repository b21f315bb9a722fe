package org.privadapt.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.ledger.BudgetLedger;
import org.privadapt.privacy.noise.NoiseSource;
import picocli.CommandLine.Option;

/**
 * The privacy settings of one party's own step in the two-party flow ({@code target release}, {@code source train}):
 * what it may spend in this step, its ledger, and how its noise is drawn.
 */
public final class PartyOptions {
    @Option(names = "--epsilon", required = true, paramLabel = "E", description = "Epsilon this step may spend.")
    double epsilon;

    @Option(names = "--delta", paramLabel = "D", defaultValue = "1e-5", description = "Delta of this step's guarantee (default: ${DEFAULT-VALUE}).")
    double delta;

    @Option(names = "--relation", paramLabel = "add-remove|replace", defaultValue = "add-remove",
            description = "Neighbouring relation: add-remove (one record added or removed) or replace (one record "
                    + "replaced, the count public) (default: ${DEFAULT-VALUE}).")
    String relation;

    @Option(names = "--ledger", paramLabel = "FILE", description = "This party's budget ledger (created if absent); the step is refused if it would overspend it.")
    Path ledger;

    @Option(names = "--budget", paramLabel = "E", description = "Total epsilon of a new ledger (default: this step's epsilon); an existing ledger keeps its stored budget (given, it must match).")
    Double budget;

    @Option(names = "--public", split = ",", paramLabel = "size|classes|schema",
            description = "Facts about this party's data declared public, so the release may carry them without noise: its "
                    + "number of records, its class set, its feature layout (benchmark suites declare size and classes).")
    java.util.List<String> publicFacts = java.util.List.of();

    /** What the user declares public about this party's data. */
    public org.privadapt.data.PublicFacts declared() {
        try {
            return org.privadapt.data.PublicFacts.parse(publicFacts, "declared by the user (--public)");
        } catch (IllegalArgumentException e) {
            throw new UsageException("--public: " + e.getMessage(), e);
        }
    }

    @Option(names = "--allow-large-delta",
            description = "Accept a delta at or above 1/n of a protected party's n records (refused otherwise: it promises nothing).")
    public boolean allowLargeDelta;

    @Option(names = "--seed", paramLabel = "N",
            description = "Seeded noise for experiments: the artifact is marked NOT differentially private. The same seed "
                    + "as 'run --seed N' gives the same numbers.")
    Long seed;

    public double delta() {
        return delta;
    }

    public Long seedOrNull() {
        return seed;
    }

    public void validate() {
        PrivacyOptions.checkEpsilon("--epsilon", epsilon);
        if (!(delta > 0 && delta < 1)) {
            throw new UsageException("--delta must be in (0, 1), got " + delta);
        }
        if (budget != null && !(budget > 0)) {
            throw new UsageException("--budget must be > 0, got " + budget);
        }
        relation();
    }

    public NeighbouringRelation relation() {
        try {
            return NeighbouringRelation.fromId(relation);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--relation: " + e.getMessage(), e);
        }
    }

    /** The party's ledger file, or null. */
    public Path ledgerFile() {
        return ledger;
    }

    /** The party's session: its step's target (epsilon, delta), its ledger if any, and its noise. */
    public PrivacySession session(String party) throws BudgetLedger.LedgerException {
        NeighbouringRelation r = relation();
        BudgetLedger l = ledger == null ? null : PrivacyOptions.ledger(ledger, party, budget, epsilon, r, delta);
        return new PrivacySession(party, new PrivacyBudget(epsilon, delta), r, PrivacyOptions.partyNoise(seed, 0, party), l);
    }

    /**
     * Fails (as a usage error, before anything is read, spent or written) when {@code out} cannot be written: a
     * directory, in a directory that does not exist or where no file can be created (probed by creating and deleting
     * a temporary file, which also catches read-only mounts and root), or an existing file that cannot be opened for
     * writing (read-only for this user, or immutable: {@code chattr +i} refuses even root), or an existing special file
     * (a device such as /dev/full or /dev/null, a FIFO, a socket), which the atomic rename would replace by a regular
     * file (and opening a FIFO would block until a reader came). Outputs are checked
     * before a budget is charged, so that a release is never paid for and then lost (docs/privacy/ledger.md).
     */
    public static void requireWritable(Path out, String option) {
        Path abs = out.toAbsolutePath();
        if (Files.isDirectory(abs)) {
            throw new UsageException(option + " " + out + ": is a directory");
        }
        if (Files.exists(abs) && !Files.isRegularFile(abs)) { // both follow a symbolic link to its target
            throw new UsageException(option + " " + out + ": is not a regular file (a device, FIFO or socket); outputs are written to a "
                    + "new file renamed into place, which would replace it: give a regular file or a new path");
        }
        Path dir = abs.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new UsageException(option + " " + out + ": directory " + dir + " does not exist");
        }
        try {
            Path probe = Files.createTempFile(dir, ".privadapt-probe", ".tmp");
            Files.delete(probe);
        } catch (java.io.IOException | SecurityException e) {
            throw new UsageException(option + " " + out + ": directory " + dir + " is not writable (" + e.getClass().getSimpleName() + ")");
        }
        if (Files.exists(abs)) {
            // opened for appending and closed at once: nothing is changed, but a file we may not replace fails here
            try (java.nio.channels.FileChannel c = java.nio.channels.FileChannel.open(abs, java.nio.file.StandardOpenOption.WRITE,
                    java.nio.file.StandardOpenOption.APPEND)) {
                // writable
            } catch (java.io.IOException | SecurityException e) {
                throw new UsageException(option + " " + out + ": the existing file cannot be replaced (" + e.getClass().getSimpleName()
                        + (e.getMessage() == null ? "" : ": " + e.getMessage()) + ")");
            }
        }
    }
}
