package org.privadapt.models;

/** Row weights for the weighted fits (ridge, logistic regression): checked and normalised to sum to 1. */
public final class SampleWeights {
    private SampleWeights() {
    }

    /**
     * {@code weights / sum(weights)}, or 1 / n each for null.
     *
     * @throws IllegalArgumentException when the length is not n, a weight is negative or not finite, or they sum to 0
     */
    public static double[] normalised(double[] weights, int n) {
        if (weights != null && weights.length != n) {
            throw new IllegalArgumentException(n + " rows but " + weights.length + " weights");
        }
        double[] c = new double[n];
        double total = 0;
        for (int i = 0; i < n; i++) {
            c[i] = weights == null ? 1.0 : weights[i];
            if (!(c[i] >= 0) || !Double.isFinite(c[i])) {
                throw new IllegalArgumentException("weight " + i + " is " + c[i] + ": weights must be finite and >= 0");
            }
            total += c[i];
        }
        if (!(total > 0)) {
            throw new IllegalArgumentException("the weights sum to 0");
        }
        for (int i = 0; i < n; i++) {
            c[i] /= total;
        }
        return c;
    }
}
