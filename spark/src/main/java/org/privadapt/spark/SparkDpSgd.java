package org.privadapt.spark;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.storage.StorageLevel;
import org.privadapt.math.CompensatedSums;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.core.PrivateLearners;
import org.privadapt.methods.core.PrivateTraining;
import org.privadapt.models.dp.DpSgdTrainer;
import org.privadapt.models.dp.NoiseAndSampling;
import org.privadapt.models.dp.PoissonBatches;
import org.privadapt.models.dp.SeparateSampling;
import org.privadapt.models.dp.SessionRandomness;
import org.privadapt.models.nn.Gradients;
import org.privadapt.models.nn.Network;
import org.privadapt.privacy.noise.NoiseSource;
import scala.Tuple2;

/**
 * DP-SGD ({@code learner=dp-sgd}, and {@code dp-gd} at sampling rate 1) on Spark, with true Poisson sampling: every
 * step each record joins the batch independently with probability q. The sampling is the in-process trainer's own
 * ({@link DpSgdTrainer#train(Network, int, DpSgdTrainer.BatchSums, org.privadapt.models.dp.DpSgdConfig,
 * org.privadapt.models.dp.NoiseAndSampling)}: one Bernoulli draw per record from the party's noise on the driver, so
 * the batches, like the noise, are the secure sampler's and are never seen by anyone but the party); the executors
 * hold the rows, cached once as one primitive block per partition with its offset in the table's order, and for each
 * step sum the per-example clipped gradients of the sampled rows they hold ({@link DpSgdTrainer#clippedSum} on those
 * rows, the network and the batch's indices in the task's closure). The noise, the normalisation by q n, weight decay
 * and the optimiser step are the driver's, the in-process loop. With the same seeded noise and the rows in the same
 * order the trained network equals the in-process one.
 *
 * <p>Cost, honestly: one Spark job per step (tens of milliseconds of scheduling on a local master, more on a cluster)
 * and a pass over the cached blocks to find each partition's sampled rows, against the in-process step's few
 * milliseconds. An epoch is 1/q steps, so small batches (q n of a few hundred) over many rows are dominated by the
 * jobs' overhead; DP-SGD on Spark pays where the rows do not fit one machine or the batches are large (q n in the tens
 * of thousands), as DP-GD's full batch is. docs/performance.md ("DP-SGD on Spark: the cost of a step") has the
 * measurement.
 *
 * <p>The plan and its one charge are the caller's, as in process; n is public for this learner (its sampling rate and
 * normaliser), and the table's row count must equal the plan's.
 */
public final class SparkDpSgd {
    private SparkDpSgd() {
    }

    /**
     * A partition's rows as one primitive block: the labels' codes (-1: outside the classes) and the features, row-major
     * ({@code rowMajor}), or compressed rows for a sparse vector column ({@code rowStart}, {@code indices},
     * {@code values}; {@code rowMajor} null), so that the cache holds the non-zeros, not n d values. A step's batch is
     * made dense when it is gathered ({@link #copyRow}).
     */
    record Block(int rows, int d, double[] rowMajor, int[] codes, int[] rowStart, int[] indices, double[] values) implements Serializable {
        /** Writes row {@code local}'s d features into {@code into} from {@code at} (zeros where a sparse row has none). */
        void copyRow(int local, double[] into, int at) {
            if (rowMajor != null) {
                System.arraycopy(rowMajor, local * d, into, at, d);
                return;
            }
            java.util.Arrays.fill(into, at, at + d, 0.0);
            for (int k = rowStart[local]; k < rowStart[local + 1]; k++) {
                into[at + indices[k]] = values[k];
            }
        }

        /** Whether row i's features are all finite. */
        boolean finiteRow(int i) {
            double[] x = rowMajor != null ? rowMajor : values;
            int from = rowMajor != null ? i * d : rowStart[i];
            int to = rowMajor != null ? from + d : rowStart[i + 1];
            for (int j = from; j < to; j++) {
                if (!Double.isFinite(x[j])) {
                    return false;
                }
            }
            return true;
        }
    }

    /** A block's code for a label outside the classes. */
    static final int OUTSIDE = -1;
    /** A block's code for a missing label. */
    static final int MISSING = -2;

    /** A label's code: its position in the classes, {@link #OUTSIDE} or {@link #MISSING}. */
    private static int code(String label, Map<String, Integer> index) {
        Integer c = label == null ? null : index.get(label);
        return label == null ? MISSING : c == null ? OUTSIDE : c;
    }

    /** The table cached on the executors as blocks, with each partition's offset in the table's order. */
    public record Cached(JavaRDD<Block> blocks, long[] offsets, long rows, int dimension) implements AutoCloseable {
        @Override
        public void close() {
            blocks.unpersist(false);
        }
    }

    /**
     * Caches the table's rows on the executors ({@code level}, e.g. MEMORY_AND_DISK) as one block per partition, labels
     * coded by their position in the public {@code classes}; one job counts the blocks' rows (their offsets) and checks
     * them: what {@link SparkTable#requireValid} refuses (no rows, a missing or non-finite feature, a missing label) and
     * a label outside the classes are refused in that pass, so a caller needs no separate check pass.
     */
    public static Cached cache(SparkTable table, List<String> classes, StorageLevel level) {
        if (!table.labelled()) {
            throw new IllegalArgumentException("DP-SGD needs a label column");
        }
        int d = table.dimension();
        Map<String, Integer> index = new HashMap<>();
        for (int c = 0; c < classes.size(); c++) {
            index.put(classes.get(c), c);
        }
        // Spark's internal rows, read with their typed accessors (an array<double> or a vector column: no boxing); a
        // table's block map (its row-local preprocessing) applied as the aggregates apply it; a vector column whose
        // preprocessing is row scalings only is cached sparse (its non-zeros)
        JavaRDD<InternalRow> rows = InternalRows.of(table);
        SparkVectors.Kind kind = SparkVectors.kind(table);
        String blockMap = table.blockMap();
        boolean sparse = kind == SparkVectors.Kind.VECTOR
                && (blockMap == null || org.privadapt.data.preprocess.Preprocessing.parse(blockMap).rowScalingsOnly());
        JavaRDD<Block> blocks = rows.mapPartitions((Iterator<InternalRow> it) -> {
            org.privadapt.data.preprocess.Preprocessing steps = blockMap == null ? null : org.privadapt.data.preprocess.Preprocessing.parse(blockMap);
            java.util.stream.IntStream.Builder ys = java.util.stream.IntStream.builder();
            InternalRows.Labels names = new InternalRows.Labels();
            Block block;
            if (sparse) {
                SparseBlock b = new SparseBlock(d, 1024);
                while (it.hasNext()) {
                    InternalRow r = it.next();
                    b.append(r);
                    ys.add(code(names.of(r), index));
                }
                if (steps != null) {
                    steps.scaleSparseRowsInPlace(b.rows(), b.starts(), b.values());
                }
                if (b.isSparse()) {
                    block = new Block(b.rows(), d, null, ys.build().toArray(), b.startsCopy(), b.indicesCopy(), b.valuesCopy());
                } else { // mostly non-zero: row-major as a dense column is held
                    double[][] rows2 = b.denseRows();
                    double[] flat = new double[rows2.length * d];
                    for (int i = 0; i < rows2.length; i++) {
                        System.arraycopy(rows2[i], 0, flat, i * d, d);
                    }
                    block = new Block(b.rows(), d, flat, ys.build().toArray(), null, null, null);
                }
            } else {
                List<double[]> xs = new ArrayList<>();
                int chunk = RowAggregation.blockRows(d);
                double[][] pending = new double[chunk][];
                int m = 0;
                while (it.hasNext()) {
                    InternalRow r = it.next();
                    pending[m++] = SparkVectors.features(r, d, kind);
                    ys.add(code(names.of(r), index));
                    if (m == chunk || !it.hasNext()) {
                        double[][] mapped = RowAggregation.mapped(steps, pending, m, d);
                        for (int i = 0; i < m; i++) {
                            xs.add(mapped[i]);
                        }
                        m = 0;
                    }
                }
                double[] flat = new double[xs.size() * d];
                for (int i = 0; i < xs.size(); i++) {
                    System.arraycopy(xs.get(i), 0, flat, i * d, d);
                }
                block = new Block(xs.size(), d, flat, ys.build().toArray(), null, null, null);
            }
            List<Block> one = new ArrayList<>(1);
            one.add(block);
            return one.iterator();
        }, true).persist(level);
        List<Tuple2<Integer, long[]>> sizes = new ArrayList<>(blocks.mapPartitionsWithIndex((Integer p, Iterator<Block> it) -> {
            long n = 0;
            long unknown = 0;
            long missing = 0;
            long nonFinite = 0;
            while (it.hasNext()) {
                Block b = it.next();
                n += b.rows();
                for (int c : b.codes()) {
                    unknown += c == OUTSIDE ? 1 : 0;
                    missing += c == MISSING ? 1 : 0;
                }
                for (int i = 0; i < b.rows(); i++) {
                    if (!b.finiteRow(i)) {
                        nonFinite++;
                    }
                }
            }
            List<Tuple2<Integer, long[]>> one = new ArrayList<>(1);
            one.add(new Tuple2<>(p, new long[] {n, unknown, missing, nonFinite}));
            return one.iterator();
        }, false).collect());
        sizes.sort(Comparator.comparing(Tuple2::_1));
        long[] offsets = new long[sizes.size()];
        long total = 0;
        long unknown = 0;
        long missing = 0;
        long nonFinite = 0;
        for (int p = 0; p < sizes.size(); p++) {
            offsets[p] = total;
            total += sizes.get(p)._2()[0];
            unknown += sizes.get(p)._2()[1];
            missing += sizes.get(p)._2()[2];
            nonFinite += sizes.get(p)._2()[3];
        }
        try {
            SparkTable.require(new SparkTable.Check(total, nonFinite, missing)); // what requireValid refuses, in this pass
        } catch (IllegalArgumentException e) {
            blocks.unpersist(false);
            throw e;
        }
        if (unknown > 0) {
            blocks.unpersist(false);
            throw new IllegalArgumentException(unknown + " row(s) have a label outside the declared classes " + classes);
        }
        return new Cached(blocks, offsets, total, d);
    }

    /** The trained network (the plan's event must already be charged); the table is cached for the run, then released. */
    public static Network train(PrivateLearners.Plan p, SparkTable table, List<String> classes, NoiseSource noise) {
        if (p.gradient() == null || (p.kind() != PrivateLearners.Kind.DP_SGD && p.kind() != PrivateLearners.Kind.DP_GD)) {
            throw new IllegalArgumentException("not a DP-SGD or DP-GD plan: " + p.kind().label());
        }
        double q = p.gradient().config().samplingRate();
        long n = Math.round(p.gradient().config().normaliser() / q);
        try (Cached cached = cache(table, classes, StorageLevel.MEMORY_AND_DISK())) { // the rows checked in the caching pass
            if (cached.rows() != n) {
                throw new IllegalArgumentException("the plan is for " + n + " rows (public), the table has " + cached.rows());
            }
            return PrivateTraining.train(p.gradient(), (int) n, batchSums(cached, p.gradient().config().clipNorm(),
                    p.gradient().config().maxPhysicalBatch(), q), table.dimension(), classes, randomness(noise));
        }
    }

    /**
     * The randomness of DP-SGD on Spark: with secure noise, the batches on a stream of their own
     * ({@link SeparateSampling}), so that a window of steps' batches can be drawn ahead and its rows fetched in one job
     * ({@link GatheredBatches}); with seeded noise, the in-process trainer's one stream ({@link SessionRandomness}), so
     * that a seeded run on Spark equals the same seeded run in process (one job per step: the cost of reproducibility).
     */
    public static NoiseAndSampling randomness(NoiseSource noise) {
        return SeparateSampling.forRun(noise);
    }

    /**
     * {@link #batchSums(Cached, double, int)} for DP-SGD at rate q, drawing ahead where the randomness allows it: the
     * steps of a window ({@link GatheredBatches#window}) are summed on the driver on the window's fetched rows
     * ({@link DpSgdTrainer#clippedSum}, the in-process code on the same rows in the same order), the others on the
     * executors.
     */
    public static DpSgdTrainer.BatchSums batchSums(Cached cached, double clip, int physicalBatch, double q) {
        return batchSums(cached, clip, physicalBatch, GatheredBatches.of(cached, q));
    }

    /** The windowed sums with a given window (the tests' hook: a window of a few steps on small tables). */
    static DpSgdTrainer.BatchSums batchSums(Cached cached, double clip, int physicalBatch, GatheredBatches gathered) {
        DpSgdTrainer.BatchSums onExecutors = batchSums(cached, clip, physicalBatch);
        return new DpSgdTrainer.BatchSums() {
            @Override
            public DpSgdTrainer.ClippedSum sum(Network net, int[] batch, long step) {
                GatheredBatches.Local local = gathered.local(batch, step);
                return local == null ? onExecutors.sum(net, batch, step)
                        : DpSgdTrainer.clippedSum(net, local.x(), local.codes(), local.batch(), clip, physicalBatch, step);
            }

            @Override
            public PoissonBatches.Lookahead lookahead() {
                return gathered.window() > 1 ? gathered : null;
            }
        };
    }

    /**
     * Each step's exact query on the cached rows: the sum of the clipped per-example gradients over the sampled rows
     * (indices in the table's order, increasing, as the trainer samples them), summed per partition on the executors
     * and merged on the driver in partition order (compensated).
     */
    public static DpSgdTrainer.BatchSums batchSums(Cached cached, double clip, int physicalBatch) {
        return (net, batch, step) -> {
            SparkDpGd.Params params = SparkDpGd.Params.of(net);
            Part total = sampledSum(cached, batch, params.parameterCount(), (x, y) -> {
                int[] all = new int[y.length];
                for (int t = 0; t < all.length; t++) {
                    all[t] = t;
                }
                DpSgdTrainer.ClippedSum s = DpSgdTrainer.clippedSum(params.network(), x, y, all, clip, physicalBatch, step);
                return new Summed(s.sum().arrays(), s.lossSum());
            });
            Gradients sum = Gradients.zerosLike(net);
            total.into(sum.arrays());
            return new DpSgdTrainer.ClippedSum(sum, total.loss.value(0));
        };
    }

    /**
     * A step's query on one partition's sampled rows, on the executor: {@code x} their features (k x d, in the table's
     * order), {@code codes} their labels' codes. The result's arrays are summed entry by entry in their order.
     */
    @FunctionalInterface
    interface SampledQuery extends Serializable {
        Summed sum(DenseMatrix x, int[] codes);
    }

    /** A partition's query: its arrays (in a fixed order) and its summed loss. */
    record Summed(double[][] arrays, double lossSum) {
    }

    /**
     * {@code query} summed over the rows of {@code batch} (indices in the table's order, increasing): each partition
     * gathers the sampled rows of its block and sums the query on them into compensated sums of {@code parameters}
     * entries; the driver merges the partitions in partition order (compensated) and checks that every sampled row
     * was found.
     */
    static Part sampledSum(Cached cached, int[] batch, int parameters, SampledQuery query) {
        long[] offsets = cached.offsets().clone();
        int d = cached.dimension();
        int[] sampled = batch.clone();
        List<Tuple2<Integer, Part>> parts = new ArrayList<>(cached.blocks().mapPartitionsWithIndex((Integer p, Iterator<Block> it) -> {
            Part part = new Part(parameters);
            while (it.hasNext()) {
                Block b = it.next();
                long off = offsets[p];
                int lo = lowerBound(sampled, off);
                int hi = lowerBound(sampled, off + b.rows());
                if (hi > lo) {
                    int k = hi - lo;
                    double[] x = new double[k * d];
                    int[] y = new int[k];
                    for (int t = 0; t < k; t++) {
                        int local = (int) (sampled[lo + t] - off);
                        b.copyRow(local, x, t * d);
                        y[t] = b.codes()[local];
                    }
                    part.add(query.sum(DenseMatrix.fromRowMajor(k, d, x), y));
                    part.count += k;
                }
            }
            List<Tuple2<Integer, Part>> one = new ArrayList<>(1);
            one.add(new Tuple2<>(p, part));
            return one.iterator();
        }, false).collect());
        parts.sort(Comparator.comparing(Tuple2::_1));
        Part total = new Part(parameters);
        for (Tuple2<Integer, Part> t : parts) {
            total.sums.merge(t._2().sums);
            total.loss.merge(t._2().loss);
            total.count += t._2().count;
        }
        if (total.count != batch.length) {
            throw new IllegalStateException("a batch of " + batch.length + " rows was asked, " + total.count + " were found "
                    + "(the table's rows changed between steps)");
        }
        return total;
    }

    /** The first position in the increasing {@code a} whose value is at least {@code v}. */
    static int lowerBound(int[] a, long v) {
        int lo = 0;
        int hi = a.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] < v) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** A partition's part of a step's query. */
    static final class Part implements Serializable {
        private static final long serialVersionUID = 1L;
        final CompensatedSums sums;
        final CompensatedSums loss = new CompensatedSums(1);
        long count;

        Part(int parameters) {
            sums = new CompensatedSums(parameters);
        }

        void add(Summed s) {
            int at = 0;
            for (double[] a : s.arrays()) {
                for (double v : a) {
                    sums.add(at++, v);
                }
            }
            loss.add(0, s.lossSum());
        }

        /** The merged sums written into arrays of the query's shapes, in order. */
        void into(double[][] arrays) {
            int at = 0;
            for (double[] a : arrays) {
                for (int k = 0; k < a.length; k++) {
                    a[k] = sums.value(at++);
                }
            }
            if (at != sums.size()) {
                throw new IllegalStateException(sums.size() + " sums for " + at + " parameters");
            }
        }
    }
}
