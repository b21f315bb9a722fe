package org.privadapt.spark;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.methods.artifacts.Artifact;
import org.privadapt.methods.artifacts.ArtifactException;
import org.privadapt.methods.prima.SourceModel;

/**
 * The target's evaluation of a received PRIMA/PRISA model on its labelled rows where they are: each partition
 * rebuilds the model from its artifact's bytes (the artifact the source shipped), predicts its rows in blocks
 * ({@link SourceModel#predict}, row-local: the release's standardisation and maps) and counts the rows predicted
 * their own label (one aggregate: a features column read block by block as the releases read it); the driver adds the counts. Not a release: the accuracy stays with the target, as in process.
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
        return count(target, model.classNames(), true, () -> { // a network predicts a sparse block as it is
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
        return count(target, names, false, () -> {
            org.privadapt.models.LogisticRegression m = new org.privadapt.models.LogisticRegression(
                    new DenseMatrix(mapped, k, w), b, names);
            DenseMatrix a = mapData == null ? null : new DenseMatrix(mapRows, mapped, mapData);
            return block -> m.predict(a == null ? block : org.privadapt.math.LinAlg.multiply(block.toDense(), a));
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
        return count(target, model.classNames(), false, () -> {
            SourceModel m;
            try {
                m = SourceModel.fromArtifact(Artifact.parse("model", artifact, "model"), "model");
            } catch (ArtifactException e) {
                throw new IllegalStateException("the model's artifact did not parse on an executor: " + e.getMessage(), e);
            }
            return block -> m.predict(block.toDense());
        });
    }

    /** Builds, on an executor, the predictor of blocks of rows. */
    @FunctionalInterface
    interface Predictors extends java.io.Serializable {
        java.util.function.Function<FeatureMatrix, int[]> make();
    }

    /** {@code sparse}: the predictor takes a sparse block ({@link SparseBlock#toCsr}) as it is, at its non-zeros' cost. */
    private static long[] count(SparkTable target, List<String> names, boolean sparse, Predictors predictors) {
        List<String> classes = List.copyOf(names);
        CountAcc total = RowAggregation.aggregate(target, () -> new CountAcc(classes, predictors, sparse));
        if (total.outside > 0) {
            throw new IllegalArgumentException(total.outside + " target row(s) have a label outside the model's classes " + names);
        }
        return new long[] {total.correct, total.rows};
    }

    /**
     * Per partition: the rows predicted a block at a time (as the table's aggregates read them: a features column's
     * vectors preprocessed block by block) and counted against their labels; the model built once per partition.
     */
    static final class CountAcc implements RowAggregation.Accumulator<CountAcc> {
        private static final long serialVersionUID = 1L;
        private final List<String> names;
        private final Predictors predictors;
        private final boolean sparse;
        private transient java.util.function.Function<FeatureMatrix, int[]> model;
        private transient Map<String, Integer> index;
        long correct;
        long rows;
        long outside;

        CountAcc(List<String> names, Predictors predictors, boolean sparse) {
            this.names = names;
            this.predictors = predictors;
            this.sparse = sparse;
        }

        @Override
        public void add(double[] features, String label) {
            addBlock(new double[][] {features}, new String[] {label}, 1);
        }

        @Override
        public void addBlock(double[][] block, String[] labels, int m) {
            tally(predictor().apply(DenseMatrix.fromRows(java.util.Arrays.copyOf(block, m))), labels, m);
        }

        @Override
        public boolean takesSparseBlocks() {
            return sparse;
        }

        @Override
        public void addSparseBlock(SparseBlock block, String[] labels) {
            tally(predictor().apply(block.toCsr()), labels, block.rows());
        }

        private java.util.function.Function<FeatureMatrix, int[]> predictor() {
            if (model == null) {
                model = predictors.make();
                index = new HashMap<>();
                for (int c = 0; c < names.size(); c++) {
                    index.put(names.get(c), c);
                }
            }
            return model;
        }

        private void tally(int[] pred, String[] labels, int m) {
            for (int i = 0; i < m; i++) {
                Integer c = labels == null || labels[i] == null ? null : index.get(labels[i]);
                if (c == null) {
                    outside++;
                } else if (pred[i] == c) {
                    correct++;
                }
            }
            rows += m;
        }

        @Override
        public void merge(CountAcc other) {
            correct += other.correct;
            rows += other.rows;
            outside += other.outside;
        }
    }
}
