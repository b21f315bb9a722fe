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
    /** Share of predictions at or above which {@link #degenerateWarning} fires (K >= 2 classes). */
    public static final double DEGENERATE_SHARE = 0.9;

    /**
     * A one-line warning when a model predicts one class for at least {@link #DEGENERATE_SHARE} of the rows (with at
     * least two classes and at least ten rows), else null. It reads predictions only, never labels, so it applies to
     * unlabelled rows too: a model collapsed onto one class is useless unless the rows really are that unbalanced.
     */
    public static String degenerateWarning(int[] predicted, java.util.List<String> classNames) {
        int k = classNames.size();
        if (k < 2 || predicted.length < 10) {
            return null;
        }
        int[] counts = new int[k];
        for (int p : predicted) {
            counts[p]++;
        }
        int top = 0;
        for (int c = 1; c < k; c++) {
            top = counts[c] > counts[top] ? c : top;
        }
        double share = (double) counts[top] / predicted.length;
        if (share < DEGENERATE_SHARE) {
            return null;
        }
        return String.format(java.util.Locale.ROOT, "degenerate predictions: the model predicts class '%s' for %.1f %% of the "
                + "%d rows (%d classes): unless the rows really are that unbalanced, it has collapsed onto one class",
                classNames.get(top), 100 * share, predicted.length, k);
    }
}
