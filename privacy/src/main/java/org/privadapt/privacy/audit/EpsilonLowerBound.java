package org.privadapt.privacy.audit;

import org.apache.commons.statistics.distribution.BetaDistribution;

/**
 * A statistically valid lower bound on a mechanism's epsilon from a distinguishing test's outcomes on a pair of
 * neighbouring datasets (Jagielski, Ullman, Oprea 2020; Nasr et al. 2021). If the mechanism is (epsilon, delta)-DP,
 * every test's rates obey {@code TPR <= e^eps FPR + delta} and {@code 1 - FPR <= e^eps (1 - TPR) + delta}, so with a
 * lower confidence limit on TPR and an upper one on FPR (Clopper-Pearson, one-sided, alpha/2 each: the pair holds with
 * probability at least 1 - alpha) {@code eps >= log((TPR_lo - delta) / FPR_hi)} and likewise for the other direction.
 * The bound is valid whatever the test, provided its threshold was fixed before the counted trials were drawn.
 */
public final class EpsilonLowerBound {
    private EpsilonLowerBound() {
    }

    /** The bound, with the confidence limits it came from. */
    public record Result(double epsilon, double fprUpper, double tprLower, double alpha) {
    }

    /** Clopper-Pearson one-sided upper limit of a binomial proportion (k successes of n) at confidence 1 - a. */
    public static double upper(long k, long n, double a) {
        check(k, n, a);
        return k >= n ? 1.0 : BetaDistribution.of(k + 1, n - k).inverseCumulativeProbability(1 - a);
    }

    /** Clopper-Pearson one-sided lower limit of a binomial proportion at confidence 1 - a. */
    public static double lower(long k, long n, double a) {
        check(k, n, a);
        return k <= 0 ? 0.0 : BetaDistribution.of(k, n - k + 1).inverseCumulativeProbability(a);
    }

    /**
     * @param falsePositives trials on D the test called D' (of {@code negatives})
     * @param truePositives  trials on D' the test called D' (of {@code positives})
     * @param alpha          the probability that the bound is wrong (0.05: 95 % confidence)
     */
    public static Result of(long falsePositives, long negatives, long truePositives, long positives, double delta, double alpha) {
        if (!(delta >= 0 && delta < 1)) {
            throw new IllegalArgumentException("delta must be in [0, 1), got " + delta);
        }
        double f = upper(falsePositives, negatives, alpha / 2);
        double t = lower(truePositives, positives, alpha / 2);
        double e = 0;
        if (t - delta > 0 && f > 0) {
            e = Math.max(e, Math.log((t - delta) / f));
        }
        if ((1 - f) - delta > 0 && 1 - t > 0) {
            e = Math.max(e, Math.log(((1 - f) - delta) / (1 - t)));
        }
        return new Result(e, f, t, alpha);
    }

    private static void check(long k, long n, double a) {
        if (n < 1 || k < 0 || k > n || !(a > 0 && a < 1)) {
            throw new IllegalArgumentException("need 0 <= k <= n, n >= 1 and 0 < a < 1, got k=" + k + ", n=" + n + ", a=" + a);
        }
    }
}
