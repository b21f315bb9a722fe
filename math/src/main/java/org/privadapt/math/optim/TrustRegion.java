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
 * increasing, concave and nearly linear, so Newton's method on {@code 1/||w|| - 1/R}, safeguarded by a bisection
 * bracket, converges in a few O(n) steps. Cases: <i>interior</i> ({@code h_min > 0} and {@code ||H^{-1} b|| <= R}:
 * lambda = 0); <i>easy</i> (the root of the secular equation); <i>hard</i> (b orthogonal to the eigenspace of h_min,
 * {@code h_min < 0} and {@code ||w(-h_min)|| < R} over the other coordinates: lambda = -h_min, and w is completed to
 * the sphere along an eigenvector of h_min). Being exact matters where this is used: paper 003's labelled discrepancy
 * is a supremum whose sensitivity argument needs the global optimum, which a local iteration need not find.
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
        return solve(s, b, c, radius, LinAlg.eigh(s), 1);
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
        return Math.max(solve(s, b, c, radius, eig, 1).value(), solve(s, b, c, radius, eig, -1).value());
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

    /** Maximises {@code sign * f} given the eigendecomposition of A: there {@code H = -sign A}, b becomes sign b. */
    private static Solution solve(DenseMatrix a, double[] b, double c, double radius, SymmetricEigen eig, int sign) {
        int n = b.length;
        DenseMatrix q = eig.vectors();
        double[] beta = LinAlg.multiplyTransA(q, b);
        double[] h = new double[n];
        double scale = 0;
        double hMin = Double.POSITIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            h[i] = -sign * eig.value(i);
            beta[i] *= sign;
            scale = Math.max(scale, Math.abs(h[i]));
            hMin = Math.min(hMin, h[i]);
        }
        double[] x = new double[n]; // the maximiser in the eigenbasis
        double lambda;
        boolean hard = false;
        if (hMin > 0 && secularNorm(h, beta, 0, null) <= radius) {
            lambda = 0; // interior: H positive definite, unconstrained minimiser of g inside the ball
        } else {
            boolean[] bottom = new boolean[n]; // the eigenspace of h_min, up to TOL * scale
            double bottom2 = 0;
            int k = -1;
            for (int i = 0; i < n; i++) {
                bottom[i] = h[i] - hMin <= TOL * scale;
                if (bottom[i]) {
                    bottom2 += beta[i] * beta[i];
                    k = k < 0 ? i : k;
                }
            }
            double lo = Math.max(0, -hMin);
            boolean orthogonal = Math.sqrt(bottom2) <= TOL * norm(beta);
            if (orthogonal && secularNorm(h, beta, lo, bottom) <= radius) {
                lambda = lo; // hard case if h_min < 0; otherwise H is singular PSD and w = -H^+ b is a maximiser
                double sq = 0;
                for (int i = 0; i < n; i++) {
                    if (!bottom[i]) {
                        x[i] = -beta[i] / (h[i] + lambda);
                        sq += x[i] * x[i];
                    }
                }
                hard = hMin < 0;
                if (hard) {
                    x[k] = Math.sqrt(Math.max(0, radius * radius - sq));
                }
            } else {
                lambda = secularRoot(h, beta, lo, hMin, radius, orthogonal ? bottom : null);
            }
        }
        if (!hard) {
            for (int i = 0; i < n; i++) {
                double den = h[i] + lambda;
                x[i] = den > 0 ? -beta[i] / den : 0;
            }
        }
        double[] w = LinAlg.multiply(q, x);
        double nw = norm(w);
        if (nw > radius) { // rounding: stay feasible
            for (int i = 0; i < n; i++) {
                w[i] *= radius / nw;
            }
        }
        return new Solution(w, sign * value(a, b, c, w), lambda, hard);
    }

    /**
     * {@code ||w(lambda)||} over the coordinates not excluded; infinite if some {@code h_i + lambda <= 0} has
     * {@code beta_i != 0}.
     */
    private static double secularNorm(double[] h, double[] beta, double lambda, boolean[] exclude) {
        double s = 0;
        for (int i = 0; i < h.length; i++) {
            if (exclude != null && exclude[i] || beta[i] == 0) {
                continue;
            }
            double den = h[i] + lambda;
            if (den <= 0) {
                return Double.POSITIVE_INFINITY;
            }
            double x = beta[i] / den;
            s += x * x;
        }
        return Math.sqrt(s);
    }

    /**
     * The root of {@code phi(lambda) = ||w(lambda)|| = R} on {@code (lo, inf)}, where phi decreases from above R to
     * 0: Newton on {@code psi = 1/phi - 1/R} ({@code psi' = sum(beta_i^2 / (h_i + lambda)^3) / phi^3}), which from
     * the right lands left of the root and then increases monotonically to it (psi is concave); steps leaving the
     * bracket are replaced by bisection.
     */
    private static double secularRoot(double[] h, double[] beta, double lo, double hMin, double radius,
            boolean[] exclude) {
        // at lambda = max(0, -h_min) + ||beta|| / R every h_i + lambda >= ||beta|| / R, so ||w|| <= R
        double hi = lo + norm(beta) / radius;
        while (secularNorm(h, beta, hi, exclude) > radius) {
            hi = 2 * hi + Double.MIN_NORMAL; // only after rounding
        }
        double left = lo;
        double right = hi;
        double lambda = hi;
        for (int it = 0; it < 300; it++) {
            double s = 0;
            double ds = 0;
            boolean finite = true;
            for (int i = 0; i < h.length && finite; i++) {
                if (exclude != null && exclude[i] || beta[i] == 0) {
                    continue;
                }
                double den = h[i] + lambda;
                double b2 = beta[i] * beta[i];
                finite = den > 0;
                s += b2 / (den * den);
                ds += b2 / (den * den * den);
            }
            double phi = finite ? Math.sqrt(s) : Double.POSITIVE_INFINITY;
            if (phi > radius) {
                left = lambda;
            } else {
                right = lambda;
            }
            if (Math.abs(phi - radius) <= 1e-14 * radius || right - left <= 1e-15 * right) {
                return lambda;
            }
            double next = Double.NaN;
            if (finite && phi > 0 && ds > 0) {
                next = lambda - (1 / phi - 1 / radius) * (phi * phi * phi) / ds;
            }
            lambda = next > left && next < right ? next : 0.5 * (left + right);
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
