package org.privadapt.models.discrepancy;

import java.util.SplittableRandom;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.LinAlg;
import org.privadapt.models.Softmax;
import org.privadapt.models.dp.NoiseAndSampling;

/**
 * Paper 003's Algorithm 2 (NCnvxAdap / PNCnvxAdap) for multiclass linear classifiers with the softmax cross-entropy,
 * as the notes restate it (methods-001-003-004.md, 3.5): noisy projected gradient descent on problem (7),
 *
 * <pre>
 *   J(W, u) = sum_i [ l(W; x_i, y_i) + d 1{i public} ] / u_i + lambda_1 (1 - sum_i 1/u_i)
 *             + lambda_2 (sum_i u_i^-2)^(1/2) + (lambda_inf / mu) log sum_i exp(mu / u_i)
 *   over ||W||_F &lt;= Lambda, u_i >= m / alpha (public), u_i >= n / (1 - alpha) (private),
 * </pre>
 *
 * W a d x K matrix (the intercept is a constant feature of the rows). The weights are q_i = 1 / u_i &lt;= p0_i.
 * lambda_1 keeps the exact ||q - p0||_1 term: at u_i's lower bound dJ/du_i = (lambda_1 - l_i - d 1{public}) / u_i^2
 * (plus the lambda_2, lambda_inf terms), so a row keeps its full weight p0_i while its loss is below lambda_1 and is
 * down-weighted above it: lambda_1 is a loss threshold (with lambda_1 = 0 every weight would go to 0).
 *
 * <p>Constants for rows of norm at most r (the paper's "B = G Lambda" is not a bound on this loss, notes 3.6 Note 8):
 * <ul>
 *   <li>G = sqrt(2) r: the loss's gradient in W is x (p - e_y)^T, of Frobenius norm ||x|| ||p - e_y|| &lt;= r sqrt 2.
 *   <li>B = log K + sqrt(2) r Lambda: l = log sum_k exp(z_k - z_y) &lt;= log K + max_k (z_k - z_y), and
 *       |z_k - z_y| = |(w_k - w_y).x| &lt;= ||w_k - w_y|| r &lt;= sqrt(2) ||W||_F r.
 *   <li>beta = r^2 / 2: the Hessian in W is (diag p - p p^T) kron x x^T, whose norm is at most ||x||^2 / 2 (the
 *       largest eigenvalue of diag p - p p^T is at most max_k p_k (1 - p_k) + ... &lt;= 1/2).
 * </ul>
 * Under replace-one of a private row the private part of grad_W moves by at most {@link Problem#s1()} =
 * 2 (1 - alpha) G / n (one term, each of norm &lt;= G / u_j &lt;= G (1 - alpha) / n) and grad_{u_priv} by at most
 * {@link Problem#s2()} = (1 - alpha)^2 B / n^2 (one coordinate, |l_j - l_j'| / u_j^2), as Lemma 3 says.
 *
 * <p>Steps: the paper takes one step 1 / beta_bar for every block; u lives on the scale m / alpha with O(1/m^2)
 * gradients, so (as for {@link CnvxAdap}) the blocks get their own steps, each the inverse of a bound on that block's
 * curvature on the feasible set: W: 1 / beta = 2 / r^2 (the weights sum to at most 1); u_i: u_lo^3 / (2 C) with
 * C = B + d + lambda_1 + 2 lambda_2 + lambda_inf (1 + mu / u_lo) bounding |d^2 J / du_i^2| u_i^3 / 2 at the lower
 * bound u_lo. Steps are post-processing of the noisy gradients: they never affect privacy. The output is the iterate
 * at a uniformly random t in 1..T (Theorem 4's), or the last one.
 */
public final class NCnvxAdap {
    private NCnvxAdap() {
    }

    /** Public rows, private rows (class codes 0..K-1), K, d, alpha, the lambdas, mu, Lambda and the row bound r. */
    public record Problem(DenseMatrix xPub, int[] yPub, DenseMatrix xPriv, int[] yPriv, int classes, double d, double alpha,
                          double lambda1, double lambda2, double lambdaInf, double mu, double lambda, double r) {
        public Problem {
            if (xPub.rows() != yPub.length || xPriv.rows() != yPriv.length || xPub.cols() != xPriv.cols()) {
                throw new IllegalArgumentException("shapes do not match: public " + xPub.rows() + " x " + xPub.cols() + " with "
                        + yPub.length + " labels, private " + xPriv.rows() + " x " + xPriv.cols() + " with " + yPriv.length);
            }
            if (xPub.rows() < 1 || xPriv.rows() < 1 || classes < 2) {
                throw new IllegalArgumentException("need at least one public and one private row and two classes");
            }
            if (!(alpha > 0 && alpha < 1) || !(lambda > 0) || !(r > 0) || !(d >= 0) || !(lambda1 >= 0) || !(lambda2 >= 0)
                    || !(lambdaInf >= 0) || !(mu > 0)) {
                throw new IllegalArgumentException("need 0 < alpha < 1, Lambda, r, mu > 0 and d, lambdas >= 0");
            }
            for (int[] y : new int[][] {yPub, yPriv}) {
                for (int c : y) {
                    if (c < 0 || c >= classes) {
                        throw new IllegalArgumentException("class code " + c + " outside 0.." + (classes - 1));
                    }
                }
            }
        }

        public int m() {
            return xPub.rows();
        }

        public int n() {
            return xPriv.rows();
        }

        /** G = sqrt(2) r. */
        public double lipschitz() {
            return Math.sqrt(2) * r;
        }

        /** B = log K + sqrt(2) r Lambda. */
        public double lossBound() {
            return Math.log(classes) + Math.sqrt(2) * r * lambda;
        }

        /** 2 (1 - alpha) G / n. */
        public double s1() {
            return 2 * (1 - alpha) * lipschitz() / n();
        }

        /** (1 - alpha)^2 B / n^2. */
        public double s2() {
            return (1 - alpha) * (1 - alpha) * lossBound() / ((double) n() * n());
        }

        double lower(int i) {
            return i < m() ? m() / alpha : n() / (1 - alpha);
        }
    }

    /**
     * T, the noise stds on grad_W (sigma_1) and grad_{u_priv} (sigma_2), the output rule and the iterate's seed, and
     * whether the private weights stay at p0 ({@code freezePrivate}: u_priv at its lower bounds, its gradient neither
     * computed nor released, so only grad_W needs noise). Freezing is Claim 1's box corner; it matters under noise:
     * at sigma_2 = nu s2 one u_priv step moves u_j by about n nu / 2, several times its lower bound, and the private
     * weights collapse (found by a helper session's test on this algorithm).
     */
    public record Config(long iterations, double sigma1, double sigma2, boolean randomIterate, long iterateSeed,
                         boolean freezePrivate) {
        public Config {
            if (iterations < 1 || !(sigma1 >= 0) || !(sigma2 >= 0)) {
                throw new IllegalArgumentException("need T >= 1 and sigmas >= 0");
            }
        }

        /** Private weights free (Algorithm 2 as written). */
        public Config(long iterations, double sigma1, double sigma2, boolean randomIterate, long iterateSeed) {
            this(iterations, sigma1, sigma2, randomIterate, iterateSeed, false);
        }
    }

    /** The output W (d x K), u, J there, the iterate returned and the gradient mapping's norm there. */
    public record Result(DenseMatrix w, double[] u, double objective, long iterate, double gradientMapping) {
        public double[] weights() {
            double[] q = new double[u.length];
            for (int i = 0; i < q.length; i++) {
                q[i] = 1 / u[i];
            }
            return q;
        }
    }

    /** Per-row losses and P - Y (rows of x): {losses, the n x K matrix P - Y}. */
    static Object[] lossesAndResiduals(DenseMatrix x, int[] y, DenseMatrix w) {
        int n = x.rows();
        DenseMatrix p = Softmax.inPlace(LinAlg.multiply(x, w));
        double[] pa = p.data();
        double[] loss = new double[n];
        for (int i = 0; i < n; i++) {
            loss[i] = -Math.log(Math.max(pa[i + y[i] * n], 1e-300));
            pa[i + y[i] * n] -= 1.0;
        }
        return new Object[] {loss, p};
    }

    /** The private rows' part of the gradient: {grad_W (d x K, column-major data), grad_{u_priv} (n)}. */
    public static double[][] privateGradient(Problem p, DenseMatrix w, double[] u) {
        Object[] lr = lossesAndResiduals(p.xPriv(), p.yPriv(), w);
        double[] loss = (double[]) lr[0];
        DenseMatrix res = (DenseMatrix) lr[1];
        int n = p.n();
        int m = p.m();
        double[] inv = new double[n];
        double[] gu = new double[n];
        for (int j = 0; j < n; j++) {
            inv[j] = 1 / u[m + j];
            gu[j] = -loss[j] * inv[j] * inv[j];
        }
        DenseMatrix gw = p.xPriv().transposeMultiply(res.scaleRows(inv));
        return new double[][] {gw.data().clone(), gu};
    }

    static double[][] publicGradient(Problem p, DenseMatrix w, double[] u) {
        Object[] lr = lossesAndResiduals(p.xPub(), p.yPub(), w);
        double[] loss = (double[]) lr[0];
        DenseMatrix res = (DenseMatrix) lr[1];
        int m = p.m();
        double[] inv = new double[m];
        double[] gu = new double[m];
        for (int i = 0; i < m; i++) {
            inv[i] = 1 / u[i];
            gu[i] = -(loss[i] + p.d()) * inv[i] * inv[i];
        }
        DenseMatrix gw = p.xPub().transposeMultiply(res.scaleRows(inv));
        return new double[][] {gw.data().clone(), gu};
    }

    /** The penalties' gradient in u (no data). */
    static double[] penaltyGradient(Problem p, double[] u) {
        double sumInvSq = 0;
        double maxT = Double.NEGATIVE_INFINITY;
        for (double v : u) {
            sumInvSq += 1 / (v * v);
            maxT = Math.max(maxT, p.mu() / v);
        }
        double z = 0;
        for (double v : u) {
            z += Math.exp(p.mu() / v - maxT);
        }
        double norm = Math.sqrt(sumInvSq);
        double[] g = new double[u.length];
        for (int i = 0; i < u.length; i++) {
            double inv2 = 1 / (u[i] * u[i]);
            double soft = Math.exp(p.mu() / u[i] - maxT) / z;
            g[i] = p.lambda1() * inv2 - p.lambda2() * inv2 / (u[i] * norm) - p.lambdaInf() * soft * inv2;
        }
        return g;
    }

    /** J(W, u). */
    public static double objective(Problem p, DenseMatrix w, double[] u) {
        int m = p.m();
        double[] lp = (double[]) lossesAndResiduals(p.xPub(), p.yPub(), w)[0];
        double[] lq = (double[]) lossesAndResiduals(p.xPriv(), p.yPriv(), w)[0];
        double f = 0;
        double sumInv = 0;
        double sumInvSq = 0;
        double maxT = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < u.length; i++) {
            double loss = i < m ? lp[i] + p.d() : lq[i - m];
            f += loss / u[i];
            sumInv += 1 / u[i];
            sumInvSq += 1 / (u[i] * u[i]);
            maxT = Math.max(maxT, p.mu() / u[i]);
        }
        double z = 0;
        for (double v : u) {
            z += Math.exp(p.mu() / v - maxT);
        }
        return f + p.lambda1() * (1 - sumInv) + p.lambda2() * Math.sqrt(sumInvSq) + p.lambdaInf() / p.mu() * (maxT + Math.log(z));
    }

    /** The block steps: {eta_W, eta_u per row}. */
    static Object[] steps(Problem p) {
        double etaW = 2 / (p.r() * p.r());
        int total = p.m() + p.n();
        double uMin = Math.min(p.lower(0), p.lower(p.m()));
        double c = p.lossBound() + p.d() + p.lambda1() + 2 * p.lambda2() + p.lambdaInf() * (1 + p.mu() / uMin);
        double[] etaU = new double[total];
        for (int i = 0; i < total; i++) {
            double lo = p.lower(i);
            etaU[i] = lo * lo * lo / (2 * c);
        }
        return new Object[] {etaW, etaU};
    }

    /**
     * Runs T iterations from W_0 ({@code w0}, projected onto the ball; null for 0) and u_0 = the lower bounds, with
     * the W step {@code etaWOverride} when positive (NaN keeps 2 / r^2); returns the iterate at a uniform random
     * t in 1..T (drawn from the config's seed: public randomness, independent of the data) or the last.
     */
    public static Result solve(Problem p, Config c, NoiseAndSampling rnd, DenseMatrix w0, double etaWOverride) {
        int m = p.m();
        int n = p.n();
        int dim = p.xPub().cols();
        int k = p.classes();
        Object[] st = steps(p);
        double etaW = etaWOverride > 0 ? etaWOverride : (double) st[0];
        double[] etaU = (double[]) st[1];
        DenseMatrix w = w0 == null ? DenseMatrix.zeros(dim, k) : project(w0.copy(), p.lambda());
        double[] u = new double[m + n];
        for (int i = 0; i < m + n; i++) {
            u[i] = p.lower(i);
        }
        long target = c.randomIterate() ? 1 + new SplittableRandom(c.iterateSeed()).nextLong(c.iterations()) : c.iterations();
        DenseMatrix outW = null;
        double[] outU = null;
        for (long t = 1; t <= c.iterations(); t++) {
            double[][] priv = privateGradient(p, w, u);
            double[][] pub = publicGradient(p, w, u);
            double[] pen = penaltyGradient(p, u);
            double[] gw = priv[0];
            for (int j = 0; j < gw.length; j++) {
                gw[j] += pub[0][j];
            }
            if (c.sigma1() > 0) {
                rnd.addGaussian(gw, c.sigma1());
            }
            double[] gPriv = priv[1];
            if (c.sigma2() > 0 && !c.freezePrivate()) {
                rnd.addGaussian(gPriv, c.sigma2());
            }
            double[] wd = w.data();
            for (int j = 0; j < wd.length; j++) {
                wd[j] -= etaW * gw[j];
            }
            project(w, p.lambda());
            for (int i = 0; i < m; i++) {
                u[i] = Math.max(p.lower(i), u[i] - etaU[i] * (pub[1][i] + pen[i]));
            }
            if (!c.freezePrivate()) {
                for (int j = 0; j < n; j++) {
                    u[m + j] = Math.max(p.lower(m + j), u[m + j] - etaU[m + j] * (gPriv[j] + pen[m + j]));
                }
            }
            if (t == target) {
                outW = w.copy();
                outU = u.clone();
            }
        }
        return new Result(outW, outU, objective(p, outW, outU), target, gradientMapping(p, outW, outU, etaW, etaU));
    }

    static DenseMatrix project(DenseMatrix w, double radius) {
        double[] a = w.data();
        double s = 0;
        for (double v : a) {
            s += v * v;
        }
        double norm = Math.sqrt(s);
        if (norm > radius) {
            for (int j = 0; j < a.length; j++) {
                a[j] *= radius / norm;
            }
        }
        return w;
    }

    /**
     * The norm of the (noise-free) gradient mapping at (W, u) with the block steps, ||(v - Proj(v - eta grad)) / eta||,
     * Theorem 4's stationarity measure (diagnostic only).
     */
    static double gradientMapping(Problem p, DenseMatrix w, double[] u, double etaW, double[] etaU) {
        double[][] priv = privateGradient(p, w, u);
        double[][] pub = publicGradient(p, w, u);
        double[] pen = penaltyGradient(p, u);
        DenseMatrix next = w.copy();
        double[] nd = next.data();
        for (int j = 0; j < nd.length; j++) {
            nd[j] -= etaW * (priv[0][j] + pub[0][j]);
        }
        project(next, p.lambda());
        double s = 0;
        double[] wd = w.data();
        for (int j = 0; j < nd.length; j++) {
            double g = (wd[j] - nd[j]) / etaW;
            s += g * g;
        }
        int m = p.m();
        for (int i = 0; i < u.length; i++) {
            double grad = (i < m ? pub[1][i] : priv[1][i - m]) + pen[i];
            double un = Math.max(p.lower(i), u[i] - etaU[i] * grad);
            double g = (u[i] - un) / etaU[i];
            s += g * g;
        }
        return Math.sqrt(s);
    }
}
