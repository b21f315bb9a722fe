package org.privadapt.models.dp;

import org.privadapt.math.DenseMatrix;
import org.privadapt.models.nn.Losses;

/**
 * What a network's logits are trained to predict, with its loss: one class per example ({@link Classes}, softmax
 * cross-entropy) or a 0/1 vector of labels per example ({@link MultiLabel}, the sum over labels of the binary
 * cross-entropies of independent sigmoids). Both give each example's own error {@code dL_i / dlogits_i} (not averaged),
 * from which per-example gradients are built.
 */
public sealed interface Targets permits Targets.Classes, Targets.MultiLabel {
    /** The two losses. */
    enum Loss { SOFTMAX_CE, SIGMOID_BCE }

    Loss loss();

    /** Number of examples. */
    int rows();

    /**
     * Checks that the targets fit a network with {@code outputs} logits.
     *
     * @throws IllegalArgumentException otherwise
     */
    void check(int outputs);

    /** The per-example errors dL_i/dlogits for rows {@code idx} (logits has one row per entry of idx). */
    DenseMatrix error(DenseMatrix logits, int[] idx);

    /** The summed loss over rows {@code idx}. */
    double lossSum(DenseMatrix logits, int[] idx);

    /** Single-label targets (class indices), softmax cross-entropy. */
    static Targets classes(int[] labels) {
        return new Classes(labels.clone());
    }

    /** Multi-label targets, {@code y[i][k]} in [0, 1] (0/1 labels), summed per-label sigmoid cross-entropy. */
    static Targets multiLabel(double[][] y) {
        double[][] c = new double[y.length][];
        for (int i = 0; i < y.length; i++) {
            c[i] = y[i].clone();
        }
        return new MultiLabel(c);
    }

    /** Class indices; loss {@code -log softmax(z)_y}. */
    record Classes(int[] labels) implements Targets {
        @Override
        public Loss loss() {
            return Loss.SOFTMAX_CE;
        }

        @Override
        public int rows() {
            return labels.length;
        }

        @Override
        public void check(int outputs) {
            if (outputs < 2) {
                throw new IllegalArgumentException("softmax cross-entropy needs at least 2 classes, the network has " + outputs + " outputs");
            }
            for (int y : labels) {
                if (y < 0 || y >= outputs) {
                    throw new IllegalArgumentException("label " + y + " outside the " + outputs + " classes");
                }
            }
        }

        @Override
        public DenseMatrix error(DenseMatrix logits, int[] idx) {
            return Losses.softmaxError(logits, select(idx));
        }

        @Override
        public double lossSum(DenseMatrix logits, int[] idx) {
            double s = 0;
            for (double l : Losses.softmaxCrossEntropy(logits, select(idx))) {
                s += l;
            }
            return s;
        }

        private int[] select(int[] idx) {
            int[] y = new int[idx.length];
            for (int i = 0; i < idx.length; i++) {
                y[i] = labels[idx[i]];
            }
            return y;
        }
    }

    /**
     * Per-label targets; loss {@code sum_k [log(1 + e^{z_k}) - y_k z_k]} (the binary cross-entropy of sigmoid(z_k)),
     * error {@code sigmoid(z_k) - y_k}.
     */
    record MultiLabel(double[][] y) implements Targets {
        @Override
        public Loss loss() {
            return Loss.SIGMOID_BCE;
        }

        @Override
        public int rows() {
            return y.length;
        }

        @Override
        public void check(int outputs) {
            for (double[] row : y) {
                if (row.length != outputs) {
                    throw new IllegalArgumentException("a target row has " + row.length + " labels, the network " + outputs + " outputs");
                }
                for (double v : row) {
                    if (!(v >= 0 && v <= 1)) {
                        throw new IllegalArgumentException("multi-label targets must be in [0, 1], got " + v);
                    }
                }
            }
        }

        @Override
        public DenseMatrix error(DenseMatrix logits, int[] idx) {
            int n = logits.rows();
            int k = logits.cols();
            DenseMatrix e = DenseMatrix.zeros(n, k);
            double[] z = logits.data();
            double[] ed = e.data();
            for (int j = 0; j < k; j++) {
                for (int i = 0; i < n; i++) {
                    ed[i + j * n] = Losses.sigmoidError(z[i + j * n], y[idx[i]][j]);
                }
            }
            return e;
        }

        @Override
        public double lossSum(DenseMatrix logits, int[] idx) {
            int n = logits.rows();
            int k = logits.cols();
            double[] z = logits.data();
            double s = 0;
            for (int j = 0; j < k; j++) {
                for (int i = 0; i < n; i++) {
                    s += Losses.sigmoidCrossEntropy(z[i + j * n], y[idx[i]][j]);
                }
            }
            return s;
        }
    }
}
