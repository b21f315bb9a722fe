package org.privadapt.math;

/**
 * The spectrum of a sample covariance {@code C = cov(X) = Xc^T Xc / (n - 1)} (Xc: the rows of X minus their mean),
 * kept as {@code C = V diag(values) V^T} with V d x r orthonormal, and the matrix functions CORAL needs applied to
 * rows without forming a d x d matrix.
 *
 * <p>Two routes to the same factorisation:
 * <ul>
 *   <li>n >= d: the d x d covariance is decomposed (r = d);</li>
 *   <li>n &lt; d (e.g. 2000 reviews of 5000 words): C has rank at most n - 1 and its nonzero spectrum is that of the
 *       n x n Gram matrix {@code G = Xc Xc^T}: if {@code G u = mu u} with mu > 0 then {@code v = Xc^T u / sqrt(mu)}
 *       is a unit eigenvector of C with eigenvalue {@code mu / (n - 1)}. Eigenvalues of G at or below the eigensolver's
 *       rounding level, {@code n * ulp(1) * mu_max}, are treated as zero (at least one is: the centring), so
 *       r &lt;= n - 1. Cost O(n^2 d + n^3) instead of O(d^3).</li>
 * </ul>
 * Every eigenvalue left out is zero to within rounding; {@link #ridgedPowerTimes} applies {@code (C + lambda I)^p} up
 * to a relative error of about {@code |p| delta / lambda} from them, where delta is {@link #droppedBound()}, and
 * {@link #exactFor(double)} says whether that is negligible (callers then use the d x d route instead).
 */
public final class CovarianceSpectrum {
    private final DenseMatrix vectors;
    private final double[] values;
    private final boolean viaGram;
    private final double droppedBound;

    private CovarianceSpectrum(DenseMatrix vectors, double[] values, boolean viaGram, double droppedBound) {
        this.vectors = vectors;
        this.values = values;
        this.viaGram = viaGram;
        this.droppedBound = droppedBound;
    }

    /** The spectrum of {@code cov(x)} ({@link LinAlg#covariance} convention, divisor n - 1); x is not modified. */
    public static CovarianceSpectrum of(FeatureMatrix x) {
        return build(x, 0);
    }

    /**
     * The {@code k} largest eigenpairs of {@code cov(x)} only (fewer if the Gram route finds fewer nonzero ones),
     * through the partial-spectrum solver {@link LinAlg#leadingEigenvectors}'s backend call: for principal subspaces.
     * {@link #ridgedPowerTimes} is then the power of the rank-k truncation, not of C.
     */
    public static CovarianceSpectrum leading(FeatureMatrix x, int k) {
        if (k < 1 || k > x.cols()) {
            throw new IllegalArgumentException("k=" + k + " outside [1, " + x.cols() + "]");
        }
        return build(x, k);
    }

    /** k = 0: every eigenpair; else the k largest. */
    private static CovarianceSpectrum build(FeatureMatrix x, int k) {
        int n = x.rows();
        int d = x.cols();
        if (n == 0) {
            throw new IllegalArgumentException("covariance of an empty matrix");
        }
        if (n == 1) { // one row: the covariance is zero
            return new CovarianceSpectrum(DenseMatrix.zeros(d, 0), new double[0], d > 1, 0.0);
        }
        boolean viaGram = n < d;
        DenseMatrix centered = null;
        DenseMatrix s;
        if (viaGram) {
            DenseMatrix xd = x.toDense();
            centered = xd.minusRowVector(xd.columnMeans());
            s = LinAlg.gram(centered.transpose()); // n x n: Xc Xc^T
        } else {
            s = LinAlg.covariance(x);
        }
        int m = s.rows();
        int want = k == 0 ? m : Math.min(k, m);
        double[] w; // ascending
        DenseMatrix vz;
        if (want == m) {
            SymmetricEigen e = LinAlg.eigh(s);
            w = e.values();
            vz = e.vectors();
        } else {
            w = new double[want];
            double[] z = new double[m * want];
            LinAlg.largestEigenpairs(s, want, w, z);
            vz = new DenseMatrix(m, want, z);
        }
        if (!viaGram) {
            return new CovarianceSpectrum(vz, w, false, 0.0);
        }
        double largest = want == 0 ? 0.0 : Math.max(w[want - 1], 0.0);
        double cutoff = n * Math.ulp(1.0) * largest; // the eigensolver's rounding level on G
        int first = 0;
        while (first < want && !(w[first] > cutoff)) {
            first++;
        }
        int r = want - first;
        int[] keep = new int[r];
        double[] scale = new double[r];
        double[] vals = new double[r];
        for (int t = 0; t < r; t++) {
            keep[t] = first + t;
            scale[t] = 1.0 / Math.sqrt(w[first + t]);
            vals[t] = w[first + t] / (n - 1);
        }
        DenseMatrix v = r == 0 ? DenseMatrix.zeros(d, 0)
                : LinAlg.multiplyTransA(centered, vz.selectColumns(keep)).scaleColumnsCopy(scale);
        // a dropped eigenvalue of G is at most the cutoff plus the solver's error, of the same size
        return new CovarianceSpectrum(v, vals, true, 2 * cutoff / (n - 1));
    }

    /** d, the number of features. */
    public int dimension() {
        return vectors.rows();
    }

    /** r, the number of eigenpairs kept (d on the covariance route, at most n - 1 on the Gram route). */
    public int rank() {
        return values.length;
    }

    /** True when computed from the n x n Gram matrix (n &lt; d). */
    public boolean viaGram() {
        return viaGram;
    }

    /**
     * An upper bound on the covariance eigenvalues left out as zero on the Gram route (0 on the covariance route): what
     * the eigensolver cannot tell from zero.
     */
    public double droppedBound() {
        return droppedBound;
    }

    /**
     * Whether {@link #ridgedPowerTimes} with this lambda is exact to rounding: the eigenvalues left out could shift
     * {@code (C + lambda I)^p} by a relative {@code |p| droppedBound / lambda}, required here to stay below 1e-8. Fails
     * for columns on wildly different scales with a small lambda; use the d x d covariance then.
     */
    public boolean exactFor(double lambda) {
        return droppedBound <= 1e-8 * lambda;
    }

    /** The kept eigenvalues of the covariance, ascending (a copy). */
    public double[] values() {
        return values.clone();
    }

    /** The kept eigenvectors as the columns of a d x r matrix, in the order of {@link #values()} (a copy). */
    public DenseMatrix vectors() {
        return vectors.copy();
    }

    /** The kept eigenvectors largest eigenvalue first, d x r: the principal axes. */
    public DenseMatrix principalAxes() {
        int r = rank();
        int[] idx = new int[r];
        for (int t = 0; t < r; t++) {
            idx[t] = r - 1 - t;
        }
        return vectors.selectColumns(idx);
    }

    /**
     * {@code Y (C + lambda I)^p} for the rows Y (m x d), lambda > 0: with {@code C = V diag(w) V^T},
     * {@code (C + lambda I)^p = V diag((w + lambda)^p - lambda^p) V^T + lambda^p I}, which holds whether V is square or
     * spans only the nonzero spectrum. Eigenvalues slightly below zero (rounding) are used as they are as long as
     * {@code w + lambda > 0}. Costs two m x d x r products; Y is not modified.
     *
     * @throws ArithmeticException if some {@code w + lambda <= 0} (C is not PSD to within lambda)
     */
    public DenseMatrix ridgedPowerTimes(FeatureMatrix y, double lambda, double p) {
        if (!(lambda > 0) || !Double.isFinite(lambda)) {
            throw new IllegalArgumentException("ridge lambda must be positive and finite, got " + lambda);
        }
        if (y.cols() != dimension()) {
            throw new IllegalArgumentException("rows of dimension " + y.cols() + " for a covariance of dimension " + dimension());
        }
        int r = rank();
        double base = Math.pow(lambda, p);
        double[] f = new double[r];
        for (int t = 0; t < r; t++) {
            double shifted = values[t] + lambda;
            if (!(shifted > 0)) {
                throw new ArithmeticException("covariance + lambda I is not positive definite (eigenvalue " + values[t]
                        + ", lambda " + lambda + ")");
            }
            f[t] = Math.pow(shifted, p) - base;
        }
        DenseMatrix out = y.toDense().scale(base);
        if (r > 0 && y.rows() > 0) {
            DenseMatrix yv = y.multiply(vectors).scaleColumnsCopy(f); // m x r
            LinAlg.backend().gemm(false, true, y.rows(), dimension(), r, 1.0, yv.data(), y.rows(), vectors.data(),
                    dimension(), 1.0, out.data(), y.rows());
        }
        return out;
    }
}
