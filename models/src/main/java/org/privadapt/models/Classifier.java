package org.privadapt.models;

import java.util.List;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;

/** A trained classifier over a fixed feature dimension and class list. */
public interface Classifier {
    /** Number of input features. */
    int dimension();

    /** Class names; predictions are indices into this list. */
    List<String> classNames();

    /** Class probabilities, one row per example (n x k). */
    DenseMatrix predictProba(FeatureMatrix x);

    /** The most probable class of every row. */
    default int[] predict(FeatureMatrix x) {
        return Softmax.argmaxRows(predictProba(x));
    }
}
