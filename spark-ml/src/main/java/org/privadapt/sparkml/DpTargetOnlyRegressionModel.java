package org.privadapt.sparkml;

import org.apache.spark.ml.Model;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.ml.util.MLWritable;
import org.apache.spark.ml.util.MLWriter;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructType;
import org.privadapt.methods.artifacts.Artifact;
import org.privadapt.methods.artifacts.ArtifactException;
import org.privadapt.methods.bassily.DpTargetOnlyModel;

/**
 * dp-target-only's regression model as a fitted stage ({@link DpTargetOnlyRegressor#fit}): the averaged iterate w of
 * the noisy projected gradient descent (replace-one, n public; sensitivity 2G of each step's gradient sum, G = 2 r
 * (Lambda r + 1); T Gaussian steps composed exactly into one Gaussian: docs/privacy/bassily.md, "dp-target-only"), in
 * the artifact {@link DpTargetOnlyModel} writes (kind {@code model}, party {@code target}, with its privacy block).
 * {@link #transform} adds {@link #predictionCol()}: {@code w . x} on the rows as given, exactly the in-process
 * predictor ({@link DpTargetOnlyModel#predict}: no intercept or scaling but what the features carry; NaN for a row with
 * a missing or non-finite value). Each partition rebuilds the model from the artifact's bytes ({@link BlockPredictions});
 * predicting is post-processing of the DP output and charges nothing. {@code save} stores the artifact with the stage's
 * Params ({@link ArtifactIO}).
 */
public final class DpTargetOnlyRegressionModel extends Model<DpTargetOnlyRegressionModel> implements MLWritable {
    private static final long serialVersionUID = 1L;
    private final String uid;
    private final Artifact artifact;
    private final DpTargetOnlyModel model;
    private final Param<String> featuresCol;
    private final Param<String> predictionCol;

    /** The artifact is kept as read back from its bytes, so a fitted and a loaded model hold equal JSON. */
    DpTargetOnlyRegressionModel(String uid, Artifact artifact) {
        this.uid = uid;
        this.artifact = read(artifact.toBytes());
        this.model = model(this.artifact);
        featuresCol = new Param<>(this, "featuresCol", "the features: a Spark ML vector column or array<double>");
        predictionCol = new Param<>(this, "predictionCol", "the prediction w . x");
        setDefault(featuresCol, "features");
        setDefault(predictionCol, "prediction");
    }

    private static Artifact read(byte[] bytes) {
        try {
            return Artifact.parse("model", bytes, "model");
        } catch (ArtifactException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    private static DpTargetOnlyModel model(Artifact a) {
        try {
            return DpTargetOnlyModel.fromArtifact(a, "model");
        } catch (ArtifactException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    @Override
    public String uid() {
        return uid;
    }

    public Param<String> featuresCol() { return featuresCol; }
    public Param<String> predictionCol() { return predictionCol; }

    public DpTargetOnlyRegressionModel setFeaturesCol(String v) { set(featuresCol, v); return this; }
    public DpTargetOnlyRegressionModel setPredictionCol(String v) { set(predictionCol, v); return this; }

    /** The model (the DP output w and its public settings). */
    public DpTargetOnlyModel model() {
        return model;
    }

    /** The released weights w (a copy). */
    public double[] weights() {
        return model.w().clone();
    }

    /** The artifact with its privacy block. */
    public Artifact artifact() {
        return artifact;
    }

    /** False for seeded noise (the privacy block says NOT differentially private). */
    public boolean isPrivate() {
        return artifact.privacy().path("private").asBoolean(true);
    }

    @Override
    public StructType transformSchema(StructType schema) {
        return BlockPredictions.schema(schema, (String) getOrDefault(featuresCol), (String) getOrDefault(predictionCol));
    }

    @Override
    public Dataset<Row> transform(Dataset<?> dataset) {
        byte[] bytes = artifact.toBytes();
        return BlockPredictions.transform(dataset, (String) getOrDefault(featuresCol), (String) getOrDefault(predictionCol),
                model.dimension(), () -> model(read(bytes))::predict);
    }

    @Override
    public DpTargetOnlyRegressionModel copy(ParamMap extra) {
        DpTargetOnlyRegressionModel c = copyValues(new DpTargetOnlyRegressionModel(uid, artifact), extra);
        return c.setParent(parent());
    }

    @Override
    public MLWriter write() {
        return new ArtifactIO.Writer(this, artifact);
    }

    public static MLReader<DpTargetOnlyRegressionModel> read() {
        return ArtifactIO.reader(DpTargetOnlyRegressionModel.class, "model", DpTargetOnlyRegressionModel::new);
    }

    public static DpTargetOnlyRegressionModel load(String path) {
        return read().load(path);
    }
}
