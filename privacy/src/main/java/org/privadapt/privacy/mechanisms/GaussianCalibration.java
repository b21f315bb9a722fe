package org.privadapt.privacy.mechanisms;

import org.privadapt.privacy.accounting.GaussianProfile;

/**
 * Noise scale of the Gaussian mechanism for a target (epsilon, delta) and L2 sensitivity Delta.
 *
 * <ul>
 *   <li>{@link #classicSigma}: {@code sigma = Delta sqrt(2 ln(1.25/delta)) / epsilon} (Dwork and Roth 2014,
 *       Theorem A.1), proven only for epsilon &lt; 1; refused otherwise.</li>
 *   <li>{@link #analyticSigma}: the analytic Gaussian mechanism of Balle and Wang (ICML 2018, Theorem 8): the
 *       mechanism is (epsilon, delta)-DP exactly when
 *       {@code Phi(Delta/(2 sigma) - epsilon sigma/Delta) - e^epsilon Phi(-Delta/(2 sigma) - epsilon sigma/Delta) <= delta};
 *       the left side falls as sigma grows, and the smallest sigma satisfying it is found by bisection to a
 *       relative 1e-13 and rounded up, so the returned sigma is never too small.</li>
 * </ul>
 */
public final class GaussianCalibration {
    private GaussianCalibration() {
    }

    public static double classicSigma(double epsilon, double delta, double sensitivity) {
        check(epsilon, delta, sensitivity);
        if (epsilon >= 1) {
            throw new IllegalArgumentException("the classic Gaussian calibration is proven only for epsilon < 1 (got "
                    + epsilon + "); use the analytic Gaussian mechanism");
        }
        return sensitivity * Math.sqrt(2 * Math.log(1.25 / delta)) / epsilon;
    }

    /** The exact delta of the Gaussian mechanism with noise sigma at epsilon (Balle and Wang 2018, Thm 8). */
    public static double exactDelta(double sigma, double epsilon, double sensitivity) {
        return GaussianProfile.delta(sigma, epsilon, sensitivity);
    }

    public static double analyticSigma(double epsilon, double delta, double sensitivity) {
        check(epsilon, delta, sensitivity);
        double hi = sensitivity;
        while (exactDelta(hi, epsilon, sensitivity) > delta) {
            hi *= 2;
        }
        double lo = hi / 2;
        while (exactDelta(lo, epsilon, sensitivity) <= delta) {
            hi = lo;
            lo /= 2;
        }
        for (int it = 0; it < 200 && (hi - lo) > 1e-13 * hi; it++) {
            double mid = 0.5 * (lo + hi);
            if (exactDelta(mid, epsilon, sensitivity) <= delta) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }

    static void check(double epsilon, double delta, double sensitivity) {
        if (!(epsilon > 0) || Double.isInfinite(epsilon)) {
            throw new IllegalArgumentException("epsilon must be a positive number, got " + epsilon);
        }
        if (!(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException("delta must be in (0, 1), got " + delta);
        }
        if (!(sensitivity > 0) || Double.isInfinite(sensitivity)) {
            throw new IllegalArgumentException("sensitivity must be a positive number, got " + sensitivity);
        }
    }
}
