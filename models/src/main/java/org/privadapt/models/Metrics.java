package org.privadapt.models;

import org.privadapt.data.ClassLabels;

/** Evaluation measures. */
public final class Metrics {
    private Metrics() {
    }

    /** Fraction of rows whose predicted class index equals the true code. */
    public static double accuracy(int[] predicted, ClassLabels truth) {
        if (predicted.length != truth.size()) {
            throw new IllegalArgumentException(predicted.length + " predictions for " + truth.size() + " labels");
        }
        if (predicted.length == 0) {
            return Double.NaN;
        }
        int ok = 0;
        for (int i = 0; i < predicted.length; i++) {
            ok += predicted[i] == truth.code(i) ? 1 : 0;
        }
        return (double) ok / predicted.length;
    }
}
