package org.privadapt.models.uda;

import java.util.List;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.Classifier;
import org.privadapt.models.Softmax;
import org.privadapt.models.nn.graph.Stack;

/**
 * The result of an adaptation: the adapted encoder E_t, the classifier C (unchanged in the source-free setting),
 * the output mode and the training history. Predictions are C(E_t(x)) (paper 004, "predict with C(E_t(x))").
 */
public final class AdaptedModel {
    private static final int CHUNK = 4096;
    private final Stack encoder;
    private final Stack classifier;
    private final OutputMode mode;
    private final TrainingHistory history;
    private final String description;

    AdaptedModel(Stack encoder, Stack classifier, OutputMode mode, TrainingHistory history, String description) {
        this.encoder = encoder;
        this.classifier = classifier;
        this.mode = mode;
        this.history = history;
        this.description = description;
    }

    /** The adapted encoder (live: copy it before changing it). */
    public Stack encoder() {
        return encoder;
    }

    /** The classifier the predictions use (live). */
    public Stack classifier() {
        return classifier;
    }

    public OutputMode mode() {
        return mode;
    }

    public TrainingHistory history() {
        return history;
    }

    /** The configuration and setting the model was trained with. */
    public String description() {
        return description;
    }

    /** E_t(x) (n x d_f). */
    public DenseMatrix features(FeatureMatrix x) {
        return forward(encoder, null, x);
    }

    /** C(E_t(x)) (n x K). */
    public DenseMatrix logits(FeatureMatrix x) {
        return forward(encoder, classifier, x);
    }

    /** The mode's probabilities of {@link #logits} (softmax rows or per-label sigmoids). */
    public DenseMatrix probabilities(FeatureMatrix x) {
        return mode.probabilities(logits(x));
    }

    /** The arg-max class of every row (single-label use). */
    public int[] predict(FeatureMatrix x) {
        return Softmax.argmaxRows(logits(x));
    }

    /** Per-label decisions p >= threshold (multi-label use; with SOFTMAX the probabilities sum to 1 per row). */
    public boolean[][] predictLabels(FeatureMatrix x, double threshold) {
        DenseMatrix p = probabilities(x);
        boolean[][] out = new boolean[p.rows()][p.cols()];
        for (int i = 0; i < p.rows(); i++) {
            for (int c = 0; c < p.cols(); c++) {
                out[i][c] = p.get(i, c) >= threshold;
            }
        }
        return out;
    }

    /** This model as a {@link Classifier} over the given class names (probabilities as {@link #probabilities}). */
    public Classifier asClassifier(List<String> classNames) {
        if (classNames.size() != classifier.out()) {
            throw new IllegalArgumentException(classNames.size() + " class names for " + classifier.out() + " outputs");
        }
        List<String> names = List.copyOf(classNames);
        return new Classifier() {
            @Override
            public int dimension() {
                return encoder.in();
            }

            @Override
            public List<String> classNames() {
                return names;
            }

            @Override
            public DenseMatrix predictProba(FeatureMatrix x) {
                return probabilities(x);
            }
        };
    }

    /** head(body(x)) (head may be null) in chunks of rows, so a forward pass never holds every activation of a large X. */
    static DenseMatrix forward(Stack body, Stack head, FeatureMatrix x) {
        int n = x.rows();
        int width = head == null ? body.out() : head.out();
        if (n <= CHUNK) {
            return forwardAll(body, head, x);
        }
        DenseMatrix out = DenseMatrix.zeros(n, width);
        for (int from = 0; from < n; from += CHUNK) {
            int to = Math.min(n, from + CHUNK);
            int[] idx = new int[to - from];
            for (int i = 0; i < idx.length; i++) {
                idx[i] = from + i;
            }
            DenseMatrix part = forwardAll(body, head, x.selectRows(idx));
            for (int c = 0; c < width; c++) {
                System.arraycopy(part.data(), c * idx.length, out.data(), c * n + from, idx.length);
            }
        }
        return out;
    }

    private static DenseMatrix forwardAll(Stack body, Stack head, FeatureMatrix x) {
        DenseMatrix f = body.forward(x).output();
        return head == null ? f : head.forward(f).output();
    }
}
