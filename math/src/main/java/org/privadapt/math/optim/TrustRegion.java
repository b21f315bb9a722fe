package org.privadapt.math.optim;

import org.privadapt.math.DenseMatrix;
import org.privadapt.math.LinAlg;
import org.privadapt.math.SymmetricEigen;

/**
 * The trust-region subproblem solved exactly: the global maximum of the quadratic
 * {@code f(w) = w^T A w - 2 b^T w + c} over the ball {@code ||w|| <= R}, for any symmetric A (indefinite allowed).
 *
 * <p>Maximising f is minimising {@code g(w) = w^T H w + 2 b^T w} with {@code H = -A}. Its global minimisers are
 * characterised (Gay 1981; Moré and Sorensen 1983) by {@code (H + lambda I) w = -b}, {@code H + lambda I} positive
 * semi-definite, {@code lambda >= 0} and {@code lambda (||w|| - R) = 0}; in terms of A: {@code (lambda I - A) w = -b}
 * and {@code lambda I - A} PSD, i.e. {@code grad f(w) = 2 A w - 2 b = 2 lambda w}. (Written as the textbook
 * {@code min x^T Hx / 2 + g^T x} with {@code H = -2A}, {@code g = 2b}, the multiplier is {@code 2 lambda}.) With
 * {@code H = Q diag(h) Q^T} (one symmetric eigendecomposition, {@link LinAlg#eigh}) and {@code beta = Q^T b},
 * {@code w(lambda)} has coordinates {@code -beta_i / (h_i + lambda)} in the eigenbasis, so the multiplier solves the
 * secular equation {@code ||w(lambda)|| = R} on {@code lambda > max(0, -h_min)}. There {@code 1 / ||w(lambda)||} is
 * increasing, concave and nearly linear, so Newton's method on {@code 1/||w|| - 1/R}, safeguarded by a bracket and
 * geometric bisection, converges in a handful of O(n) steps (bisection alone would take about 50). Cases:
 * <i>interior</i> ({@code h_min > 0} and {@code ||H^{-1} b|| <= R}: lambda = 0); <i>easy</i> (the root of the secular
 * equation); <i>hard</i> (b orthogonal to the eigenspace of h_min, {@code h_min < 0} and {@code ||w(-h_min)|| < R}
 * over the other coordinates: lambda = -h_min, and w is completed to the sphere along an eigenvector of h_min).
 * Being exact matters where this is used: paper 003's labelled discrepancy is a supremum whose sensitivity argument
 * needs the global optimum, which a local iteration need not find.
 */
public final class TrustRegion {
    /** Relative size below which eigenvalue gaps and components of b count as zero. */
    private static final double TOL = 1e-12;

    private TrustRegion() {
    }

    /**
     * A global maximiser {@code w} ({@code ||w|| <= R}), the maximum {@code value = f(w)}, the multiplier lambda of
     * {@code (lambda I - A) w = -b} ({@code lambda >= 0}, {@code lambda I - A} PSD, 0 for an interior solution) and
     * whether the hard case occurred (then the maximiser is not unique: the sign of its component along the top
     * eigenvector of A is arbitrary).
     */
    public record Solution(double[] w, double value, double lambda, boolean hardCase) {
    }

    /**
     * The global maximum of {@code f(w) = w^T A w - 2 b^T w + c} over {@code ||w|| <= radius}, for symmetric A of any
     * inertia: one eigendecomposition of A (O(n^3)) and a secular-equation solve in its eigenbasis (O(n) per step).
     * A is used as {@code (A + A^T) / 2}.
     *
     * @throws IllegalArgumentException if A is not square, not symmetric to {@code 1e-10 max|a_ij|}, sizes differ,
     *     n = 0, an entry or c is not finite, or the radius is negative, infinite or NaN
     */
    public static Solution maximize(DenseMatrix a, double[] b, double c, double radius) {
        DenseMatrix s = checked(a, b, c, radius);
        if (radius == 0) {
            return new Solution(new double[b.length], c, 0, false);
        }
        return solve(s, b, c, radius, LinAlg.eigh(s), 1, null);
    }

    /**
     * {@code max over ||w|| <= radius of |w^T A w - 2 b^T w + c|}, the larger of the maxima of f and of -f (the
     * latter is {@code maximize(-A, -b, -c, radius)}); both from one eigendecomposition. With
     * {@code A = A_pub - A_priv}, {@code b = b_pub - b_priv}, {@code c = c_pub - c_priv} this is paper 003's labelled
     * discrepancy for linear predictors of norm at most {@code radius} under the squared loss.
     *
     * @throws IllegalArgumentException as {@link #maximize}
     */
    public static double maxAbs(DenseMatrix a, double[] b, double c, double radius) {
        DenseMatrix s = checked(a, b, c, radius);
        if (radius == 0) {
            return Math.abs(c);
        }
        SymmetricEigen eig = LinAlg.eigh(s);
        return Math.max(solve(s, b, c, radius, eig, 1, null).value(), solve(s, b, c, radius, eig, -1, null).value());
    }

    /**
     * The number of secular-equation iterations {@link #maximize} takes (0 without a root search): for tests, since
     * the bisection safeguard keeps the answer right even when the Newton step is broken, only slower.
     */
    static int secularIterations(DenseMatrix a, double[] b, double radius) {
        DenseMatrix s = checked(a, b, 0, radius);
        int[] count = new int[1];
        solve(s, b, 0, radius, LinAlg.eigh(s), 1, count);
        return count[0];
    }

    /** {@code f(w) = w^T A w - 2 b^T w + c} (A as given: pass a symmetric matrix). */
    public static double value(DenseMatrix a, double[] b, double c, double[] w) {
        double[] aw = LinAlg.multiply(a, w);
        double v = c;
        for (int i = 0; i < w.length; i++) {
            v += w[i] * aw[i] - 2 * b[i] * w[i];
        }
        return v;
    }

    /**
     * Maximises {@code sign * f} given the eigendecomposition of A: there {@code H = -sign A} and b becomes sign b.
     * The secular equation is solved for {@code t = lambda + h_min} with the gaps {@code g_i = h_i - h_min >= 0},
     * so that the denominators {@code h_i + lambda = g_i + t} carry no cancellation near the hard case.
     */
    private static Solution solve(DenseMatrix a, double[] b, double c, double radius, SymmetricEigen eig, int sign,
            int[] count) {
        int n = b.length;
        DenseMatrix q = eig.vectors();
        double[] beta = LinAlg.multiplyTransA(q, b);
        double[] g = new double[n];
        double scale = 0;
        double hMin = Double.POSITIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            g[i] = -sign * eig.value(i);
            beta[i] *= sign;
            scale = Math.max(scale, Math.abs(g[i]));
            hMin = Math.min(hMin, g[i]);
        }
        boolean[] bottom = new boolean[n]; // the eigenspace of h_min, up to TOL * scale
        double bottom2 = 0;
        int k = -1;
        for (int i = 0; i < n; i++) {
            g[i] -= hMin;
            bottom[i] = g[i] <= TOL * scale;
            if (bottom[i]) {
                bottom2 += beta[i] * beta[i];
                k = k < 0 || Math.abs(beta[i]) > Math.abs(beta[k]) ? i : k;
            }
        }
        double[] x = new double[n]; // the maximiser in the eigenbasis
        double t;
        boolean hard = false;
        if (hMin > 0 && secularNorm(g, beta, hMin, null) <= radius) {
            t = hMin; // interior, lambda = 0: H positive definite, unconstrained minimiser of g inside the ball
            fill(x, g, beta, t, null);
        } else {
            double tLo = Math.max(0, hMin); // lambda >= max(0, -h_min)
            boolean orthogonal = Math.sqrt(bottom2) <= TOL * norm(beta);
            if (orthogonal && secularNorm(g, beta, tLo, bottom) <= radius) {
                t = tLo; // hard case if h_min < 0; otherwise H is singular PSD and w = -H^+ b is a maximiser
                fill(x, g, beta, t, bottom);
                hard = hMin < 0;
                if (hard) { // to the sphere along an eigenvector of h_min, against b's (negligible) component there
                    double len = Math.sqrt(Math.max(0, radius * radius - norm(x) * norm(x)));
                    x[k] = beta[k] > 0 ? -len : len;
                }
            } else {
                t = secularRoot(g, beta, tLo, radius, orthogonal ? bottom : null, count);
                fill(x, g, beta, t, null);
            }
        }
        double[] w = LinAlg.multiply(q, x);
        double nw = norm(w);
        if (nw > radius) { // rounding: stay feasible
            for (int i = 0; i < n; i++) {
                w[i] *= radius / nw;
            }
        }
        return new Solution(w, sign * value(a, b, c, w), Math.max(0, t - hMin), hard);
    }

    /** {@code x_i = -beta_i / (g_i + t)} outside {@code exclude}, 0 where the denominator is not positive. */
    private static void fill(double[] x, double[] g, double[] beta, double t, boolean[] exclude) {
        for (int i = 0; i < x.length; i++) {
            double den = g[i] + t;
            x[i] = den > 0 && (exclude == null || !exclude[i]) ? -beta[i] / den : 0;
        }
    }

    /**
     * {@code ||w||} at {@code t} over the coordinates not excluded; infinite if some {@code g_i + t <= 0} has
     * {@code beta_i != 0}.
     */
    private static double secularNorm(double[] g, double[] beta, double t, boolean[] exclude) {
        double s = 0;
        for (int i = 0; i < g.length; i++) {
            if (exclude != null && exclude[i] || beta[i] == 0) {
                continue;
            }
            double den = g[i] + t;
            if (den <= 0) {
                return Double.POSITIVE_INFINITY;
            }
            double x = beta[i] / den;
            s += x * x;
        }
        return Math.sqrt(s);
    }

    /**
     * The root of {@code phi(t) = ||w|| = R} on {@code (lo, inf)}, where phi decreases from above R to 0: Newton on
     * {@code psi = 1/phi - 1/R} ({@code psi' = sum(beta_i^2 / (g_i + t)^3) / phi^3}), which from the right lands
     * left of the root and then increases monotonically to it (psi is concave); steps leaving the bracket are
     * replaced by Moré and Sorensen's geometric bisection.
     */
    private static double secularRoot(double[] g, double[] beta, double lo, double radius, boolean[] exclude,
            int[] count) {
        // at t = lo + ||beta|| / R every g_i + t >= ||beta|| / R, so ||w|| <= R
        double hi = lo + norm(beta) / radius;
        while (secularNorm(g, beta, hi, exclude) > radius) {
            hi = 2 * hi + Double.MIN_NORMAL; // only after rounding
        }
        double left = lo; // and phi(t) >= |beta_i| / (g_i + t) > R below |beta_i| / R - g_i
        for (int i = 0; i < g.length; i++) {
            if (exclude == null || !exclude[i]) {
                left = Math.max(left, Math.abs(beta[i]) / radius - g[i]);
            }
        }
        double right = hi;
        double t = hi;
        for (int it = 0; it < 300; it++) {
            if (count != null) {
                count[0]++;
            }
            double s = 0;
            double ds = 0;
            boolean finite = true;
            for (int i = 0; i < g.length && finite; i++) {
                if (exclude != null && exclude[i] || beta[i] == 0) {
                    continue;
                }
                double den = g[i] + t;
                double b2 = beta[i] * beta[i];
                finite = den > 0;
                s += b2 / (den * den);
                ds += b2 / (den * den * den);
            }
            double phi = finite ? Math.sqrt(s) : Double.POSITIVE_INFINITY;
            if (phi > radius) {
                left = t;
            } else {
                right = t;
            }
            if (Math.abs(phi - radius) <= 1e-14 * radius || right - left <= 1e-15 * right) {
                return t;
            }
            double next = Double.NaN;
            if (finite && phi > 0 && ds > 0) {
                next = t - (1 / phi - 1 / radius) * (phi * phi * phi) / ds;
            }
            if (!(next >= left && next < right)) { // Moré and Sorensen's safeguard: geometric bisection
                next = Math.max(Math.sqrt(left * right), left + 1e-3 * (right - left));
            }
            if (Math.abs(next - t) <= 1e-15 * t) {
                return t; // the Newton step is below rounding: t is the root to working precision
            }
            t = next;
        }
        return right; // the feasible side
    }

    private static double norm(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x * x;
        }
        return Math.sqrt(s);
    }

    /** Validates the inputs and returns {@code (A + A^T) / 2}. */
    private static DenseMatrix checked(DenseMatrix a, double[] b, double c, double radius) {
        if (a.rows() != a.cols()) {
            throw new IllegalArgumentException("matrix must be square, got " + a.rows() + " x " + a.cols());
        }
        if (a.rows() != b.length || b.length == 0) {
            throw new IllegalArgumentException("need an n x n matrix and an n-vector with n >= 1, got "
                    + a.rows() + " x " + a.cols() + " and " + b.length);
        }
        if (!(radius >= 0) || Double.isInfinite(radius)) {
            throw new IllegalArgumentException("radius must be finite and >= 0, got " + radius);
        }
        if (!Double.isFinite(c)) {
            throw new IllegalArgumentException("constant must be finite, got " + c);
        }
        for (double v : a.data()) {
            if (!Double.isFinite(v)) {
                throw new IllegalArgumentException("matrix entries must be finite, found " + v);
            }
        }
        for (double v : b) {
            if (!Double.isFinite(v)) {
                throw new IllegalArgumentException("vector entries must be finite, found " + v);
            }
        }
        double asym = a.asymmetry();
        if (asym > 1e-10 * a.maxAbs()) {
            throw new IllegalArgumentException("matrix is not symmetric: max |a_ij - a_ji| = " + asym
                    + " > 1e-10 max |a_ij| = " + 1e-10 * a.maxAbs());
        }
        return a.symmetrized();
    }
}
