package org.privadapt.models.discrepancy;

import org.privadapt.math.DenseMatrix;
import org.privadapt.math.LinAlg;
import org.privadapt.math.optim.TrustRegion;
import org.privadapt.models.dp.NoiseAndSampling;

/**
 * Paper 003's Algorithm 1 (Bassily, Cortes, Mao, Mohri 2024), as the notes rebuild it (methods-001-003-004.md, 3.3-3.4):
 * noisy projected gradient descent on the reparameterised weighting problem (6) for linear regression with the
 * squared loss,
 *
 * <pre>
 *   F(w, u) = sum_i [ (w.x_i - y_i)^2 + d 1{i public} ] / u_i
 *             + kappa_1 [ c_pub sum_{i public} u_i + c_priv sum_{i private} u_i - 1 ]
 *             + kappa_2 ( sum_i u_i^-2 )^(1/2) + kappa_inf / min_i u_i
 *   over ||w|| &lt;= Lambda, u_i >= m / alpha (public), u_i >= n / (1 - alpha) (private),
 * </pre>
 *
 * with c_pub = alpha^2 / m^2, c_priv = (1 - alpha)^2 / n^2 and q_i = 1 / u_i the weight of row i. Each iteration
 * evaluates every gradient at (w_t, u_t), adds N(0, sigma_1^2 I) to grad_w F and N(0, sigma_2^2 I) to grad_{u_priv} F
 * (the only parts that read private rows; with sigma = 0 this is CnvxAdap), steps with the block step sizes of the
 * notes (3.4, step 4) and projects; the output is the average of the iterates 1..T.
 *
 * <p>Sensitivities under replace-one of a private row with ||x|| &lt;= r and |y| &lt;= 1 (Lemma 1): grad_w of the private
 * part moves by at most {@link Problem#s1()} = 2 (1 - alpha) G / n, grad_{u_priv} by at most {@link Problem#s2()}
 * = (1 - alpha)^2 B / n^2, with B = (Lambda r + 1)^2 and G = 2 r (Lambda r + 1). The caller calibrates sigma_1, sigma_2
 * and clips the rows; {@link #privateGradient} is the query the noise protects (the neighbouring-dataset harness
 * checks it).
 */
public final class CnvxAdap {
    private CnvxAdap() {
    }

    /**
     * The data and constants: rows of the public source (m) and the private target (n), the (private) discrepancy d,
     * alpha in (0, 1), the penalties, the predictor ball Lambda and the row bound r.
     */
    public record Problem(DenseMatrix xPub, double[] yPub, DenseMatrix xPriv, double[] yPriv, double d, double alpha,
                          double kappa1, double kappa2, double kappaInf, double lambda, double r) {
        public Problem {
            if (xPub.rows() != yPub.length || xPriv.rows() != yPriv.length || xPub.cols() != xPriv.cols()) {
                throw new IllegalArgumentException("shapes do not match: public " + xPub.rows() + " x " + xPub.cols() + " with "
                        + yPub.length + " targets, private " + xPriv.rows() + " x " + xPriv.cols() + " with " + yPriv.length);
            }
            if (xPub.rows() < 1 || xPriv.rows() < 1) {
                throw new IllegalArgumentException("need at least one public and one private row");
            }
            if (!(alpha > 0 && alpha < 1) || !(lambda > 0) || !(r > 0) || !(d >= 0) || !(kappa1 >= 0) || !(kappa2 >= 0)
                    || !(kappaInf >= 0)) {
                throw new IllegalArgumentException("need 0 < alpha < 1, Lambda > 0, r > 0 and d, kappas >= 0");
            }
        }

        public int m() {
            return xPub.rows();
        }

        public int n() {
            return xPriv.rows();
        }

        public int dim() {
            return xPub.cols();
        }

        /** B = (Lambda r + 1)^2: the squared loss's bound on the ball. */
        public double lossBound() {
            return (lambda * r + 1) * (lambda * r + 1);
        }

        /** G = 2 r (Lambda r + 1): its Lipschitz constant in w. */
        public double lipschitz() {
            return 2 * r * (lambda * r + 1);
        }

        /** B + kappa_1 + kappa_2 + kappa_inf. */
        public double bBar() {
            return lossBound() + kappa1 + kappa2 + kappaInf;
        }

        /** L2 sensitivity of grad_w of the private part under replace-one: 2 (1 - alpha) G / n. */
        public double s1() {
            return 2 * (1 - alpha) * lipschitz() / n();
        }

        /** L2 sensitivity of grad_{u_priv} of the private part under replace-one: (1 - alpha)^2 B / n^2. */
        public double s2() {
            return (1 - alpha) * (1 - alpha) * lossBound() / ((double) n() * n());
        }

        double lowerPub() {
            return m() / alpha;
        }

        double lowerPriv() {
            return n() / (1 - alpha);
        }
    }

    /** T and the noise stds added to grad_w (sigma_1) and grad_{u_priv} (sigma_2); delta is the accountant's (step sizes). */
    public record Config(long iterations, double sigma1, double sigma2, double logTwoOverDeltaOverEpsSq) {
        public Config {
            if (iterations < 1 || !(sigma1 >= 0) || !(sigma2 >= 0) || !(logTwoOverDeltaOverEpsSq >= 0)) {
                throw new IllegalArgumentException("need T >= 1 and sigmas >= 0");
            }
        }

        /** Noise-free CnvxAdap. */
        public static Config nonPrivate(long iterations) {
            return new Config(iterations, 0, 0, 0);
        }
    }

    /** The averaged iterate: predictor w, inverse weights u (public rows first), and F there. */
    public record Result(double[] w, double[] u, double objective) {
        /** The weights q_i = 1 / u_i. */
        public double[] weights() {
            double[] q = new double[u.length];
            for (int i = 0; i < q.length; i++) {
                q[i] = 1 / u[i];
            }
            return q;
        }
    }

    /** The private rows' part of the gradient at (w, u): {grad_w L_priv (d entries), grad_{u_priv} L_priv (n entries)}. */
    public static double[][] privateGradient(Problem p, double[] w, double[] u) {
        int m = p.m();
        int n = p.n();
        double[] res = residuals(p.xPriv(), p.yPriv(), w);
        double[] scaled = new double[n];
        double[] gu = new double[n];
        for (int j = 0; j < n; j++) {
            double uj = u[m + j];
            scaled[j] = 2 * res[j] / uj;
            gu[j] = -res[j] * res[j] / (uj * uj);
        }
        return new double[][] {LinAlg.multiplyTransA(p.xPriv(), scaled), gu};
    }

    /** The public rows' part (no privacy): {grad_w L_pub, dF/du_pub of the loss and d terms}. */
    static double[][] publicGradient(Problem p, double[] w, double[] u) {
        int m = p.m();
        double[] res = residuals(p.xPub(), p.yPub(), w);
        double[] scaled = new double[m];
        double[] gu = new double[m];
        for (int i = 0; i < m; i++) {
            scaled[i] = 2 * res[i] / u[i];
            gu[i] = -(res[i] * res[i] + p.d()) / (u[i] * u[i]);
        }
        return new double[][] {LinAlg.multiplyTransA(p.xPub(), scaled), gu};
    }

    static double[] residuals(DenseMatrix x, double[] y, double[] w) {
        double[] r = LinAlg.multiply(x, w);
        for (int i = 0; i < r.length; i++) {
            r[i] -= y[i];
        }
        return r;
    }

    /** The penalties' gradient in u (data-independent given u). */
    static double[] penaltyGradient(Problem p, double[] u) {
        int m = p.m();
        double cPub = p.alpha() * p.alpha() / ((double) m * m);
        double cPriv = (1 - p.alpha()) * (1 - p.alpha()) / ((double) p.n() * p.n());
        double sumInvSq = 0;
        int argmin = 0;
        for (int i = 0; i < u.length; i++) {
            sumInvSq += 1 / (u[i] * u[i]);
            if (u[i] < u[argmin]) {
                argmin = i; // ties: the first index
            }
        }
        double norm = Math.sqrt(sumInvSq);
        double[] g = new double[u.length];
        for (int i = 0; i < u.length; i++) {
            g[i] = p.kappa1() * (i < m ? cPub : cPriv) - p.kappa2() / (u[i] * u[i] * u[i] * norm);
        }
        g[argmin] -= p.kappaInf() / (u[argmin] * u[argmin]);
        return g;
    }

    /** F(w, u). */
    public static double objective(Problem p, double[] w, double[] u) {
        int m = p.m();
        double[] rp = residuals(p.xPub(), p.yPub(), w);
        double[] rq = residuals(p.xPriv(), p.yPriv(), w);
        double f = 0;
        double sumPub = 0;
        double sumPriv = 0;
        double sumInvSq = 0;
        double minU = Double.POSITIVE_INFINITY;
        for (int i = 0; i < u.length; i++) {
            double loss = i < m ? rp[i] * rp[i] + p.d() : rq[i - m] * rq[i - m];
            f += loss / u[i];
            if (i < m) {
                sumPub += u[i];
            } else {
                sumPriv += u[i];
            }
            sumInvSq += 1 / (u[i] * u[i]);
            minU = Math.min(minU, u[i]);
        }
        double a = p.alpha();
        f += p.kappa1() * (a * a / ((double) m * m) * sumPub + (1 - a) * (1 - a) / ((double) p.n() * p.n()) * sumPriv - 1);
        return f + p.kappa2() * Math.sqrt(sumInvSq) + p.kappaInf() / minU;
    }

    /**
     * Runs T iterations from w_0 = 0, u_0 = 1 / p0 (the lower bounds) and returns the average of iterates 1..T.
     * {@code rnd} supplies the Gaussian noise (not read when both sigmas are 0).
     */
    public static Result solve(Problem p, Config c, NoiseAndSampling rnd) {
        return solve(p, c, rnd, null, Double.NaN);
    }

    /**
     * As {@link #solve(Problem, Config, NoiseAndSampling)} from w_0 = {@code w0} (projected onto the ball; null for 0),
     * with the w block's step {@code etaW} instead of the theory step Lambda / sqrt(T (G^2 + d sigma_1^2)) when it is a
     * positive number (NaN keeps the theory step). Both are free choices of Algorithm 1 (its step 1 picks any feasible
     * start; the step sizes only affect accuracy, never privacy, since every step is post-processing of the noisy
     * gradients). The theory step is for the non-smooth worst case; the loss term is 2 r^2-smooth in w (the weights sum
     * to at most 1), so 1 / (2 r^2) converges much faster on well-scaled data.
     */
    public static Result solve(Problem p, Config c, NoiseAndSampling rnd, double[] w0, double etaWOverride) {
        int m = p.m();
        int n = p.n();
        int d = p.dim();
        long t = c.iterations();
        double a = p.alpha();
        double b = p.lossBound();
        double bBar = p.bBar();
        double g = p.lipschitz();
        // block step sizes (notes 3.4, step 4): u lives on the scale m / alpha with O(1/m^2) gradients
        double etaW = etaWOverride > 0 ? etaWOverride : p.lambda() / Math.sqrt(t * (g * g + d * c.sigma1() * c.sigma1()));
        double etaPub = Math.pow(m, 1.5) / (a * a * (b + bBar) * Math.sqrt(t));
        double etaPriv = Math.pow(n, 1.5) / ((1 - a) * (1 - a) * Math.sqrt(t)
                * Math.sqrt(bBar * bBar + 4 * b * b * t * c.logTwoOverDeltaOverEpsSq()));
        double[] w = new double[d];
        if (w0 != null) {
            if (w0.length != d) {
                throw new IllegalArgumentException("w0 has " + w0.length + " coordinates, the problem " + d);
            }
            double norm = 0;
            for (double v : w0) {
                norm += v * v;
            }
            double f = Math.sqrt(norm) > p.lambda() ? p.lambda() / Math.sqrt(norm) : 1.0;
            for (int k = 0; k < d; k++) {
                w[k] = f * w0[k];
            }
        }
        double[] u = new double[m + n];
        for (int i = 0; i < m + n; i++) {
            u[i] = i < m ? p.lowerPub() : p.lowerPriv();
        }
        double[] wSum = new double[d];
        double[] uSum = new double[m + n];
        for (long it = 0; it < t; it++) {
            double[][] priv = privateGradient(p, w, u);
            double[][] pub = publicGradient(p, w, u);
            double[] pen = penaltyGradient(p, u);
            double[] gw = priv[0];
            for (int k = 0; k < d; k++) {
                gw[k] += pub[0][k];
            }
            double[] gPriv = priv[1];
            if (c.sigma1() > 0) {
                rnd.addGaussian(gw, c.sigma1());
            }
            for (int j = 0; j < n; j++) {
                gPriv[j] += pen[m + j];
            }
            if (c.sigma2() > 0) {
                rnd.addGaussian(gPriv, c.sigma2());
            }
            double norm = 0;
            for (int k = 0; k < d; k++) {
                w[k] -= etaW * gw[k];
                norm += w[k] * w[k];
            }
            norm = Math.sqrt(norm);
            if (norm > p.lambda()) {
                for (int k = 0; k < d; k++) {
                    w[k] *= p.lambda() / norm;
                }
            }
            for (int i = 0; i < m; i++) {
                u[i] = Math.max(p.lowerPub(), u[i] - etaPub * (pub[1][i] + pen[i]));
            }
            for (int j = 0; j < n; j++) {
                u[m + j] = Math.max(p.lowerPriv(), u[m + j] - etaPriv * gPriv[j]);
            }
            for (int k = 0; k < d; k++) {
                wSum[k] += w[k];
            }
            for (int i = 0; i < m + n; i++) {
                uSum[i] += u[i];
            }
        }
        for (int k = 0; k < d; k++) {
            wSum[k] /= t;
        }
        for (int i = 0; i < m + n; i++) {
            uSum[i] /= t;
        }
        return new Result(wSum, uSum, objective(p, wSum, uSum));
    }

    /**
     * The exact optimum of problem (6) when kappa_2 = kappa_inf = 0 (CnvxAdap without noise "can also go to any convex
     * solver", notes 3.4): block coordinate descent with both blocks minimised in closed form.
     * <ul>
     *   <li><i>u given w</i>: F separates into {@code a_i / u_i + kappa_1 c_i u_i} with {@code a_i = l_i + d 1{public}},
     *       minimised on {@code u_i >= lower_i} at {@code u_i = max(lower_i, sqrt(a_i / (kappa_1 c_i)))}. With
     *       {@code lower_i = 1 / p0_i} and {@code c_i = p0_i^2} this is {@code q_i = p0_i min(1, sqrt(kappa_1 / a_i))}:
     *       kappa_1 is a loss threshold above which a row's weight shrinks as {@code 1 / sqrt(loss)}.
     *   <li><i>w given u</i>: weighted least squares on the ball, {@code min w^T A w - 2 b^T w} with
     *       {@code A = X^T diag(q) X}, {@code b = X^T diag(q) y}: a trust-region subproblem, solved exactly
     *       ({@link TrustRegion}).
     * </ul>
     * F is jointly convex and continuously differentiable on the interior of its (block-separable) feasible set, and
     * each block's minimiser is unique (u's strictly; w's when A is positive definite), so the iterates' objective
     * decreases monotonically to the minimum. Stops when the relative decrease falls below {@code tol} or after
     * {@code maxSweeps}. Noise-free only: this reads every row as often as it likes.
     *
     * @throws IllegalArgumentException unless kappa_2 = kappa_inf = 0 and kappa_1 > 0
     */
    public static Result solveExact(Problem p, double[] w0, int maxSweeps, double tol) {
        if (p.kappa2() != 0 || p.kappaInf() != 0 || !(p.kappa1() > 0)) {
            throw new IllegalArgumentException("the exact solver needs kappa_2 = kappa_inf = 0 and kappa_1 > 0 (got " + p.kappa1()
                    + ", " + p.kappa2() + ", " + p.kappaInf() + "); use the descent otherwise");
        }
        int m = p.m();
        int n = p.n();
        int dim = p.dim();
        DenseMatrix x = p.xPub().vstack(p.xPriv());
        double[] y = new double[m + n];
        System.arraycopy(p.yPub(), 0, y, 0, m);
        System.arraycopy(p.yPriv(), 0, y, m, n);
        double cPub = p.alpha() * p.alpha() / ((double) m * m);
        double cPriv = (1 - p.alpha()) * (1 - p.alpha()) / ((double) n * n);
        double[] w = new double[dim];
        if (w0 != null) {
            double norm = Math.sqrt(dot(w0, w0));
            double f = norm > p.lambda() ? p.lambda() / norm : 1.0;
            for (int k = 0; k < dim; k++) {
                w[k] = f * w0[k];
            }
        }
        double[] u = new double[m + n];
        double previous = Double.POSITIVE_INFINITY;
        double current = Double.NaN;
        for (int sweep = 0; sweep < maxSweeps; sweep++) {
            double[] r = residuals(x, y, w);
            for (int i = 0; i < m + n; i++) {
                double a = r[i] * r[i] + (i < m ? p.d() : 0);
                double lower = i < m ? p.lowerPub() : p.lowerPriv();
                u[i] = Math.max(lower, Math.sqrt(a / (p.kappa1() * (i < m ? cPub : cPriv))));
            }
            double[] sq = new double[m + n];
            double[] qy = new double[m + n];
            for (int i = 0; i < m + n; i++) {
                sq[i] = Math.sqrt(1 / u[i]);
                qy[i] = y[i] / u[i];
            }
            DenseMatrix a = LinAlg.gram(x.scaleRows(sq));
            double[] b = LinAlg.multiplyTransA(x, qy);
            // min w^T A w - 2 b^T w  =  -max w^T (-A) w - 2 (-b)^T w
            w = TrustRegion.maximize(a.scale(-1), negate(b), 0, p.lambda()).w();
            current = objective(p, w, u);
            if (previous - current <= tol * Math.abs(current)) {
                break;
            }
            previous = current;
        }
        return new Result(w, u, current);
    }

    /**
     * Problem (6) restricted to private weights fixed at their reference values {@code q_i = p0_i = (1 - alpha) / n}
     * (u_priv at its lower bound: Claim 1's box allows it), so that the private rows enter only through their mean loss
     * {@code (1 - alpha) (w^T A w - 2 b^T w + c)} with {@code A = X^T X / n}, {@code b = X^T y / n}: a quadratic that
     * can be released once with DP (sufficient statistics) and then optimised over freely. The public rows keep their
     * weights; both blocks are minimised exactly as in {@link #solveExact} ({@code aPriv} may be indefinite, as noisy
     * statistics are: the w step is the global trust-region minimum either way). kappa_2 = kappa_inf = 0.
     *
     * <p>{@code center} (null for 0) moves the ball to {@code ||w - center|| <= Lambda}: with a public center (a fit on
     * the public source) the radius becomes a trust region around it, a shrinkage that matters when the private
     * quadratic is noisy. Everything else is unchanged.
     *
     * @return w, the public rows' u (m entries), and the objective without the private constant c
     */
    public static Result solveExactFixedPrivate(DenseMatrix xPub, double[] yPub, double d, double alpha, double kappa1,
                                                double lambda, DenseMatrix aPriv, double[] bPriv, double[] center,
                                                int maxSweeps, double tol) {
        int m = xPub.rows();
        int dim = xPub.cols();
        if (yPub.length != m || aPriv.rows() != dim || aPriv.cols() != dim || bPriv.length != dim) {
            throw new IllegalArgumentException("shapes do not match: public " + m + " x " + dim + ", private quadratic "
                    + aPriv.rows() + " x " + aPriv.cols() + " and " + bPriv.length);
        }
        if (!(alpha > 0 && alpha < 1) || !(kappa1 > 0) || !(lambda > 0) || !(d >= 0)) {
            throw new IllegalArgumentException("need 0 < alpha < 1, kappa_1 > 0, Lambda > 0, d >= 0");
        }
        double lower = m / alpha;
        double c = alpha * alpha / ((double) m * m);
        double[] c0 = center == null ? new double[dim] : center.clone();
        if (c0.length != dim) {
            throw new IllegalArgumentException("center has " + c0.length + " coordinates, the problem " + dim);
        }
        double[] w = c0.clone();
        DenseMatrix aPrivScaled = aPriv.symmetrized().scale(1 - alpha);
        double[] u = new double[m];
        double previous = Double.POSITIVE_INFINITY;
        double current = Double.NaN;
        for (int sweep = 0; sweep < maxSweeps; sweep++) {
            double[] r = residuals(xPub, yPub, w);
            for (int i = 0; i < m; i++) {
                u[i] = Math.max(lower, Math.sqrt((r[i] * r[i] + d) / (kappa1 * c)));
            }
            double[] sq = new double[m];
            double[] qy = new double[m];
            for (int i = 0; i < m; i++) {
                sq[i] = Math.sqrt(1 / u[i]);
                qy[i] = yPub[i] / u[i];
            }
            DenseMatrix a = LinAlg.gram(xPub.scaleRows(sq)).plus(aPrivScaled);
            double[] b = LinAlg.multiplyTransA(xPub, qy);
            for (int k = 0; k < dim; k++) {
                b[k] += (1 - alpha) * bPriv[k];
            }
            // w = c0 + v: min v^T A v - 2 (b - A c0)^T v over ||v|| <= Lambda
            double[] ac = LinAlg.multiply(a, c0);
            for (int k = 0; k < dim; k++) {
                b[k] -= ac[k];
            }
            double[] v = TrustRegion.maximize(a.scale(-1), negate(b), 0, lambda).w();
            for (int k = 0; k < dim; k++) {
                w[k] = c0[k] + v[k];
            }
            // F restricted: public terms + penalty + the private quadratic (its constant dropped)
            double[] rr = residuals(xPub, yPub, w);
            double f = 0;
            double sumU = 0;
            for (int i = 0; i < m; i++) {
                f += (rr[i] * rr[i] + d) / u[i];
                sumU += u[i];
            }
            double[] aw = LinAlg.multiply(aPrivScaled, w);
            f += dot(w, aw) - 2 * (1 - alpha) * dot(bPriv, w) + kappa1 * c * sumU;
            current = f;
            if (previous - current <= tol * Math.abs(current)) {
                break;
            }
            previous = current;
        }
        return new Result(w, u, current);
    }

    private static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    private static double[] negate(double[] v) {
        double[] out = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = -v[i];
        }
        return out;
    }
}
