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

    /**
     * Balanced accuracy: the mean over the classes present in {@code truth} of the share of that class's rows
     * predicted as it (per-class recall), so that each class counts equally whatever its size. Always predicting one
     * class scores 1/K; on balanced rows it equals the accuracy. NaN without rows.
     */
    public static double balancedAccuracy(int[] predicted, ClassLabels truth) {
        if (predicted.length != truth.size()) {
            throw new IllegalArgumentException(predicted.length + " predictions for " + truth.size() + " labels");
        }
        int k = truth.numClasses();
        int[] rows = new int[k];
        int[] hits = new int[k];
        for (int i = 0; i < predicted.length; i++) {
            int c = truth.code(i);
            rows[c]++;
            hits[c] += predicted[i] == c ? 1 : 0;
        }
        double sum = 0;
        int present = 0;
        for (int c = 0; c < k; c++) {
            if (rows[c] > 0) {
                sum += (double) hits[c] / rows[c];
                present++;
            }
        }
        return present == 0 ? Double.NaN : sum / present;
    }

    /** The ratio of the rarest to the most frequent class below which {@link #imbalanced} holds. */
    public static final double IMBALANCE_RATIO = 0.25;

    /**
     * The area under the ROC curve of {@code scores} for the rows of class {@code positive} against the others: the
     * probability that a random positive row scores above a random negative one, ties counting one half
     * (Mann-Whitney U over midranks, O(n log n)). NaN when either side has no row.
     */
    public static double auc(double[] scores, ClassLabels truth, int positive) {
        int n = scores.length;
        if (n != truth.size()) {
            throw new IllegalArgumentException(n + " scores for " + truth.size() + " labels");
        }
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (a, b) -> Double.compare(scores[a], scores[b]));
        double rankSum = 0;
        long positives = 0;
        for (int i = 0; i < n;) {
            int j = i;
            while (j + 1 < n && scores[order[j + 1]] == scores[order[i]]) {
                j++;
            }
            double midrank = (i + j) / 2.0 + 1; // ranks i+1 .. j+1
            for (int t = i; t <= j; t++) {
                if (truth.code(order[t]) == positive) {
                    rankSum += midrank;
                    positives++;
                }
            }
            i = j + 1;
        }
        long negatives = n - positives;
        if (positives == 0 || negatives == 0) {
            return Double.NaN;
        }
        return (rankSum - positives * (positives + 1) / 2.0) / ((double) positives * negatives);
    }

    /**
     * Whether the classes present in {@code truth} are so unequal that accuracy mostly measures the majority class:
     * the rarest has fewer than {@link #IMBALANCE_RATIO} times the rows of the most frequent (landmine: 6 % positive).
     * Results on such rows report {@link #balancedAccuracy} beside accuracy.
     */
    public static boolean imbalanced(ClassLabels truth) {
        int min = Integer.MAX_VALUE;
        int max = 0;
        for (int c : truth.counts()) {
            if (c > 0) {
                min = Math.min(min, c);
                max = Math.max(max, c);
            }
        }
        return max > 0 && min < IMBALANCE_RATIO * max;
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
