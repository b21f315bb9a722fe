package org.privadapt.models.mixture;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.math.LinAlg;

/**
 * An immutable mixture of K Gaussians in R^d: {@code p(z) = sum_k pi_k N(z; mu_k, Sigma_k)}, with diagonal or full
 * covariances ({@link CovarianceType}).
 *
 * <p>Construction validates everything once (weights non-negative and summing to 1 within {@value #WEIGHT_TOLERANCE},
 * finite means, covariances symmetric and positive definite: their Cholesky factorisation must succeed) and
 * precomputes what evaluation needs: for a full covariance the Cholesky factor {@code L_k} and its inverse, so that
 * the squared Mahalanobis distances of all rows come from one matrix product {@code Z L_k^{-T}} per component; for
 * a diagonal one the inverse variances, so that all components' distances come from two products. Densities are
 * computed in the log domain and combined with log-sum-exp, so nothing underflows in high dimension.
 */
public final class GaussianMixture {
    /** How far the given weights may sum from 1 (they are then renormalised exactly). */
    public static final double WEIGHT_TOLERANCE = 1e-6;
    private static final double LOG_2PI = Math.log(2 * Math.PI);
    /** Relative asymmetry a full covariance may have (it is then symmetrised). */
    private static final double SYMMETRY_TOLERANCE = 1e-8;

    private final CovarianceType type;
    private final int k;
    private final int d;
    private final double[] weights;
    private final double[] logWeights;
    private final DenseMatrix means; // K x d
    private final DenseMatrix variances; // K x d (DIAGONAL only)
    private final DenseMatrix[] covariances; // d x d (FULL only)
    private final DenseMatrix[] cholesky; // L_k, lower (FULL only)
    private final DenseMatrix[] choleskyInverse; // L_k^{-1}, lower (FULL only)
    private final double[] logNormalisers; // -(d log 2 pi + log det Sigma_k) / 2

    private GaussianMixture(CovarianceType type, double[] weights, DenseMatrix means, DenseMatrix variances,
                            DenseMatrix[] covariances) {
        this.type = type;
        this.k = weights.length;
        this.d = means.cols();
        this.weights = weights;
        this.means = means;
        this.variances = variances;
        this.covariances = covariances;
        this.logWeights = new double[k];
        for (int c = 0; c < k; c++) {
            logWeights[c] = Math.log(weights[c]);
        }
        this.logNormalisers = new double[k];
        if (type == CovarianceType.FULL) {
            cholesky = new DenseMatrix[k];
            choleskyInverse = new DenseMatrix[k];
            for (int c = 0; c < k; c++) {
                try {
                    cholesky[c] = LinAlg.cholesky(covariances[c]);
                } catch (LinAlg.NotPositiveDefiniteException e) {
                    throw new IllegalArgumentException("covariance " + c + " is not positive definite (Cholesky failed: "
                            + e.getMessage() + ")");
                }
                double logDet = 0;
                for (int j = 0; j < d; j++) {
                    logDet += 2 * Math.log(cholesky[c].get(j, j));
                }
                if (!Double.isFinite(logDet)) {
                    throw new IllegalArgumentException("covariance " + c + " has a log-determinant of " + logDet);
                }
                logNormalisers[c] = -0.5 * (d * LOG_2PI + logDet);
                choleskyInverse[c] = lowerTriangularInverse(cholesky[c]);
            }
        } else {
            cholesky = null;
            choleskyInverse = null;
            for (int c = 0; c < k; c++) {
                double logDet = 0;
                for (int j = 0; j < d; j++) {
                    logDet += Math.log(variances.get(c, j));
                }
                logNormalisers[c] = -0.5 * (d * LOG_2PI + logDet);
            }
        }
    }

    /**
     * A mixture with full covariances.
     *
     * @param weights     pi (K), non-negative, summing to 1 within {@value #WEIGHT_TOLERANCE}
     * @param means       K x d, one mean per row
     * @param covariances K symmetric positive definite d x d matrices
     * @throws IllegalArgumentException naming the first invalid input
     */
    public static GaussianMixture full(double[] weights, DenseMatrix means, List<DenseMatrix> covariances) {
        double[] w = checkWeights(weights);
        checkMeans(means, w.length);
        int d = means.cols();
        if (covariances.size() != w.length) {
            throw new IllegalArgumentException(covariances.size() + " covariances for " + w.length + " components");
        }
        DenseMatrix[] cov = new DenseMatrix[w.length];
        for (int c = 0; c < w.length; c++) {
            DenseMatrix s = covariances.get(c);
            if (s.rows() != d || s.cols() != d) {
                throw new IllegalArgumentException("covariance " + c + " is " + s.rows() + "x" + s.cols() + ", expected " + d + "x" + d);
            }
            int[] bad = s.firstNonFinite();
            if (bad != null) {
                throw new IllegalArgumentException("covariance " + c + " has a non-finite entry at (" + bad[0] + ", " + bad[1] + ")");
            }
            double asym = s.asymmetry();
            if (asym > SYMMETRY_TOLERANCE * Math.max(s.maxAbs(), Double.MIN_NORMAL)) {
                throw new IllegalArgumentException("covariance " + c + " is not symmetric (largest |S_ij - S_ji| = " + asym + ")");
            }
            cov[c] = s.symmetrized();
        }
        return new GaussianMixture(CovarianceType.FULL, w, means.copy(), null, cov);
    }

    /**
     * A mixture with diagonal covariances.
     *
     * @param weights   pi (K), non-negative, summing to 1 within {@value #WEIGHT_TOLERANCE}
     * @param means     K x d, one mean per row
     * @param variances K x d, row k the diagonal of Sigma_k; every entry finite and positive
     * @throws IllegalArgumentException naming the first invalid input
     */
    public static GaussianMixture diagonal(double[] weights, DenseMatrix means, DenseMatrix variances) {
        double[] w = checkWeights(weights);
        checkMeans(means, w.length);
        if (variances.rows() != w.length || variances.cols() != means.cols()) {
            throw new IllegalArgumentException("variances are " + variances.rows() + "x" + variances.cols() + ", expected "
                    + w.length + "x" + means.cols());
        }
        for (int c = 0; c < w.length; c++) {
            for (int j = 0; j < means.cols(); j++) {
                double v = variances.get(c, j);
                if (!(v > 0) || Double.isInfinite(v)) {
                    throw new IllegalArgumentException("variance " + j + " of component " + c + " must be positive and finite, got " + v);
                }
            }
        }
        return new GaussianMixture(CovarianceType.DIAGONAL, w, means.copy(), variances.copy(), null);
    }

    /**
     * A mixture restored exactly from stored parameters (deserialisation): checked as {@link #full} and
     * {@link #diagonal} check them, but the weights are kept bit for bit instead of being renormalised (a second
     * renormalisation of weights that sum to 1 within rounding may change their last bits).
     *
     * @param covariances K d x d matrices (FULL) or null
     * @param variances   K x d (DIAGONAL) or null
     */
    public static GaussianMixture restore(CovarianceType type, double[] weights, DenseMatrix means, List<DenseMatrix> covariances,
                                          DenseMatrix variances) {
        GaussianMixture checked = type == CovarianceType.FULL ? full(weights, means, covariances) : diagonal(weights, means, variances);
        double[] w = weights.clone();
        return new GaussianMixture(type, w, checked.means, checked.variances, checked.covariances);
    }

    private static double[] checkWeights(double[] weights) {
        if (weights.length == 0) {
            throw new IllegalArgumentException("a mixture needs at least one component");
        }
        double sum = 0;
        for (int c = 0; c < weights.length; c++) {
            if (!(weights[c] >= 0) || Double.isInfinite(weights[c])) {
                throw new IllegalArgumentException("weight " + c + " must be non-negative and finite, got " + weights[c]);
            }
            sum += weights[c];
        }
        if (Math.abs(sum - 1) > WEIGHT_TOLERANCE) {
            throw new IllegalArgumentException("weights must sum to 1 (within " + WEIGHT_TOLERANCE + "), got " + sum);
        }
        double[] w = new double[weights.length];
        for (int c = 0; c < w.length; c++) {
            w[c] = weights[c] / sum;
        }
        return w;
    }

    private static void checkMeans(DenseMatrix means, int k) {
        if (means.rows() != k) {
            throw new IllegalArgumentException(means.rows() + " means for " + k + " components");
        }
        if (means.cols() == 0) {
            throw new IllegalArgumentException("dimension must be >= 1");
        }
        int[] bad = means.firstNonFinite();
        if (bad != null) {
            throw new IllegalArgumentException("mean " + bad[0] + " has a non-finite entry at coordinate " + bad[1]);
        }
    }

    /** L^{-1} of a lower triangular L with positive diagonal (column by column, each an axpy sweep over columns of L). */
    static DenseMatrix lowerTriangularInverse(DenseMatrix l) {
        int n = l.rows();
        double[] a = l.data();
        DenseMatrix inv = DenseMatrix.zeros(n, n);
        double[] x = inv.data();
        for (int j = 0; j < n; j++) {
            int off = j * n; // column j of the inverse solves L x = e_j; x_i = 0 for i < j
            x[off + j] = 1.0;
            for (int m = j; m < n; m++) {
                double xm = x[off + m] / a[m + m * n];
                x[off + m] = xm;
                if (xm != 0) {
                    int col = m * n;
                    for (int i = m + 1; i < n; i++) {
                        x[off + i] -= a[col + i] * xm;
                    }
                }
            }
        }
        return inv;
    }

    // ---------------------------------------------------------------- accessors

    public CovarianceType covarianceType() {
        return type;
    }

    /** K. */
    public int components() {
        return k;
    }

    /** d. */
    public int dimension() {
        return d;
    }

    /** The weights pi (a copy). */
    public double[] weights() {
        return weights.clone();
    }

    public double weight(int c) {
        return weights[c];
    }

    /** mu_c (a copy). */
    public double[] mean(int c) {
        return means.row(c);
    }

    /** All means, K x d (a copy). */
    public DenseMatrix means() {
        return means.copy();
    }

    /** Sigma_c as a d x d matrix (a copy; diagonal for {@link CovarianceType#DIAGONAL}). */
    public DenseMatrix covariance(int c) {
        return type == CovarianceType.FULL ? covariances[c].copy() : DenseMatrix.diagonal(variances.row(c));
    }

    /** The diagonal of Sigma_c (a copy). */
    public double[] variances(int c) {
        return type == CovarianceType.FULL ? covariances[c].diagonal() : variances.row(c);
    }

    /** The lower Cholesky factor L_c of Sigma_c (Sigma_c = L_c L_c^T; a copy). */
    public DenseMatrix choleskyFactor(int c) {
        if (type == CovarianceType.FULL) {
            return cholesky[c].copy();
        }
        double[] v = variances.row(c);
        for (int j = 0; j < d; j++) {
            v[j] = Math.sqrt(v[j]);
        }
        return DenseMatrix.diagonal(v);
    }

    // ---------------------------------------------------------------- densities

    /** {@code log p(z)} for one point. */
    public double logDensity(double[] z) {
        if (z.length != d) {
            throw new IllegalArgumentException("point has " + z.length + " coordinates, expected " + d);
        }
        return logDensities(new DenseMatrix(1, d, z.clone()))[0];
    }

    /** {@code log p(z_i)} for every row of {@code z}. */
    public double[] logDensities(FeatureMatrix z) {
        return posterior(z).logDensities();
    }

    /** The mean over rows of {@code log p(z_i)}. */
    public double meanLogLikelihood(FeatureMatrix z) {
        return posterior(z).meanLogLikelihood();
    }

    /**
     * {@code log N(z_i; mu_k, Sigma_k)} (the components' own densities, without the weights), n x K. One product per
     * component for full covariances, two products in all for diagonal ones.
     */
    public DenseMatrix componentLogDensities(FeatureMatrix z) {
        return componentLogDensities(z, null);
    }

    /**
     * {@link #componentLogDensities(FeatureMatrix)} with, for a diagonal mixture, {@code z o z} (the squared
     * entries of {@code z}, n x d) given by a caller that evaluates many mixtures on the same rows (EM), or null.
     */
    DenseMatrix componentLogDensities(FeatureMatrix z, DenseMatrix zSquared) {
        if (z.cols() != d) {
            throw new IllegalArgumentException("rows have " + z.cols() + " coordinates, expected " + d);
        }
        DenseMatrix x = z.toDense();
        int n = x.rows();
        DenseMatrix out = DenseMatrix.zeros(n, k);
        double[] o = out.data();
        if (type == CovarianceType.FULL) {
            for (int c = 0; c < k; c++) {
                // ||L^{-1}(z - mu)||^2 = ||z L^{-T} - (L^{-1} mu)^T||^2, rows of one n x d product
                DenseMatrix w = LinAlg.multiplyTransB(x, choleskyInverse[c]);
                double[] b = LinAlg.multiply(choleskyInverse[c], means.row(c));
                double[] wd = w.data();
                double[] maha = new double[n];
                for (int j = 0; j < d; j++) {
                    int off = j * n;
                    double bj = b[j];
                    for (int i = 0; i < n; i++) {
                        double t = wd[off + i] - bj;
                        maha[i] += t * t;
                    }
                }
                for (int i = 0; i < n; i++) {
                    o[i + c * n] = logNormalisers[c] - 0.5 * maha[i];
                }
            }
        } else {
            // sum_j (z_j - mu_j)^2 / v_j = (z o z) . (1/v) - 2 z . (mu/v) + mu . (mu/v)
            DenseMatrix p = DenseMatrix.zeros(d, k);
            DenseMatrix q = DenseMatrix.zeros(d, k);
            double[] cst = new double[k];
            for (int c = 0; c < k; c++) {
                for (int j = 0; j < d; j++) {
                    double inv = 1.0 / variances.get(c, j);
                    double m = means.get(c, j);
                    p.set(j, c, inv);
                    q.set(j, c, -2 * m * inv);
                    cst[c] += m * m * inv;
                }
            }
            DenseMatrix maha = LinAlg.multiply(zSquared != null ? zSquared : squares(x), p);
            maha.addScaledInPlace(1.0, LinAlg.multiply(x, q));
            double[] md = maha.data();
            for (int c = 0; c < k; c++) {
                for (int i = 0; i < n; i++) {
                    o[i + c * n] = logNormalisers[c] - 0.5 * Math.max(0.0, md[i + c * n] + cst[c]);
                }
            }
        }
        return out;
    }

    /** The responsibilities {@code r_ik = pi_k N(z_i; k) / p(z_i)}, n x K; every row sums to 1. */
    public DenseMatrix responsibilities(FeatureMatrix z) {
        return posterior(z).responsibilities();
    }

    /** An E-step's outputs: responsibilities (n x K) and each row's log density. */
    record Posterior(DenseMatrix responsibilities, double[] logDensities) {
        double meanLogLikelihood() {
            double s = 0;
            for (double v : logDensities) {
                s += v;
            }
            return logDensities.length == 0 ? Double.NaN : s / logDensities.length;
        }
    }

    /** Responsibilities and log densities from one pass (log domain, log-sum-exp over components). */
    Posterior posterior(FeatureMatrix z) {
        return posterior(z, null);
    }

    /** {@link #posterior(FeatureMatrix)} with {@code z o z} precomputed (or null), as {@link #componentLogDensities(FeatureMatrix, DenseMatrix)}. */
    Posterior posterior(FeatureMatrix z, DenseMatrix zSquared) {
        DenseMatrix lp = componentLogDensities(z, zSquared);
        int n = lp.rows();
        double[] a = lp.data();
        for (int c = 0; c < k; c++) {
            for (int i = 0; i < n; i++) {
                a[i + c * n] += logWeights[c];
            }
        }
        double[] logDensity = org.privadapt.models.Softmax.normaliseInPlace(lp); // log-sum-exp over components
        return new Posterior(lp, logDensity);
    }

    // ---------------------------------------------------------------- sampling

    /**
     * {@code n} independent draws, one per row: {@code k ~ Categorical(pi)}, {@code z = mu_k + L_k e} with
     * {@code e ~ N(0, I)}. Reproducible for a given generator state.
     */
    public DenseMatrix sample(int n, SplittableRandom rng) {
        if (n < 0) {
            throw new IllegalArgumentException("sample size must be >= 0, got " + n);
        }
        List<List<Integer>> rows = new ArrayList<>();
        for (int c = 0; c < k; c++) {
            rows.add(new ArrayList<>());
        }
        for (int i = 0; i < n; i++) {
            double u = rng.nextDouble();
            int c = 0;
            double cum = weights[0];
            while (u >= cum && c < k - 1) {
                c++;
                cum += weights[c];
            }
            while (weights[c] == 0 && c > 0) { // rounding at the top end never lands on an empty component
                c--;
            }
            rows.get(c).add(i);
        }
        DenseMatrix out = DenseMatrix.zeros(n, d);
        for (int c = 0; c < k; c++) {
            List<Integer> idx = rows.get(c);
            int m = idx.size();
            if (m == 0) {
                continue;
            }
            DenseMatrix e = DenseMatrix.zeros(m, d);
            double[] ed = e.data();
            for (int t = 0; t < ed.length; t++) {
                ed[t] = rng.nextGaussian();
            }
            DenseMatrix block = type == CovarianceType.FULL ? LinAlg.multiplyTransB(e, cholesky[c])
                    : e.scaleColumnsCopy(sqrt(variances.row(c)));
            double[] mu = means.row(c);
            for (int r = 0; r < m; r++) {
                int i = idx.get(r);
                for (int j = 0; j < d; j++) {
                    out.set(i, j, block.get(r, j) + mu[j]);
                }
            }
        }
        return out;
    }

    /** {@code x o x}: every entry squared (n x d). */
    static DenseMatrix squares(DenseMatrix x) {
        return x.map(v -> v * v);
    }

    private static double[] sqrt(double[] v) {
        double[] s = new double[v.length];
        for (int j = 0; j < v.length; j++) {
            s[j] = Math.sqrt(v[j]);
        }
        return s;
    }

    @Override
    public String toString() {
        return "GaussianMixture[K=" + k + ", d=" + d + ", " + type + ", weights=" + Arrays.toString(weights) + "]";
    }
}
