package org.privadapt.models.nn.graph;

import java.util.SplittableRandom;
import org.privadapt.math.DenseMatrix;
import org.privadapt.models.nn.Activation;

/**
 * One dense layer {@code a = f(x W + b)}: W is in x out, b has out entries, f is applied element-wise. Its parameters
 * are trained unless the layer is {@linkplain #freeze() frozen}; a frozen layer still passes gradients to the layers
 * below it but contributes none of its own (so it is outside every clipping norm).
 */
public final class DenseLayer {
    private final DenseMatrix w;
    private final double[] b;
    private final Activation activation;
    private boolean frozen;

    DenseLayer(DenseMatrix w, double[] b, Activation activation) {
        this.w = w;
        this.b = b;
        this.activation = activation;
    }

    /** Glorot initialisation (He for ReLU-like activations) from a seeded generator: no data, no privacy cost. */
    public static DenseLayer create(int in, int out, Activation activation, SplittableRandom rng) {
        if (in < 1 || out < 1) {
            throw new IllegalArgumentException("layer sizes must be positive: " + in + " x " + out);
        }
        DenseMatrix w = DenseMatrix.zeros(in, out);
        boolean relu = activation == Activation.RELU || activation == Activation.LEAKY_RELU || activation == Activation.ELU;
        double scale = relu ? Math.sqrt(2.0 / in) : Math.sqrt(2.0 / (in + out));
        double[] a = w.data();
        for (int k = 0; k < a.length; k++) {
            a[k] = scale * Math.sqrt(-2 * Math.log(1 - rng.nextDouble())) * Math.cos(2 * Math.PI * rng.nextDouble());
        }
        return new DenseLayer(w, new double[out], activation);
    }

    /**
     * A layer over existing parameter arrays (shared, not copied): how {@link org.privadapt.models.nn.Network} keeps
     * its weights in place while the engine computes with them.
     */
    public static DenseLayer over(DenseMatrix w, double[] b, Activation activation) {
        if (b.length != w.cols()) {
            throw new IllegalArgumentException("bias has " + b.length + " entries for " + w.cols() + " outputs");
        }
        return new DenseLayer(w, b, activation);
    }

    public DenseMatrix weights() {
        return w;
    }

    public double[] bias() {
        return b;
    }

    public Activation activation() {
        return activation;
    }

    public int in() {
        return w.rows();
    }

    public int out() {
        return w.cols();
    }

    public boolean frozen() {
        return frozen;
    }

    public DenseLayer freeze() {
        frozen = true;
        return this;
    }

    public DenseLayer copy() {
        DenseLayer c = new DenseLayer(w.copy(), b.clone(), activation);
        c.frozen = frozen;
        return c;
    }
}
