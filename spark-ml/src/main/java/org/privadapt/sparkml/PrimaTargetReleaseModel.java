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
import org.privadapt.methods.prima.TargetRelease;

/**
 * PRIMA's target release as a fitted stage ({@link PrimaTargetRelease#fit}): the release artifact the CLI's
 * {@code target release} writes (the partition and the noisy subspace covariances, mean and sd, with the privacy
 * block). It is what the target sends to the source, not a predictor: {@link #transform} returns the rows unchanged.
 * {@link #writeArtifact} writes the artifact file {@code source train --release} reads; {@code save} stores it with the
 * stage's Params ({@link ArtifactIO}).
 */
public final class PrimaTargetReleaseModel extends Model<PrimaTargetReleaseModel> implements MLWritable {
    private static final long serialVersionUID = 1L;
    private final String uid;
    private final Artifact artifact;
    private final TargetRelease release;
    private final Param<String> featuresCol;

    PrimaTargetReleaseModel(String uid, Artifact artifact) {
        this.uid = uid;
        this.artifact = artifact;
        try {
            this.release = TargetRelease.fromArtifact(artifact, "release");
        } catch (ArtifactException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        featuresCol = new Param<>(this, "featuresCol", "the features column the release was made from");
        setDefault(featuresCol, "features");
    }

    @Override
    public String uid() {
        return uid;
    }

    public Param<String> featuresCol() {
        return featuresCol;
    }

    /** The release (post-processing of the target's DP releases only). */
    public TargetRelease release() {
        return release;
    }

    /** The artifact with its privacy block, as the CLI writes it. */
    public Artifact artifact() {
        return artifact;
    }

    /** False for seeded noise (the privacy block says NOT differentially private). */
    public boolean isPrivate() {
        return artifact.privacy().path("private").asBoolean(true);
    }

    /** Writes the artifact file (atomically), the CLI's {@code --out}: the source's {@code releasePath}. */
    public void writeArtifact(java.nio.file.Path file) throws java.io.IOException {
        artifact.write(file);
    }

    /** The rows unchanged: a release is sent, not applied. */
    @Override
    public Dataset<Row> transform(Dataset<?> dataset) {
        return dataset.toDF();
    }

    @Override
    public StructType transformSchema(StructType schema) {
        return schema;
    }

    @Override
    public PrimaTargetReleaseModel copy(ParamMap extra) {
        PrimaTargetReleaseModel c = copyValues(new PrimaTargetReleaseModel(uid, artifact), extra);
        return c.setParent(parent());
    }

    @Override
    public MLWriter write() {
        return new ArtifactIO.Writer(this, artifact);
    }

    public static MLReader<PrimaTargetReleaseModel> read() {
        return ArtifactIO.reader(PrimaTargetReleaseModel.class, "release", PrimaTargetReleaseModel::new);
    }

    public static PrimaTargetReleaseModel load(String path) {
        return read().load(path);
    }
}
