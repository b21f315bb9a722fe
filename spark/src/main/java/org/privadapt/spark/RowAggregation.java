package org.privadapt.spark;

import org.privadapt.math.CompensatedSums;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.catalyst.InternalRow;
import scala.Tuple2;

/**
 * One aggregate over the rows of a {@link SparkTable}: each partition folds its rows into one accumulator on an
 * executor (where the per-row clipping runs), the accumulators are collected to the driver and merged there in
 * partition order. With compensated sums ({@link CompensatedSums}) the result does not depend on the partitioning
 * beyond about one rounding, and for one partitioning it is the same on every run (the merge order is fixed, not the
 * order in which tasks finish). Nothing but the accumulators leaves the executors: no row, and no per-partition
 * count is kept on the driver once merged.
 *
 * <p>Rows reach an accumulator in blocks of up to {@link #blockRows} rows (2,048, fewer for rows wider than 1,024) ({@link Accumulator#addBlock}); an
 * accumulator whose statistic is a second moment overrides it to map each row as before, sum the block plainly
 * ({@link BlockSums}) and add the block's sums into its compensated sums, as the streaming engine adds its blocks. The others take the rows one by one (the default). The rows are read from Spark's internal rows
 * ({@code array<double>} read with its typed accessor: no boxing).
 *
 * <p>The driver holds at most {@value #MERGE_FAN_IN} accumulators at once, whatever the number of partitions P: up to
 * that many partitions they are collected and merged in partition order; above it they are first merged on the
 * executors in a tree, groups of {@value #MERGE_FAN_IN} consecutive partitions (by index) merged in index order, level
 * after level, so that the driver's memory for a second moment is {@code O(16 d^2)}, not {@code O(P d^2)}. The merge
 * order is a function of P alone, so a result is still the same on every run for one partitioning (and within about
 * one rounding of another's).
 */
public final class RowAggregation {
    /** The most accumulators merged on the driver at once; more partitions are merged in a tree on the executors first. */
    static final int MERGE_FAN_IN = 16;

    /** The most rows handed to {@link Accumulator#addBlock} at once. */
    public static final int BLOCK_ROWS = 2048;

    /** The most values a block holds (16 MB of doubles): wide rows come in fewer rows per block. */
    public static final int BLOCK_VALUES = 1 << 21;

    /**
     * Rows per block for rows of d features: {@link #BLOCK_ROWS}, fewer where d exceeds 1,024 so that a block (dense on
     * the executor) stays within {@link #BLOCK_VALUES} values (13 rows at d = 152,543, the spam inboxes' vocabulary).
     */
    public static int blockRows(int d) {
        return Math.max(1, Math.min(BLOCK_ROWS, BLOCK_VALUES / Math.max(1, d)));
    }

    private RowAggregation() {
    }

    /** A per-partition accumulator: rows folded in on an executor, partitions merged on the driver. */
    public interface Accumulator<A extends Accumulator<A>> extends Serializable {
        /** Folds in one row: its features (a fresh array the accumulator may keep or change) and label (or null). */
        void add(double[] features, String label);

        /**
         * Folds in the rows {@code rows[0..count)} with labels {@code labels[0..count)} ({@code labels} null for an
         * unlabelled table). Each row is a fresh array the accumulator may keep or change; the two arrays holding them
         * are the aggregation's and are reused after the call. The default adds the rows one by one, in order.
         */
        default void addBlock(double[][] rows, String[] labels, int count) {
            for (int i = 0; i < count; i++) {
                add(rows[i], labels == null ? null : labels[i]);
            }
        }

        /**
         * Whether this accumulator takes the rows of a Spark ML vector column as {@link SparseBlock}s
         * ({@link #addSparseBlock}), so that its work per row is the row's non-zeros rather than d. Used when the table
         * has no map between the rows and the accumulator other than row scalings (l1, l2, clip, scale).
         */
        default boolean takesSparseBlocks() {
            return false;
        }

        /**
         * Folds in the block's rows with labels {@code labels[0..rows)} ({@code labels} null for an unlabelled table),
         * the same rows {@link #addBlock} would get dense; only called when {@link #takesSparseBlocks}.
         */
        default void addSparseBlock(SparseBlock rows, String[] labels) {
            throw new UnsupportedOperationException("this accumulator takes dense blocks");
        }

        /** Merges another partition's accumulator into this one. */
        void merge(A other);
    }

    /** Makes an empty accumulator (on the executors: serializable, capturing public settings only). */
    @FunctionalInterface
    public interface Zero<A> extends Serializable {
        A get();
    }

    /**
     * A row-local map applied to each row after the table's preprocessing, where the rows are (executors: serializable,
     * public parameters only): the row given is the accumulator's to change or keep.
     */
    @FunctionalInterface
    public interface RowMap extends Serializable {
        double[] apply(double[] row);

        /** The rows {@code rows[0..m)} mapped (a new array of at least m rows); by default one by one. */
        default double[][] applyBlock(double[][] rows, int m) {
            double[][] out = new double[rows.length][];
            for (int i = 0; i < m; i++) {
                out[i] = apply(rows[i]);
            }
            return out;
        }
    }

    /** Folds every row of {@code table} into one accumulator (see the class comment). */
    public static <A extends Accumulator<A>> A aggregate(SparkTable table, Zero<A> zero) {
        return aggregate(table, zero, blockRows(table.dimension()), BLOCK_ROWS, null);
    }

    /**
     * Folds every row of {@code table}, preprocessed and then mapped by {@code map} (to rows of any length), into one
     * accumulator: a statistic of rows transformed where they are, with no Spark stage in between.
     */
    public static <A extends Accumulator<A>> A aggregate(SparkTable table, RowMap map, Zero<A> zero) {
        return aggregate(table, zero, blockRows(table.dimension()), BLOCK_ROWS, map);
    }

    /** {@link #aggregate(SparkTable, Zero)} with blocks of at most {@code blockRows} rows (tests vary it). */
    static <A extends Accumulator<A>> A aggregate(SparkTable table, Zero<A> zero, int blockRows) {
        return aggregate(table, zero, blockRows, blockRows, null);
    }

    /** Dense blocks of at most {@code blockRows} rows, sparse ones of at most {@code sparseRows} ({@link SparseBlock}). */
    private static <A extends Accumulator<A>> A aggregate(SparkTable table, Zero<A> zero, int blockRows, int sparseRows, RowMap map) {
        if (blockRows < 1) {
            throw new IllegalArgumentException("blockRows must be >= 1, got " + blockRows);
        }
        int d = table.dimension();
        boolean labelled = table.labelled();
        SparkVectors.Kind kind = SparkVectors.kind(table);
        String blockMap = table.blockMap();
        JavaRDD<InternalRow> rows = InternalRows.of(table);
        JavaRDD<Tuple2<Integer, A>> accumulators = rows.mapPartitionsWithIndex((Integer index, Iterator<InternalRow> it) -> {
            A acc = zero.get();
            double[][] block = new double[blockRows][];
            String[] labels = labelled ? new String[blockRows] : null;
            InternalRows.Labels names = labelled ? new InternalRows.Labels() : null;
            org.privadapt.data.preprocess.Preprocessing steps = blockMap == null ? null
                    : org.privadapt.data.preprocess.Preprocessing.parse(blockMap);
            if (kind == SparkVectors.Kind.VECTOR && map == null && acc.takesSparseBlocks() && (steps == null || steps.rowScalingsOnly())) {
                foldSparse(it, acc, d, sparseRows, labelled ? new String[sparseRows] : null, names, steps);
                List<Tuple2<Integer, A>> one = new ArrayList<>(1);
                one.add(new Tuple2<>(index, acc));
                return one.iterator();
            }
            int m = 0;
            while (it.hasNext()) {
                InternalRow r = it.next();
                block[m] = SparkVectors.features(r, d, kind);
                if (labelled) {
                    labels[m] = names.of(r);
                }
                if (++m == blockRows) {
                    acc.addBlock(rowMapped(map, mapped(steps, block, m, d), m), labels, m);
                    m = 0;
                }
            }
            if (m > 0) {
                acc.addBlock(rowMapped(map, mapped(steps, block, m, d), m), labels, m);
            }
            List<Tuple2<Integer, A>> one = new ArrayList<>(1);
            one.add(new Tuple2<>(index, acc));
            return one.iterator();
        }, false);
        return merged(accumulators, rows.getNumPartitions(), zero, MERGE_FAN_IN);
    }

    /**
     * A partition's rows folded into {@code acc} as sparse blocks of at most {@code sparseRows} rows and about
     * {@link #BLOCK_VALUES} stored entries, each block's rows scaled first by the table's row scalings ({@code steps},
     * or none), on the rows' non-zeros: the values the dense rows would get.
     */
    private static <A extends Accumulator<A>> void foldSparse(Iterator<InternalRow> it, A acc, int d, int sparseRows, String[] labels,
            InternalRows.Labels names, org.privadapt.data.preprocess.Preprocessing steps) {
        SparseBlock block = new SparseBlock(d, sparseRows);
        while (it.hasNext()) {
            InternalRow r = it.next();
            if (labels != null) {
                labels[block.rows()] = names.of(r);
            }
            block.append(r);
            if (block.rows() == sparseRows || block.storedEntries() >= BLOCK_VALUES) {
                addSparse(acc, block, labels, steps);
            }
        }
        if (block.rows() > 0) {
            addSparse(acc, block, labels, steps);
        }
    }

    /**
     * Hands a block to {@code acc} after the row scalings: sparse when it is ({@link SparseBlock#isSparse}), else as the
     * dense rows (a dense vector column, or sparse vectors that are mostly non-zero: the dense kernels, one BLAS call
     * where they have one, are faster there).
     */
    private static <A extends Accumulator<A>> void addSparse(A acc, SparseBlock block, String[] labels,
            org.privadapt.data.preprocess.Preprocessing steps) {
        if (steps != null) {
            steps.scaleSparseRowsInPlace(block.rows(), block.starts(), block.values());
        }
        if (block.isSparse()) {
            acc.addSparseBlock(block, labels);
        } else {
            acc.addBlock(block.denseRows(), labels, block.rows());
        }
        block.clear();
    }

    /**
     * The accumulators (keyed by their partition's index) merged in index order: collected and merged on the driver when
     * there are at most {@code fanIn}, else first merged on the executors in groups of {@code fanIn} consecutive indices
     * (each group in index order, keyed by its own index), level after level, until at most {@code fanIn} remain.
     */
    static <A extends Accumulator<A>> A merged(JavaRDD<Tuple2<Integer, A>> accumulators, int count, Zero<A> zero, int fanIn) {
        JavaRDD<Tuple2<Integer, A>> level = accumulators;
        int remaining = count;
        while (remaining > fanIn) {
            int groups = (remaining + fanIn - 1) / fanIn;
            level = level.mapToPair(t -> new Tuple2<>(t._1() / fanIn, t))
                    .groupByKey(groups)
                    .map(g -> {
                        List<Tuple2<Integer, A>> members = new ArrayList<>();
                        g._2().forEach(members::add);
                        return new Tuple2<>(g._1(), mergeInOrder(members, zero));
                    });
            remaining = groups;
        }
        return mergeInOrder(level.collect(), zero);
    }

    /** Accumulators merged into a new one in the order of their keys. */
    private static <A extends Accumulator<A>> A mergeInOrder(List<Tuple2<Integer, A>> parts, Zero<A> zero) {
        List<Tuple2<Integer, A>> sorted = new ArrayList<>(parts);
        sorted.sort(Comparator.comparing(Tuple2::_1));
        A total = zero.get();
        for (Tuple2<Integer, A> p : sorted) {
            total.merge(p._2());
        }
        return total;
    }

    /** The block's first m rows through {@code map} (null: as they are). */
    private static double[][] rowMapped(RowMap map, double[][] block, int m) {
        return map == null ? block : map.applyBlock(block, m);
    }

    /**
     * The block's rows through the table's row-local preprocessing, or the block itself without one: row scalings (l1,
     * l2, clip=B, scale=K) in place on the rows ({@code Preprocessing.scaleRowsInPlace}: the same values), any other
     * row-local step by the in-process code on the block as a matrix, as {@link SparkPreprocessing} applies it to its
     * chunks.
     */
    static double[][] mapped(org.privadapt.data.preprocess.Preprocessing steps, double[][] block, int m, int d) {
        if (steps == null) {
            return block;
        }
        if (steps.rowScalingsOnly()) { // l1, l2, clip, scale: each row times its own factor, in place (the rows are fresh)
            steps.scaleRowsInPlace(block, m);
            return block;
        }
        double[][] rows = java.util.Arrays.copyOf(block, m);
        org.privadapt.math.DenseMatrix out = steps.fitAndApply(new org.privadapt.data.Dataset("spark-partition",
                org.privadapt.math.DenseMatrix.fromRows(rows), null, null, null)).features().toDense();
        double[][] res = new double[block.length][];
        for (int i = 0; i < m; i++) {
            double[] x = new double[out.cols()];
            for (int j = 0; j < x.length; j++) {
                x[j] = out.get(i, j);
            }
            res[i] = x;
        }
        return res;
    }
}
