package org.privadapt.cli.report;

import java.util.List;

/**
 * Mean and sample standard deviation of a result's per-run scores, as reported ({@code accuracy_mean},
 * {@code relative_mse_std}, ...). Here, in the report layer, so that the result model needs nothing from the command
 * line above it (whose run driver calls these).
 */
public final class Stats {
    private Stats() {
    }

    /** The arithmetic mean; NaN for no values. */
    public static double mean(List<Double> v) {
        double s = 0;
        for (double x : v) {
            s += x;
        }
        return v.isEmpty() ? Double.NaN : s / v.size();
    }

    /** Sample standard deviation (n - 1); 0 for a single run. */
    public static double std(List<Double> v) {
        if (v.size() < 2) {
            return 0.0;
        }
        double m = mean(v);
        double s = 0;
        for (double x : v) {
            s += (x - m) * (x - m);
        }
        return Math.sqrt(s / (v.size() - 1));
    }
}
