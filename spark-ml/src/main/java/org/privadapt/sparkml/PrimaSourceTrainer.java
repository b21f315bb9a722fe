package org.privadapt.sparkml;

import java.util.HashSet;
import java.util.List;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.param.StringArrayParam;
import org.apache.spark.ml.util.DefaultParamsReadable;
import org.apache.spark.ml.util.DefaultParamsWritable;
import org.apache.spark.ml.util.Identifiable$;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.privadapt.data.PublicFacts;
import org.privadapt.methods.artifacts.Artifact;
import org.privadapt.methods.artifacts.ArtifactException;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.MethodParameters;
import org.privadapt.methods.core.PrivateLearners;
import org.privadapt.methods.prima.SourceModel;
import org.privadapt.methods.prima.TargetRelease;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.ledger.BudgetLedger;
import org.privadapt.privacy.ledger.LedgerPrecheck;
import org.privadapt.spark.SparkPreprocessing;
import org.privadapt.spark.SparkPrimaTrain;
import org.privadapt.spark.SparkTable;
import org.privadapt.spark.SparkVectors;

/**
 * The source's <b>DP model</b> on a PRIMA/PRISA target release, as a Spark ML estimator: {@code fit} trains on the
 * source's labelled rows what the CLI's {@code source train --engine spark --features-column} trains
 * ({@link SparkPrimaTrain#train}: the source's noisy moments, the alignment, then the learner: ncm, lda or adassp from noisy
 * class sums and moments, dp-sgd or dp-gd from clipped sums per step), charged to the source's session and ledger as the CLI
 * charges it: the ledger verified and a spent one refused before any row is read, then the plan (which needs n) and
 * its one atomic charge before any noise. The class set ({@link #classes()}) is public, never read from the rows; a
 * label outside it is refused before the charge. The gradient learners need n public ({@code publicFacts=size} or
 * {@code relation=replace}). Secure noise unless {@link #seed()} is set. docs/privacy/prima.md states the guarantee.
 */
public final class PrimaSourceTrainer extends PartyParams<PrimaSourceClassifier> implements DefaultParamsWritable {
    private static final long serialVersionUID = 1L;
    private final Param<String> labelCol;
    private final Param<String> predictionCol;
    private final Param<String> releasePath;
    private final StringArrayParam classes;
    private final Param<String> classifier;
    private final Param<String> learner;

    public PrimaSourceTrainer() {
        this(Identifiable$.MODULE$.randomUID("primaSourceTrainer"));
    }

    public PrimaSourceTrainer(String uid) {
        super(uid, "source");
        labelCol = new Param<>(this, "labelCol", "the label column (cast to string: a class name)");
        predictionCol = new Param<>(this, "predictionCol", "the model's output column: the predicted class's index in classes");
        releasePath = new Param<>(this, "releasePath", "the target's release artifact (a local file, as target release --out "
                + "writes it)");
        classes = new StringArrayParam(this, "classes", "the class set, in this order, declared public (never read from the rows)");
        classifier = new Param<>(this, "classifier", "lr or dnn (the CLI's --classifier)");
        learner = new Param<>(this, "learner", "the private learner: auto, ncm, lda, adassp, dp-sgd or dp-gd (the CLI's --param learner)");
        setDefault(labelCol, "label");
        setDefault(predictionCol, "prediction");
        setDefault(classifier, "lr");
    }

    public Param<String> labelCol() { return labelCol; }
    public Param<String> predictionCol() { return predictionCol; }
    public Param<String> releasePath() { return releasePath; }
    public StringArrayParam classes() { return classes; }
    public Param<String> classifier() { return classifier; }
    public Param<String> learner() { return learner; }

    public PrimaSourceTrainer setFeaturesCol(String v) { set(featuresCol(), v); return this; }
    public PrimaSourceTrainer setLabelCol(String v) { set(labelCol, v); return this; }
    public PrimaSourceTrainer setPredictionCol(String v) { set(predictionCol, v); return this; }
    public PrimaSourceTrainer setReleasePath(String v) { set(releasePath, v); return this; }
    public PrimaSourceTrainer setClasses(String... v) { set(classes, v); return this; }
    public PrimaSourceTrainer setClassifier(String v) { set(classifier, v); return this; }
    public PrimaSourceTrainer setLearner(String v) { set(learner, v); return this; }
    public PrimaSourceTrainer setEpsilon(double v) { set(epsilon(), v); return this; }
    public PrimaSourceTrainer setDelta(double v) { set(delta(), v); return this; }
    public PrimaSourceTrainer setRelation(String v) { set(relation(), v); return this; }
    public PrimaSourceTrainer setLedgerPath(String v) { set(ledgerPath(), v); return this; }
    public PrimaSourceTrainer setLedgerBudget(double v) { set(ledgerBudget(), v); return this; }
    public PrimaSourceTrainer setParty(String v) { set(party(), v); return this; }
    public PrimaSourceTrainer setSeed(long v) { set(seed(), v); return this; }
    public PrimaSourceTrainer setRunId(String v) { set(runId(), v); return this; }
    public PrimaSourceTrainer setMethodParams(String... v) { set(methodParams(), v); return this; }
    public PrimaSourceTrainer setPublicFacts(String... v) { set(publicFacts(), v); return this; }
    public PrimaSourceTrainer setNumFeatures(int v) { set(numFeatures(), v); return this; }

    @Override
    public PrimaSourceClassifier fit(Dataset<?> dataset) {
        Dataset<Row> df = dataset.toDF();
        String col = features();
        String label = (String) getOrDefault(labelCol);
        FeatureColumns.requireFeatures(df.schema(), col);
        if (!List.of(df.columns()).contains(label)) {
            throw new IllegalArgumentException("no label column '" + label + "' (columns: " + String.join(", ", df.columns()) + ")");
        }
        List<String> names = classNames();
        TargetRelease release = release();
        MethodConfig mc = methodConfig((String) getOrDefault(classifier));
        if (isDefined(learner)) {
            mc = mc.withParam("learner", (String) getOrDefault(learner));
        }
        MethodParameters.check("source train", PrivateLearners.ALL, mc.params());
        try {
            // before any row is read: the ledger verified (opening the session), a spent one refused (the plan needs n)
            PrivacySession session = session("source");
            LedgerPrecheck.check(session, ledgerFile(), null);
            Integer declared = FeatureColumns.declaredDimension(df.schema(), col, declaredDimension());
            if (declared != null && declared != release.dimension()) {
                throw new IllegalArgumentException("column '" + col + "' has " + declared + " features; the release is for "
                        + release.dimension());
            }
            // the release's d is the layout (public); a row of another length is read as missing and refused before the charge
            SparkTable raw = SparkVectors.table(df, col, release.dimension(), label);
            SparkTable table = SparkPreprocessing.apply(raw, release.preprocessing());
            deltaPolicy(df.count());
            PublicFacts facts = declared().declaring(new PublicFacts(null, "declared by the user (classes)", null, false));
            // the aggregates read the raw vectors with the preprocessing applied block by block inside them (as the CLI's
            // source train does: no Spark stage of mapped rows between, sparse vectors kept sparse)
            SourceModel model = SparkPrimaTrain.train(table, raw.withBlockMap(release.preprocessing()), release, mc, names, facts, session);
            warnIfSeeded(session, "the source's model");
            PrimaSourceClassifier c = new PrimaSourceClassifier(uid(), model.toArtifact(runIdValue()));
            c.set(c.featuresCol(), col);
            c.set(c.predictionCol(), (String) getOrDefault(predictionCol));
            return c.setParent(this);
        } catch (BudgetExceededException | BudgetLedger.LedgerException e) {
            throw failed(e);
        }
    }

    private List<String> classNames() {
        if (!isDefined(classes)) {
            throw new IllegalArgumentException("classes is not set: the class set is declared, never read from the rows");
        }
        List<String> names = List.of((String[]) getOrDefault(classes));
        if (names.isEmpty() || names.stream().anyMatch(String::isBlank) || new HashSet<>(names).size() != names.size()) {
            throw new IllegalArgumentException("classes: empty or repeated class in " + names);
        }
        return names;
    }

    /** The target's release, read and checked (public: what the target sent). */
    private TargetRelease release() {
        if (!isDefined(releasePath)) {
            throw new IllegalArgumentException("releasePath is not set: the target's release artifact");
        }
        String p = (String) getOrDefault(releasePath);
        try {
            return TargetRelease.fromArtifact(Artifact.read(java.nio.file.Path.of(p), "release"), p);
        } catch (ArtifactException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    @Override
    public PrimaSourceTrainer copy(ParamMap extra) {
        return defaultCopy(extra);
    }

    public static MLReader<PrimaSourceTrainer> read() {
        return new DefaultParamsReadable<PrimaSourceTrainer>() { }.read();
    }

    public static PrimaSourceTrainer load(String path) {
        return read().load(path);
    }
}
