package org.privadapt.models.uda;

import org.privadapt.math.DenseMatrix;
import org.privadapt.models.Softmax;
import org.privadapt.models.nn.Activation;

/**
 * How the classifier's logits become probabilities in every loss of paper 004's Step 3.
 * <ul>
 *   <li>{@link #SOFTMAX}: classes mutually exclusive, one softmax over the K outputs; the paper's literal KD and IM
 *       (Eqs. 5-6), also for its multi-label task (repair (iv) of the notes);</li>
 *   <li>{@link #SIGMOID}: K independent binary labels, a sigmoid per output, and the binary form of each loss (the
 *       notes' per-label version for multi-label data, the default there).</li>
 * </ul>
 */
public enum OutputMode {
    SOFTMAX, SIGMOID;

    /** Probabilities of every row of {@code logits} (a new matrix). */
    public DenseMatrix probabilities(DenseMatrix logits) {
        if (this == SOFTMAX) {
            return Softmax.inPlace(logits.copy());
        }
        DenseMatrix p = logits.copy();
        double[] a = p.data();
        for (int k = 0; k < a.length; k++) {
            a[k] = Activation.SIGMOID.apply(a[k]);
        }
        return p;
    }
}
