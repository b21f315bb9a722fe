package org.privadapt.methods.core;

import java.util.List;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.DataException;
import org.privadapt.data.Dataset;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.Classifier;
import org.privadapt.models.LogisticRegressionTrainer;
import org.privadapt.models.Metrics;

/** Trains the downstream classifier a {@link MethodConfig} names, and evaluates it on a labelled domain. */
public final class Classifiers {
    private Classifiers() {
    }

    public static final List<String> NON_PRIVATE = List.of("lr", "dnn");

    public static Classifier train(MethodConfig config, FeatureMatrix x, ClassLabels y) {
        switch (config.classifier()) {
            case "lr":
                return new LogisticRegressionTrainer(config.l2(), 500).fit(x, y);
            case "dnn": {
                // the same network as the private dnn (one hidden layer of 50 ReLU units by default), trained with
                // shuffled minibatches and Adam; parameters: hidden, activation, epochs, batch, lr; weight decay --l2
                int[] hidden = PrivateTraining.parseHidden(config.params().getOrDefault("hidden", "50"));
                org.privadapt.models.nn.Activation act = org.privadapt.models.nn.Activation.parse(
                        config.params().getOrDefault("activation", "relu"));
                org.privadapt.models.nn.Network init = org.privadapt.models.nn.Network.create(x.cols(), hidden, act, y.names(),
                        config.seed());
                return org.privadapt.models.nn.SgdTrainer.train(init, x, y.codes(), config.intParam("epochs", 30),
                        config.intParam("batch", 32), "adam", config.param("lr", 0.001), "constant", config.l2(), config.seed());
            }
            default:
                throw new IllegalArgumentException("unknown classifier '" + config.classifier() + "' (available: " + NON_PRIVATE + ")");
        }
    }

    /**
     * The evaluation domain's labels coded against the classifier's classes.
     *
     * @throws DataException when the evaluation domain has no labels or a class the classifier does not know
     */
    public static ClassLabels truthFor(Classifier model, Dataset evaluation) throws DataException {
        return truthFor(model.classNames(), evaluation);
    }

    /** As above, against a list of class names. */
    public static ClassLabels truthFor(List<String> classNames, Dataset evaluation) throws DataException {
        ClassLabels y = evaluation.classLabels();
        try {
            return y.recodeTo(classNames);
        } catch (IllegalArgumentException e) {
            throw new DataException(evaluation.firstFile(), null, "target " + e.getMessage() + " (the source's classes)");
        }
    }

    public static double accuracy(Classifier model, FeatureMatrix x, Dataset evaluation, int[] predictionsOut) throws DataException {
        ClassLabels truth = truthFor(model, evaluation);
        int[] p = model.predict(x);
        System.arraycopy(p, 0, predictionsOut, 0, p.length);
        return Metrics.accuracy(p, truth);
    }

    /**
     * Each row's probability of the model's second class when the model has two classes (the scores of an AUC), else
     * an empty array.
     */
    public static double[] binaryScores(Classifier model, FeatureMatrix x) {
        if (model.classNames().size() != 2) {
            return new double[0];
        }
        org.privadapt.math.DenseMatrix p = model.predictProba(x);
        double[] s = new double[x.rows()];
        for (int i = 0; i < s.length; i++) {
            s[i] = p.get(i, 1);
        }
        return s;
    }
}
