package org.privadapt.sparkml;

import java.nio.file.Path;
import java.util.Locale;
import org.apache.spark.ml.Estimator;
import org.apache.spark.ml.Model;
import org.apache.spark.ml.param.BooleanParam;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.LongParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.StringArrayParam;
import org.apache.spark.sql.types.StructType;
import org.privadapt.data.PublicFacts;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.ledger.BudgetLedger;
import org.privadapt.privacy.noise.PartyNoise;

/**
 * What every private stage's estimator declares, as typed Params, and the party's session made from them as the CLI's
 * party options make it ({@code --epsilon --delta --relation --ledger --budget --public --seed}): the same ledger
 * (created lazily, at its first charge; an existing one keeps its stored budget), the same noise (secure unless
 * {@link #seed()} is set, then the CLI's per-party seeded stream, {@link PartyNoise}: NOT differentially private).
 *
 * @param <M> the model the estimator fits
 */
public abstract class PartyParams<M extends Model<M>> extends Estimator<M> {
    private static final long serialVersionUID = 1L;
    private final String uid;
    private final Param<String> featuresCol;
    private final DoubleParam epsilon;
    private final DoubleParam delta;
    private final Param<String> relation;
    private final Param<String> ledgerPath;
    private final DoubleParam ledgerBudget;
    private final Param<String> party;
    private final LongParam seed;
    private final Param<String> runId;
    private final StringArrayParam methodParams;
    private final StringArrayParam publicFacts;
    private final IntParam numFeatures;
    private final BooleanParam allowLargeDelta;

    protected PartyParams(String uid, String role) {
        this.uid = uid;
        featuresCol = new Param<>(this, "featuresCol", "the features: a Spark ML vector column (dense or sparse) or array<double>");
        epsilon = new DoubleParam(this, "epsilon", "epsilon this fit may spend (> 0)");
        delta = new DoubleParam(this, "delta", "delta of this fit's guarantee, in (0, 1)");
        relation = new Param<>(this, "relation", "neighbouring relation: add-remove (one record added or removed) or replace "
                + "(one record replaced, the count public)");
        ledgerPath = new Param<>(this, "ledgerPath", "the party's budget ledger (a local file, created at its first charge); "
                + "unset: no ledger");
        ledgerBudget = new DoubleParam(this, "ledgerBudget", "total epsilon of a new ledger (default: this fit's epsilon)");
        party = new Param<>(this, "party", "the party's name in its ledger");
        seed = new LongParam(this, "seed", "seeded noise for experiments: the output is NOT differentially private; unset "
                + "(the default): secure noise");
        runId = new Param<>(this, "runId", "the run id written into the artifact (default: run-seed-N or a random one)");
        methodParams = new StringArrayParam(this, "methodParams", "the method's parameters as NAME=VALUE (the CLI's --param)");
        publicFacts = new StringArrayParam(this, "publicFacts", "facts about the rows declared public: size, classes, schema "
                + "(the CLI's --public)");
        numFeatures = new IntParam(this, "numFeatures", "d, declared (public), where the column has no Spark ML metadata");
        allowLargeDelta = new BooleanParam(this, "allowLargeDelta", "accept a delta at or above 1/n (it promises nothing)");
        setDefault(featuresCol, "features");
        setDefault(delta, 1e-5);
        setDefault(relation, "add-remove");
        setDefault(party, role);
        setDefault(methodParams, new String[0]);
        setDefault(publicFacts, new String[0]);
        setDefault(allowLargeDelta, false);
    }

    @Override
    public String uid() {
        return uid;
    }

    public Param<String> featuresCol() { return featuresCol; }
    public DoubleParam epsilon() { return epsilon; }
    public DoubleParam delta() { return delta; }
    public Param<String> relation() { return relation; }
    public Param<String> ledgerPath() { return ledgerPath; }
    public DoubleParam ledgerBudget() { return ledgerBudget; }
    public Param<String> party() { return party; }
    public LongParam seed() { return seed; }
    public Param<String> runId() { return runId; }
    public StringArrayParam methodParams() { return methodParams; }
    public StringArrayParam publicFacts() { return publicFacts; }
    public IntParam numFeatures() { return numFeatures; }
    public BooleanParam allowLargeDelta() { return allowLargeDelta; }

    /** The method's parameters (the CLI's {@code --param NAME=VALUE}), in order. */
    java.util.Map<String, String> methodParameters() {
        java.util.Map<String, String> m = new java.util.LinkedHashMap<>();
        for (String kv : (String[]) getOrDefault(methodParams)) {
            int eq = kv.indexOf('=');
            if (eq < 1) {
                throw new IllegalArgumentException("methodParams: NAME=VALUE expected, got '" + kv + "'");
            }
            m.put(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
        }
        return m;
    }

    MethodConfig methodConfig(String classifier) {
        return new MethodConfig(classifier, 0.0, 1L, methodParameters());
    }

    PublicFacts declared() {
        return PublicFacts.parse(java.util.List.of((String[]) getOrDefault(publicFacts)), "declared by the user (publicFacts)");
    }

    Integer declaredDimension() {
        return isDefined(numFeatures) ? (Integer) getOrDefault(numFeatures) : null;
    }

    String features() {
        return (String) getOrDefault(featuresCol);
    }

    Long seedOrNull() {
        return isDefined(seed) ? (Long) getOrDefault(seed) : null;
    }

    Path ledgerFile() {
        return isDefined(ledgerPath) ? Path.of((String) getOrDefault(ledgerPath)) : null;
    }

    /** The artifact's run id: the Param, else the CLI's ({@code run-seed-N}, or a random one for secure noise). */
    String runIdValue() {
        if (isDefined(runId)) {
            return (String) getOrDefault(runId);
        }
        return seedOrNull() == null ? "run-" + java.util.UUID.randomUUID() : "run-seed-" + seedOrNull();
    }

    /**
     * The party's session for {@code role} ("target" or "source": its seeded stream), checked as the CLI checks the
     * options, the ledger opened (verified if it exists; nothing created before the charge).
     */
    PrivacySession session(String role) throws BudgetLedger.LedgerException {
        if (!isDefined(epsilon)) {
            throw new IllegalArgumentException("epsilon is not set");
        }
        double e = (Double) getOrDefault(epsilon);
        double dl = (Double) getOrDefault(delta);
        if (!(e > 0) || e > 1000) {
            throw new IllegalArgumentException("epsilon must be in (0, 1000], got " + e);
        }
        if (!(dl > 0 && dl < 1)) {
            throw new IllegalArgumentException("delta must be in (0, 1), got " + dl);
        }
        NeighbouringRelation r = NeighbouringRelation.fromId((String) getOrDefault(relation));
        String name = (String) getOrDefault(party);
        Path file = ledgerFile();
        BudgetLedger l = null;
        if (file != null) {
            Double b = isDefined(ledgerBudget) ? (Double) getOrDefault(ledgerBudget) : null;
            if (b != null && !(b > 0)) {
                throw new IllegalArgumentException("ledgerBudget must be > 0, got " + b);
            }
            l = b != null ? BudgetLedger.openOrCreateLazily(file, name, new PrivacyBudget(b, dl), r, true)
                    : BudgetLedger.openOrCreateLazily(file, name, new PrivacyBudget(e, dl), r, false);
        }
        return new PrivacySession(name, new PrivacyBudget(e, dl), r, PartyNoise.of(seedOrNull(), 0, role), l);
    }

    /**
     * The CLI's delta policy on the party's n (read in its own process, released nowhere): delta at or above 1/n is
     * refused unless {@link #allowLargeDelta()}; above 1/(10 n) a warning.
     */
    void deltaPolicy(long rows) {
        if (rows < 1) {
            return;
        }
        double dl = (Double) getOrDefault(delta);
        double inv = 1.0 / rows;
        if (dl >= inv && !(Boolean) getOrDefault(allowLargeDelta)) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "delta %.3g is at or above 1/n = %.3g for the %s's records: "
                    + "such a guarantee promises nothing; use delta <= 1/(10 n), or set allowLargeDelta", dl, inv, getOrDefault(party)));
        }
        if (dl > inv / 10) {
            System.err.printf(Locale.ROOT, "privadapt: warning: delta %.3g is above 1/(10 n) = %.2g for the %s's records; the usual "
                    + "choice is delta <= 1/(10 n)%n", dl, inv / 10, getOrDefault(party));
        }
    }

    /** Said on standard error after a seeded fit, as the CLI says it beside its summary. */
    static void warnIfSeeded(PrivacySession s, String what) {
        if (!s.isPrivate()) {
            System.err.println("privadapt: warning: " + what + " -- seeded noise: NOT differentially private");
        }
    }

    /** The checked failures of a fit, carried (Spark's fit declares none). */
    static PrivateFitException failed(Exception e) {
        return new PrivateFitException(e.getMessage(), e);
    }

    @Override
    public StructType transformSchema(StructType schema) {
        FeatureColumns.requireFeatures(schema, features());
        return schema;
    }
}
