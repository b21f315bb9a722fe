package org.privadapt.data.io;

import java.nio.file.Path;
import java.util.List;
import org.privadapt.data.DataException;
import org.privadapt.data.PrivateText;
import org.privadapt.math.CsrMatrix;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import us.hebi.matlab.mat.types.Matrix;
import us.hebi.matlab.mat.types.Sparse;

/**
 * The feature matrix of a MAT variable ({@link MatVar}: a matrix or a cell array's matrices stacked), n x d, read
 * transposed when the file holds one observation per column. Sparse variables (MATLAB's compressed-column
 * {@code ir/jc/pr}) stay sparse: they are turned into {@link CsrMatrix} in two passes over their stored entries,
 * without ever building a dense n x d array, so a 400 x 152,543 inbox takes the memory of its non-zeros.
 */
final class MatMatrices {
    private MatMatrices() {
    }

    /** One stored entry, already in output (row, column) coordinates. */
    @FunctionalInterface
    private interface Entry {
        void accept(int row, int col, double value);
    }

    /** A stored entry outside its matrix: thrown inside the library's iteration, reported as a DataException. */
    private static final class BadEntry extends RuntimeException {
        private static final long serialVersionUID = 1L;

        BadEntry(String message) {
            super(message, null, false, false);
        }
    }

    static FeatureMatrix features(Path file, MatVar v, boolean transpose) throws DataException {
        int n = transpose ? v.cols : v.rows;
        int d = transpose ? v.rows : v.cols;
        try {
            return v.sparse() ? sparse(file, v, transpose, n, d) : dense(v, transpose, n, d);
        } catch (BadEntry e) {
            throw new DataException(file, "variable '" + v.name + "'", e.getMessage());
        }
    }

    private static DenseMatrix dense(MatVar v, boolean transpose, int n, int d) {
        DenseMatrix x = DenseMatrix.zeros(n, d);
        double[] data = x.data();
        int[][] off = v.offsets();
        List<Matrix> leaves = v.leaves;
        for (int k = 0; k < leaves.size(); k++) {
            Matrix m = leaves.get(k);
            int r = m.getNumRows();
            int c = m.getNumCols();
            int ro = off[k][0];
            int co = off[k][1];
            for (int j = 0; j < c; j++) {
                for (int i = 0; i < r; i++) {
                    int row = ro + i;
                    int col = co + j;
                    data[transpose ? col + row * n : row + col * n] = MatVar.value(m, i, j);
                }
            }
        }
        return x;
    }

    private static CsrMatrix sparse(Path file, MatVar v, boolean transpose, int n, int d) throws DataException {
        int[] start = new int[n + 1];
        forEachNonZero(v, transpose, (row, col, value) -> start[row + 1]++);
        for (int i = 0; i < n; i++) {
            start[i + 1] += start[i];
        }
        int nnz = start[n];
        int[] ci = new int[nnz];
        double[] val = new double[nnz];
        int[] next = java.util.Arrays.copyOf(start, n);
        forEachNonZero(v, transpose, (row, col, value) -> {
            int p = next[row]++;
            ci[p] = col;
            val[p] = value;
        });
        // columns must increase within a row: they do when read in MATLAB's column order (untransposed); a
        // transposed row is a stored column, whose row indices MATLAB keeps sorted, but a hand-made file may not
        for (int i = 0; i < n; i++) {
            boolean sorted = true;
            for (int p = start[i] + 1; p < start[i + 1]; p++) {
                if (ci[p] <= ci[p - 1]) {
                    sorted = false;
                    break;
                }
            }
            if (!sorted) {
                sortRow(ci, val, start[i], start[i + 1]);
                for (int p = start[i] + 1; p < start[i + 1]; p++) {
                    if (ci[p] == ci[p - 1]) {
                        int r = transpose ? ci[p] : i;
                        int c = transpose ? i : ci[p];
                        throw new DataException(file, "variable '" + v.name + "'", "sparse matrix stores two entries at row "
                                + PrivateText.row(r + 1) + ", column " + PrivateText.row(c + 1) + " (corrupt)");
                    }
                }
            }
        }
        return new CsrMatrix(n, d, start, ci, val);
    }

    private static void sortRow(int[] ci, double[] val, int from, int to) {
        Integer[] order = new Integer[to - from];
        for (int p = 0; p < order.length; p++) {
            order[p] = from + p;
        }
        java.util.Arrays.sort(order, (a, b) -> Integer.compare(ci[a], ci[b]));
        int[] c2 = new int[order.length];
        double[] v2 = new double[order.length];
        for (int p = 0; p < order.length; p++) {
            c2[p] = ci[order[p]];
            v2[p] = val[order[p]];
        }
        System.arraycopy(c2, 0, ci, from, c2.length);
        System.arraycopy(v2, 0, val, from, v2.length);
    }

    /** Every non-zero of the stacked variable, sparse leaves by their stored entries, dense ones element by element. */
    private static void forEachNonZero(MatVar v, boolean transpose, Entry out) {
        int[][] off = v.offsets();
        List<Matrix> leaves = v.leaves;
        for (int k = 0; k < leaves.size(); k++) {
            Matrix m = leaves.get(k);
            int r = m.getNumRows();
            int c = m.getNumCols();
            int ro = off[k][0];
            int co = off[k][1];
            if (m instanceof Sparse s) {
                s.forEach((i, j, real, imag) -> {
                    if (i < 0 || i >= r || j < 0 || j >= c) {
                        throw new BadEntry("sparse matrix stores an entry at row " + PrivateText.row(i + 1L) + ", column "
                                + PrivateText.row(j + 1L) + " outside its " + PrivateText.value(r + "x" + c) + " shape (corrupt)");
                    }
                    if (real != 0) {
                        int row = ro + i;
                        int col = co + j;
                        out.accept(transpose ? col : row, transpose ? row : col, real);
                    }
                });
            } else {
                for (int j = 0; j < c; j++) {
                    for (int i = 0; i < r; i++) {
                        double x = MatVar.value(m, i, j);
                        if (x != 0) {
                            int row = ro + i;
                            int col = co + j;
                            out.accept(transpose ? col : row, transpose ? row : col, x);
                        }
                    }
                }
            }
        }
    }
}
