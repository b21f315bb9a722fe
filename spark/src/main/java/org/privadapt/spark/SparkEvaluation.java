package org.privadapt.spark;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.artifacts.Artifact;
import org.privadapt.methods.artifacts.ArtifactException;
import org.privadapt.methods.prima.SourceModel;

/**
 * The target's evaluation of a received PRIMA/PRISA model on its labelled rows where they are: each partition
 * rebuilds the model from its artifact's bytes (the artifact the source shipped), predicts its rows in blocks
 * ({@link SourceModel#predict}, row-local: the release's standardisation and maps) and counts the rows predicted
 * their own label; the driver adds the counts. Not a release: the accuracy stays with the target, as in process.
 */
public final class SparkEvaluation {
    private SparkEvaluation() {
    }

    /** Rows per prediction block. */
    static final int BLOCK = 1024;

    /** As {@link #correct(SparkTable, SourceModel, String)} for a network (a source model of dp-source-only). */
    public static long[] correct(SparkTable target, org.privadapt.models.nn.Network model) {
        if (target.dimension() != model.sizes()[0]) {
            throw new IllegalArgumentException("the target has " + target.dimension() + " features; the model is for " + model.sizes()[0]);
        }
        SparkDpGd.Params params = SparkDpGd.Params.of(model);
        return count(target, model.classNames(), () -> {
            org.privadapt.models.nn.Network net = params.network();
            return net::predict;
        });
    }

    /**
     * As {@link #correct(SparkTable, SourceModel, String)} for a logistic regression (a non-private baseline's
     * classifier) applied to the rows mapped by {@code map} where they are (SA's target basis; null: the rows as they
     * are).
     */
    public static long[] correct(SparkTable target, org.privadapt.models.LogisticRegression model, DenseMatrix map) {
        if (!target.labelled()) {
            throw new IllegalArgumentException("the evaluation needs the target's label column");
        }
        int mapped = map == null ? target.dimension() : map.cols();
        if ((map != null && map.rows() != target.dimension()) || mapped != model.dimension()) {
            throw new IllegalArgumentException("the target has " + target.dimension() + " features" + (map == null ? ""
                    : ", mapped to " + mapped) + "; the model is for " + model.dimension());
        }
        double[] w = model.weights().data().clone();
        int k = model.weights().cols();
        double[] b = model.bias().clone();
        List<String> names = List.copyOf(model.classNames());
        double[] mapData = map == null ? null : map.data().clone();
        int mapRows = map == null ? 0 : map.rows();
        return count(target, names, () -> {
            org.privadapt.models.LogisticRegression m = new org.privadapt.models.LogisticRegression(
                    new DenseMatrix(mapped, k, w), b, names);
            DenseMatrix a = mapData == null ? null : new DenseMatrix(mapRows, mapped, mapData);
            return block -> m.predict(a == null ? block : org.privadapt.math.LinAlg.multiply(block, a));
        });
    }

    /** The number of rows whose label the model predicts, and the number of rows: {@code {correct, rows}}. */
    public static long[] correct(SparkTable target, SourceModel model, String runId) {
        if (!target.labelled()) {
            throw new IllegalArgumentException("the evaluation needs the target's label column");
        }
        if (target.dimension() != model.dimension()) {
            throw new IllegalArgumentException("the target has " + target.dimension() + " features; the model is for " + model.dimension());
        }
        byte[] artifact = model.toArtifact(runId).toBytes();
        return count(target, model.classNames(), () -> {
            SourceModel m;
            try {
                m = SourceModel.fromArtifact(Artifact.parse("model", artifact, "model"), "model");
            } catch (ArtifactException e) {
                throw new IllegalStateException("the model's artifact did not parse on an executor: " + e.getMessage(), e);
            }
            return m::predict;
        });
    }

    /** Builds, on an executor, the predictor of blocks of rows. */
    @FunctionalInterface
    interface Predictors extends java.io.Serializable {
        java.util.function.Function<DenseMatrix, int[]> make();
    }

    private static long[] count(SparkTable target, List<String> names, Predictors predictors) {
        int d = target.dimension();
        Map<String, Integer> index = new HashMap<>();
        for (int c = 0; c < names.size(); c++) {
            index.put(names.get(c), c);
        }
        int block = Math.min(BLOCK, RowAggregation.blockRows(d)); // wide rows: fewer per block
        List<long[]> parts = target.rows().javaRDD().mapPartitions((Iterator<Row> it) -> {
            java.util.function.Function<DenseMatrix, int[]> m = predictors.make();
            long[] counts = new long[3]; // correct, rows, labels outside the model's classes
            List<double[]> rows = new ArrayList<>(block);
            List<Integer> truth = new ArrayList<>(block);
            while (it.hasNext()) {
                Row r = it.next();
                rows.add(SparkTable.features(r, d));
                Integer c = SparkTable.label(r) == null ? null : index.get(SparkTable.label(r));
                truth.add(c == null ? -1 : c);
                if (rows.size() == block || !it.hasNext()) {
                    int[] pred = m.apply(DenseMatrix.fromRows(rows.toArray(new double[0][])));
                    for (int i = 0; i < pred.length; i++) {
                        counts[0] += pred[i] == truth.get(i) ? 1 : 0;
                        counts[2] += truth.get(i) < 0 ? 1 : 0;
                    }
                    counts[1] += pred.length;
                    rows.clear();
                    truth.clear();
                }
            }
            List<long[]> one = new ArrayList<>(1);
            one.add(counts);
            return one.iterator();
        }).collect();
        long[] total = new long[3];
        for (long[] p : parts) {
            for (int k = 0; k < 3; k++) {
                total[k] += p[k];
            }
        }
        if (total[2] > 0) {
            throw new IllegalArgumentException(total[2] + " target row(s) have a label outside the model's classes " + names);
        }
        return new long[] {total[0], total[1]};
    }
}
