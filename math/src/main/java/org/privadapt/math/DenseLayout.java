package org.privadapt.math;

/**
 * How a {@link DenseMatrix} is built from and copied into other layouts: the factories from row arrays,
 * row-major arrays and diagonals, the blocked transpose, row and column copies, row/column selections and
 * vertical stacking. Every method here returns a new matrix or array, except {@code setRow}/{@code setColumn},
 * which write into the one given. {@link DenseMatrix} keeps the public methods and delegates to these.
 */
final class DenseLayout {
    private DenseLayout() {
    }

    static DenseMatrix identity(int n) {
        DenseMatrix m = DenseMatrix.zeros(n, n);
        double[] d = m.data();
        for (int i = 0; i < n; i++) {
            d[i + i * n] = 1.0;
        }
        return m;
    }

    static DenseMatrix diagonal(double[] diag) {
        int n = diag.length;
        DenseMatrix m = DenseMatrix.zeros(n, n);
        double[] d = m.data();
        for (int i = 0; i < n; i++) {
            d[i + i * n] = diag[i];
        }
        return m;
    }

    static DenseMatrix fromRows(double[][] rowArrays) {
        int r = rowArrays.length;
        int c = r == 0 ? 0 : rowArrays[0].length;
        DenseMatrix m = DenseMatrix.zeros(r, c);
        double[] d = m.data();
        for (int i = 0; i < r; i++) {
            if (rowArrays[i].length != c) {
                throw new IllegalArgumentException("row " + i + " has " + rowArrays[i].length + " entries, expected " + c);
            }
            for (int j = 0; j < c; j++) {
                d[i + j * r] = rowArrays[i][j];
            }
        }
        return m;
    }

    static DenseMatrix fromRowMajor(int rows, int cols, double[] rowMajor) {
        if ((long) rows * cols != rowMajor.length) {
            throw new IllegalArgumentException("data length " + rowMajor.length + " != " + rows + "x" + cols);
        }
        DenseMatrix m = DenseMatrix.zeros(rows, cols);
        double[] d = m.data();
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                d[i + j * rows] = rowMajor[i * cols + j];
            }
        }
        return m;
    }

    static DenseMatrix transpose(DenseMatrix a) {
        int rows = a.rows();
        int cols = a.cols();
        double[] data = a.data();
        DenseMatrix t = DenseMatrix.zeros(cols, rows);
        double[] td = t.data();
        // blocked transpose keeps both sides cache-friendly for large matrices
        final int b = 64;
        for (int jj = 0; jj < cols; jj += b) {
            int jEnd = Math.min(cols, jj + b);
            for (int ii = 0; ii < rows; ii += b) {
                int iEnd = Math.min(rows, ii + b);
                for (int j = jj; j < jEnd; j++) {
                    int src = j * rows;
                    for (int i = ii; i < iEnd; i++) {
                        td[j + i * cols] = data[src + i];
                    }
                }
            }
        }
        return t;
    }

    static double[] row(DenseMatrix a, int i) {
        int rows = a.rows();
        int cols = a.cols();
        double[] data = a.data();
        double[] r = new double[cols];
        for (int j = 0; j < cols; j++) {
            r[j] = data[i + j * rows];
        }
        return r;
    }

    static void setColumn(DenseMatrix a, int j, double[] v) {
        int rows = a.rows();
        if (v.length != rows) {
            throw new IllegalArgumentException("column length " + v.length + " != " + rows);
        }
        System.arraycopy(v, 0, a.data(), j * rows, rows);
    }

    static void setRow(DenseMatrix a, int i, double[] v) {
        int rows = a.rows();
        int cols = a.cols();
        double[] data = a.data();
        if (v.length != cols) {
            throw new IllegalArgumentException("row length " + v.length + " != " + cols);
        }
        for (int j = 0; j < cols; j++) {
            data[i + j * rows] = v[j];
        }
    }

    static DenseMatrix selectRows(DenseMatrix a, int[] idx) {
        int rows = a.rows();
        int cols = a.cols();
        double[] data = a.data();
        DenseMatrix m = DenseMatrix.zeros(idx.length, cols);
        double[] md = m.data();
        for (int j = 0; j < cols; j++) {
            int src = j * rows;
            int dst = j * idx.length;
            for (int k = 0; k < idx.length; k++) {
                md[dst + k] = data[src + idx[k]];
            }
        }
        return m;
    }

    static DenseMatrix selectColumns(DenseMatrix a, int[] idx) {
        int rows = a.rows();
        DenseMatrix m = DenseMatrix.zeros(rows, idx.length);
        for (int k = 0; k < idx.length; k++) {
            System.arraycopy(a.data(), idx[k] * rows, m.data(), k * rows, rows);
        }
        return m;
    }

    static DenseMatrix selectSymmetric(DenseMatrix a, int[] idx) {
        int rows = a.rows();
        double[] data = a.data();
        int p = idx.length;
        DenseMatrix m = DenseMatrix.zeros(p, p);
        double[] md = m.data();
        for (int b = 0; b < p; b++) {
            int src = idx[b] * rows;
            for (int c = 0; c < p; c++) {
                md[c + b * p] = data[src + idx[c]];
            }
        }
        return m;
    }

    static DenseMatrix vstack(DenseMatrix top, DenseMatrix other) {
        int rows = top.rows();
        int cols = top.cols();
        if (other.cols() != cols) {
            throw new IllegalArgumentException("vstack: " + cols + " vs " + other.cols() + " columns");
        }
        DenseMatrix m = DenseMatrix.zeros(rows + other.rows(), cols);
        int mRows = m.rows();
        for (int j = 0; j < cols; j++) {
            System.arraycopy(top.data(), j * rows, m.data(), j * mRows, rows);
            System.arraycopy(other.data(), j * other.rows(), m.data(), j * mRows + rows, other.rows());
        }
        return m;
    }
}
