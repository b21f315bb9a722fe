package org.privadapt.privacy.accounting;

/**
 * The exact privacy profile of the Gaussian mechanism (Balle and Wang, ICML 2018, Theorem 8): with sensitivity
 * Delta and noise sigma it is (eps, delta(eps))-DP for
 * {@code delta(eps) = Phi(Delta/(2 sigma) - eps sigma/Delta) - e^eps Phi(-Delta/(2 sigma) - eps sigma/Delta)}, and for
 * no smaller delta. Composing Gaussian mechanisms with noise multipliers s_i gives exactly the Gaussian mechanism with
 * {@code 1/s^2 = sum_i 1/s_i^2}, so this profile also certifies any composition of Gaussians exactly.
 */
public final class GaussianProfile {
    private GaussianProfile() {
    }

    public static double delta(double sigma, double epsilon, double sensitivity) {
        double a = sensitivity / (2 * sigma);
        double b = epsilon * sigma / sensitivity;
        double first = LogMath.phi(a - b);
        double second = Math.exp(epsilon + LogMath.logPhi(-a - b));
        return Math.max(0.0, first - second);
    }

    /** The smallest epsilon with delta(eps) &lt;= delta for noise multiplier s (bisection to 1e-13, upper end). */
    public static double epsilon(double s, double delta) {
        if (s == 0) {
            return Double.POSITIVE_INFINITY;
        }
        if (delta(s, 0.0, 1.0) <= delta) {
            return 0.0;
        }
        double hi = 1.0;
        while (delta(s, hi, 1.0) > delta) {
            hi *= 2;
        }
        double lo = 0.0;
        for (int it = 0; it < 200 && hi - lo > 1e-13 * hi; it++) {
            double mid = 0.5 * (lo + hi);
            if (delta(s, mid, 1.0) <= delta) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }
}
