package org.privadapt.models.mixture;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.math.LinAlg;

/**
 * Non-private expectation-maximisation for a {@link GaussianMixture} (methods-001-003-004.md, 4.2 Step 2): k-means++
 * seeding with the caller's generator, one hard-assignment M-step to start, then alternating E-steps (log domain,
 * log-sum-exp) and M-steps
 * {@code N_k = sum_i r_ik, pi_k = N_k / n, mu_k = S_k / N_k, Sigma_k = (1/N_k) sum_i r_ik (z_i - mu_k)(z_i - mu_k)^T + eps I}
 * until the mean log-likelihood gains less than {@code tol} or {@code maxIterations} M-steps have run.
 *
 * <p>Not private: every parameter is an exact function of every row. For a release of private data use
 * {@link DpGaussianMixtureEm}.
 */
public final class GaussianMixtureEm {
    private GaussianMixtureEm() {
    }

    /**
     * @param k              number of components K
     * @param covarianceType diagonal or full covariances
     * @param maxIterations  largest number of EM iterations (M-steps after the start)
     * @param tol            stop when an iteration raises the mean log-likelihood by less than this
     * @param regulariser    added to every variance (eps I), keeps the covariances positive definite
     */
    public record Config(int k, CovarianceType covarianceType, int maxIterations, double tol, double regulariser) {
        public Config {
            if (k < 1) {
                throw new IllegalArgumentException("number of components must be >= 1, got " + k);
            }
            java.util.Objects.requireNonNull(covarianceType, "covarianceType");
            if (maxIterations < 1) {
                throw new IllegalArgumentException("max iterations must be >= 1, got " + maxIterations);
            }
            if (!(tol >= 0)) {
                throw new IllegalArgumentException("tolerance must be >= 0, got " + tol);
            }
            if (!(regulariser > 0) || Double.isInfinite(regulariser)) {
                throw new IllegalArgumentException("regulariser must be a positive number, got " + regulariser);
            }
        }

        /** The notes' defaults: 100 iterations at most, tol 1e-3, regulariser 1e-6. */
        public static Config of(int k, CovarianceType covarianceType) {
            return new Config(k, covarianceType, 100, 1e-3, 1e-6);
        }
    }

    /**
     * @param model             the fitted mixture
     * @param iterations        EM iterations run (M-steps after the start)
     * @param meanLogLikelihood mean over rows of log p(z_i) under {@code model}
     * @param converged         whether the gain fell below tol before maxIterations
     */
    public record Result(GaussianMixture model, int iterations, double meanLogLikelihood, boolean converged) {
    }

    /** Fits a mixture to the rows of {@code data}; {@code rng} seeds k-means++ (reproducible for a given state). */
    public static Result fit(FeatureMatrix data, Config c, SplittableRandom rng) {
        DenseMatrix x = data.toDense();
        if (x.rows() < c.k()) {
            throw new IllegalArgumentException(x.rows() + " rows cannot seed " + c.k() + " components");
        }
        int[] bad = x.firstNonFinite();
        if (bad != null) {
            throw new IllegalArgumentException("row " + bad[0] + " has a non-finite value at column " + bad[1]);
        }
        DenseMatrix centres = kMeansPlusPlus(x, c.k(), rng);
        GaussianMixture model = mStep(x, nearestCentre(x, centres), c.covarianceType(), c.regulariser());
        // the E-step of a diagonal mixture needs x o x; the rows never change, so it is formed once
        DenseMatrix xx = c.covarianceType() == CovarianceType.DIAGONAL ? GaussianMixture.squares(x) : null;
        GaussianMixture.Posterior post = model.posterior(x, xx);
        double ll = post.meanLogLikelihood();
        int it = 0;
        boolean converged = false;
        while (it < c.maxIterations()) {
            model = mStep(x, post.responsibilities(), c.covarianceType(), c.regulariser());
            it++;
            post = model.posterior(x, xx);
            double next = post.meanLogLikelihood();
            double gain = next - ll;
            ll = next;
            if (gain < c.tol()) {
                converged = true;
                break;
            }
        }
        return new Result(model, it, ll, converged);
    }

    /**
     * k-means++ seeding (Arthur and Vassilvitskii 2007): the first centre a uniformly drawn row, each next one a row
     * drawn with probability proportional to its squared distance to the nearest centre so far (uniformly if all
     * distances are zero). Returns K x d.
     */
    static DenseMatrix kMeansPlusPlus(DenseMatrix x, int k, SplittableRandom rng) {
        int n = x.rows();
        double[] norms = x.rowSquaredNorms();
        DenseMatrix centres = DenseMatrix.zeros(k, x.cols());
        double[] dist = new double[n];
        java.util.Arrays.fill(dist, Double.POSITIVE_INFINITY);
        int pick = rng.nextInt(n);
        for (int c = 0; c < k; c++) {
            if (c > 0) {
                double total = 0;
                for (double v : dist) {
                    total += v;
                }
                if (total > 0) {
                    double u = rng.nextDouble() * total;
                    double cum = 0;
                    pick = n - 1;
                    for (int i = 0; i < n; i++) {
                        cum += dist[i];
                        if (u < cum) {
                            pick = i;
                            break;
                        }
                    }
                } else {
                    pick = rng.nextInt(n);
                }
            }
            double[] centre = x.row(pick);
            centres.setRow(c, centre);
            double cn = 0;
            for (double v : centre) {
                cn += v * v;
            }
            double[] dots = LinAlg.multiply(x, centre);
            for (int i = 0; i < n; i++) {
                dist[i] = Math.min(dist[i], Math.max(0.0, norms[i] - 2 * dots[i] + cn));
            }
        }
        return centres;
    }

    /** One-hot responsibilities (n x K) of each row's nearest centre. */
    static DenseMatrix nearestCentre(DenseMatrix x, DenseMatrix centres) {
        int n = x.rows();
        int k = centres.rows();
        DenseMatrix dots = LinAlg.multiplyTransB(x, centres); // n x K
        double[] cn = centres.rowSquaredNorms();
        DenseMatrix r = DenseMatrix.zeros(n, k);
        for (int i = 0; i < n; i++) {
            int best = 0;
            double bestD = Double.POSITIVE_INFINITY;
            for (int c = 0; c < k; c++) {
                double dd = cn[c] - 2 * dots.get(i, c);
                if (dd < bestD) {
                    bestD = dd;
                    best = c;
                }
            }
            r.set(i, best, 1.0);
        }
        return r;
    }

    /**
     * The M-step on exact (non-private) data: weights N_k / n, means S_k / N_k and centred covariances plus
     * {@code reg I} (centring first avoids the cancellation of {@code M_k / N_k - mu_k mu_k^T}). A component with
     * no mass keeps weight 0, a zero mean and covariance {@code reg I}.
     */
    static GaussianMixture mStep(DenseMatrix x, DenseMatrix resp, CovarianceType type, double reg) {
        int n = x.rows();
        int d = x.cols();
        int k = resp.cols();
        double[] r = resp.data();
        double[] counts = new double[k];
        double total = 0;
        for (int c = 0; c < k; c++) {
            for (int i = 0; i < n; i++) {
                counts[c] += r[i + c * n];
            }
            total += counts[c];
        }
        double[] weights = new double[k];
        DenseMatrix means = LinAlg.multiplyTransA(resp, x); // K x d sums
        for (int c = 0; c < k; c++) {
            weights[c] = counts[c] / total;
            double inv = counts[c] > 0 ? 1.0 / counts[c] : 0.0;
            for (int j = 0; j < d; j++) {
                means.set(c, j, means.get(c, j) * inv);
            }
        }
        if (type == CovarianceType.DIAGONAL) {
            return GaussianMixture.diagonal(weights, means, diagonalVariances(x, r, k, counts, means, reg));
        }
        List<DenseMatrix> cov = new ArrayList<>();
        for (int c = 0; c < k; c++) {
            double[] f = new double[n];
            for (int i = 0; i < n; i++) {
                f[i] = Math.sqrt(r[i + c * n]);
            }
            DenseMatrix g = LinAlg.gram(x.minusRowVector(means.row(c)).scaleRows(f));
            g.scaleInPlace(counts[c] > 0 ? 1.0 / counts[c] : 0.0);
            cov.add(g.plusIdentity(reg));
        }
        return GaussianMixture.full(weights, means, cov);
    }

    /** Columns per task of {@link #diagonalVariances} (its accumulators: K x this). */
    static final int VARIANCE_COLUMNS = 64;
    /** Rows per transposed slab of {@link #diagonalVariances} (the slab: this x {@link #VARIANCE_COLUMNS} doubles). */
    static final int VARIANCE_ROWS = 128;

    /**
     * The diagonal M-step's variances {@code var_cj = (sum_i r_ic (x_ij - mu_cj)^2) / N_c + reg} (0 / 0 read as 0 for
     * an empty component), centred first as before, and bit for bit the values of the plain triple loop
     * {@link #diagonalVariancesReference}: every sum still runs over i = 0..n-1 in order with the same
     * {@code (r t) t} products; only the loop nest changed. The columns are split into blocks of
     * {@value #VARIANCE_COLUMNS}, one task each (in the common fork-join pool when the work is large; a task owns its
     * columns for every component, so the order of tasks cannot change a value). A task copies a slab of
     * {@value #VARIANCE_ROWS} rows of its columns into row arrays and then, per component and row, updates
     * its {@value #VARIANCE_COLUMNS} accumulators with a unit-stride inner loop the JIT vectorises; the triple loop
     * ran one long dependent chain of additions per (component, column) and read X once per component.
     */
    static DenseMatrix diagonalVariances(DenseMatrix x, double[] r, int k, double[] counts, DenseMatrix means, double reg) {
        int n = x.rows();
        int d = x.cols();
        double[] xd = x.data();
        double[] md = means.data(); // K x d, column-major: mu_cj at c + j K
        DenseMatrix var = DenseMatrix.zeros(k, d);
        double[] vd = var.data();
        int blocks = (d + VARIANCE_COLUMNS - 1) / VARIANCE_COLUMNS;
        java.util.function.IntConsumer task = b -> {
            int j0 = b * VARIANCE_COLUMNS;
            int w = Math.min(VARIANCE_COLUMNS, d - j0);
            double[][] mu = new double[k][w];
            double[][] acc = new double[k][w];
            for (int c = 0; c < k; c++) {
                for (int jj = 0; jj < w; jj++) {
                    mu[c][jj] = md[c + (j0 + jj) * k];
                }
            }
            double[][] slab = new double[VARIANCE_ROWS][w]; // one array per row: the JIT vectorises a[jj] += f(row[jj])
            for (int i0 = 0; i0 < n; i0 += VARIANCE_ROWS) {
                int rows = Math.min(VARIANCE_ROWS, n - i0);
                for (int jj = 0; jj < w; jj++) {
                    int src = (j0 + jj) * n + i0;
                    for (int t = 0; t < rows; t++) {
                        slab[t][jj] = xd[src + t];
                    }
                }
                for (int c = 0; c < k; c++) {
                    double[] a = acc[c];
                    double[] m = mu[c];
                    int rc = c * n + i0;
                    for (int t = 0; t < rows; t++) {
                        double ri = r[rc + t];
                        double[] row = slab[t];
                        for (int jj = 0; jj < w; jj++) {
                            double u = row[jj] - m[jj];
                            a[jj] += ri * u * u;
                        }
                    }
                }
            }
            for (int c = 0; c < k; c++) {
                double inv = counts[c] > 0 ? 1.0 / counts[c] : 0.0;
                for (int jj = 0; jj < w; jj++) {
                    vd[c + (j0 + jj) * k] = acc[c][jj] * inv + reg;
                }
            }
        };
        if ((long) n * d * k < PARALLEL_WORK || blocks < 2) {
            for (int b = 0; b < blocks; b++) {
                task.accept(b);
            }
        } else {
            java.util.stream.IntStream.range(0, blocks).parallel().forEach(task);
        }
        return var;
    }

    /** Below this many multiply-adds (n d K) {@link #diagonalVariances} runs on the calling thread. */
    static final long PARALLEL_WORK = 1L << 20;

    /** The diagonal variances by the plain triple loop the M-step used before (kept as the tests' reference). */
    static DenseMatrix diagonalVariancesReference(DenseMatrix x, double[] r, int k, double[] counts, DenseMatrix means, double reg) {
        int n = x.rows();
        int d = x.cols();
        DenseMatrix var = DenseMatrix.zeros(k, d);
        double[] xd = x.data();
        for (int c = 0; c < k; c++) {
            double inv = counts[c] > 0 ? 1.0 / counts[c] : 0.0;
            for (int j = 0; j < d; j++) {
                double mu = means.get(c, j);
                double s = 0;
                for (int i = 0; i < n; i++) {
                    double t = xd[i + j * n] - mu;
                    s += r[i + c * n] * t * t;
                }
                var.set(c, j, s * inv + reg);
            }
        }
        return var;
    }
}
