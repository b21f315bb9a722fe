package org.privadapt.sparkml;

import java.util.List;
import org.apache.spark.ml.Model;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.ml.util.MLWritable;
import org.apache.spark.ml.util.MLWriter;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructType;
import org.privadapt.data.preprocess.Preprocessing;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.artifacts.Artifact;
import org.privadapt.methods.artifacts.ArtifactException;
import org.privadapt.methods.prima.SourceModel;

/**
 * The source's DP model as a fitted stage ({@link PrimaSourceTrainer#fit}): the model artifact the CLI's
 * {@code source train} writes (with its privacy block), applied to rows as {@code target predict} applies it: each
 * row preprocessed with the release's row-local preprocessing, then the model's prediction, added as
 * {@link #predictionCol()}: the predicted class's index in {@link #classes()} (a double, Spark ML's convention; NaN for a
 * row with a missing or non-finite value). Each partition rebuilds the model from the artifact's bytes, as the spark
 * module's predictions do ({@link BlockPredictions}); predicting is post-processing of the DP model and charges nothing.
 */
public final class PrimaSourceClassifier extends Model<PrimaSourceClassifier> implements MLWritable {
    private static final long serialVersionUID = 1L;
    private final String uid;
    private final Artifact artifact;
    private final SourceModel model;
    private final Param<String> featuresCol;
    private final Param<String> predictionCol;

    PrimaSourceClassifier(String uid, Artifact artifact) {
        this.uid = uid;
        this.artifact = artifact;
        this.model = parse(artifact.toBytes());
        featuresCol = new Param<>(this, "featuresCol", "the features: a Spark ML vector column or array<double>");
        predictionCol = new Param<>(this, "predictionCol", "the predicted class's index in classes");
        setDefault(featuresCol, "features");
        setDefault(predictionCol, "prediction");
    }

    private static SourceModel parse(byte[] bytes) {
        SourceModel m;
        try {
            m = SourceModel.fromArtifact(Artifact.parse("model", bytes, "model"), "model");
        } catch (ArtifactException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        if (m.multiLabel()) {
            throw new IllegalArgumentException("model: a multi-label model (one binary model per label) has no single prediction "
                    + "column; apply it in process (privadapt target predict)");
        }
        return m;
    }

    @Override
    public String uid() {
        return uid;
    }

    public Param<String> featuresCol() { return featuresCol; }
    public Param<String> predictionCol() { return predictionCol; }

    public PrimaSourceClassifier setFeaturesCol(String v) { set(featuresCol, v); return this; }
    public PrimaSourceClassifier setPredictionCol(String v) { set(predictionCol, v); return this; }

    /** The model (post-processing of the source's DP releases). */
    public SourceModel model() {
        return model;
    }

    /** The artifact with its privacy block, as the CLI writes it. */
    public Artifact artifact() {
        return artifact;
    }

    /** The class names, in the order of the prediction's indices. */
    public List<String> classes() {
        return model.classNames();
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
        String pre = model.preprocessing();
        return BlockPredictions.transform(dataset, (String) getOrDefault(featuresCol), (String) getOrDefault(predictionCol),
                model.dimension(), () -> {
                    SourceModel m = parse(bytes);
                    Preprocessing steps = Preprocessing.parse(pre);
                    return x -> classes(m, steps, x);
                });
    }

    /** A block's predicted class indices (as doubles), each row preprocessed with the release's row-local preprocessing. */
    private static double[] classes(SourceModel m, Preprocessing steps, DenseMatrix raw) {
        DenseMatrix x = steps.steps().isEmpty() ? raw
                : steps.fitAndApply(new org.privadapt.data.Dataset("spark-partition", raw, null, null, null)).features().toDense();
        return java.util.Arrays.stream(m.predict(x)).asDoubleStream().toArray();
    }

    @Override
    public PrimaSourceClassifier copy(ParamMap extra) {
        PrimaSourceClassifier c = copyValues(new PrimaSourceClassifier(uid, artifact), extra);
        return c.setParent(parent());
    }

    @Override
    public MLWriter write() {
        return new ArtifactIO.Writer(this, artifact);
    }

    public static MLReader<PrimaSourceClassifier> read() {
        return ArtifactIO.reader(PrimaSourceClassifier.class, "model", PrimaSourceClassifier::new);
    }

    public static PrimaSourceClassifier load(String path) {
        return read().load(path);
    }
}
