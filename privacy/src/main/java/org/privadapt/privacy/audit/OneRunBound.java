package org.privadapt.privacy.audit;

import org.apache.commons.statistics.distribution.BinomialDistribution;

/**
 * The lower bound on epsilon of an audit with one training run (Steinke, Nasr and Jagielski 2023, "Privacy auditing
 * with one (1) training run"): m canaries, each included independently with probability 1/2; the auditor guesses
 * "in" or "out" for r of them (abstaining on the rest) and is right v times. If the training is (epsilon, delta)-DP
 * with respect to each canary, then, with q = e^eps / (1 + e^eps),
 * <pre>
 *   P[V >= v] &lt;= P[Binomial(r, q) >= v] + 2 m delta * max over i in 1..m of P[v > Binomial(r, q) >= v - i] / i
 * </pre>
 * (their theorem for approximate DP; for delta = 0 the first term alone: V is dominated by Binomial(r, q)). The
 * lower bound at confidence 1 - alpha is the largest epsilon whose p-value is below alpha. The number of guesses must
 * be fixed before the inclusions are seen (or the bound corrected for choosing among several: Bonferroni).
 */
public final class OneRunBound {
    private OneRunBound() {
    }

    /** The p-value of v correct guesses of r, among m canaries, under the null hypothesis (epsilon, delta). */
    public static double pValue(int m, int r, int v, double epsilon, double delta) {
        if (!(0 <= v && v <= r && r <= m) || !(epsilon >= 0) || !(delta >= 0 && delta <= 1)) {
            throw new IllegalArgumentException("need 0 <= v <= r <= m, epsilon >= 0 and 0 <= delta <= 1, got m=" + m + ", r=" + r
                    + ", v=" + v + ", epsilon=" + epsilon + ", delta=" + delta);
        }
        if (r == 0) {
            return 1.0;
        }
        double q = 1 / (1 + Math.exp(-epsilon));
        BinomialDistribution b = BinomialDistribution.of(r, q);
        double beta = v == 0 ? 1.0 : b.survivalProbability(v - 1); // P[B >= v]
        double alpha = 0;
        if (delta > 0) {
            double sum = 0; // P[v > B >= v - i]
            for (int i = 1; i <= v; i++) {
                sum += b.probability(v - i);
                alpha = Math.max(alpha, sum / i);
            }
        }
        return Math.min(1.0, beta + 2.0 * m * delta * alpha);
    }

    /**
     * The largest epsilon (to 1e-6) at which v correct guesses of r have p-value below {@code alpha}: the mechanism is
     * not (epsilon, delta)-DP for any smaller epsilon, with probability at least 1 - alpha. 0 when even epsilon = 0
     * explains the guesses.
     */
    public static double epsilon(int m, int r, int v, double delta, double alpha) {
        if (!(alpha > 0 && alpha < 1)) {
            throw new IllegalArgumentException("alpha must be in (0, 1), got " + alpha);
        }
        if (pValue(m, r, v, 0, delta) >= alpha) {
            return 0;
        }
        double lo = 0;
        double hi = 1;
        while (pValue(m, r, v, hi, delta) < alpha) {
            lo = hi;
            hi *= 2;
            if (hi > 1e3) {
                return lo;
            }
        }
        while (hi - lo > 1e-6) {
            double mid = 0.5 * (lo + hi);
            if (pValue(m, r, v, mid, delta) < alpha) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
