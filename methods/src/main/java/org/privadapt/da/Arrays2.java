package org.privadapt.da;

import org.privadapt.math.DenseMatrix;

/** Conversions between row arrays ({@code double[n][d]}, the estimators' currency) and {@link DenseMatrix}. */
final class Arrays2 {
    private Arrays2() {
    }

    static DenseMatrix matrix(double[][] rows, String what) {
        if (rows == null || rows.length == 0) {
            throw new IllegalArgumentException(what + ": no rows");
        }
        int d = rows[0].length;
        for (int i = 0; i < rows.length; i++) {
            if (rows[i] == null || rows[i].length != d) {
                throw new IllegalArgumentException(what + ": row " + i + " has " + (rows[i] == null ? 0 : rows[i].length)
                        + " values, row 0 has " + d);
            }
            for (int j = 0; j < d; j++) {
                if (!Double.isFinite(rows[i][j])) {
                    throw new IllegalArgumentException(what + ": row " + i + ", column " + j + " is " + rows[i][j]);
                }
            }
        }
        return DenseMatrix.fromRows(rows);
    }

    static double[][] rows(DenseMatrix m) {
        double[][] out = new double[m.rows()][];
        for (int i = 0; i < m.rows(); i++) {
            out[i] = m.row(i);
        }
        return out;
    }

    static void sameWidth(DenseMatrix a, DenseMatrix b, String what) {
        if (a.cols() != b.cols()) {
            throw new IllegalArgumentException(what + ": " + a.cols() + " features against " + b.cols());
        }
    }

    static void fitted(Object state, String estimator) {
        if (state == null) {
            throw new IllegalStateException(estimator + " is not fitted: call fit first");
        }
    }
}
