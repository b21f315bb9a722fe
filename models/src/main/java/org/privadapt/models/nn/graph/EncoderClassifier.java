package org.privadapt.models.nn.graph;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.Softmax;
import org.privadapt.models.nn.Activation;

/**
 * The composed network {@code x -> C(E(x))}: an encoder stack E (e.g. hashed bag-of-words 4096 -> 256) feeding a
 * classifier stack C whose last layer gives logits (identity activation), one per class (softmax) or per label
 * (independent sigmoids). Layers of either stack may be {@linkplain DenseLayer#freeze() frozen}; only the others
 * are trained. Paper 004's source model E_s, C_s (methods-001-003-004.md, 4.2 Step 1).
 */
public final class EncoderClassifier {
    private final Stack encoder;
    private final Stack classifier;

    /**
     * @throws IllegalArgumentException when the widths do not chain or the classifier's last layer is not linear
     */
    public EncoderClassifier(Stack encoder, Stack classifier) {
        if (encoder.out() != classifier.in()) {
            throw new IllegalArgumentException("the encoder gives " + encoder.out() + " features, the classifier takes " + classifier.in());
        }
        List<DenseLayer> cl = classifier.layers();
        if (cl.get(cl.size() - 1).activation() != Activation.IDENTITY) {
            throw new IllegalArgumentException("the classifier's last layer must give logits (identity activation), not "
                    + cl.get(cl.size() - 1).activation());
        }
        this.encoder = encoder;
        this.classifier = classifier;
    }

    /**
     * A fresh network: encoder {@code input -> encoderWidths...} with {@code encoderAct} after every layer, classifier
     * {@code last encoder width -> classifierHidden... -> outputs} with {@code classifierAct} on its hidden layers and
     * logits out. The initialisation uses only the seed (no data, no privacy cost).
     */
    public static EncoderClassifier create(int input, int[] encoderWidths, Activation encoderAct, int[] classifierHidden,
                                           Activation classifierAct, int outputs, long seed) {
        if (encoderWidths.length == 0) {
            throw new IllegalArgumentException("the encoder needs at least one layer");
        }
        SplittableRandom rng = new SplittableRandom(seed);
        int[] es = new int[encoderWidths.length + 1];
        es[0] = input;
        System.arraycopy(encoderWidths, 0, es, 1, encoderWidths.length);
        Stack enc = Stack.create(es, encoderAct, encoderAct, rng);
        int[] cs = new int[classifierHidden.length + 2];
        cs[0] = encoderWidths[encoderWidths.length - 1];
        System.arraycopy(classifierHidden, 0, cs, 1, classifierHidden.length);
        cs[cs.length - 1] = outputs;
        Stack cls = Stack.create(cs, classifierAct, Activation.IDENTITY, rng);
        return new EncoderClassifier(enc, cls);
    }

    public Stack encoder() {
        return encoder;
    }

    public Stack classifier() {
        return classifier;
    }

    public int in() {
        return encoder.in();
    }

    /** Number of logits (classes or labels). */
    public int outputs() {
        return classifier.out();
    }

    /** Every layer, encoder first. */
    public List<DenseLayer> layers() {
        List<DenseLayer> all = new ArrayList<>(encoder.layers());
        all.addAll(classifier.layers());
        return all;
    }

    /** The layers that are trained (not frozen), encoder first: the fixed order of every gradient, noise draw and update. */
    public List<DenseLayer> trainableLayers() {
        return layers().stream().filter(l -> !l.frozen()).toList();
    }

    /** Number of trained parameters (weights and biases of the layers that are not frozen). */
    public long trainableParameterCount() {
        long n = 0;
        for (DenseLayer l : trainableLayers()) {
            n += (long) l.in() * l.out() + l.out();
        }
        return n;
    }

    /** An independent copy (frozen flags kept). */
    public EncoderClassifier copy() {
        return new EncoderClassifier(encoder.copy(), classifier.copy());
    }

    /** E(x), n x encoder width. */
    public DenseMatrix features(FeatureMatrix x) {
        return encoder.forward(x).output();
    }

    /** C(E(x)), n x outputs. */
    public DenseMatrix logits(FeatureMatrix x) {
        return classifier.forward(features(x)).output();
    }

    /** Softmax of the logits (single-label models). */
    public DenseMatrix softmax(FeatureMatrix x) {
        return Softmax.inPlace(logits(x).copy());
    }

    /** Per-label sigmoid of the logits (multi-label models). */
    public DenseMatrix sigmoid(FeatureMatrix x) {
        DenseMatrix p = logits(x).copy();
        double[] a = p.data();
        for (int k = 0; k < a.length; k++) {
            a[k] = Activation.SIGMOID.apply(a[k]);
        }
        return p;
    }
}
