package org.privadapt.models.uda;

import java.util.SplittableRandom;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.nn.graph.Stack;

/**
 * Paper 004's "with source" baseline (Table I, column WS; notes 4.6): standard DANN (Ganin et al. 2016) or CDAN
 * (Long et al. 2018) with the real labelled source data, here on one encoder E shared by source and target rows and
 * a classifier C, <b>both trained</b>. Per iteration, a target batch and a labelled source batch of the same size:
 * <pre>
 *   loss(E, C) = srcW L_cls(C(E(x_s)), y_s) - lambda advW L_adv + kdW L_KD + imW L_IM,    D minimises L_adv
 * </pre>
 * where D tells E(x_s) (label 1) from E(x_t) (label 0) (CDAN: T(E(x), g(C(E(x))))), the reversed gradient reaching
 * E from both domains. KD's teacher is the initial (E, C), frozen, on the target rows (the paper's figures show
 * "with source CDAN+KD"); L_IM is not part of the standard baseline: build the config with {@code im(0, ...)} for it.
 * L_cls is the softmax cross-entropy (SOFTMAX, integer labels) or the per-label binary cross-entropy (SIGMOID, 0/1
 * label rows). See {@link SourceFreeAdaptation} for the shared conventions.
 */
public final class WithSourceAdaptation {
    private WithSourceAdaptation() {
    }

    /** Single-label source ({@link OutputMode#SOFTMAX} only): {@code labels[i]} in [0, K). */
    public static AdaptedModel adapt(Stack encoder, Stack classifier, FeatureMatrix source, int[] labels, FeatureMatrix target,
                                     AdaptationConfig c) {
        if (c.mode() != OutputMode.SOFTMAX) {
            throw new IllegalArgumentException("integer labels need SOFTMAX; give 0/1 label rows for SIGMOID");
        }
        int k = classifier.out();
        DenseMatrix y = DenseMatrix.zeros(labels.length, k);
        for (int i = 0; i < labels.length; i++) {
            if (labels[i] < 0 || labels[i] >= k) {
                throw new IllegalArgumentException("label " + labels[i] + " outside [0, " + k + ")");
            }
            y.set(i, labels[i], 1.0);
        }
        return run(encoder, classifier, source, y, target, c);
    }

    /**
     * Label rows: SIGMOID, 0/1 (or any value in [0, 1]) per label; SOFTMAX, a distribution over the K classes per row.
     */
    public static AdaptedModel adapt(Stack encoder, Stack classifier, FeatureMatrix source, double[][] labels, FeatureMatrix target,
                                     AdaptationConfig c) {
        int k = classifier.out();
        for (double[] row : labels) {
            if (row.length != k) {
                throw new IllegalArgumentException("label rows need " + k + " entries, got " + row.length);
            }
            double s = 0;
            for (double v : row) {
                if (!(v >= 0 && v <= 1)) {
                    throw new IllegalArgumentException("label values must be in [0, 1], got " + v);
                }
                s += v;
            }
            if (c.mode() == OutputMode.SOFTMAX && Math.abs(s - 1) > 1e-9) {
                throw new IllegalArgumentException("SOFTMAX label rows must sum to 1, got " + s);
            }
        }
        return run(encoder, classifier, source, labels.length == 0 ? DenseMatrix.zeros(0, k) : DenseMatrix.fromRows(labels),
                target, c);
    }

    private static AdaptedModel run(Stack encoder, Stack classifier, FeatureMatrix source, DenseMatrix y, FeatureMatrix target,
                                    AdaptationConfig c) {
        if (y.rows() != source.rows() || source.rows() < 1) {
            throw new IllegalArgumentException(source.rows() + " source rows but " + y.rows() + " labels");
        }
        if (target.cols() != encoder.in() || source.cols() != encoder.in()) {
            throw new IllegalArgumentException("the encoder takes " + encoder.in() + " features; source has " + source.cols()
                    + ", target " + target.cols());
        }
        if (target.rows() < 1) {
            throw new IllegalArgumentException("no target rows");
        }
        SplittableRandom root = new SplittableRandom(c.seed());
        SplittableRandom initRng = root.split();
        SplittableRandom batchRng = root.split();
        SplittableRandom sourceRng = root.split();
        Stack e = encoder.copy();
        Stack cl = classifier.copy();
        AdaptationTrainer t = new AdaptationTrainer(e, cl, c, true, initRng);
        DenseMatrix teacher = c.kdWeight() > 0 ? AdaptedModel.forward(encoder, classifier, target) : null;
        TrainingHistory h = t.train(target, teacher, null, source, y, batchRng, sourceRng);
        return new AdaptedModel(e, cl, c.mode(), h, "with-source " + c.describe());
    }
}
