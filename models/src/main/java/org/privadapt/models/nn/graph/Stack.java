package org.privadapt.models.nn.graph;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.math.LinAlg;
import org.privadapt.models.nn.Activation;

/**
 * A chain of dense layers, the module the engine composes: a trunk (feature extractor) feeds one or more heads.
 * {@link #forward} keeps what the backward pass needs; {@link #backward} turns the error at the stack's output into
 * each layer's error (dL/dz, one row per example) and the error at its input, which a gradient reversal layer may
 * scale before it reaches the trunk.
 */
public final class Stack {
    private final List<DenseLayer> layers;

    public Stack(List<DenseLayer> layers) {
        if (layers.isEmpty()) {
            throw new IllegalArgumentException("a stack needs at least one layer");
        }
        for (int l = 1; l < layers.size(); l++) {
            if (layers.get(l).in() != layers.get(l - 1).out()) {
                throw new IllegalArgumentException("layer " + l + " takes " + layers.get(l).in() + " inputs, layer " + (l - 1)
                        + " gives " + layers.get(l - 1).out());
            }
        }
        this.layers = List.copyOf(layers);
    }

    /** sizes[0] inputs, then one layer per further size; {@code hidden} after every layer but the last, {@code last} after it. */
    public static Stack create(int[] sizes, Activation hidden, Activation last, SplittableRandom rng) {
        List<DenseLayer> ls = new ArrayList<>();
        for (int l = 0; l + 1 < sizes.length; l++) {
            ls.add(DenseLayer.create(sizes[l], sizes[l + 1], l + 2 == sizes.length ? last : hidden, rng));
        }
        return new Stack(ls);
    }

    public List<DenseLayer> layers() {
        return layers;
    }

    public int in() {
        return layers.get(0).in();
    }

    public int out() {
        return layers.get(layers.size() - 1).out();
    }

    public Stack copy() {
        return new Stack(layers.stream().map(DenseLayer::copy).toList());
    }

    /**
     * What a forward pass keeps: the layers it ran, each layer's input, pre-activation and output (before dropout),
     * and the dropout masks (null without dropout; entry l scales layer l's output, 0 or 1 / (1 - rate)).
     */
    public record Pass(List<DenseLayer> layers, FeatureMatrix[] inputs, DenseMatrix[] z, DenseMatrix[] a, DenseMatrix[] masks) {
        public DenseMatrix output() {
            return a[a.length - 1];
        }
    }

    public Pass forward(FeatureMatrix x) {
        return forward(x, 0, null);
    }

    /**
     * A training pass with inverted dropout at {@code rate} on the output of every layer but the last (each unit of
     * each example kept with probability 1 - rate and scaled by 1 / (1 - rate)); rate 0 is the plain pass. The masks
     * are per example, so per-example gradients still factorise: the next layer's input is the masked output.
     */
    public Pass forward(FeatureMatrix x, double rate, SplittableRandom rng) {
        if (!(rate >= 0 && rate < 1)) {
            throw new IllegalArgumentException("dropout rate must be in [0, 1), got " + rate);
        }
        if (rate > 0 && rng == null) {
            throw new IllegalArgumentException("dropout needs a random generator");
        }
        int k = layers.size();
        DenseMatrix[] masks = rate > 0 ? new DenseMatrix[k] : null;
        FeatureMatrix[] in = new FeatureMatrix[k];
        DenseMatrix[] z = new DenseMatrix[k];
        DenseMatrix[] a = new DenseMatrix[k];
        FeatureMatrix cur = x;
        for (int l = 0; l < k; l++) {
            DenseLayer layer = layers.get(l);
            in[l] = cur;
            DenseMatrix zl = cur.multiply(layer.weights());
            double[] zd = zl.data();
            int n = zl.rows();
            double[] b = layer.bias();
            for (int j = 0; j < b.length; j++) {
                for (int i = 0; i < n; i++) {
                    zd[i + j * n] += b[j];
                }
            }
            z[l] = zl;
            if (layer.activation() == Activation.IDENTITY) {
                a[l] = zl;
            } else {
                DenseMatrix al = DenseMatrix.zeros(n, zl.cols());
                double[] ad = al.data();
                for (int q = 0; q < zd.length; q++) {
                    ad[q] = layer.activation().apply(zd[q]);
                }
                a[l] = al;
            }
            cur = a[l];
            if (masks != null && l + 1 < k) {
                DenseMatrix m = DenseMatrix.zeros(n, zl.cols());
                double[] md = m.data();
                double keep = 1.0 / (1.0 - rate);
                for (int q = 0; q < md.length; q++) {
                    md[q] = rng.nextDouble() < rate ? 0.0 : keep;
                }
                masks[l] = m;
                DenseMatrix dropped = a[l].copy();
                double[] dd = dropped.data();
                for (int q = 0; q < dd.length; q++) {
                    dd[q] *= md[q];
                }
                cur = dropped;
            }
        }
        return new Pass(layers, in, z, a, masks);
    }

    /** The errors of a backward pass: per layer dL/dz (n x out_l), and dL/d(input) (n x in), or null if not asked. */
    public record Errors(DenseMatrix[] deltas, DenseMatrix inputError) {
    }

    /**
     * Back-propagates {@code outputError} = dL/d(output) (n x out; per example, not averaged). With
     * {@code wantInputError} it also returns dL/d(input), for the stack below.
     */
    public Errors backward(Pass p, DenseMatrix outputError, boolean wantInputError) {
        int k = layers.size();
        DenseMatrix[] d = new DenseMatrix[k];
        DenseMatrix err = outputError;
        DenseMatrix inputError = null;
        for (int l = k - 1; l >= 0; l--) {
            DenseLayer layer = layers.get(l);
            DenseMatrix dz = err.copy();
            if (p.masks() != null && p.masks()[l] != null) { // error at the dropped output -> at the output
                double[] e = dz.data();
                double[] m = p.masks()[l].data();
                for (int q = 0; q < e.length; q++) {
                    e[q] *= m[q];
                }
            }
            if (layer.activation() != Activation.IDENTITY) {
                double[] e = dz.data();
                double[] zz = p.z()[l].data();
                double[] aa = p.a()[l].data();
                for (int q = 0; q < e.length; q++) {
                    e[q] *= layer.activation().derivative(zz[q], aa[q]);
                }
            }
            d[l] = dz;
            if (l > 0 || wantInputError) {
                DenseMatrix back = LinAlg.multiplyTransB(dz, layer.weights()); // n x in_l
                if (l > 0) {
                    err = back;
                } else {
                    inputError = back;
                }
            }
        }
        return new Errors(d, inputError);
    }
}
