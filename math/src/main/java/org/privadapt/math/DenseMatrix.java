package org.privadapt.math;

import java.util.Arrays;
import java.util.function.DoubleUnaryOperator;

/**
 * A dense real matrix stored column-major in one {@code double[]} (element (i, j) at {@code i + j * rows}),
 * the layout BLAS and LAPACK expect, so products and decompositions run without copies.
 *
 * <p>Instances are mutable only through the methods whose name says so ({@code set}, {@code ...InPlace});
 * every other operation returns a new matrix and leaves its inputs untouched. {@link #data()} exposes the
 * backing array for kernels; callers that write to it own the consequences.
 */
public final class DenseMatrix implements FeatureMatrix {
    private final int rows;
    private final int cols;
    private final double[] data;

    /** Wraps {@code data} (column-major, length rows*cols) without copying. */
    public DenseMatrix(int rows, int cols, double[] data) {
        if (rows < 0 || cols < 0) {
            throw new IllegalArgumentException("negative shape " + rows + "x" + cols);
        }
        if ((long) rows * cols != data.length) {
            throw new IllegalArgumentException("data length " + data.length + " != " + rows + "x" + cols);
        }
        this.rows = rows;
        this.cols = cols;
        this.data = data;
    }

    public static DenseMatrix zeros(int rows, int cols) {
        long n = (long) rows * cols;
        if (n > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("matrix " + rows + "x" + cols + " too large for one array");
        }
        return new DenseMatrix(rows, cols, new double[(int) n]);
    }

    public static DenseMatrix identity(int n) {
        DenseMatrix m = zeros(n, n);
        for (int i = 0; i < n; i++) {
            m.data[i + i * n] = 1.0;
        }
        return m;
    }

    public static DenseMatrix diagonal(double[] diag) {
        int n = diag.length;
        DenseMatrix m = zeros(n, n);
        for (int i = 0; i < n; i++) {
            m.data[i + i * n] = diag[i];
        }
        return m;
    }

    /** Builds a matrix from row arrays (copied); all rows must have the same length. */
    public static DenseMatrix fromRows(double[][] rowArrays) {
        int r = rowArrays.length;
        int c = r == 0 ? 0 : rowArrays[0].length;
        DenseMatrix m = zeros(r, c);
        for (int i = 0; i < r; i++) {
            if (rowArrays[i].length != c) {
                throw new IllegalArgumentException("row " + i + " has " + rowArrays[i].length + " entries, expected " + c);
            }
            for (int j = 0; j < c; j++) {
                m.data[i + j * r] = rowArrays[i][j];
            }
        }
        return m;
    }

    /** Builds a matrix from a row-major array (copied). */
    public static DenseMatrix fromRowMajor(int rows, int cols, double[] rowMajor) {
        if ((long) rows * cols != rowMajor.length) {
            throw new IllegalArgumentException("data length " + rowMajor.length + " != " + rows + "x" + cols);
        }
        DenseMatrix m = zeros(rows, cols);
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                m.data[i + j * rows] = rowMajor[i * cols + j];
            }
        }
        return m;
    }

    /** A column vector (n x 1) holding a copy of {@code v}. */
    public static DenseMatrix column(double[] v) {
        return new DenseMatrix(v.length, 1, v.clone());
    }

    @Override
    public int rows() {
        return rows;
    }

    @Override
    public int cols() {
        return cols;
    }

    /** The backing column-major array (not a copy). */
    public double[] data() {
        return data;
    }

    @Override
    public double get(int i, int j) {
        return data[i + j * rows];
    }

    public void set(int i, int j, double v) {
        data[i + j * rows] = v;
    }

    public void add(int i, int j, double v) {
        data[i + j * rows] += v;
    }

    public DenseMatrix copy() {
        return new DenseMatrix(rows, cols, data.clone());
    }

    @Override
    public DenseMatrix toDense() {
        return this;
    }

    @Override
    public boolean isSparse() {
        return false;
    }

    @Override
    public long storedEntries() {
        return (long) rows * cols;
    }

    public DenseMatrix transpose() {
        DenseMatrix t = zeros(cols, rows);
        // blocked transpose keeps both sides cache-friendly for large matrices
        final int b = 64;
        for (int jj = 0; jj < cols; jj += b) {
            int jEnd = Math.min(cols, jj + b);
            for (int ii = 0; ii < rows; ii += b) {
                int iEnd = Math.min(rows, ii + b);
                for (int j = jj; j < jEnd; j++) {
                    int src = j * rows;
                    for (int i = ii; i < iEnd; i++) {
                        t.data[j + i * cols] = data[src + i];
                    }
                }
            }
        }
        return t;
    }

    /** Copy of row {@code i}. */
    @Override
    public double[] row(int i) {
        double[] r = new double[cols];
        for (int j = 0; j < cols; j++) {
            r[j] = data[i + j * rows];
        }
        return r;
    }

    /** Copy of column {@code j}. */
    public double[] columnCopy(int j) {
        return Arrays.copyOfRange(data, j * rows, (j + 1) * rows);
    }

    public void setColumn(int j, double[] v) {
        if (v.length != rows) {
            throw new IllegalArgumentException("column length " + v.length + " != " + rows);
        }
        System.arraycopy(v, 0, data, j * rows, rows);
    }

    public void setRow(int i, double[] v) {
        if (v.length != cols) {
            throw new IllegalArgumentException("row length " + v.length + " != " + cols);
        }
        for (int j = 0; j < cols; j++) {
            data[i + j * rows] = v[j];
        }
    }

    @Override
    public DenseMatrix selectRows(int[] idx) {
        DenseMatrix m = zeros(idx.length, cols);
        for (int j = 0; j < cols; j++) {
            int src = j * rows;
            int dst = j * idx.length;
            for (int k = 0; k < idx.length; k++) {
                m.data[dst + k] = data[src + idx[k]];
            }
        }
        return m;
    }

    @Override
    public DenseMatrix selectColumns(int[] idx) {
        DenseMatrix m = zeros(rows, idx.length);
        for (int k = 0; k < idx.length; k++) {
            System.arraycopy(data, idx[k] * rows, m.data, k * rows, rows);
        }
        return m;
    }

    /** The square submatrix on rows and columns {@code idx}. */
    public DenseMatrix selectSymmetric(int[] idx) {
        int p = idx.length;
        DenseMatrix m = zeros(p, p);
        for (int b = 0; b < p; b++) {
            int src = idx[b] * rows;
            for (int a = 0; a < p; a++) {
                m.data[a + b * p] = data[src + idx[a]];
            }
        }
        return m;
    }

    /** Stacks {@code this} above {@code other} (same number of columns). */
    public DenseMatrix vstack(DenseMatrix other) {
        if (other.cols != cols) {
            throw new IllegalArgumentException("vstack: " + cols + " vs " + other.cols + " columns");
        }
        DenseMatrix m = zeros(rows + other.rows, cols);
        for (int j = 0; j < cols; j++) {
            System.arraycopy(data, j * rows, m.data, j * m.rows, rows);
            System.arraycopy(other.data, j * other.rows, m.data, j * m.rows + rows, other.rows);
        }
        return m;
    }

    public DenseMatrix plus(DenseMatrix o) {
        requireSameShape(o);
        double[] r = data.clone();
        for (int k = 0; k < r.length; k++) {
            r[k] += o.data[k];
        }
        return new DenseMatrix(rows, cols, r);
    }

    public DenseMatrix minus(DenseMatrix o) {
        requireSameShape(o);
        double[] r = data.clone();
        for (int k = 0; k < r.length; k++) {
            r[k] -= o.data[k];
        }
        return new DenseMatrix(rows, cols, r);
    }

    public DenseMatrix scale(double s) {
        double[] r = data.clone();
        for (int k = 0; k < r.length; k++) {
            r[k] *= s;
        }
        return new DenseMatrix(rows, cols, r);
    }

    public void scaleInPlace(double s) {
        for (int k = 0; k < data.length; k++) {
            data[k] *= s;
        }
    }

    /** {@code this += s * o}. */
    public void addScaledInPlace(double s, DenseMatrix o) {
        requireSameShape(o);
        for (int k = 0; k < data.length; k++) {
            data[k] += s * o.data[k];
        }
    }

    /** A copy with {@code s} added to every diagonal entry (square matrices). */
    public DenseMatrix plusIdentity(double s) {
        requireSquare();
        DenseMatrix m = copy();
        for (int i = 0; i < rows; i++) {
            m.data[i + i * rows] += s;
        }
        return m;
    }

    public DenseMatrix map(DoubleUnaryOperator f) {
        double[] r = new double[data.length];
        for (int k = 0; k < r.length; k++) {
            r[k] = f.applyAsDouble(data[k]);
        }
        return new DenseMatrix(rows, cols, r);
    }

    public double[] diagonal() {
        int n = Math.min(rows, cols);
        double[] d = new double[n];
        for (int i = 0; i < n; i++) {
            d[i] = data[i + i * rows];
        }
        return d;
    }

    public double trace() {
        requireSquare();
        double t = 0;
        for (int i = 0; i < rows; i++) {
            t += data[i + i * rows];
        }
        return t;
    }

    public double frobeniusNorm() {
        // scaled sum of squares avoids overflow for huge entries
        double scale = 0;
        for (double v : data) {
            scale = Math.max(scale, Math.abs(v));
        }
        if (scale == 0 || !Double.isFinite(scale)) {
            return scale;
        }
        double s = 0;
        for (double v : data) {
            double t = v / scale;
            s += t * t;
        }
        return scale * Math.sqrt(s);
    }

    public double maxAbs() {
        double m = 0;
        for (double v : data) {
            m = Math.max(m, Math.abs(v));
        }
        return m;
    }

    /** Largest |a_ij - a_ji|; zero for an exactly symmetric matrix. */
    public double asymmetry() {
        requireSquare();
        double m = 0;
        for (int j = 0; j < cols; j++) {
            for (int i = j + 1; i < rows; i++) {
                m = Math.max(m, Math.abs(data[i + j * rows] - data[j + i * rows]));
            }
        }
        return m;
    }

    /** Replaces the matrix by (A + A^T)/2 in place. */
    public void symmetrizeInPlace() {
        requireSquare();
        for (int j = 0; j < cols; j++) {
            for (int i = j + 1; i < rows; i++) {
                double v = 0.5 * (data[i + j * rows] + data[j + i * rows]);
                data[i + j * rows] = v;
                data[j + i * rows] = v;
            }
        }
    }

    /** Copies the upper triangle onto the lower one in place. */
    public void mirrorUpperInPlace() {
        requireSquare();
        for (int j = 0; j < cols; j++) {
            for (int i = j + 1; i < rows; i++) {
                data[i + j * rows] = data[j + i * rows];
            }
        }
    }

    /** A copy with column j multiplied by {@code f[j]}. */
    public DenseMatrix scaleColumnsCopy(double[] f) {
        if (f.length != cols) {
            throw new IllegalArgumentException("factor count " + f.length + " != " + cols);
        }
        double[] r = data.clone();
        for (int j = 0; j < cols; j++) {
            int off = j * rows;
            double s = f[j];
            for (int i = 0; i < rows; i++) {
                r[off + i] *= s;
            }
        }
        return new DenseMatrix(rows, cols, r);
    }

    /** A copy equal to (A + A^T)/2. */
    public DenseMatrix symmetrized() {
        DenseMatrix m = copy();
        m.symmetrizeInPlace();
        return m;
    }

    /** Column means (length cols). */
    public double[] columnMeans() {
        double[] m = new double[cols];
        if (rows == 0) {
            return m;
        }
        for (int j = 0; j < cols; j++) {
            double s = 0;
            int off = j * rows;
            for (int i = 0; i < rows; i++) {
                s += data[off + i];
            }
            m[j] = s / rows;
        }
        return m;
    }

    /** A copy with {@code v[j]} subtracted from column j. */
    public DenseMatrix minusRowVector(double[] v) {
        if (v.length != cols) {
            throw new IllegalArgumentException("vector length " + v.length + " != " + cols);
        }
        double[] r = data.clone();
        for (int j = 0; j < cols; j++) {
            int off = j * rows;
            double s = v[j];
            for (int i = 0; i < rows; i++) {
                r[off + i] -= s;
            }
        }
        return new DenseMatrix(rows, cols, r);
    }

    /** A copy with {@code v[j]} added to column j (broadcast a row vector). */
    public DenseMatrix plusRowVector(double[] v) {
        double[] neg = new double[v.length];
        for (int j = 0; j < v.length; j++) {
            neg[j] = -v[j];
        }
        return minusRowVector(neg);
    }

    @Override
    public double[] rowSquaredNorms() {
        double[] s = new double[rows];
        for (int j = 0; j < cols; j++) {
            int off = j * rows;
            for (int i = 0; i < rows; i++) {
                double v = data[off + i];
                s[i] += v * v;
            }
        }
        return s;
    }

    @Override
    public DenseMatrix scaleRows(double[] factors) {
        if (factors.length != rows) {
            throw new IllegalArgumentException("factor count " + factors.length + " != " + rows);
        }
        double[] r = data.clone();
        for (int j = 0; j < cols; j++) {
            int off = j * rows;
            for (int i = 0; i < rows; i++) {
                r[off + i] *= factors[i];
            }
        }
        return new DenseMatrix(rows, cols, r);
    }

    @Override
    public DenseMatrix multiply(DenseMatrix w) {
        return LinAlg.multiply(this, w);
    }

    @Override
    public DenseMatrix transposeMultiply(DenseMatrix g) {
        return LinAlg.multiplyTransA(this, g);
    }

    @Override
    public void transposeMultiplyInto(DenseMatrix g, DenseMatrix out) {
        LinAlg.gemmInto(this, true, g, false, out);
    }

    @Override
    public DenseMatrix gram() {
        return LinAlg.gram(this);
    }

    /** Index of the first non-finite entry as {row, col}, or null if all are finite. */
    public int[] firstNonFinite() {
        for (int k = 0; k < data.length; k++) {
            if (!Double.isFinite(data[k])) {
                return new int[] {k % Math.max(rows, 1), k / Math.max(rows, 1)};
            }
        }
        return null;
    }

    private void requireSameShape(DenseMatrix o) {
        if (o.rows != rows || o.cols != cols) {
            throw new IllegalArgumentException("shape mismatch: " + rows + "x" + cols + " vs " + o.rows + "x" + o.cols);
        }
    }

    private void requireSquare() {
        if (rows != cols) {
            throw new IllegalArgumentException("square matrix required, got " + rows + "x" + cols);
        }
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("DenseMatrix ").append(rows).append('x').append(cols);
        if ((long) rows * cols <= 64) {
            for (int i = 0; i < rows; i++) {
                sb.append(i == 0 ? "\n[" : "\n ").append(Arrays.toString(row(i)));
            }
            sb.append(']');
        }
        return sb.toString();
    }
}
