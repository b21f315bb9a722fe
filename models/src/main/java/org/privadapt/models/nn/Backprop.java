package org.privadapt.models.nn;

import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.privadapt.models.Softmax;
import org.privadapt.models.nn.graph.DenseLayer;
import org.privadapt.models.nn.graph.PerExample;
import org.privadapt.models.nn.graph.Stack;

/**
 * Per-example gradients of the softmax cross-entropy without per-example loops.
 *
 * <p>For example i and dense layer l with input a_{l-1,i} and output error delta_{l,i}, the gradient of the weights
 * is the outer product {@code a_{l-1,i} delta_{l,i}^T} and that of the bias is {@code delta_{l,i}}, so its squared
 * norm factorises: {@code (||a_{l-1,i}||^2 + 1) ||delta_{l,i}||^2}. The squared norm of example i's gradient over
 * all parameters is the sum over layers, computed from row norms of matrices the backward pass already has.
 * A weighted sum {@code sum_i c_i g_i} (e.g. with clipping factors) is one product per layer:
 * {@code A_{l-1}^T diag(c) Delta_l} and the column sums of {@code diag(c) Delta_l}.
 *
 * <p>The computations are the network engine's ({@link Stack#backward}, {@link PerExample}); this class keeps the
 * MLP's array-of-layers view for SGD and DP-SGD.
 */
public final class Backprop {
    private Backprop() {
    }

    /** Output errors of every layer for a batch: element l (0-based) is Delta_l, n x size_{l+1} (the engine's backward pass). */
    public static DenseMatrix[] deltas(Network net, Network.Forward f, int[] labels) {
        return net.stack().backward(f.pass(), PerExample.softmaxError(f.logits(), labels), false).deltas();
    }

    /** Squared L2 norm of each example's gradient over all parameters (weights and biases of every layer). */
    public static double[] perExampleSquaredNorms(Network.Forward f, DenseMatrix[] deltas) {
        return PerExample.squaredNorms(pieces(f, deltas));
    }

    /** {@code sum_i c_i g_i} over the batch; {@code c == null} means all ones. */
    public static Gradients weightedSum(Network.Forward f, DenseMatrix[] deltas, double[] c) {
        List<PerExample.Piece> pieces = pieces(f, deltas);
        Map<DenseLayer, PerExample.Grad> sum = PerExample.weightedSum(pieces, c);
        DenseMatrix[] w = new DenseMatrix[pieces.size()];
        double[][] b = new double[pieces.size()][];
        for (int l = 0; l < w.length; l++) {
            PerExample.Grad g = sum.get(pieces.get(l).layer());
            w[l] = g.w();
            b[l] = g.b();
        }
        return new Gradients(w, b);
    }

    /**
     * {@code sum_i c_i g_i} over the batch written over {@code into} (shaped like the network): the values of
     * {@link #weightedSum}, without allocating gradients of the parameters' size.
     */
    public static void weightedSumInto(Network.Forward f, DenseMatrix[] deltas, double[] c, Gradients into) {
        List<PerExample.Piece> pieces = pieces(f, deltas);
        if (pieces.size() != into.layers()) {
            throw new IllegalArgumentException(into.layers() + " gradient layers for " + pieces.size() + " layers");
        }
        for (int l = 0; l < pieces.size(); l++) {
            PerExample.weightedSumInto(pieces.get(l), c, new PerExample.Grad(into.weights(l), into.bias(l)));
        }
    }

    private static List<PerExample.Piece> pieces(Network.Forward f, DenseMatrix[] deltas) {
        Stack.Pass p = f.pass();
        List<DenseLayer> layers = p.layers();
        if (layers.size() != deltas.length) {
            throw new IllegalArgumentException(deltas.length + " error matrices for " + layers.size() + " layers");
        }
        List<PerExample.Piece> out = new ArrayList<>(deltas.length);
        for (int l = 0; l < deltas.length; l++) {
            out.add(new PerExample.Piece(layers.get(l), p.inputs()[l], deltas[l]));
        }
        return out;
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
