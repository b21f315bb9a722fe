package org.privadapt.models.nn;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.Classifier;
import org.privadapt.models.Softmax;
import org.privadapt.models.nn.graph.DenseLayer;
import org.privadapt.models.nn.graph.Stack;

/**
 * A feed-forward classifier: dense layers {@code z_l = a_{l-1} W_l + b_l}, {@code a_l = f(z_l)} with the hidden
 * activation f, and logits from the last layer, trained with the softmax cross-entropy. With no hidden layer it is
 * multinomial logistic regression. Parameters live in the layers' arrays; {@link #copy()} gives an independent
 * network. Initialisation (He for ReLU-like activations, Glorot otherwise) uses a seeded generator: it does not
 * depend on any data, so it carries no privacy cost.
 *
 * <p>It is a {@link Stack} of the network engine's dense layers (hidden activation after every layer but the last):
 * forward passes, per-example gradient norms and weighted gradient sums are the engine's ({@link Backprop} adapts
 * them to this class's indexing), so DP-SGD and paper 001's adversarial methods share one implementation.
 */
public final class Network implements Classifier {
    private final int[] sizes;
    private final Activation hidden;
    private final DenseMatrix[] weights;
    private final double[][] biases;
    private final List<String> classNames;
    private final Stack stack; // the engine's view of the same arrays

    private Network(int[] sizes, Activation hidden, DenseMatrix[] weights, double[][] biases, List<String> classNames) {
        this.sizes = sizes.clone();
        this.hidden = hidden;
        this.weights = weights;
        this.biases = biases;
        this.classNames = List.copyOf(classNames);
        List<DenseLayer> ls = new ArrayList<>();
        for (int l = 0; l < weights.length; l++) {
            ls.add(DenseLayer.over(weights[l], biases[l], l == weights.length - 1 ? Activation.IDENTITY : hidden));
        }
        this.stack = new Stack(ls);
    }

    /** The network as a stack of the engine's dense layers (sharing this network's parameter arrays). */
    public Stack stack() {
        return stack;
    }

    /**
     * @param input       number of features
     * @param hiddenSizes widths of the hidden layers (empty: logistic regression)
     * @param classNames  output classes
     */
    public static Network create(int input, int[] hiddenSizes, Activation hidden, List<String> classNames, long seed) {
        int[] sizes = new int[hiddenSizes.length + 2];
        sizes[0] = input;
        System.arraycopy(hiddenSizes, 0, sizes, 1, hiddenSizes.length);
        sizes[sizes.length - 1] = classNames.size();
        for (int s : sizes) {
            if (s < 1) {
                throw new IllegalArgumentException("layer sizes must be positive: " + java.util.Arrays.toString(sizes));
            }
        }
        SplittableRandom rng = new SplittableRandom(seed);
        int layers = sizes.length - 1;
        DenseMatrix[] w = new DenseMatrix[layers];
        double[][] b = new double[layers][];
        for (int l = 0; l < layers; l++) {
            int in = sizes[l];
            int out = sizes[l + 1];
            w[l] = DenseMatrix.zeros(in, out);
            b[l] = new double[out];
            boolean last = l == layers - 1;
            if (layers == 1) {
                continue; // logistic regression: start at zero, as the convex problem has one optimum
            }
            boolean relu = !last && (hidden == Activation.RELU || hidden == Activation.LEAKY_RELU || hidden == Activation.ELU);
            double scale = relu ? Math.sqrt(2.0 / in) : Math.sqrt(2.0 / (in + out));
            double[] a = w[l].data();
            for (int k = 0; k < a.length; k++) {
                a[k] = scale * gaussian(rng);
            }
        }
        return new Network(sizes, hidden, w, b, classNames);
    }

    private static double gaussian(SplittableRandom rng) {
        return Math.sqrt(-2 * Math.log(1 - rng.nextDouble())) * Math.cos(2 * Math.PI * rng.nextDouble());
    }

    /**
     * A network from given parameters (e.g. read from an artifact): weights[l] is size_l x size_{l+1}.
     *
     * @throws IllegalArgumentException if the shapes do not chain
     */
    public static Network fromParameters(int[] sizes, Activation hidden, List<DenseMatrix> weights, List<double[]> biases,
                                         List<String> classNames) {
        int layers = sizes.length - 1;
        if (weights.size() != layers || biases.size() != layers || sizes[layers] != classNames.size()) {
            throw new IllegalArgumentException("network parameters do not match sizes " + java.util.Arrays.toString(sizes));
        }
        DenseMatrix[] w = new DenseMatrix[layers];
        double[][] b = new double[layers][];
        for (int l = 0; l < layers; l++) {
            if (weights.get(l).rows() != sizes[l] || weights.get(l).cols() != sizes[l + 1] || biases.get(l).length != sizes[l + 1]) {
                throw new IllegalArgumentException("layer " + l + " has the wrong shape");
            }
            w[l] = weights.get(l).copy();
            b[l] = biases.get(l).clone();
        }
        return new Network(sizes, hidden, w, b, classNames);
    }

    public Network copy() {
        DenseMatrix[] w = new DenseMatrix[weights.length];
        double[][] b = new double[biases.length][];
        for (int l = 0; l < w.length; l++) {
            w[l] = weights[l].copy();
            b[l] = biases[l].clone();
        }
        return new Network(sizes, hidden, w, b, classNames);
    }

    public int layers() {
        return weights.length;
    }

    public int[] sizes() {
        return sizes.clone();
    }

    public Activation hiddenActivation() {
        return hidden;
    }

    /** The weights of layer l (the live matrix, in x out). */
    public DenseMatrix weights(int l) {
        return weights[l];
    }

    /** The bias of layer l (the live array). */
    public double[] bias(int l) {
        return biases[l];
    }

    /** Total number of parameters. */
    public long parameterCount() {
        long n = 0;
        for (int l = 0; l < weights.length; l++) {
            n += (long) weights[l].rows() * weights[l].cols() + biases[l].length;
        }
        return n;
    }

    @Override
    public int dimension() {
        return sizes[0];
    }

    @Override
    public List<String> classNames() {
        return classNames;
    }

    /**
     * Activations of every layer for a batch: element 0 is unused (the input), element l = a_l (n x size_l). The
     * engine's {@link Stack#forward} computes it; this view keeps the MLP's indexing.
     */
    public Forward forward(FeatureMatrix x) {
        if (x.cols() != sizes[0]) {
            throw new IllegalArgumentException("network expects " + sizes[0] + " features, got " + x.cols());
        }
        Stack.Pass p = stack.forward(x);
        int layers = weights.length;
        DenseMatrix[] z = new DenseMatrix[layers + 1];
        DenseMatrix[] a = new DenseMatrix[layers + 1];
        System.arraycopy(p.z(), 0, z, 1, layers);
        System.arraycopy(p.a(), 0, a, 1, layers);
        return new Forward(x, z, a, p);
    }

    /** Forward pass results: pre-activations z and activations a per layer (index 1..L); a[L] = logits; the engine's pass. */
    public record Forward(FeatureMatrix input, DenseMatrix[] z, DenseMatrix[] a, Stack.Pass pass) {
        public DenseMatrix logits() {
            return a[a.length - 1];
        }
    }

    @Override
    public DenseMatrix predictProba(FeatureMatrix x) {
        return Softmax.inPlace(forward(x).logits().copy());
    }

    /** Snapshot of all parameters as flat copies (for tests and artifacts): W_0, b_0, W_1, b_1, ... */
    public List<double[]> parameterArrays() {
        List<double[]> out = new ArrayList<>();
        for (int l = 0; l < weights.length; l++) {
            out.add(weights[l].data());
            out.add(biases[l]);
        }
        return out;
    }
}
