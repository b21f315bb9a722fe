package org.privadapt.privacy.accounting;

/**
 * The truncated negative binomial distribution of Papernot and Steinke 2022 (Definition 1), the number of repetitions
 * in private selection: for shape eta > 0 and gamma in (0, 1), {@code P[K = k] = (1 - gamma)^k / (gamma^-eta - 1) *
 * prod_{l=0}^{k-1} (l + eta) / (l + 1)} for k >= 1; for eta = 0 (the logarithmic distribution) {@code P[K = k] =
 * (1 - gamma)^k / (k log(1/gamma))}; eta = 1 is the geometric distribution {@code gamma (1 - gamma)^(k-1)}.
 * Its mean is {@code eta (1 - gamma) / (gamma (1 - gamma^eta))}, or {@code (1/gamma - 1) / log(1/gamma)} for eta = 0.
 */
public final class TruncatedNegativeBinomial {
    private TruncatedNegativeBinomial() {
    }

    /** The mean for a given gamma and shape. */
    public static double mean(double shape, double gamma) {
        check(shape, gamma);
        if (shape == 0) {
            // (1/gamma - 1) / log(1/gamma) = (1 - gamma) / (gamma * -log(gamma))
            return gamma == 1 ? 1.0 : (1 - gamma) / (gamma * -Math.log(gamma));
        }
        if (shape == 1) {
            return 1 / gamma;
        }
        // eta (1 - gamma) / (gamma (1 - gamma^eta)), with 1 - gamma^eta = -expm1(eta log gamma)
        return gamma == 1 ? 1.0 : shape * (1 - gamma) / (gamma * -Math.expm1(shape * Math.log(gamma)));
    }

    /**
     * The gamma whose mean is {@code mean} (the mean decreases in gamma), by bisection; of the final bracket the
     * smaller gamma is returned, whose mean is at least the target, and whose {@code log(1/gamma)} (the term the
     * privacy bound grows with) is the larger: conservative both ways for the accounting.
     */
    public static double gammaForMean(double shape, double mean) {
        if (!(mean >= 1) || Double.isInfinite(mean)) {
            throw new IllegalArgumentException("mean must be finite and >= 1, got " + mean);
        }
        if (shape == 1) {
            return 1 / mean;
        }
        if (mean == 1) {
            return 1.0;
        }
        double lo = 0;
        double hi = 1;
        for (int it = 0; it < 200 && hi - lo > 1e-15 * hi; it++) {
            double mid = 0.5 * (lo + hi);
            if (mean(shape, mid) >= mean) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** P[K = 1]; then {@code P[K = k + 1] = P[K = k] (1 - gamma)(k + eta)/(k + 1)}. */
    static double first(double shape, double gamma) {
        if (gamma == 1) {
            return 1;
        }
        if (shape == 0) {
            return (1 - gamma) / -Math.log(gamma);
        }
        return (1 - gamma) * shape / Math.expm1(-shape * Math.log(gamma)); // gamma^-eta - 1
    }

    /** P[K = k], k >= 1. */
    public static double pmf(double shape, double gamma, long k) {
        check(shape, gamma);
        if (k < 1) {
            return 0;
        }
        double p = first(shape, gamma);
        for (long j = 1; j < k && p > 0; j++) {
            p *= (1 - gamma) * (j + shape) / (j + 1);
        }
        return p;
    }

    /**
     * Draws K by inversion of the cumulative distribution with one uniform u in [0, 1): the smallest k with
     * {@code F(k) > u}. K is drawn independently of the data; the probabilities are computed by the ratio recursion,
     * each to a relative error of about 1e-15 per step.
     */
    public static long sample(double shape, double gamma, double u) {
        check(shape, gamma);
        if (!(u >= 0 && u < 1)) {
            throw new IllegalArgumentException("u must be in [0, 1), got " + u);
        }
        double p = first(shape, gamma);
        double cdf = p;
        long k = 1;
        while (cdf <= u) {
            p *= (1 - gamma) * (k + shape) / (k + 1);
            k++;
            cdf += p;
            if (k > 100_000_000L || p == 0) {
                return k; // the remaining mass is below double precision
            }
        }
        return k;
    }

    private static void check(double shape, double gamma) {
        if (!(shape >= 0) || Double.isInfinite(shape)) {
            throw new IllegalArgumentException("shape must be finite and >= 0, got " + shape);
        }
        if (!(gamma > 0 && gamma <= 1)) {
            throw new IllegalArgumentException("gamma must be in (0, 1], got " + gamma);
        }
    }
}
