package org.privadapt.models.nn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;
import org.privadapt.math.CsrMatrix;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;

class BackpropTest {
    static DenseMatrix data(int n, int d, long seed, boolean sparse) {
        SplittableRandom r = new SplittableRandom(seed);
        DenseMatrix x = DenseMatrix.zeros(n, d);
        for (int k = 0; k < n * d; k++) {
            x.data()[k] = sparse && r.nextDouble() < 0.6 ? 0 : r.nextDouble(-1.5, 1.5);
        }
        return x;
    }

    static int[] labels(int n, int k, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = r.nextInt(k);
        }
        return y;
    }

    static double[] flatten(Gradients g) {
        int len = 0;
        for (double[] a : g.arrays()) {
            len += a.length;
        }
        double[] out = new double[len];
        int p = 0;
        for (double[] a : g.arrays()) {
            System.arraycopy(a, 0, out, p, a.length);
            p += a.length;
        }
        return out;
    }

    static Gradients single(Network net, FeatureMatrix x, int[] y, int i) {
        FeatureMatrix xi = x.selectRows(new int[] {i});
        Network.Forward f = net.forward(xi);
        return Backprop.weightedSum(f, Backprop.deltas(net, f, new int[] {y[i]}), null);
    }

    @ParameterizedTest
    @EnumSource(Activation.class)
    void perExampleNormsAndSumsEqualBatchOfOneGradients(Activation act) {
        for (boolean sparseInput : new boolean[] {false, true}) {
            DenseMatrix xd = data(9, 6, 1, sparseInput);
            FeatureMatrix x = sparseInput ? CsrMatrix.fromDense(xd) : xd;
            int[] y = labels(9, 3, 2);
            Network net = Network.create(6, new int[] {5, 4}, act, List.of("a", "b", "c"), 3);
            Network.Forward f = net.forward(x);
            var d = Backprop.deltas(net, f, y);
            double[] sq = Backprop.perExampleSquaredNorms(f, d);
            double[] c = new double[9];
            double[] expectedSum = new double[(int) net.parameterCount()];
            for (int i = 0; i < 9; i++) {
                double[] gi = flatten(single(net, x, y, i));
                double norm2 = 0;
                for (double v : gi) {
                    norm2 += v * v;
                }
                assertThat(sq[i]).as("%s example %d", act, i).isCloseTo(norm2, within(1e-10 * Math.max(1, norm2)));
                c[i] = 0.1 * (i + 1);
                for (int k = 0; k < gi.length; k++) {
                    expectedSum[k] += c[i] * gi[k];
                }
            }
            double[] sum = flatten(Backprop.weightedSum(f, d, c));
            for (int k = 0; k < sum.length; k++) {
                assertThat(sum[k]).isCloseTo(expectedSum[k], within(1e-10));
            }
        }
    }

    @Test
    void gradientMatchesFiniteDifferences() {
        DenseMatrix x = data(7, 4, 5, false);
        int[] y = labels(7, 3, 6);
        Network net = Network.create(4, new int[] {6}, Activation.TANH, List.of("a", "b", "c"), 7);
        Network.Forward f = net.forward(x);
        Gradients g = Backprop.weightedSum(f, Backprop.deltas(net, f, y), null);
        g.scaleInPlace(1.0 / 7);
        double h = 1e-6;
        for (int l = 0; l < net.layers(); l++) {
            double[] w = net.weights(l).data();
            for (int k = 0; k < w.length; k += 3) {
                double old = w[k];
                w[k] = old + h;
                double up = Backprop.meanLoss(net.forward(x), y);
                w[k] = old - h;
                double down = Backprop.meanLoss(net.forward(x), y);
                w[k] = old;
                assertThat(g.weights(l).data()[k]).isCloseTo((up - down) / (2 * h), within(1e-7));
            }
            double[] b = net.bias(l);
            for (int k = 0; k < b.length; k++) {
                double old = b[k];
                b[k] = old + h;
                double up = Backprop.meanLoss(net.forward(x), y);
                b[k] = old - h;
                double down = Backprop.meanLoss(net.forward(x), y);
                b[k] = old;
                assertThat(g.bias(l)[k]).isCloseTo((up - down) / (2 * h), within(1e-7));
            }
        }
    }

    @Test
    void logisticRegressionIsTheNetworkWithoutHiddenLayers() {
        Network lr = Network.create(3, new int[0], Activation.RELU, List.of("x", "y"), 1);
        assertThat(lr.layers()).isEqualTo(1);
        assertThat(lr.parameterCount()).isEqualTo(3 * 2 + 2);
        assertThat(lr.predictProba(data(2, 3, 1, false)).get(0, 0)).isEqualTo(0.5); // zero init
    }
}
