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

    /** The share of the most frequent class: what always predicting it scores (the chance level to beat). */
    public static double majorityRate(ClassLabels truth) {
        if (truth.size() == 0) {
            return Double.NaN;
        }
        int best = 0;
        for (int c : truth.counts()) {
            best = Math.max(best, c);
        }
        return (double) best / truth.size();
    }

    /**
     * Whether an accuracy is indistinguishable from chance: at most the majority rate p plus two binomial standard
     * deviations sqrt(p (1 - p) / n) of the evaluation's n rows.
     */
    public static boolean atChance(double accuracy, ClassLabels truth) {
        double p = majorityRate(truth);
        return Double.isFinite(accuracy) && Double.isFinite(p) && accuracy <= p + 2 * Math.sqrt(p * (1 - p) / truth.size());
    }

    /** A one-line warning when {@link #atChance} holds, else null. */
    public static String chanceWarning(double accuracy, ClassLabels truth) {
        if (!atChance(accuracy, truth)) {
            return null;
        }
        return String.format(java.util.Locale.ROOT, "accuracy %.1f %% is at chance level (the most frequent class is %.1f %% of "
                + "the %d evaluation rows): the model learnt nothing usable about the target", 100 * accuracy,
                100 * majorityRate(truth), truth.size());
    }
}
