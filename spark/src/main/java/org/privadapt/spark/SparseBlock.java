package org.privadapt.spark;

import java.util.Arrays;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.util.ArrayData;

/**
 * A block of rows of a Spark ML vector column kept sparse (issue 45 item 1): compressed rows, row i's non-zeros at
 * {@link #index}{@code [k]} with {@link #value}{@code [k]} for {@code k} in {@code [start(i), end(i))}, columns strictly
 * increasing within a row. {@link RowAggregation} fills one per partition and hands it to an accumulator that takes
 * sparse blocks ({@link RowAggregation.Accumulator#takesSparseBlocks}); the work per row is then its number of non-zeros,
 * not d. The block is the aggregation's and is refilled after the call.
 *
 * <p>A row the dense reader would read as missing ({@link SparkVectors#features(InternalRow, int, SparkVectors.Kind)}: a
 * null vector, another length, an index out of range; here also indices not strictly increasing) is held as one NaN
 * at column 0, so the check pass ({@link SparkTable#check}) refuses it as it refuses a missing value. A dense vector in
 * the column is held by its non-zeros.
 */
public final class SparseBlock {
    private final int d;
    private int rows;
    private int[] start;
    private int[] index;
    private double[] value;
    private int nnz;

    /** An empty block of rows of d features, room for {@code rows} rows to begin with (it grows). */
    SparseBlock(int d, int rows) {
        this.d = d;
        this.start = new int[Math.max(1, rows) + 1];
        this.index = new int[1024];
        this.value = new double[1024];
    }

    /** The number of features d. */
    public int dimension() {
        return d;
    }

    /** The number of rows in the block. */
    public int rows() {
        return rows;
    }

    /** The number of stored entries. */
    public int storedEntries() {
        return nnz;
    }

    /** Row i's first entry. */
    public int start(int i) {
        return start[i];
    }

    /** One past row i's last entry. */
    public int end(int i) {
        return start[i + 1];
    }

    /** The column of entry k. */
    public int index(int k) {
        return index[k];
    }

    /** The value of entry k. */
    public double value(int k) {
        return value[k];
    }

    /** The entries' values (the block's own array, {@code [0, storedEntries())} in use): scaled in place by a row map. */
    double[] values() {
        return value;
    }

    /** The entries' columns (the block's own array, {@code [0, storedEntries())} in use). */
    int[] indices() {
        return index;
    }

    /** The rows' starts (the block's own array, {@code [0, rows()]} in use). */
    int[] starts() {
        return start;
    }

    /**
     * Whether the block is worth holding sparse: at most a quarter of its entries stored. Above that the dense kernels
     * (a BLAS product, a Gram by {@code dsyrk}) beat the sparse ones on the same rows.
     */
    public boolean isSparse() {
        return (long) nnz * 4 <= (long) rows * d;
    }

    /** The rows dense, each a new array of d values (the values at their columns, zeros elsewhere). */
    public double[][] denseRows() {
        double[][] out = new double[rows][];
        for (int i = 0; i < rows; i++) {
            double[] x = new double[d];
            for (int k = start[i]; k < start[i + 1]; k++) {
                x[index[k]] = value[k];
            }
            out[i] = x;
        }
        return out;
    }

    /** Row i's non-zero values, a new array (the input of a norm). */
    public double[] rowValues(int i) {
        return Arrays.copyOfRange(value, start[i], start[i + 1]);
    }

    /** The block as a compressed-row matrix (copies of the rows in use). */
    public org.privadapt.math.CsrMatrix toCsr() {
        return new org.privadapt.math.CsrMatrix(rows, d, Arrays.copyOf(start, rows + 1), Arrays.copyOf(index, nnz), Arrays.copyOf(value, nnz));
    }

    /** The rows' starts, trimmed ({@code rows() + 1} entries, a copy). */
    int[] startsCopy() {
        return Arrays.copyOf(start, rows + 1);
    }

    /** The entries' columns, trimmed (a copy). */
    int[] indicesCopy() {
        return Arrays.copyOf(index, nnz);
    }

    /** The entries' values, trimmed (a copy). */
    double[] valuesCopy() {
        return Arrays.copyOf(value, nnz);
    }

    void clear() {
        rows = 0;
        nnz = 0;
    }

    /** Appends row {@code r}'s features (column 0, a Spark ML vector's internal struct). */
    void append(InternalRow r) {
        int at = nnz;
        if (!read(r)) {
            nnz = at;
            put(0, Double.NaN);
        }
        if (rows + 1 == start.length) {
            start = Arrays.copyOf(start, 2 * start.length);
        }
        start[++rows] = nnz;
    }

    private boolean read(InternalRow r) {
        if (r.isNullAt(0)) {
            return false;
        }
        InternalRow v = r.getStruct(0, 4);
        ArrayData values = v.getArray(3);
        if (v.getByte(0) == 1) {
            if (values.numElements() != d) {
                return false;
            }
            for (int j = 0; j < d; j++) {
                double x = values.getDouble(j);
                if (x != 0) { // NaN is kept
                    put(j, x);
                }
            }
            return true;
        }
        ArrayData idx = v.getArray(2);
        int k = idx.numElements();
        if (v.getInt(1) != d || values.numElements() != k) {
            return false;
        }
        int last = -1;
        for (int e = 0; e < k; e++) {
            int j = idx.getInt(e);
            if (j <= last || j >= d) {
                return false;
            }
            last = j;
            double x = values.getDouble(e);
            if (x != 0) {
                put(j, x);
            }
        }
        return true;
    }

    private void put(int j, double x) {
        if (nnz == index.length) {
            index = Arrays.copyOf(index, 2 * nnz);
            value = Arrays.copyOf(value, 2 * nnz);
        }
        index[nnz] = j;
        value[nnz++] = x;
    }
}
