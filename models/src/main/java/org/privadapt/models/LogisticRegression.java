package org.privadapt.models;

import java.util.List;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;

/**
 * Multinomial logistic regression {@code p(y=c|x) = softmax(x W + b)_c} with weights W (d x k) and bias b (k).
 * Immutable; see {@link LogisticRegressionTrainer} for non-private training.
 */
public final class LogisticRegression implements Classifier {
    private final DenseMatrix weights;
    private final double[] bias;
    private final List<String> classNames;

    public LogisticRegression(DenseMatrix weights, double[] bias, List<String> classNames) {
        if (weights.cols() != bias.length || bias.length != classNames.size()) {
            throw new IllegalArgumentException("weights " + weights.rows() + "x" + weights.cols() + ", bias " + bias.length
                    + ", classes " + classNames.size() + " do not agree");
        }
        this.weights = weights.copy();
        this.bias = bias.clone();
        this.classNames = List.copyOf(classNames);
    }

    public DenseMatrix weights() {
        return weights.copy();
    }

    public double[] bias() {
        return bias.clone();
    }

    @Override
    public int dimension() {
        return weights.rows();
    }

    @Override
    public List<String> classNames() {
        return classNames;
    }

    /** {@code x W + 1 b^T} (n x k). */
    public DenseMatrix logits(FeatureMatrix x) {
        if (x.cols() != weights.rows()) {
            throw new IllegalArgumentException("model expects " + weights.rows() + " features, got " + x.cols());
        }
        DenseMatrix z = x.multiply(weights);
        return z.plusRowVector(bias);
    }

    @Override
    public DenseMatrix predictProba(FeatureMatrix x) {
        return Softmax.inPlace(logits(x));
    }
}
