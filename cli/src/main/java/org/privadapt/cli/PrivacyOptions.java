package org.privadapt.cli;

import java.nio.file.Path;
import org.privadapt.methods.core.PrivacyContext;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.ledger.BudgetLedger;
import org.privadapt.privacy.noise.NoiseSource;
import picocli.CommandLine.Option;

/** Privacy settings of private methods in {@code run} and {@code bench}. */
public final class PrivacyOptions {
    @Option(names = "--epsilon", paramLabel = "E", split = ",",
            description = "Epsilon each party may spend in this run (private methods); bench accepts a list E1,E2,... (a sweep).")
    java.util.List<Double> epsilons;

    /** The epsilon in force (the single --epsilon, or the current value of a bench sweep). */
    Double epsilon;

    /** The --epsilon values (empty when not given). */
    public java.util.List<Double> epsilonValues() {
        return epsilons == null ? java.util.List.of() : epsilons;
    }

    /** Sets the epsilon both parties spend (one value of an epsilon sweep). */
    public void useEpsilon(double e) {
        epsilon = e;
    }

    @Option(names = "--delta", paramLabel = "D", defaultValue = "1e-5", description = "Delta of each party's guarantee (default: ${DEFAULT-VALUE}).")
    double delta;

    @Option(names = "--source-epsilon", paramLabel = "E", description = "The source's epsilon (default: --epsilon).")
    Double sourceEpsilon;

    @Option(names = "--target-epsilon", paramLabel = "E", description = "The target's epsilon (default: --epsilon).")
    Double targetEpsilon;

    @Option(names = "--relation", paramLabel = "add-remove|replace", defaultValue = "add-remove",
            description = "Neighbouring relation: add-remove (one record added or removed) or replace (one record "
                    + "replaced, the count public) (default: ${DEFAULT-VALUE}).")
    String relation;

    @Option(names = "--source-public", split = ",", paramLabel = "size|classes|schema",
            description = "Facts about the source's data declared public, so a private method may release them without noise: "
                    + "its number of records, its class set, its feature layout (benchmark suites declare size and classes).")
    java.util.List<String> sourcePublic = java.util.List.of();

    @Option(names = "--target-public", split = ",", paramLabel = "size|classes|schema",
            description = "As --source-public, for the target's data.")
    java.util.List<String> targetPublic = java.util.List.of();

    /** What the user declares public about {@code party}'s data. */
    public org.privadapt.data.PublicFacts declared(String party) {
        try {
            return org.privadapt.data.PublicFacts.parse("source".equals(party) ? sourcePublic : targetPublic,
                    "declared by the user (--" + party + "-public)");
        } catch (IllegalArgumentException e) {
            throw new UsageException("--" + party + "-public: " + e.getMessage(), e);
        }
    }

    @Option(names = "--allow-large-delta",
            description = "Accept a delta at or above 1/n of a protected party's n records (refused otherwise: it promises nothing).")
    public boolean allowLargeDelta;

    @Option(names = "--seed", paramLabel = "N", description = "Seeded noise for experiments: results are NOT differentially private.")
    Long seed;

    public long seedValue() {
        return seed == null ? 0L : seed;
    }

    public boolean seeded() {
        return seed != null;
    }

    public double delta() {
        return delta;
    }

    /** The relation given by {@code --relation}. */
    public NeighbouringRelation relationValue() {
        return relation();
    }

    NeighbouringRelation relation() {
        try {
            return NeighbouringRelation.fromId(relation);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--relation: " + e.getMessage(), e);
        }
    }

    /** Checks the values; {@code anyPrivate} requires an epsilon. */
    public void validate(boolean anyPrivate) {
        validate(anyPrivate, false);
    }

    /**
     * The largest epsilon any command accepts: far above any guarantee worth stating (at 20 a DP statement is already
     * nominal), and below where the accountants' e^epsilon terms lose meaning (1e308 read as "would bring this run to
     * epsilon Infinity").
     */
    public static final double MAX_EPSILON = 1000;

    /** One message for every epsilon option: a finite number in (0, MAX_EPSILON]. */
    public static void checkEpsilon(String option, Double e) {
        if (e == null || !(e > 0) || !(e <= MAX_EPSILON)) {
            throw new UsageException(option + " must be a finite number in (0, " + (long) MAX_EPSILON + "], got " + e
                    + (e != null && e > MAX_EPSILON && !e.isInfinite() ? " (for no privacy, use a non-private method)" : ""));
        }
    }

    /** As above; {@code sweepAllowed}: several --epsilon values are accepted (bench). */
    public void validate(boolean anyPrivate, boolean sweepAllowed) {
        if (epsilons != null && epsilons.size() > 1 && !sweepAllowed) {
            throw new UsageException("--epsilon takes one value here, got " + epsilons);
        }
        if (epsilons != null) {
            for (Double e : epsilons) {
                checkEpsilon("--epsilon", e);
            }
            if (epsilon == null) {
                epsilon = epsilons.get(0);
            }
        }
        if (!(delta > 0 && delta < 1)) {
            throw new UsageException("--delta must be in (0, 1), got " + delta);
        }
        String[] names = {"--epsilon", "--source-epsilon", "--target-epsilon"};
        Double[] values = {epsilon, sourceEpsilon, targetEpsilon};
        for (int i = 0; i < values.length; i++) {
            if (values[i] != null) {
                checkEpsilon(names[i], values[i]);
            }
        }
        if (anyPrivate && epsilon == null && (sourceEpsilon == null || targetEpsilon == null)) {
            throw new UsageException("a private method needs --epsilon (each party's budget for this run)");
        }
        relation();
    }

    /**
     * The settings that decide a private result, for reports: epsilon of each party (when given; omitted when
     * {@code sweep}, the swept epsilon being recorded per result), delta, the neighbouring relation and the noise
     * seed (null: secure noise).
     */
    public java.util.Map<String, Object> describe(boolean sweep) {
        java.util.Map<String, Object> m = new java.util.LinkedHashMap<>();
        if (!sweep && (sourceEpsilon != null || epsilon != null)) {
            m.put("source_epsilon", sourceEps());
        }
        if (!sweep && (targetEpsilon != null || epsilon != null)) {
            m.put("target_epsilon", targetEps());
        }
        m.put("delta", delta);
        m.put("relation", relation().id());
        m.put("seed", seed);
        m.put("seeded_noise", seeded());
        return m;
    }

    double sourceEps() {
        return sourceEpsilon != null ? sourceEpsilon : epsilon != null ? epsilon : 1.0;
    }

    double targetEps() {
        return targetEpsilon != null ? targetEpsilon : epsilon != null ? epsilon : 1.0;
    }

    /**
     * A fresh context for repetition {@code run}: secure noise unless {@code --seed} (then seed + run); ledgers
     * when given (a new ledger gets the run's epsilon as its budget, or {@code budget} when given).
     */
    public PrivacyContext context(int run, Path sourceLedger, Path targetLedger, Double sourceBudget, Double targetBudget)
            throws BudgetLedger.LedgerException {
        requireDistinctLedgers(sourceLedger, targetLedger);
        NeighbouringRelation r = relation();
        BudgetLedger sl = sourceLedger == null ? null : ledger(sourceLedger, "source", sourceBudget, sourceEps(), r);
        BudgetLedger tl = targetLedger == null ? null : ledger(targetLedger, "target", targetBudget, targetEps(), r);
        return new PrivacyContext(new PrivacySession("source", new PrivacyBudget(sourceEps(), delta), r, partyNoise(seed, run, "source"), sl),
                new PrivacySession("target", new PrivacyBudget(targetEps(), delta), r, partyNoise(seed, run, "target"), tl));
    }

    /**
     * Refuses one file given as both parties' ledger (each party keeps its own; the charge would refuse it too, after
     * the run's work, issue 46).
     */
    static void requireDistinctLedgers(Path sourceLedger, Path targetLedger) {
        if (sourceLedger == null || targetLedger == null) {
            return;
        }
        Path s = sourceLedger.toAbsolutePath().normalize();
        Path t = targetLedger.toAbsolutePath().normalize();
        boolean same = s.equals(t);
        try {
            same |= java.nio.file.Files.exists(s) && java.nio.file.Files.exists(t) && java.nio.file.Files.isSameFile(s, t);
        } catch (java.io.IOException ignored) {
            // compared by path
        }
        if (same) {
            throw new UsageException("--source-ledger and --target-ledger name the same file (" + sourceLedger
                    + "): each party keeps a ledger of its own");
        }
    }

    /**
     * A party's ledger: with an explicit budget, created with it or checked against the stored one; without, an
     * existing ledger keeps its stored budget and a new one gets the run's epsilon. A new ledger is written by its
     * first charge, so a run refused before it spends leaves no file (issue 33).
     */
    static BudgetLedger ledger(Path file, String party, Double budget, double runEpsilon, NeighbouringRelation r, double delta)
            throws BudgetLedger.LedgerException {
        return budget != null ? BudgetLedger.openOrCreateLazily(file, party, new PrivacyBudget(budget, delta), r, true)
                : BudgetLedger.openOrCreateLazily(file, party, new PrivacyBudget(runEpsilon, delta), r, false);
    }

    private BudgetLedger ledger(Path file, String party, Double budget, double runEpsilon, NeighbouringRelation r)
            throws BudgetLedger.LedgerException {
        return ledger(file, party, budget, runEpsilon, r, delta);
    }

    /**
     * The noise of one party in repetition {@code run}: secure unless {@code seed} is given. Seeded streams are
     * derived per party so that the two-party commands and {@code run} draw the same numbers for the same seed
     * (the target's stream is the split of the seeded stream, the source keeps the stream after the split).
     */
    public static NoiseSource partyNoise(Long seed, int run, String party) {
        return org.privadapt.privacy.noise.PartyNoise.of(seed, run, party);
    }
}
