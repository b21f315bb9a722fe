package org.privadapt.sparkml;

import java.util.List;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.DefaultParamsReadable;
import org.apache.spark.ml.util.DefaultParamsWritable;
import org.apache.spark.ml.util.Identifiable$;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.storage.StorageLevel;
import org.privadapt.methods.bassily.DpTargetOnlyModel;
import org.privadapt.methods.bassily.NoisyGradientDescent;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.ledger.BudgetLedger;
import org.privadapt.privacy.ledger.LedgerPrecheck;
import org.privadapt.spark.SparkBassily;
import org.privadapt.spark.SparkTable;
import org.privadapt.spark.SparkVectors;

/**
 * Paper 003's target-only DP baseline, {@code dp-target-only} (regression), as a Spark ML estimator: {@code fit} runs on
 * the target's labelled rows the noisy projected gradient descent on the squared loss that the CLI's {@code run
 * --engine spark --method dp-target-only} runs on its private training rows ({@link SparkBassily#fitSquaredLoss}: each
 * step's exact gradient sum an aggregate where the rows are, the noise on the driver; no row comes to the driver).
 * <ul>
 *   <li><b>Neighbouring relation:</b> replace one target record, n public (the only one: {@link #relation()} defaults to
 *       {@code replace}, and any other is refused in one exception before the ledger or a row is read).</li>
 *   <li><b>Sensitivity:</b> each row is clipped to L2 norm {@link #rowBound()} r and each target to [-1, 1], w stays in
 *       the ball of radius {@link #radius()} Lambda, so one row's gradient {@code 2 (w.x - y) x} has norm at most
 *       G = 2 r (Lambda r + 1) and the per-step gradient sum moves by at most 2G.</li>
 *   <li><b>Mechanism and composition:</b> each of the {@link #iterations()} T steps adds N(0, (nu 2G)^2 I) to the sum;
 *       the T adaptive Gaussian releases compose exactly into one Gaussian of multiplier nu / sqrt(T), nu calibrated
 *       for (epsilon, delta) by the analytic Gaussian mechanism; the averaged iterate w is released
 *       (docs/privacy/bassily.md, "dp-target-only").</li>
 *   <li><b>Charge:</b> as the CLI's: the ledger verified and a spent one refused, then the plan (public settings only)
 *       checked against the remaining budget, before any row is read; the rows checked (a missing or non-finite
 *       feature, a row of another length, a missing label or one that is not a number refused, nothing charged);
 *       then one atomic charge of the plan's one release ({@link NoisyGradientDescent#charge}) before any noise.</li>
 * </ul>
 * The in-process method chooses Lambda and T by a simulation on public validation rows; a stage has none, so they
 * are public settings given here (defaults 4 and 200). Nothing is fitted on the rows: scale rows and targets with
 * public constants (and add a constant feature for an intercept) before the stage, or the clipping biases the fit.
 * Secure noise unless {@link #seed()} is set (then the model says NOT differentially private).
 */
public final class DpTargetOnlyRegressor extends PartyParams<DpTargetOnlyRegressionModel> implements DefaultParamsWritable {
    private static final long serialVersionUID = 1L;
    private final Param<String> labelCol;
    private final Param<String> predictionCol;
    private final DoubleParam radius;
    private final IntParam iterations;
    private final DoubleParam rowBound;

    public DpTargetOnlyRegressor() {
        this(Identifiable$.MODULE$.randomUID("dpTargetOnlyRegressor"));
    }

    public DpTargetOnlyRegressor(String uid) {
        super(uid, "target");
        labelCol = new Param<>(this, "labelCol", "the label column: the real target (a number; clipped to [-1, 1] in training)");
        predictionCol = new Param<>(this, "predictionCol", "the model's output column: w . x");
        radius = new DoubleParam(this, "radius", "Lambda: the descent stays in the ball ||w|| <= Lambda (> 0; the CLI's --param radius)");
        iterations = new IntParam(this, "iterations", "T: the number of full-batch noisy steps (>= 1; the CLI's --param iterations)");
        rowBound = new DoubleParam(this, "rowBound", "r: each row is clipped to L2 norm r in training (> 0; the method's 1)");
        setDefault(labelCol, "label");
        setDefault(predictionCol, "prediction");
        setDefault(radius, 4.0);
        setDefault(iterations, 200);
        setDefault(rowBound, 1.0);
        setDefault(relation(), "replace");
    }

    public Param<String> labelCol() { return labelCol; }
    public Param<String> predictionCol() { return predictionCol; }
    public DoubleParam radius() { return radius; }
    public IntParam iterations() { return iterations; }
    public DoubleParam rowBound() { return rowBound; }

    public DpTargetOnlyRegressor setFeaturesCol(String v) { set(featuresCol(), v); return this; }
    public DpTargetOnlyRegressor setLabelCol(String v) { set(labelCol, v); return this; }
    public DpTargetOnlyRegressor setPredictionCol(String v) { set(predictionCol, v); return this; }
    public DpTargetOnlyRegressor setRadius(double v) { set(radius, v); return this; }
    public DpTargetOnlyRegressor setIterations(int v) { set(iterations, v); return this; }
    public DpTargetOnlyRegressor setRowBound(double v) { set(rowBound, v); return this; }
    public DpTargetOnlyRegressor setEpsilon(double v) { set(epsilon(), v); return this; }
    public DpTargetOnlyRegressor setDelta(double v) { set(delta(), v); return this; }
    public DpTargetOnlyRegressor setRelation(String v) { set(relation(), v); return this; }
    public DpTargetOnlyRegressor setLedgerPath(String v) { set(ledgerPath(), v); return this; }
    public DpTargetOnlyRegressor setLedgerBudget(double v) { set(ledgerBudget(), v); return this; }
    public DpTargetOnlyRegressor setParty(String v) { set(party(), v); return this; }
    public DpTargetOnlyRegressor setSeed(long v) { set(seed(), v); return this; }
    public DpTargetOnlyRegressor setRunId(String v) { set(runId(), v); return this; }
    public DpTargetOnlyRegressor setNumFeatures(int v) { set(numFeatures(), v); return this; }

    @Override
    public DpTargetOnlyRegressionModel fit(Dataset<?> dataset) {
        Dataset<Row> df = dataset.toDF();
        String col = features();
        String label = (String) getOrDefault(labelCol);
        transformSchema(df.schema());
        // before anything is read (the ledger included): the only relation the descent's analysis covers
        if (NeighbouringRelation.fromId((String) getOrDefault(relation())) != NeighbouringRelation.REPLACE_ONE) {
            throw new IllegalArgumentException("dp-target-only protects the target under replace-one (n public; its gradient "
                    + "sum's sensitivity 2G is for one row replaced): set relation to replace, not " + getOrDefault(relation()));
        }
        if (((String[]) getOrDefault(methodParams())).length > 0) {
            throw new IllegalArgumentException("methodParams: dp-target-only's stage takes its settings as the radius, iterations "
                    + "and rowBound Params");
        }
        double lambda = (Double) getOrDefault(radius);
        double r = (Double) getOrDefault(rowBound);
        long t = (Integer) getOrDefault(iterations);
        SparkTable table = null;
        try {
            // before any row is read: the ledger verified (opening the session), a spent one refused, then the plan
            // (public settings only: it needs neither d nor n) against this fit's epsilon and the ledger's remainder
            PrivacySession session = session("target");
            LedgerPrecheck.check(session, ledgerFile(), null);
            LedgerPrecheck.check(session, ledgerFile(), NoisyGradientDescent.plan(lambda, r, t, session).releases());
            int d = FeatureColumns.dimension(df, col, declaredDimension());
            // the T steps read the rows T times: kept where they are (executors' memory or disk) for the fit
            table = SparkVectors.table(df, col, d, label);
            table = new SparkTable(table.rows().persist(StorageLevel.MEMORY_AND_DISK()), table.featureNames(), label);
            deltaPolicy(table.rows().count());
            // the rows checked (refused before the charge), the one charge, then the T noisy steps
            NoisyGradientDescent.Result res = SparkBassily.fitSquaredLoss(table, lambda, r, t, session);
            warnIfSeeded(session, "the target's dp-target-only model");
            DpTargetOnlyRegressionModel model = new DpTargetOnlyRegressionModel(uid(),
                    DpTargetOnlyModel.of(res, lambda, r, t, session, runIdValue()).toArtifact());
            model.set(model.featuresCol(), col);
            model.set(model.predictionCol(), (String) getOrDefault(predictionCol));
            return model.setParent(this);
        } catch (BudgetExceededException | BudgetLedger.LedgerException e) {
            throw failed(e);
        } finally {
            if (table != null) {
                table.rows().unpersist();
            }
        }
    }

    @Override
    public StructType transformSchema(StructType schema) {
        String label = (String) getOrDefault(labelCol);
        if (!List.of(schema.fieldNames()).contains(label)) {
            throw new IllegalArgumentException("no label column '" + label + "' (columns: " + String.join(", ", schema.fieldNames()) + ")");
        }
        return BlockPredictions.schema(schema, features(), (String) getOrDefault(predictionCol));
    }

    @Override
    public DpTargetOnlyRegressor copy(ParamMap extra) {
        return defaultCopy(extra);
    }

    public static MLReader<DpTargetOnlyRegressor> read() {
        return new DefaultParamsReadable<DpTargetOnlyRegressor>() { }.read();
    }

    public static DpTargetOnlyRegressor load(String path) {
        return read().load(path);
    }
}
