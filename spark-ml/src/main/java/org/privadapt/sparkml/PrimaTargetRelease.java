package org.privadapt.sparkml;

import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.DefaultParamsReadable;
import org.apache.spark.ml.util.DefaultParamsWritable;
import org.apache.spark.ml.util.Identifiable$;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.privadapt.data.preprocess.DefaultPreprocessing;
import org.privadapt.data.preprocess.Preprocessing;
import org.privadapt.methods.core.MethodParameters;
import org.privadapt.methods.prima.Prima;
import org.privadapt.methods.prima.PrimaConfig;
import org.privadapt.methods.prima.PrimaMethod;
import org.privadapt.methods.prima.TargetRelease;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.ledger.BudgetLedger;
import org.privadapt.privacy.ledger.LedgerPrecheck;
import org.privadapt.spark.SparkPrima;
import org.privadapt.spark.SparkTable;
import org.privadapt.spark.SparkVectors;

/**
 * PRIMA's (PRISA's, an ablation's) <b>target release</b> as a Spark ML estimator: {@code fit} makes the release the
 * CLI's {@code target release --engine spark --features-column} makes ({@link SparkPrima#release} over the vector
 * column, the row-local preprocessing applied block by block inside its aggregate), charged to the target's session
 * and ledger as the CLI charges it: the ledger verified and a spent one refused before anything is read; the release's
 * plan (known from the public settings and d) checked against the remaining budget before any row is read (d from the
 * column's Spark ML metadata or {@link #numFeatures()}; else the first row, as the CLI reads it); one atomic charge
 * before any noise (docs/privacy/prima.md: add/remove or replace neighbours on the target's rows). Secure noise unless
 * {@link #seed()} is set.
 */
public final class PrimaTargetRelease extends PartyParams<PrimaTargetReleaseModel> implements DefaultParamsWritable {
    private static final long serialVersionUID = 1L;
    private final Param<String> method;
    private final Param<String> preprocessing;

    public PrimaTargetRelease() {
        this(Identifiable$.MODULE$.randomUID("primaTargetRelease"));
    }

    public PrimaTargetRelease(String uid) {
        super(uid, "target");
        method = new Param<>(this, "method", "prima, prisa or a PRIMA ablation (prima-basic, prima-rse, prima-rse-fs, "
                + "prima-basic-shrink)");
        preprocessing = new Param<>(this, "preprocessing", "row-local preprocessing (l2, scale=K, clip=B, minmax=LO:HI, none); "
                + "default: the policy for private methods from d (l2,scale=floor(sqrt d))");
        setDefault(method, "prima");
    }

    public Param<String> method() { return method; }
    public Param<String> preprocessing() { return preprocessing; }

    public PrimaTargetRelease setFeaturesCol(String v) { set(featuresCol(), v); return this; }
    public PrimaTargetRelease setEpsilon(double v) { set(epsilon(), v); return this; }
    public PrimaTargetRelease setDelta(double v) { set(delta(), v); return this; }
    public PrimaTargetRelease setRelation(String v) { set(relation(), v); return this; }
    public PrimaTargetRelease setLedgerPath(String v) { set(ledgerPath(), v); return this; }
    public PrimaTargetRelease setLedgerBudget(double v) { set(ledgerBudget(), v); return this; }
    public PrimaTargetRelease setParty(String v) { set(party(), v); return this; }
    public PrimaTargetRelease setSeed(long v) { set(seed(), v); return this; }
    public PrimaTargetRelease setRunId(String v) { set(runId(), v); return this; }
    public PrimaTargetRelease setMethodParams(String... v) { set(methodParams(), v); return this; }
    public PrimaTargetRelease setNumFeatures(int v) { set(numFeatures(), v); return this; }
    public PrimaTargetRelease setMethod(String v) { set(method, v); return this; }
    public PrimaTargetRelease setPreprocessing(String v) { set(preprocessing, v); return this; }

    /** prima, prisa or an ablation, as the CLI's {@code --method}. */
    static PrimaMethod primaMethod(String name) {
        return switch (name) {
            case "prima" -> PrimaMethod.prima();
            case "prisa" -> PrimaMethod.prisa();
            default -> PrimaMethod.ablation(name);
        };
    }

    @Override
    public PrimaTargetReleaseModel fit(Dataset<?> dataset) {
        Dataset<Row> df = dataset.toDF();
        String col = features();
        FeatureColumns.requireFeatures(df.schema(), col);
        PrimaMethod m = primaMethod((String) getOrDefault(method));
        try {
            // before any row is read: the ledger verified (opening the session), a spent one refused
            PrivacySession session = session("target");
            LedgerPrecheck.check(session, ledgerFile(), null);
            int d = FeatureColumns.dimension(df, col, declaredDimension());
            String pre = preprocessingFor(d);
            MethodParameters.check("target release", PrimaConfig.PARAMETERS, methodParameters());
            PrimaConfig cfg = m.config(methodConfig("lr"), pre);
            // the release's plan (public settings and d) against the budget, as the CLI checks it: still nothing read
            LedgerPrecheck.check(session, ledgerFile(), Prima.targetPlan(cfg, m.name(), d, session));
            SparkTable raw = SparkVectors.table(df, col, d, null);
            long n = df.count();
            if (n == 0) {
                throw new IllegalArgumentException("the table has no rows");
            }
            deltaPolicy(n);
            // the CLI's engine: the raw vectors, the preprocessing applied per block inside the release's aggregate
            TargetRelease r = SparkPrima.release(raw.withBlockMap(pre), cfg, pre, m.name(), 1L, runIdValue(), session);
            warnIfSeeded(session, "the target's release");
            PrimaTargetReleaseModel model = new PrimaTargetReleaseModel(uid(), r.toArtifact());
            model.set(model.featuresCol(), col);
            return model.setParent(this);
        } catch (BudgetExceededException | BudgetLedger.LedgerException e) {
            throw failed(e);
        }
    }

    private String preprocessingFor(int d) {
        String spec = isDefined(preprocessing) ? (String) getOrDefault(preprocessing) : DefaultPreprocessing.forPrivate(d).spec();
        Preprocessing steps = Preprocessing.parse(spec);
        if (!steps.dataDependentSteps().isEmpty()) {
            throw new IllegalArgumentException("preprocessing step(s) " + steps.dataDependentSteps() + " would be fitted on the "
                    + "target's private rows outside the privacy accounting; use row-local steps (l1, l2, clip=B, scale=K, minmax=LO:HI, none)");
        }
        return steps.spec();
    }

    @Override
    public PrimaTargetRelease copy(ParamMap extra) {
        return defaultCopy(extra);
    }

    public static MLReader<PrimaTargetRelease> read() {
        return new DefaultParamsReadable<PrimaTargetRelease>() { }.read();
    }

    public static PrimaTargetRelease load(String path) {
        return read().load(path);
    }
}
