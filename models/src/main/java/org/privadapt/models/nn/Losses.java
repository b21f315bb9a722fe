package org.privadapt.models.nn;

import org.privadapt.math.DenseMatrix;
import org.privadapt.models.Softmax;

/**
 * The cross-entropy losses of logits, each with its error (the derivative with respect to the logits), in one place
 * for every trainer that uses them: the DP-SGD targets ({@code models.dp.Targets}), paper 004's adaptation losses
 * ({@code models.uda.UdaLosses}) and the membership-inference scores of its release ({@code methods.gmmuda}). Logs are
 * taken in the log domain (max-shifted log-sum-exp, softplus), so saturated probabilities give finite values.
 *
 * <ul>
 *   <li>softmax cross-entropy of class y: {@code -log softmax(z)_y = logsumexp(z) - z_y}, error
 *       {@code softmax(z) - onehot(y)};</li>
 *   <li>sigmoid (binary) cross-entropy of a label y in [0, 1]: {@code -[y log s + (1 - y) log(1 - s)] = softplus(z) - y z}
 *       with s = sigmoid(z), error {@code s - y}.</li>
 * </ul>
 * Per example, not averaged: callers sum or average them in their own order.
 */
public final class Losses {
    private Losses() {
    }

    /** log(1 + e^x) without overflow. */
    public static double softplus(double x) {
        return Math.max(x, 0) + Math.log1p(Math.exp(-Math.abs(x)));
    }

    /** log sum_k exp(u_ik) of every row of {@code u} (n x K, column-major), max-shifted. */
    public static double[] logSumExpRows(DenseMatrix u) {
        int n = u.rows();
        int k = u.cols();
        double[] a = u.data();
        double[] max = new double[n];
        java.util.Arrays.fill(max, Double.NEGATIVE_INFINITY);
        for (int c = 0; c < k; c++) {
            for (int i = 0; i < n; i++) {
                max[i] = Math.max(max[i], a[i + c * n]);
            }
        }
        double[] s = new double[n];
        for (int c = 0; c < k; c++) {
            for (int i = 0; i < n; i++) {
                s[i] += Math.exp(a[i + c * n] - max[i]);
            }
        }
        for (int i = 0; i < n; i++) {
            s[i] = max[i] + Math.log(s[i]);
        }
        return s;
    }

    /** Each row's softmax cross-entropy {@code logsumexp(z_i) - z_i,labels[i]} (one label per row of {@code logits}). */
    public static double[] softmaxCrossEntropy(DenseMatrix logits, int[] labels) {
        int n = logits.rows();
        double[] z = logits.data();
        double[] l = logSumExpRows(logits);
        for (int i = 0; i < n; i++) {
            l[i] = l[i] - z[i + labels[i] * n];
        }
        return l;
    }

    /** The softmax cross-entropy's error dL_i/dlogits_i = softmax(z_i) - onehot(labels[i]), per example (a new matrix). */
    public static DenseMatrix softmaxError(DenseMatrix logits, int[] labels) {
        DenseMatrix p = Softmax.inPlace(logits.copy());
        int n = p.rows();
        double[] pa = p.data();
        for (int i = 0; i < n; i++) {
            pa[i + labels[i] * n] -= 1.0;
        }
        return p;
    }

    /**
     * The binary cross-entropy of sigmoid(z) against {@code y} in [0, 1], {@code softplus(z) - y z}. With y = sigmoid(z)
     * itself it is the binary entropy of sigmoid(z).
     */
    public static double sigmoidCrossEntropy(double z, double y) {
        return softplus(z) - y * z;
    }

    /**
     * The same against a 0/1 label, {@code softplus(z) - (positive ? z : 0)}: equal to
     * {@code sigmoidCrossEntropy(z, positive ? 1 : 0)} for finite z; at an infinite z with a negative label it gives
     * softplus(z) (where 0 * z would give NaN).
     */
    public static double sigmoidCrossEntropy(double z, boolean positive) {
        return softplus(z) - (positive ? z : 0);
    }

    /** The sigmoid cross-entropy's error d/dz = sigmoid(z) - y. */
    public static double sigmoidError(double z, double y) {
        return Activation.SIGMOID.apply(z) - y;
    }
}
