package org.privadapt.models.nn;

import org.privadapt.math.DenseMatrix;

/** Gradients with the shapes of a network's parameters: one weight matrix and one bias vector per layer. */
public final class Gradients {
    final DenseMatrix[] weights;
    final double[][] biases;

    Gradients(DenseMatrix[] weights, double[][] biases) {
        this.weights = weights;
        this.biases = biases;
    }

    /** Zero gradients shaped like {@code net}. */
    public static Gradients zerosLike(Network net) {
        DenseMatrix[] w = new DenseMatrix[net.layers()];
        double[][] b = new double[net.layers()][];
        for (int l = 0; l < w.length; l++) {
            w[l] = DenseMatrix.zeros(net.weights(l).rows(), net.weights(l).cols());
            b[l] = new double[net.bias(l).length];
        }
        return new Gradients(w, b);
    }

    /** The lengths of {@link #arrays()} for gradients shaped like {@code net}, in the same order. */
    public static int[] lengthsLike(Network net) {
        int[] lengths = new int[2 * net.layers()];
        for (int l = 0; l < net.layers(); l++) {
            lengths[2 * l] = net.weights(l).rows() * net.weights(l).cols();
            lengths[2 * l + 1] = net.bias(l).length;
        }
        return lengths;
    }

    public int layers() {
        return weights.length;
    }

    public DenseMatrix weights(int l) {
        return weights[l];
    }

    public double[] bias(int l) {
        return biases[l];
    }

    /** {@code this += other}. */
    public void addInPlace(Gradients other) {
        for (int l = 0; l < weights.length; l++) {
            weights[l].addScaledInPlace(1.0, other.weights[l]);
            double[] b = biases[l];
            double[] o = other.biases[l];
            for (int k = 0; k < b.length; k++) {
                b[k] += o[k];
            }
        }
    }

    public void scaleInPlace(double s) {
        for (int l = 0; l < weights.length; l++) {
            weights[l].scaleInPlace(s);
            for (int k = 0; k < biases[l].length; k++) {
                biases[l][k] *= s;
            }
        }
    }

    /** The parameter arrays in a fixed order (W_0, b_0, W_1, b_1, ...), live. */
    public double[][] arrays() {
        double[][] out = new double[2 * weights.length][];
        for (int l = 0; l < weights.length; l++) {
            out[2 * l] = weights[l].data();
            out[2 * l + 1] = biases[l];
        }
        return out;
    }

    /** The L2 norm over all layers. */
    public double norm() {
        double s = 0;
        for (double[] a : arrays()) {
            for (double v : a) {
                s += v * v;
            }
        }
        return Math.sqrt(s);
    }
}
