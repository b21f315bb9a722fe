package org.privadapt.models.nn;

import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.math.LinAlg;
import org.privadapt.models.Softmax;

/**
 * Per-example gradients of the softmax cross-entropy without per-example loops.
 *
 * <p>For example i and dense layer l with input a_{l-1,i} and output error delta_{l,i}, the gradient of the weights
 * is the outer product {@code a_{l-1,i} delta_{l,i}^T} and that of the bias is {@code delta_{l,i}}, so its squared
 * norm factorises: {@code (||a_{l-1,i}||^2 + 1) ||delta_{l,i}||^2}. The squared norm of example i's gradient over
 * all parameters is the sum over layers, computed from row norms of matrices the backward pass already has.
 * A weighted sum {@code sum_i c_i g_i} (e.g. with clipping factors) is one product per layer:
 * {@code A_{l-1}^T diag(c) Delta_l} and the column sums of {@code diag(c) Delta_l}.
 */
public final class Backprop {
    private Backprop() {
    }

    /** Output errors of every layer for a batch: element l (0-based) is Delta_l, n x size_{l+1}. */
    public static DenseMatrix[] deltas(Network net, Network.Forward f, int[] labels) {
        int layers = net.layers();
        DenseMatrix[] d = new DenseMatrix[layers];
        DenseMatrix p = Softmax.inPlace(f.logits().copy());
        int n = p.rows();
        double[] pa = p.data();
        for (int i = 0; i < n; i++) {
            pa[i + labels[i] * n] -= 1.0; // d loss_i / d logits = softmax - onehot
        }
        d[layers - 1] = p;
        Activation act = net.hiddenActivation();
        for (int l = layers - 1; l > 0; l--) {
            DenseMatrix back = LinAlg.multiplyTransB(d[l], net.weights(l)); // n x size_l
            if (act != Activation.IDENTITY) {
                double[] b = back.data();
                double[] z = f.z()[l].data();
                double[] a = f.a()[l].data();
                for (int k = 0; k < b.length; k++) {
                    b[k] *= act.derivative(z[k], a[k]);
                }
            }
            d[l - 1] = back;
        }
        return d;
    }

    /** Squared L2 norm of each example's gradient over all parameters (weights and biases of every layer). */
    public static double[] perExampleSquaredNorms(Network.Forward f, DenseMatrix[] deltas) {
        int n = deltas[0].rows();
        double[] total = new double[n];
        for (int l = 0; l < deltas.length; l++) {
            double[] in = l == 0 ? f.input().rowSquaredNorms() : f.a()[l].rowSquaredNorms();
            double[] out = deltas[l].rowSquaredNorms();
            for (int i = 0; i < n; i++) {
                total[i] += (in[i] + 1.0) * out[i];
            }
        }
        return total;
    }

    /** {@code sum_i c_i g_i} over the batch; {@code c == null} means all ones. */
    public static Gradients weightedSum(Network.Forward f, DenseMatrix[] deltas, double[] c) {
        int layers = deltas.length;
        DenseMatrix[] w = new DenseMatrix[layers];
        double[][] b = new double[layers][];
        for (int l = 0; l < layers; l++) {
            DenseMatrix scaled = c == null ? deltas[l] : deltas[l].scaleRows(c);
            FeatureMatrix in = l == 0 ? f.input() : f.a()[l];
            w[l] = in.transposeMultiply(scaled);
            int n = scaled.rows();
            double[] s = scaled.data();
            double[] bias = new double[scaled.cols()];
            for (int k = 0; k < bias.length; k++) {
                double t = 0;
                for (int i = 0; i < n; i++) {
                    t += s[i + k * n];
                }
                bias[k] = t;
            }
            b[l] = bias;
        }
        return new Gradients(w, b);
    }

    /** Mean cross-entropy of a forward pass. */
    public static double meanLoss(Network.Forward f, int[] labels) {
        DenseMatrix p = Softmax.inPlace(f.logits().copy());
        int n = p.rows();
        double s = 0;
        for (int i = 0; i < n; i++) {
            s -= Math.log(Math.max(p.get(i, labels[i]), 1e-300));
        }
        return n == 0 ? 0 : s / n;
    }
}
