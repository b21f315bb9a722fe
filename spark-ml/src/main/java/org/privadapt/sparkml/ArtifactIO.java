package org.privadapt.sparkml;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.ml.param.Params;
import org.apache.spark.ml.util.DefaultParamsReader;
import org.apache.spark.ml.util.DefaultParamsReader$;
import org.apache.spark.ml.util.DefaultParamsWriter$;
import org.apache.spark.ml.util.MLWriter;
import org.apache.spark.sql.SparkSession;
import org.privadapt.methods.artifacts.Artifact;
import org.privadapt.methods.artifacts.ArtifactException;

/**
 * A model stage on disk: Spark ML's own metadata (class, uid, Params: {@code metadata/}, written and read by Spark's
 * {@code DefaultParamsWriter}/{@code DefaultParamsReader}, so a {@code PipelineModel} saves and loads it) and the
 * project's artifact, byte for byte as the CLI writes it ({@code artifact.json}: the typed, versioned
 * {@code privadapt-artifact} JSON with its privacy block and checksum), read back with the artifact's own checks.
 * The path is a Hadoop path (local, HDFS, an object store), as Spark ML's persistence takes.
 */
final class ArtifactIO {
    static final String FILE = "artifact.json";

    private ArtifactIO() {
    }

    /** Saves a model's Params and artifact. */
    static final class Writer extends MLWriter {
        private final Params stage;
        private final Artifact artifact;

        Writer(Params stage, Artifact artifact) {
            this.stage = stage;
            this.artifact = artifact;
        }

        @Override
        public void saveImpl(String path) {
            DefaultParamsWriter$.MODULE$.saveMetadata(stage, path, sparkSession());
            Path file = new Path(path, FILE);
            try {
                FileSystem fs = file.getFileSystem(sparkSession().sparkContext().hadoopConfiguration());
                try (OutputStream out = fs.create(file, true)) {
                    out.write(artifact.toBytes());
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(path + ": cannot write the artifact", e);
            }
        }
    }

    /** The artifact saved at {@code path}, checked (format, version, checksum) and of {@code kind}. */
    static Artifact artifact(SparkSession spark, String path, String kind) {
        Path file = new Path(path, FILE);
        try {
            FileSystem fs = file.getFileSystem(spark.sparkContext().hadoopConfiguration());
            byte[] bytes;
            try (InputStream in = fs.open(file)) {
                bytes = in.readAllBytes();
            }
            return Artifact.parse(file.toString(), bytes, kind);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(path + ": cannot read the artifact", e);
        } catch (ArtifactException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** Spark ML's metadata at {@code path} for {@code className}: its uid, and its Params set on {@code stage}. */
    static DefaultParamsReader.Metadata metadata(SparkSession spark, String path, String className) {
        return DefaultParamsReader$.MODULE$.loadMetadata(path, spark, className);
    }

    static void setParams(DefaultParamsReader.Metadata m, Params stage) {
        m.getAndSetParams(stage, m.getAndSetParams$default$2());
    }

    /**
     * The reader of a model stage of class {@code type} written by {@link Writer}: its artifact (of {@code kind}) made
     * into the stage by {@code make} (uid, artifact), then its Params set from Spark ML's metadata.
     */
    static <M extends Params> org.apache.spark.ml.util.MLReader<M> reader(Class<M> type, String kind,
            java.util.function.BiFunction<String, Artifact, M> make) {
        return new org.apache.spark.ml.util.MLReader<>() {
            @Override
            public M load(String path) {
                DefaultParamsReader.Metadata m = metadata(sparkSession(), path, type.getName());
                M stage = make.apply(m.uid(), artifact(sparkSession(), path, kind));
                setParams(m, stage);
                return stage;
            }
        };
    }
}
