package org.privadapt.methods.core;

import java.util.List;
import java.util.Map;
import org.privadapt.privacy.PrivacyCost;

/**
 * What one run of a method produced: its predictions on the evaluation rows and their score, what each party
 * spent (keys {@code source} and {@code target}), and method-specific diagnostics.
 *
 * <p>A classification outcome has class {@code predictions} and their {@code accuracy}; {@code values} is empty and
 * {@code mse} NaN. A regression outcome ({@link #regression}) has real-valued {@code values} and their mean squared
 * error {@code mse}; {@code accuracy} is NaN and {@code predictions} empty. A multi-label outcome
 * ({@link #multiLabel}) has the mean per-label accuracy as {@code accuracy}, the label names as {@code classNames}, no
 * class predictions, and its per-label scores in the diagnostics ({@code per_label}). A two-class outcome may carry
 * {@code scores}, the model's probability of the second class per evaluation row ({@link #withScores}), else empty.
 */
public record AdaptationOutcome(String method, double accuracy, int[] predictions, List<String> classNames,
                                Map<String, PrivacyCost> privacy, Map<String, Object> diagnostics, double[] values,
                                double mse, double[] scores) {
    public AdaptationOutcome {
        predictions = predictions.clone();
        classNames = List.copyOf(classNames);
        privacy = Map.copyOf(privacy);
        diagnostics = Map.copyOf(diagnostics);
        values = values.clone();
        scores = scores.clone();
    }

    /** A classification outcome. */
    public AdaptationOutcome(String method, double accuracy, int[] predictions, List<String> classNames,
                             Map<String, PrivacyCost> privacy, Map<String, Object> diagnostics) {
        this(method, accuracy, predictions, classNames, privacy, diagnostics, new double[0], Double.NaN, new double[0]);
    }

    /**
     * This classification outcome with a score per evaluation row for a two-class task: the model's probability of
     * {@code classNames().get(1)} (for the AUC beside the accuracy); empty when the method has none.
     */
    public AdaptationOutcome withScores(double[] positiveScores) {
        return new AdaptationOutcome(method, accuracy, predictions, classNames, privacy, diagnostics, values, mse, positiveScores);
    }

    /** A regression outcome: predicted values on the evaluation rows and their mean squared error. */
    public static AdaptationOutcome regression(String method, double mse, double[] values, Map<String, PrivacyCost> privacy,
                                               Map<String, Object> diagnostics) {
        return new AdaptationOutcome(method, Double.NaN, new int[0], List.of(), privacy, diagnostics, values, mse, new double[0]);
    }

    /** A multi-label outcome: mean per-label accuracy over the evaluation rows, per-label scores in {@code diagnostics}. */
    public static AdaptationOutcome multiLabel(String method, double meanLabelAccuracy, List<String> labelNames,
                                               Map<String, PrivacyCost> privacy, Map<String, Object> diagnostics) {
        return new AdaptationOutcome(method, meanLabelAccuracy, new int[0], labelNames, privacy, diagnostics, new double[0], Double.NaN,
                new double[0]);
    }

    /** True for a multi-label outcome (a score but no class predictions). */
    public boolean isMultiLabel() {
        return !isRegression() && predictions.length == 0 && !Double.isNaN(accuracy);
    }

    /** True for a regression outcome. */
    public boolean isRegression() {
        return !Double.isNaN(mse);
    }

    /** The score a table reports: accuracy (a fraction) or mean squared error. */
    public double score() {
        return isRegression() ? mse : accuracy;
    }
}
