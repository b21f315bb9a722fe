package org.privadapt.privacy.noise;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.function.DoubleUnaryOperator;
import org.apache.commons.statistics.distribution.ChiSquaredDistribution;

/** Statistical checks shared by the noise tests. Every test fixes its seed, so each check is deterministic. */
final class Stats {
    /** Significance level of the KS and chi-square tests (a correct sampler fails 1 seed in 1000). */
    static final double ALPHA = 1e-3;

    private Stats() {
    }

    /** The two-sided Kolmogorov-Smirnov statistic sup |F_n(x) - F(x)| of a sample against a continuous CDF. */
    static double ksStatistic(double[] sample, DoubleUnaryOperator cdf) {
        double[] sorted = sample.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        double d = 0;
        for (int i = 0; i < n; i++) {
            double f = cdf.applyAsDouble(sorted[i]);
            d = Math.max(d, Math.max((i + 1.0) / n - f, f - (double) i / n));
        }
        return d;
    }

    /** Asymptotic KS critical value at level {@code alpha}: sqrt(-ln(alpha / 2) / 2) / sqrt(n). */
    static double ksCritical(int n, double alpha) {
        return Math.sqrt(-0.5 * Math.log(alpha / 2)) / Math.sqrt(n);
    }

    /** Asserts the sample passes the KS test against {@code cdf} at level {@link #ALPHA}. */
    static void assertKs(double[] sample, DoubleUnaryOperator cdf) {
        assertThat(ksStatistic(sample, cdf)).isLessThan(ksCritical(sample.length, ALPHA));
    }

    /**
     * Asserts that counts are consistent with probabilities (which must sum to 1) by Pearson's chi-square test
     * at level {@link #ALPHA}; every expected count must be at least 5.
     */
    static void assertChiSquare(long[] counts, double[] probabilities) {
        long n = Arrays.stream(counts).sum();
        double statistic = 0;
        for (int i = 0; i < counts.length; i++) {
            double expected = n * probabilities[i];
            assertThat(expected).as("expected count in bucket %d", i).isGreaterThanOrEqualTo(5);
            statistic += (counts[i] - expected) * (counts[i] - expected) / expected;
        }
        double critical = ChiSquaredDistribution.of(counts.length - 1).inverseSurvivalProbability(ALPHA);
        assertThat(statistic).isLessThan(critical);
    }

    static double mean(double[] x) {
        double s = 0;
        for (double v : x) {
            s += v;
        }
        return s / x.length;
    }

    static double variance(double[] x) {
        double m = mean(x);
        double s = 0;
        for (double v : x) {
            s += (v - m) * (v - m);
        }
        return s / (x.length - 1);
    }
}
