package org.privadapt.math;

import java.util.Arrays;

/**
 * A sparse matrix in compressed-sparse-row form: row i holds the entries {@code values[k]} at columns
 * {@code colIndex[k]} for {@code k} in {@code [rowStart[i], rowStart[i+1])}, columns strictly increasing
 * within a row. Immutable once built (the arrays are not exposed for writing).
 */
public final class CsrMatrix implements FeatureMatrix {
    private final int rows;
    private final int cols;
    private final int[] rowStart;
    private final int[] colIndex;
    private final double[] values;

    /**
     * Wraps CSR arrays without copying. Column indices must lie in [0, cols) and increase strictly within
     * each row; this is checked.
     */
    public CsrMatrix(int rows, int cols, int[] rowStart, int[] colIndex, double[] values) {
        if (rowStart.length != rows + 1 || rowStart[0] != 0 || rowStart[rows] != colIndex.length
                || colIndex.length != values.length) {
            throw new IllegalArgumentException("inconsistent CSR arrays");
        }
        for (int i = 0; i < rows; i++) {
            int prev = -1;
            if (rowStart[i + 1] < rowStart[i]) {
                throw new IllegalArgumentException("row pointers decrease at row " + i);
            }
            for (int k = rowStart[i]; k < rowStart[i + 1]; k++) {
                int c = colIndex[k];
                if (c <= prev || c >= cols) {
                    throw new IllegalArgumentException("bad column index " + c + " in row " + i);
                }
                prev = c;
            }
        }
        this.rows = rows;
        this.cols = cols;
        this.rowStart = rowStart;
        this.colIndex = colIndex;
        this.values = values;
    }

    public static CsrMatrix fromDense(DenseMatrix m) {
        int n = m.rows();
        int d = m.cols();
        int[] start = new int[n + 1];
        int nnz = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                if (m.get(i, j) != 0) {
                    nnz++;
                }
            }
            start[i + 1] = nnz;
        }
        int[] ci = new int[nnz];
        double[] v = new double[nnz];
        int k = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                double x = m.get(i, j);
                if (x != 0) {
                    ci[k] = j;
                    v[k++] = x;
                }
            }
        }
        return new CsrMatrix(n, d, start, ci, v);
    }

    @Override
    public int rows() {
        return rows;
    }

    @Override
    public int cols() {
        return cols;
    }

    public int rowStart(int i) {
        return rowStart[i];
    }

    public int rowEnd(int i) {
        return rowStart[i + 1];
    }

    public int colIndexAt(int k) {
        return colIndex[k];
    }

    public double valueAt(int k) {
        return values[k];
    }

    @Override
    public double get(int i, int j) {
        int k = Arrays.binarySearch(colIndex, rowStart[i], rowStart[i + 1], j);
        return k >= 0 ? values[k] : 0.0;
    }

    @Override
    public double[] row(int i) {
        double[] r = new double[cols];
        for (int k = rowStart[i]; k < rowStart[i + 1]; k++) {
            r[colIndex[k]] = values[k];
        }
        return r;
    }

    @Override
    public DenseMatrix toDense() {
        DenseMatrix m = DenseMatrix.zeros(rows, cols);
        double[] a = m.data();
        for (int i = 0; i < rows; i++) {
            for (int k = rowStart[i]; k < rowStart[i + 1]; k++) {
                a[i + colIndex[k] * rows] = values[k];
            }
        }
        return m;
    }

    @Override
    public boolean isSparse() {
        return true;
    }

    @Override
    public long storedEntries() {
        return values.length;
    }

    public double density() {
        return rows == 0 || cols == 0 ? 0 : (double) values.length / ((double) rows * cols);
    }

    @Override
    public CsrMatrix selectRows(int[] idx) {
        int[] start = new int[idx.length + 1];
        for (int t = 0; t < idx.length; t++) {
            start[t + 1] = start[t] + rowStart[idx[t] + 1] - rowStart[idx[t]];
        }
        int[] ci = new int[start[idx.length]];
        double[] v = new double[ci.length];
        for (int t = 0; t < idx.length; t++) {
            int from = rowStart[idx[t]];
            int len = rowStart[idx[t] + 1] - from;
            System.arraycopy(colIndex, from, ci, start[t], len);
            System.arraycopy(values, from, v, start[t], len);
        }
        return new CsrMatrix(idx.length, cols, start, ci, v);
    }

    @Override
    public CsrMatrix selectColumns(int[] idx) {
        int[] newIndex = new int[cols];
        Arrays.fill(newIndex, -1);
        for (int t = 0; t < idx.length; t++) {
            newIndex[idx[t]] = t;
        }
        boolean increasing = true;
        for (int t = 1; t < idx.length; t++) {
            increasing &= idx[t] > idx[t - 1];
        }
        int[] start = new int[rows + 1];
        int[] ci = new int[values.length];
        double[] v = new double[values.length];
        int k2 = 0;
        for (int i = 0; i < rows; i++) {
            int rowBegin = k2;
            for (int k = rowStart[i]; k < rowStart[i + 1]; k++) {
                int t = newIndex[colIndex[k]];
                if (t >= 0) {
                    ci[k2] = t;
                    v[k2++] = values[k];
                }
            }
            if (!increasing) {
                sortRow(ci, v, rowBegin, k2);
            }
            start[i + 1] = k2;
        }
        return new CsrMatrix(rows, idx.length, start, Arrays.copyOf(ci, k2), Arrays.copyOf(v, k2));
    }

    private static void sortRow(int[] ci, double[] v, int from, int to) {
        // insertion sort: rows are short
        for (int a = from + 1; a < to; a++) {
            int c = ci[a];
            double x = v[a];
            int b = a - 1;
            while (b >= from && ci[b] > c) {
                ci[b + 1] = ci[b];
                v[b + 1] = v[b];
                b--;
            }
            ci[b + 1] = c;
            v[b + 1] = x;
        }
    }

    @Override
    public double[] rowSquaredNorms() {
        double[] s = new double[rows];
        for (int i = 0; i < rows; i++) {
            double t = 0;
            for (int k = rowStart[i]; k < rowStart[i + 1]; k++) {
                t += values[k] * values[k];
            }
            s[i] = t;
        }
        return s;
    }

    /** Sum of absolute values of every row. */
    public double[] rowL1Norms() {
        double[] s = new double[rows];
        for (int i = 0; i < rows; i++) {
            double t = 0;
            for (int k = rowStart[i]; k < rowStart[i + 1]; k++) {
                t += Math.abs(values[k]);
            }
            s[i] = t;
        }
        return s;
    }

    @Override
    public CsrMatrix scaleRows(double[] factors) {
        if (factors.length != rows) {
            throw new IllegalArgumentException("factor count " + factors.length + " != " + rows);
        }
        double[] v = values.clone();
        for (int i = 0; i < rows; i++) {
            for (int k = rowStart[i]; k < rowStart[i + 1]; k++) {
                v[k] *= factors[i];
            }
        }
        return new CsrMatrix(rows, cols, rowStart, colIndex, v);
    }

    /** Column j multiplied by {@code factors[j]}. */
    public CsrMatrix scaleColumns(double[] factors) {
        if (factors.length != cols) {
            throw new IllegalArgumentException("factor count " + factors.length + " != " + cols);
        }
        double[] v = values.clone();
        for (int k = 0; k < v.length; k++) {
            v[k] *= factors[colIndex[k]];
        }
        return new CsrMatrix(rows, cols, rowStart, colIndex, v);
    }

    /** Per-column minimum and maximum over all rows, counting the implicit zeros: {min[], max[]}. */
    public double[][] columnRanges() {
        double[] min = new double[cols];
        double[] max = new double[cols];
        int[] count = new int[cols];
        java.util.Arrays.fill(min, Double.POSITIVE_INFINITY);
        java.util.Arrays.fill(max, Double.NEGATIVE_INFINITY);
        for (int k = 0; k < values.length; k++) {
            int j = colIndex[k];
            min[j] = Math.min(min[j], values[k]);
            max[j] = Math.max(max[j], values[k]);
            count[j]++;
        }
        for (int j = 0; j < cols; j++) {
            if (count[j] < rows) { // some row has an implicit zero here
                min[j] = Math.min(min[j], 0.0);
                max[j] = Math.max(max[j], 0.0);
            }
        }
        return new double[][] {min, max};
    }

    /** Applies {@code f} to every stored (non-zero) value; f(0) must be 0 for the result to mean anything. */
    public CsrMatrix mapValues(java.util.function.DoubleUnaryOperator f) {
        double[] v = new double[values.length];
        for (int k = 0; k < v.length; k++) {
            v[k] = f.applyAsDouble(values[k]);
        }
        return new CsrMatrix(rows, cols, rowStart, colIndex, v);
    }

    @Override
    public DenseMatrix multiply(DenseMatrix w) {
        if (w.rows() != cols) {
            throw new IllegalArgumentException("multiply: " + rows + "x" + cols + " times " + w.rows() + "x" + w.cols());
        }
        int k = w.cols();
        DenseMatrix out = DenseMatrix.zeros(rows, k);
        double[] o = out.data();
        double[] wd = w.data();
        java.util.stream.IntStream.range(0, k).parallel().forEach(c -> {
            int wOff = c * cols;
            int oOff = c * rows;
            for (int i = 0; i < rows; i++) {
                double s = 0;
                for (int p = rowStart[i]; p < rowStart[i + 1]; p++) {
                    s += values[p] * wd[wOff + colIndex[p]];
                }
                o[oOff + i] = s;
            }
        });
        return out;
    }

    @Override
    public DenseMatrix transposeMultiply(DenseMatrix g) {
        DenseMatrix out = DenseMatrix.zeros(cols, g.cols());
        scatterTransposeProduct(g, out);
        return out;
    }

    @Override
    public void transposeMultiplyInto(DenseMatrix g, DenseMatrix out) {
        if (out.rows() != cols || out.cols() != g.cols()) {
            throw new IllegalArgumentException("transposeMultiplyInto: output " + out.rows() + "x" + out.cols()
                    + ", product " + cols + "x" + g.cols());
        }
        java.util.Arrays.fill(out.data(), 0.0);
        scatterTransposeProduct(g, out);
    }

    /** {@code out += X^T g} by scattering each row's non-zeros, one output column per task; {@code out} is zero. */
    private void scatterTransposeProduct(DenseMatrix g, DenseMatrix out) {
        if (g.rows() != rows) {
            throw new IllegalArgumentException("transposeMultiply: " + rows + "x" + cols + "^T times " + g.rows() + "x" + g.cols());
        }
        int k = g.cols();
        double[] o = out.data();
        double[] gd = g.data();
        java.util.stream.IntStream.range(0, k).parallel().forEach(c -> {
            int gOff = c * rows;
            int oOff = c * cols;
            for (int i = 0; i < rows; i++) {
                double gi = gd[gOff + i];
                if (gi == 0) {
                    continue;
                }
                for (int p = rowStart[i]; p < rowStart[i + 1]; p++) {
                    o[oOff + colIndex[p]] += values[p] * gi;
                }
            }
        });
    }

    @Override
    public DenseMatrix gram() {
        if (density() > 0.05) {
            return LinAlg.gram(toDense());
        }
        DenseMatrix g = DenseMatrix.zeros(cols, cols);
        double[] a = g.data();
        for (int i = 0; i < rows; i++) {
            int s = rowStart[i];
            int e = rowStart[i + 1];
            for (int p = s; p < e; p++) {
                double vp = values[p];
                int base = colIndex[p] * cols;
                // upper triangle: row index <= column index
                for (int q = s; q <= p; q++) {
                    a[colIndex[q] + base] += values[q] * vp;
                }
            }
        }
        g.mirrorUpperInPlace();
        return g;
    }
}
