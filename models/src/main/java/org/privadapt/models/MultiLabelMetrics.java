package org.privadapt.models;

import java.util.ArrayList;
import java.util.List;
import org.privadapt.data.MultiLabels;

/**
 * Evaluation of multi-label predictions, label by label, as paper 004 reports them.
 *
 * <p>For each label, with TP, FP, FN, TN counted over the rows on that label's 0/1 column:
 * <ul>
 *   <li>{@code accuracy} = (TP + TN) / n. This is what the paper's precision = recall = F1 cells are: precision,
 *       recall and F1 micro-averaged over both classes of a binary label all equal the accuracy.</li>
 *   <li>{@code precision} = TP / (TP + FP), {@code recall} = TP / (TP + FN), {@code f1} = 2 TP / (2 TP + FP + FN), all
 *       of the positive class. A ratio whose denominator is 0 is defined as 0 (no positive predicted, no positive
 *       present, or neither), so a label never predicted scores precision 0 and F1 0.</li>
 *   <li>{@code support} = TP + FN, the number of true positives in the truth.</li>
 * </ul>
 * The averages are the unweighted means over the labels (macro averages) of each per-label value.
 */
public final class MultiLabelMetrics {
    private MultiLabelMetrics() {
    }

    /** The scores of one label. */
    public record LabelScores(String label, int truePositives, int falsePositives, int falseNegatives, int trueNegatives,
                              double accuracy, double precision, double recall, double f1, int support) {
    }

    /**
     * Per-label scores and their means over the labels.
     *
     * @param labels           the labels, in the truth's order
     * @param meanAccuracy     mean of the per-label accuracies (paper 004's "Average" row)
     * @param meanPrecision    mean positive-class precision
     * @param meanRecall       mean positive-class recall
     * @param meanF1           mean positive-class F1
     * @param exactMatch       fraction of rows whose whole predicted row equals the truth's
     */
    public record Report(List<LabelScores> labels, double meanAccuracy, double meanPrecision, double meanRecall,
                         double meanF1, double exactMatch) {
        public Report {
            labels = List.copyOf(labels);
        }

        /** The scores of the label named {@code name}. */
        public LabelScores label(String name) {
            return labels.stream().filter(l -> l.label().equals(name)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no label '" + name + "'"));
        }
    }

    /**
     * Scores 0/1 predictions against the truth.
     *
     * @param truth     the true labels (n x L)
     * @param predicted n rows of L values, each 0 or 1, columns in the truth's label order
     * @throws IllegalArgumentException when the shapes differ, a value is not 0 or 1, or there are no rows
     */
    public static Report evaluate(MultiLabels truth, int[][] predicted) {
        int n = truth.size();
        int l = truth.numLabels();
        if (predicted.length != n) {
            throw new IllegalArgumentException(predicted.length + " predicted rows for " + n + " true rows");
        }
        if (n == 0) {
            throw new IllegalArgumentException("no rows to evaluate");
        }
        int[][] c = new int[l][4]; // tp, fp, fn, tn
        int exact = 0;
        for (int i = 0; i < n; i++) {
            if (predicted[i].length != l) {
                throw new IllegalArgumentException("predicted row " + i + " has " + predicted[i].length + " values for " + l + " labels");
            }
            boolean same = true;
            for (int j = 0; j < l; j++) {
                int p = predicted[i][j];
                if (p != 0 && p != 1) {
                    throw new IllegalArgumentException("prediction " + p + " at row " + i + ", label '" + truth.names().get(j)
                            + "' is not 0 or 1");
                }
                boolean t = truth.has(i, j);
                c[j][t ? (p == 1 ? 0 : 2) : (p == 1 ? 1 : 3)]++;
                same &= t == (p == 1);
            }
            exact += same ? 1 : 0;
        }
        List<LabelScores> out = new ArrayList<>();
        double sa = 0, sp = 0, sr = 0, sf = 0;
        for (int j = 0; j < l; j++) {
            int tp = c[j][0], fp = c[j][1], fn = c[j][2], tn = c[j][3];
            double acc = (double) (tp + tn) / n;
            double prec = ratio(tp, tp + fp);
            double rec = ratio(tp, tp + fn);
            double f1 = ratio(2 * tp, 2 * tp + fp + fn);
            out.add(new LabelScores(truth.names().get(j), tp, fp, fn, tn, acc, prec, rec, f1, tp + fn));
            sa += acc;
            sp += prec;
            sr += rec;
            sf += f1;
        }
        return new Report(out, sa / l, sp / l, sr / l, sf / l, (double) exact / n);
    }

    /**
     * Scores real-valued scores thresholded per label: predicted 1 where {@code scores[i][j] >= threshold}.
     *
     * @throws IllegalArgumentException as {@link #evaluate(MultiLabels, int[][])}, or when a score is NaN
     */
    public static Report evaluateScores(MultiLabels truth, double[][] scores, double threshold) {
        int[][] p = new int[scores.length][];
        for (int i = 0; i < scores.length; i++) {
            p[i] = new int[scores[i].length];
            for (int j = 0; j < scores[i].length; j++) {
                if (Double.isNaN(scores[i][j])) {
                    throw new IllegalArgumentException("score at row " + i + ", column " + j + " is NaN");
                }
                p[i][j] = scores[i][j] >= threshold ? 1 : 0;
            }
        }
        return evaluate(truth, p);
    }

    /** num / den, with 0 / 0 defined as 0. */
    private static double ratio(int num, int den) {
        return den == 0 ? 0.0 : (double) num / den;
    }
}
