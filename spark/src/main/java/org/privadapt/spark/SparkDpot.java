package org.privadapt.spark;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.api.java.JavaRDD;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.dpot.Dpot;
import org.privadapt.methods.dpot.DpotConfig;
import org.privadapt.methods.dpot.DpotRelease;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.ledger.BudgetLedger;
import scala.Tuple2;
import scala.Tuple3;

/**
 * DPOT's source release (paper 002) from rows on Spark: the per-row map, each row clipped at the record level and
 * projected by the public JL matrix M, runs on the executors (one matrix product per block of rows); everything else
 * is {@link Dpot#release(int, int, Dpot.Projector, int[], List, DpotConfig, PrivacySession, String, String)}'s on the
 * driver: M drawn from the party's noise, the plan and the one charge, the secure shuffle and the order by label, the
 * Gaussian noise on every released row and the label counts' noise (the counts are the driver's, from the codes).
 *
 * <p>This release is a map, not a sum: its output is one noisy row per source record, n x l numbers, so the projected
 * rows come to the driver, where the release is assembled (memory {@code O(n l)} there, the size of the artifact
 * itself). The row order of the table enters only before the uniformly random shuffle, so it does not change the
 * release's distribution; for the same seeded noise the release equals the in-process one when the rows come in the
 * same order (a CSV read by Spark, a single Parquet file).
 *
 * <p>The class set is given ({@code classes}: public, never read from the rows; a label outside it is refused before
 * anything is charged), as is the layout (the named columns). Replace-one only, as in process (the row count is
 * released).
 */
public final class SparkDpot {
    private SparkDpot() {
    }

    /** Rows per block of the per-partition matrix product. */
    static final int BLOCK = 1024;

    /**
     * The release {@link Dpot#release(org.privadapt.math.FeatureMatrix, int[], List, DpotConfig, PrivacySession,
     * String, String)} makes from the same rows in the same order, with labels coded by their position in
     * {@code classes}.
     */
    public static DpotRelease release(SparkTable source, List<String> classes, DpotConfig cfg, PrivacySession session,
                                      String runId, String preprocessing) throws BudgetExceededException, BudgetLedger.LedgerException {
        if (!source.labelled()) {
            throw new IllegalArgumentException("DPOT's source release needs a label column");
        }
        List<String> names = List.copyOf(classes);
        if (names.isEmpty() || new HashSet<>(names).size() != names.size()) {
            throw new IllegalArgumentException("the class set must be non-empty without repeats, got " + names);
        }
        long rows = source.requireValid().rows();
        if (rows > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("DPOT releases one row per record; " + rows + " rows do not fit one release");
        }
        long outside = SparkPrimaTrain.outsideClasses(source, names);
        if (outside > 0) {
            throw new IllegalArgumentException(outside + " row(s) have a label outside the declared classes " + names);
        }
        int n = (int) rows;
        int d = source.dimension();
        int[] y = codes(source, names, n);
        Dpot.Projector onSpark = (m, clip) -> {
            Projected p = project(source, names, m, clip, n);
            if (!java.util.Arrays.equals(p.codes, y)) { // the rows came in another order than in the first pass
                throw new IllegalStateException("the table's rows changed order between two passes; cache or checkpoint it");
            }
            return p.rows;
        };
        return Dpot.release(n, d, onSpark, y, names, cfg, session, runId, preprocessing);
    }

    /** The rows' class codes in the table's order (partition by partition). */
    static int[] codes(SparkTable source, List<String> names, int n) {
        Map<String, Integer> index = index(names);
        JavaRDD<InternalRow> rdd = InternalRows.of(source);
        List<Tuple2<Integer, int[]>> parts = new ArrayList<>(rdd.mapPartitionsWithIndex((Integer part, Iterator<InternalRow> it) -> {
            IntList out = new IntList();
            while (it.hasNext()) {
                out.add(index.get(InternalRows.label(it.next())));
            }
            List<Tuple2<Integer, int[]>> one = new ArrayList<>(1);
            one.add(new Tuple2<>(part, out.toArray()));
            return one.iterator();
        }, false).collect());
        parts.sort(Comparator.comparing(Tuple2::_1));
        int[] y = new int[n];
        int p = 0;
        for (Tuple2<Integer, int[]> t : parts) {
            System.arraycopy(t._2(), 0, y, p, t._2().length);
            p += t._2().length;
        }
        if (p != n) {
            throw new IllegalStateException(p + " labels for " + n + " rows");
        }
        return y;
    }

    record Projected(int[] codes, DenseMatrix rows) {
    }

    /** The clipped rows times M (k x l), n x l in the table's order, with the rows' codes (for the order check). */
    static Projected project(SparkTable source, List<String> names, DenseMatrix m, double clip, int n) {
        int d = source.dimension();
        int l = m.cols();
        if (m.rows() != d) {
            throw new IllegalArgumentException("the projection is for " + m.rows() + " features, the table has " + d);
        }
        double[] mData = m.data().clone(); // column-major d x l: plain arrays to the executors
        Map<String, Integer> index = index(names);
        SparkVectors.Kind kind = SparkVectors.kind(source);
        JavaRDD<InternalRow> rdd = InternalRows.of(source);
        int blockRows = Math.min(BLOCK, RowAggregation.blockRows(d)); // wide rows: fewer per block
        String blockMap = source.blockMap();
        boolean sparse = kind == SparkVectors.Kind.VECTOR
                && (blockMap == null || org.privadapt.data.preprocess.Preprocessing.parse(blockMap).rowScalingsOnly());
        List<Tuple3<Integer, int[], double[]>> parts = new ArrayList<>(rdd.mapPartitionsWithIndex((Integer part, Iterator<InternalRow> it) -> {
            DenseMatrix mm = new DenseMatrix(d, l, mData);
            IntList codes = new IntList();
            List<double[]> blocks = new ArrayList<>();
            org.privadapt.data.preprocess.Preprocessing steps = blockMap == null ? null : org.privadapt.data.preprocess.Preprocessing.parse(blockMap);
            if (sparse) { // a vector column's rows by their non-zeros: the product costs the non-zeros times l
                SparseBlock pending = new SparseBlock(d, BLOCK);
                InternalRows.Labels labels = new InternalRows.Labels();
                while (it.hasNext()) {
                    InternalRow r = it.next();
                    pending.append(r);
                    codes.add(index.get(labels.of(r)));
                    if (pending.rows() == BLOCK || pending.storedEntries() >= RowAggregation.BLOCK_VALUES || !it.hasNext()) {
                        if (steps != null) {
                            steps.scaleSparseRowsInPlace(pending.rows(), pending.starts(), pending.values());
                        }
                        org.privadapt.math.FeatureMatrix block = pending.isSparse() ? pending.toCsr()
                                : DenseMatrix.fromRows(pending.denseRows());
                        blocks.add(rowMajor((Double.isNaN(clip) ? block : Dpot.clipRows(block, clip)).multiply(mm)));
                        pending.clear();
                    }
                }
            } else {
                double[][] pending = new double[blockRows][];
                int k = 0;
                while (it.hasNext()) {
                    InternalRow r = it.next();
                    pending[k++] = SparkVectors.features(r, d, kind);
                    codes.add(index.get(InternalRows.label(r)));
                    if (k == blockRows || !it.hasNext()) {
                        DenseMatrix block = DenseMatrix.fromRows(java.util.Arrays.copyOf(RowAggregation.mapped(steps, pending, k, d), k));
                        blocks.add(rowMajor((Double.isNaN(clip) ? block : Dpot.clipRows(block, clip)).multiply(mm)));
                        k = 0;
                    }
                }
            }
            double[] all = new double[codes.size() * l];
            int p = 0;
            for (double[] b : blocks) {
                System.arraycopy(b, 0, all, p, b.length);
                p += b.length;
            }
            List<Tuple3<Integer, int[], double[]>> one = new ArrayList<>(1);
            one.add(new Tuple3<>(part, codes.toArray(), all));
            return one.iterator();
        }, false).collect());
        parts.sort(Comparator.comparing(Tuple3::_1));
        int[] y = new int[n];
        double[] rowMajor = new double[n * l];
        int p = 0;
        for (Tuple3<Integer, int[], double[]> t : parts) {
            int c = t._2().length;
            if (p + c > n) {
                throw new IllegalStateException("more rows than the " + n + " counted");
            }
            System.arraycopy(t._2(), 0, y, p, c);
            System.arraycopy(t._3(), 0, rowMajor, p * l, c * l);
            p += c;
        }
        if (p != n) {
            throw new IllegalStateException(p + " projected rows for " + n + " rows");
        }
        return new Projected(y, DenseMatrix.fromRowMajor(n, l, rowMajor));
    }

    private static double[] rowMajor(DenseMatrix a) {
        int r = a.rows();
        int c = a.cols();
        double[] data = a.data();
        double[] out = new double[r * c];
        for (int j = 0; j < c; j++) {
            for (int i = 0; i < r; i++) {
                out[i * c + j] = data[j * r + i];
            }
        }
        return out;
    }

    private static Map<String, Integer> index(List<String> names) {
        Map<String, Integer> m = new HashMap<>();
        for (int c = 0; c < names.size(); c++) {
            m.put(names.get(c), c);
        }
        return m;
    }

    /** A growable int array. */
    private static final class IntList {
        private int[] a = new int[64];
        private int size;

        void add(int v) {
            if (size == a.length) {
                a = java.util.Arrays.copyOf(a, 2 * size);
            }
            a[size++] = v;
        }

        int size() {
            return size;
        }

        int[] toArray() {
            return java.util.Arrays.copyOf(a, size);
        }
    }
}
