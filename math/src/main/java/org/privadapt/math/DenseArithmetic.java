package org.privadapt.math;

import java.util.function.DoubleUnaryOperator;

/**
 * Entry-wise arithmetic on a {@link DenseMatrix}: sums and differences of matrices, scaling (whole, by column,
 * by row), broadcasting a row vector over the rows, adding to the diagonal and mapping a function over every
 * entry. The {@code ...InPlace} methods write into the matrix given; every other one returns a new matrix.
 * {@link DenseMatrix} keeps the public methods and delegates to these.
 */
final class DenseArithmetic {
    private DenseArithmetic() {
    }

    static DenseMatrix plus(DenseMatrix a, DenseMatrix o) {
        a.requireSameShape(o);
        double[] r = a.data().clone();
        double[] od = o.data();
        for (int k = 0; k < r.length; k++) {
            r[k] += od[k];
        }
        return new DenseMatrix(a.rows(), a.cols(), r);
    }

    static DenseMatrix minus(DenseMatrix a, DenseMatrix o) {
        a.requireSameShape(o);
        double[] r = a.data().clone();
        double[] od = o.data();
        for (int k = 0; k < r.length; k++) {
            r[k] -= od[k];
        }
        return new DenseMatrix(a.rows(), a.cols(), r);
    }

    static DenseMatrix scale(DenseMatrix a, double s) {
        double[] r = a.data().clone();
        for (int k = 0; k < r.length; k++) {
            r[k] *= s;
        }
        return new DenseMatrix(a.rows(), a.cols(), r);
    }

    static void scaleInPlace(DenseMatrix a, double s) {
        double[] data = a.data();
        for (int k = 0; k < data.length; k++) {
            data[k] *= s;
        }
    }

    static void addScaledInPlace(DenseMatrix a, double s, DenseMatrix o) {
        a.requireSameShape(o);
        double[] data = a.data();
        double[] od = o.data();
        for (int k = 0; k < data.length; k++) {
            data[k] += s * od[k];
        }
    }

    static DenseMatrix plusIdentity(DenseMatrix a, double s) {
        a.requireSquare();
        int rows = a.rows();
        DenseMatrix m = a.copy();
        double[] md = m.data();
        for (int i = 0; i < rows; i++) {
            md[i + i * rows] += s;
        }
        return m;
    }

    static DenseMatrix map(DenseMatrix a, DoubleUnaryOperator f) {
        double[] data = a.data();
        double[] r = new double[data.length];
        for (int k = 0; k < r.length; k++) {
            r[k] = f.applyAsDouble(data[k]);
        }
        return new DenseMatrix(a.rows(), a.cols(), r);
    }

    static DenseMatrix scaleColumnsCopy(DenseMatrix a, double[] f) {
        int rows = a.rows();
        int cols = a.cols();
        if (f.length != cols) {
            throw new IllegalArgumentException("factor count " + f.length + " != " + cols);
        }
        double[] r = a.data().clone();
        for (int j = 0; j < cols; j++) {
            int off = j * rows;
            double s = f[j];
            for (int i = 0; i < rows; i++) {
                r[off + i] *= s;
            }
        }
        return new DenseMatrix(rows, cols, r);
    }

    static DenseMatrix minusRowVector(DenseMatrix a, double[] v) {
        int rows = a.rows();
        int cols = a.cols();
        if (v.length != cols) {
            throw new IllegalArgumentException("vector length " + v.length + " != " + cols);
        }
        double[] r = a.data().clone();
        for (int j = 0; j < cols; j++) {
            int off = j * rows;
            double s = v[j];
            for (int i = 0; i < rows; i++) {
                r[off + i] -= s;
            }
        }
        return new DenseMatrix(rows, cols, r);
    }

    static DenseMatrix plusRowVector(DenseMatrix a, double[] v) {
        double[] neg = new double[v.length];
        for (int j = 0; j < v.length; j++) {
            neg[j] = -v[j];
        }
        return minusRowVector(a, neg);
    }

    static DenseMatrix scaleRows(DenseMatrix a, double[] factors) {
        int rows = a.rows();
        int cols = a.cols();
        if (factors.length != rows) {
            throw new IllegalArgumentException("factor count " + factors.length + " != " + rows);
        }
        double[] r = a.data().clone();
        for (int j = 0; j < cols; j++) {
            int off = j * rows;
            for (int i = 0; i < rows; i++) {
                r[off + i] *= factors[i];
            }
        }
        return new DenseMatrix(rows, cols, r);
    }
}
