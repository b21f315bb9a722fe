package org.privadapt.spark;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.storage.StorageLevel;
import org.privadapt.math.DenseMatrix;
import org.privadapt.models.dp.NoiseAndSampling;
import org.privadapt.models.dp.StackDpSgdTrainer;
import org.privadapt.models.dp.Targets;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.graph.DenseLayer;
import org.privadapt.models.nn.graph.EncoderClassifier;
import org.privadapt.models.nn.graph.Stack;

/**
 * DP-SGD of an encoder + classifier ({@link StackDpSgdTrainer}, paper 004's source model) on Spark, with true Poisson
 * sampling, as {@link SparkDpSgd} does for the plain network: the rows cached on the executors as one primitive block
 * per partition ({@link SparkDpSgd#cache}); each step the batch is the in-process trainer's own (one Bernoulli draw per
 * record from the party's noise, on the driver, in
 * {@link StackDpSgdTrainer#train(EncoderClassifier, int, StackDpSgdTrainer.BatchSums, StackDpSgdTrainer.Config,
 * NoiseAndSampling)}), its indices and the current network (plain arrays) go to the executors in the task's closure,
 * and each partition sums the jointly clipped per-example gradients of the sampled rows it holds
 * ({@link StackDpSgdTrainer#clippedSum} on them: the in-process per-example code on a block) into compensated sums,
 * merged on the driver in partition order. The noise, the normalisation by q n, weight decay and the optimiser step are
 * the driver's, the in-process loop. With the same seeded noise and the rows in the same order the trained network
 * equals the in-process one (within rounding: the partitions' sums are merged, compensated). One Spark job per step.
 *
 * <p>Single-label targets (softmax cross-entropy), the labels coded by their position in the public, given class list
 * (never read from the rows); multi-label targets are in process only. The plan and its charge
 * ({@link StackDpSgdTrainer#event} for the public n) are the caller's.
 *
 * <p>{@link #features} maps every row through a trained encoder where the rows are (for DP-EM on its features,
 * {@link SparkGmmUdaSource}).
 */
public final class SparkStackDpSgd {
    /** Rows per in-memory chunk when mapping rows through an encoder on an executor. */
    static final int CHUNK = 1024;

    private SparkStackDpSgd() {
    }

    /**
     * DP-SGD on the table's rows from a copy of {@code init}: refuses (before any draw) an unlabelled table, no rows, a
     * missing or non-finite feature, a missing label or one outside {@code classes}, and a network whose input or output
     * size does not fit; caches the rows for the run, trains, releases them. The caller has charged
     * {@link StackDpSgdTrainer#event(StackDpSgdTrainer.Config, int)} for n = the table's row count (public).
     */
    public static StackDpSgdTrainer.Result train(EncoderClassifier init, SparkTable table, List<String> classes, StackDpSgdTrainer.Config c,
                                                 NoiseAndSampling rnd) {
        requireFits(init, table, classes);
        try (SparkDpSgd.Cached cached = SparkDpSgd.cache(table, classes, StorageLevel.MEMORY_AND_DISK())) { // checked in that pass
            return train(init, cached, c, rnd);
        }
    }

    /**
     * Refuses a table and classes that do not fit {@code init} (before any pass over the rows): an unlabelled table,
     * fewer than two or repeated classes, classes other than the network's outputs, a dimension other than its input.
     */
    public static void requireFits(EncoderClassifier init, SparkTable table, List<String> classes) {
        requireClasses(table, classes);
        if (init.outputs() != classes.size()) {
            throw new IllegalArgumentException("the network has " + init.outputs() + " outputs for " + classes.size() + " classes");
        }
        if (init.in() != table.dimension()) {
            throw new IllegalArgumentException("the encoder takes " + init.in() + " features, the table has " + table.dimension());
        }
    }

    /** Refuses an unlabelled table, and fewer than two, repeated or null classes (before any pass over the rows). */
    static void requireClasses(SparkTable table, List<String> classes) {
        if (!table.labelled()) {
            throw new IllegalArgumentException("the encoder and classifier need a label column");
        }
        if (classes.size() < 2 || classes.stream().anyMatch(java.util.Objects::isNull) || classes.stream().distinct().count() != classes.size()) {
            throw new IllegalArgumentException("need at least two distinct classes (given, public), got " + classes);
        }
    }

    /**
     * DP-SGD on cached rows (labels coded below {@code init.outputs()}) from a copy of {@code init}; n is
     * {@code cached.rows()}, public, and its event already charged.
     */
    public static StackDpSgdTrainer.Result train(EncoderClassifier init, SparkDpSgd.Cached cached, StackDpSgdTrainer.Config c,
                                                 NoiseAndSampling rnd) {
        if (init.in() != cached.dimension()) {
            throw new IllegalArgumentException("the encoder takes " + init.in() + " features, the rows have " + cached.dimension());
        }
        if (cached.rows() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("at most " + Integer.MAX_VALUE + " rows, got " + cached.rows());
        }
        double q = StackDpSgdTrainer.samplingRate(c, (int) cached.rows());
        return StackDpSgdTrainer.train(init, (int) cached.rows(), batchSums(cached, c.clipNorm(), c.maxPhysicalBatch(), q), c, rnd);
    }

    /**
     * {@link #batchSums(SparkDpSgd.Cached, double, int)} at rate q, drawing ahead where the randomness allows it (as
     * {@link SparkDpSgd#batchSums(SparkDpSgd.Cached, double, int, double)}): a window's steps are summed on the driver on
     * its fetched rows ({@link StackDpSgdTrainer#clippedSum}, the in-process code), the others on the executors.
     */
    public static StackDpSgdTrainer.BatchSums batchSums(SparkDpSgd.Cached cached, double clip, int physicalBatch, double q) {
        return batchSums(cached, clip, physicalBatch, GatheredBatches.of(cached, q));
    }

    /** The windowed sums with a given window (the tests' hook). */
    static StackDpSgdTrainer.BatchSums batchSums(SparkDpSgd.Cached cached, double clip, int physicalBatch, GatheredBatches gathered) {
        StackDpSgdTrainer.BatchSums onExecutors = batchSums(cached, clip, physicalBatch);
        return new StackDpSgdTrainer.BatchSums() {
            @Override
            public StackDpSgdTrainer.ClippedSum sum(EncoderClassifier model, int[] batch, long step) {
                GatheredBatches.Local local = gathered.local(batch, step);
                return local == null ? onExecutors.sum(model, batch, step)
                        : StackDpSgdTrainer.clippedSum(model, local.x(), Targets.classes(local.codes()), local.batch(), clip,
                        physicalBatch, step);
            }

            @Override
            public org.privadapt.models.dp.PoissonBatches.Lookahead lookahead() {
                return gathered.window() > 1 ? gathered : null;
            }
        };
    }

    /**
     * Each step's exact query on the cached rows: the sum over the sampled rows (indices in the table's order,
     * increasing) of the per-example gradients of the current network over every trainable parameter, each clipped
     * jointly to {@code clip} ({@link StackDpSgdTrainer#clippedSum} on each partition's sampled rows, in physical
     * chunks of {@code physicalBatch}), summed per partition and merged on the driver in partition order
     * (compensated).
     */
    public static StackDpSgdTrainer.BatchSums batchSums(SparkDpSgd.Cached cached, double clip, int physicalBatch) {
        return (model, batch, step) -> {
            Model params = Model.of(model);
            SparkDpSgd.Part total = SparkDpSgd.sampledSum(cached, batch, params.trainableParameterCount(), (x, y) -> {
                EncoderClassifier m = params.model();
                Targets t = Targets.classes(y);
                t.check(m.outputs());
                int[] all = new int[y.length];
                for (int k = 0; k < all.length; k++) {
                    all[k] = k;
                }
                StackDpSgdTrainer.ClippedSum s = StackDpSgdTrainer.clippedSum(m, x, t, all, clip, physicalBatch, step);
                return new SparkDpSgd.Summed(s.sum(), s.lossSum());
            });
            double[][] sum = params.zerosLikeTrainable();
            total.into(sum);
            return new StackDpSgdTrainer.ClippedSum(sum, total.loss.value(0));
        };
    }

    /**
     * The table's rows mapped through {@code model}'s encoder on the executors (a chunk of rows at a time, through
     * {@link EncoderClassifier#features}, the in-process map): an unlabelled table of the encoder's width, features
     * named {@code e0, e1, ...}. Lazy: each pass over it maps the rows again (persist it to map them once).
     */
    public static SparkTable features(SparkTable table, EncoderClassifier model) {
        if (model.in() != table.dimension()) {
            throw new IllegalArgumentException("the encoder takes " + model.in() + " features, the table has " + table.dimension());
        }
        Model params = Model.of(model);
        int d = table.dimension();
        int width = model.encoder().out();
        List<String> names = new ArrayList<>();
        for (int j = 0; j < width; j++) {
            names.add("e" + j);
        }
        return ChunkedRows.map(table, names, false, CHUNK, () -> params.model()::features);
    }

    /** One dense layer's parameters as plain arrays (serializable). */
    record Layer(int in, int out, double[] weights, double[] bias, Activation activation, boolean frozen) implements Serializable {
        static Layer of(DenseLayer l) {
            return new Layer(l.in(), l.out(), l.weights().data().clone(), l.bias().clone(), l.activation(), l.frozen());
        }

        DenseLayer layer() {
            DenseLayer l = DenseLayer.over(new DenseMatrix(in, out, weights.clone()), bias.clone(), activation);
            return frozen ? l.freeze() : l;
        }
    }

    /** An encoder + classifier as plain arrays (serializable), rebuilt into the same network on an executor. */
    record Model(List<Layer> encoder, List<Layer> classifier) implements Serializable {
        static Model of(EncoderClassifier m) {
            return new Model(new ArrayList<>(m.encoder().layers().stream().map(Layer::of).toList()),
                    new ArrayList<>(m.classifier().layers().stream().map(Layer::of).toList()));
        }

        EncoderClassifier model() {
            return new EncoderClassifier(new Stack(encoder.stream().map(Layer::layer).toList()),
                    new Stack(classifier.stream().map(Layer::layer).toList()));
        }

        private List<Layer> trainable() {
            List<Layer> all = new ArrayList<>(encoder);
            all.addAll(classifier);
            return all.stream().filter(l -> !l.frozen()).toList();
        }

        /** The number of entries of a clipped sum: the trainable layers' weights and biases. */
        int trainableParameterCount() {
            int c = 0;
            for (Layer l : trainable()) {
                c += l.weights().length + l.bias().length;
            }
            return c;
        }

        /** Zero arrays in the order of {@link StackDpSgdTrainer.ClippedSum#sum()}. */
        double[][] zerosLikeTrainable() {
            List<Layer> t = trainable();
            double[][] z = new double[2 * t.size()][];
            for (int l = 0; l < t.size(); l++) {
                z[2 * l] = new double[t.get(l).weights().length];
                z[2 * l + 1] = new double[t.get(l).bias().length];
            }
            return z;
        }
    }
}
