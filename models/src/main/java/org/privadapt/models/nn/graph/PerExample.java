package org.privadapt.models.nn.graph;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.nn.Losses;

/**
 * Per-example gradients of any composition of dense layers, without a loop over examples: example i's gradient
 * for a dense layer is the outer product of its input row a_i and its error row delta_i (plus delta_i for the bias),
 * so its squared norm is {@code (||a_i||^2 + 1) ||delta_i||^2} and a weighted sum over examples is one product
 * {@code A^T diag(c) Delta}. A {@link Piece} is one layer's (input, error) for a batch; the pieces of every layer a
 * loss reaches, on the same rows, make up each example's whole gradient, and {@link #squaredNorms} sums them, so
 * clipping is joint over every parameter in the pieces given. Frozen layers are never pieces.
 */
public final class PerExample {
    private PerExample() {
    }

    /** One trainable layer's input rows and error rows (dL/dz) for a batch. */
    public record Piece(DenseLayer layer, FeatureMatrix input, DenseMatrix delta) {
    }

    /** The pieces of the trainable layers of a stack's backward pass. */
    public static void collect(Stack s, Stack.Pass p, Stack.Errors e, List<Piece> out) {
        for (int l = 0; l < s.layers().size(); l++) {
            DenseLayer layer = s.layers().get(l);
            if (!layer.frozen()) {
                out.add(new Piece(layer, p.inputs()[l], e.deltas()[l]));
            }
        }
    }

    /** Each example's squared L2 gradient norm over every parameter of the pieces (a layer may appear once). */
    public static double[] squaredNorms(List<Piece> pieces) {
        int n = pieces.get(0).delta().rows();
        double[] total = new double[n];
        java.util.Set<DenseLayer> seen = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        for (Piece pc : pieces) {
            if (!seen.add(pc.layer())) {
                throw new IllegalArgumentException("a layer appears twice among the pieces: merge its errors first");
            }
            if (pc.delta().rows() != n) {
                throw new IllegalArgumentException("pieces of different batches: " + pc.delta().rows() + " vs " + n + " rows");
            }
            double[] in = pc.input().rowSquaredNorms();
            double[] out = pc.delta().rowSquaredNorms();
            for (int i = 0; i < n; i++) {
                total[i] += (in[i] + 1.0) * out[i];
            }
        }
        return total;
    }

    /** {@code sum_i c_i g_i} per layer ({@code c == null}: all ones), as a map layer -> gradient. */
    public static Map<DenseLayer, Grad> weightedSum(List<Piece> pieces, double[] c) {
        Map<DenseLayer, Grad> out = new IdentityHashMap<>();
        for (Piece pc : pieces) {
            Grad g = new Grad(DenseMatrix.zeros(pc.input().cols(), pc.delta().cols()), new double[pc.delta().cols()]);
            weightedSumInto(pc, c, g);
            out.put(pc.layer(), g);
        }
        return out;
    }

    /**
     * One piece's {@code sum_i c_i g_i} written over {@code out} (its weights {@code in x out}, its bias): the values
     * of {@link #weightedSum}, into buffers a training reuses from step to step.
     */
    public static void weightedSumInto(Piece pc, double[] c, Grad out) {
        DenseMatrix scaled = c == null ? pc.delta() : pc.delta().scaleRows(c);
        pc.input().transposeMultiplyInto(scaled, out.w());
        int n = scaled.rows();
        double[] s = scaled.data();
        double[] gb = out.b();
        if (gb.length != scaled.cols()) {
            throw new IllegalArgumentException("bias buffer of " + gb.length + " for " + scaled.cols() + " outputs");
        }
        for (int k = 0; k < gb.length; k++) {
            double t = 0;
            for (int i = 0; i < n; i++) {
                t += s[i + k * n];
            }
            gb[k] = t;
        }
    }

    /** One layer's gradient: weights (in x out) and bias. */
    public record Grad(DenseMatrix w, double[] b) {
        public void scale(double f) {
            w.scaleInPlace(f);
            for (int k = 0; k < b.length; k++) {
                b[k] *= f;
            }
        }
    }

    /** Clip factors min(1, C / ||g_i||); a non-finite norm is an error (it cannot be clipped). */
    public static double[] clipFactors(double[] squaredNorms, double clip) {
        double[] f = new double[squaredNorms.length];
        for (int i = 0; i < f.length; i++) {
            if (!Double.isFinite(squaredNorms[i])) {
                throw new org.privadapt.models.dp.NonFiniteGradientException("a per-example gradient is not finite ("
                        + squaredNorms[i] + "): the model diverged (lower the learning rate)");
            }
            double norm = Math.sqrt(squaredNorms[i]);
            f[i] = norm > clip ? clip / norm : 1.0;
        }
        return f;
    }

    /** Softmax cross-entropy error dL/dlogits = softmax - onehot, per example (not averaged): {@link Losses#softmaxError}. */
    public static DenseMatrix softmaxError(DenseMatrix logits, int[] labels) {
        return Losses.softmaxError(logits, labels);
    }
}
