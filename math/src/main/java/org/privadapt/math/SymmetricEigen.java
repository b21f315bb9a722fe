package org.privadapt.math;

import java.util.function.DoubleUnaryOperator;

/**
 * The eigendecomposition {@code S = V diag(w) V^T} of a symmetric matrix: eigenvalues ascending, orthonormal
 * eigenvectors as the columns of V. Immutable; {@link #residual(DenseMatrix)} reports its quality.
 */
public final class SymmetricEigen {
    private final double[] values;
    private final DenseMatrix vectors;

    SymmetricEigen(double[] values, DenseMatrix vectors) {
        this.values = values;
        this.vectors = vectors;
    }

    /** Eigenvalues in ascending order (a copy). */
    public double[] values() {
        return values.clone();
    }

    public double value(int i) {
        return values[i];
    }

    public int size() {
        return values.length;
    }

    /** Eigenvectors as columns (a copy). */
    public DenseMatrix vectors() {
        return vectors.copy();
    }

    public double minValue() {
        return values.length == 0 ? Double.NaN : values[0];
    }

    public double maxValue() {
        return values.length == 0 ? Double.NaN : values[values.length - 1];
    }

    /**
     * The eigenvectors of the {@code k} largest eigenvalues, largest first, as a d x k matrix (the principal
     * subspace used by subspace alignment).
     */
    public DenseMatrix topVectors(int k) {
        int n = values.length;
        if (k < 0 || k > n) {
            throw new IllegalArgumentException("k=" + k + " outside [0, " + n + "]");
        }
        int[] idx = new int[k];
        for (int t = 0; t < k; t++) {
            idx[t] = n - 1 - t;
        }
        return vectors.selectColumns(idx);
    }

    /** {@code V diag(f(w)) V^T}: the matrix function f applied to S. */
    public DenseMatrix apply(DoubleUnaryOperator f) {
        int n = values.length;
        double[] fw = new double[n];
        for (int i = 0; i < n; i++) {
            fw[i] = f.applyAsDouble(values[i]);
        }
        DenseMatrix vf = vectors.scaleColumnsCopy(fw);
        return LinAlg.multiplyTransB(vf, vectors).symmetrized();
    }

    /**
     * {@code S^p} for positive semi-definite S. Eigenvalues below {@code -1e-10 * max|w|} mean S is not PSD
     * and raise an {@link ArithmeticException}; non-positive ones are an error for p &lt; 0 and map to 0 for p > 0.
     */
    public DenseMatrix powerOfPsd(double p) {
        double scale = Math.max(Math.abs(minValue()), Math.abs(maxValue()));
        double tol = 1e-10 * scale;
        if (minValue() < -tol) {
            throw new ArithmeticException("matrix is not positive semi-definite (smallest eigenvalue " + minValue() + ")");
        }
        if (p < 0 && minValue() <= 0) {
            throw new ArithmeticException("negative power of a singular matrix (smallest eigenvalue " + minValue() + ")");
        }
        return apply(w -> w <= 0 ? 0.0 : Math.pow(w, p));
    }

    /** {@code V diag(w) V^T}. */
    public DenseMatrix reconstruct() {
        return apply(w -> w);
    }

    /**
     * Relative residual {@code ||S V - V diag(w)||_F / ||S||_F}: near machine precision (times n) for a good
     * decomposition of S.
     */
    public double residual(DenseMatrix s) {
        DenseMatrix sv = LinAlg.multiply(s, vectors);
        DenseMatrix vw = vectors.scaleColumnsCopy(values);
        double norm = s.frobeniusNorm();
        return sv.minus(vw).frobeniusNorm() / (norm == 0 ? 1 : norm);
    }
}
