package org.privadapt.models.nn.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;
import org.privadapt.models.nn.Activation;

/** The engine's modules beyond dense layers: CDAN's multilinear map (exact and randomised) and dropout. */
class ModulesTest {
    static DenseMatrix random(int n, int d, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        DenseMatrix m = DenseMatrix.zeros(n, d);
        double[] a = m.data();
        for (int k = 0; k < a.length; k++) {
            a[k] = r.nextDouble() * 2 - 1;
        }
        return m;
    }

    /** L = sum(h .* W): dL/dh = W, so backward(W) must match finite differences of L in f and g. */
    static void checkBackward(MultilinearMap map, DenseMatrix f, DenseMatrix g) {
        DenseMatrix w = random(f.rows(), map.outputWidth(), 99);
        DenseMatrix[] grads = map.backward(f, g, w);
        double eps = 1e-6;
        for (DenseMatrix[] pair : new DenseMatrix[][] {{f, grads[0]}, {g, grads[1]}}) {
            double[] x = pair[0].data();
            for (int k = 0; k < x.length; k++) {
                double keep = x[k];
                x[k] = keep + eps;
                double up = dot(map.forward(f, g), w);
                x[k] = keep - eps;
                double down = dot(map.forward(f, g), w);
                x[k] = keep;
                assertThat(pair[1].data()[k]).isCloseTo((up - down) / (2 * eps), within(1e-7));
            }
        }
    }

    static double dot(DenseMatrix a, DenseMatrix b) {
        double s = 0;
        for (int k = 0; k < a.data().length; k++) {
            s += a.data()[k] * b.data()[k];
        }
        return s;
    }

    @Test
    void theExactMapIsTheFlattenedOuterProductAndItsBackwardIsExact() {
        DenseMatrix f = random(4, 3, 1);
        DenseMatrix g = random(4, 2, 2);
        MultilinearMap map = MultilinearMap.exact(3, 2);
        DenseMatrix h = map.forward(f, g);
        assertThat(h.cols()).isEqualTo(6);
        for (int i = 0; i < 4; i++) {
            for (int a = 0; a < 3; a++) {
                for (int b = 0; b < 2; b++) {
                    assertThat(h.get(i, a * 2 + b)).isEqualTo(f.get(i, a) * g.get(i, b));
                }
            }
        }
        checkBackward(map, f, g);
    }

    @Test
    void theRandomizedMapKeepsInnerProductsInExpectationAndItsBackwardIsExact() {
        DenseMatrix f = random(3, 5, 3);
        DenseMatrix g = random(3, 4, 4);
        checkBackward(MultilinearMap.randomized(5, 4, 16, 7), f, g);
        // E <h_i, h_j> = <f_i, f_j> <g_i, g_j>: averaged over 20 independent maps of width 2048, within 5 % of the
        // product of norms (the estimate's relative sd is about sqrt(8 / (20 * 2048)) ~ 1.4 %, so 5 % is > 3 sd)
        DenseMatrix e = MultilinearMap.exact(5, 4).forward(f, g);
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                double exact = 0;
                for (int c = 0; c < e.cols(); c++) {
                    exact += e.get(i, c) * e.get(j, c);
                }
                double mean = 0;
                for (int s = 0; s < 20; s++) {
                    DenseMatrix h = MultilinearMap.randomized(5, 4, 2048, 100 + s).forward(f, g);
                    for (int c = 0; c < h.cols(); c++) {
                        mean += h.get(i, c) * h.get(j, c) / 20;
                    }
                }
                double scale = Math.sqrt(rowNorm2(e, i) * rowNorm2(e, j));
                assertThat(mean).as("pair %d %d", i, j).isCloseTo(exact, within(0.05 * scale));
            }
        }
    }

    static double rowNorm2(DenseMatrix m, int i) {
        double s = 0;
        for (int c = 0; c < m.cols(); c++) {
            s += m.get(i, c) * m.get(i, c);
        }
        return s;
    }

    @Test
    void dropoutAtRateZeroIsThePlainPassAndDropoutGradientsAreExact() {
        Stack s = Stack.create(new int[] {4, 6, 5, 3}, Activation.TANH, Activation.IDENTITY, new SplittableRandom(1));
        DenseMatrix x = random(5, 4, 8);
        int[] y = {0, 1, 2, 1, 0};
        assertThat(s.forward(x, 0, null).output().data()).containsExactly(s.forward(x).output().data());
        // the masks depend only on the generator's seed and the shapes: the same seed gives the same masks, so the
        // total loss is a fixed function of the weights and the pieces' gradient must match its finite differences
        Stack.Pass p = s.forward(x, 0.5, new SplittableRandom(42));
        assertThat(p.masks()[0].data()).contains(0.0, 2.0).containsOnly(0.0, 2.0);
        Stack.Errors e = s.backward(p, PerExample.softmaxError(p.output(), y), false);
        List<PerExample.Piece> pieces = new ArrayList<>();
        PerExample.collect(s, p, e, pieces);
        Map<DenseLayer, PerExample.Grad> g = PerExample.weightedSum(pieces, null);
        double eps = 1e-6;
        for (DenseLayer layer : s.layers()) {
            double[] w = layer.weights().data();
            for (int k = 0; k < w.length; k++) {
                double keep = w[k];
                w[k] = keep + eps;
                double up = loss(s, x, y);
                w[k] = keep - eps;
                double down = loss(s, x, y);
                w[k] = keep;
                assertThat(g.get(layer).w().data()[k]).isCloseTo((up - down) / (2 * eps), within(1e-6));
            }
        }
        // per-example squared norms equal those of batches of one with the same example's mask rows
        double[] sq = PerExample.squaredNorms(pieces);
        for (int i = 0; i < 5; i++) {
            double[] c = new double[5];
            c[i] = 1;
            double direct = 0;
            for (PerExample.Grad gi : PerExample.weightedSum(pieces, c).values()) {
                for (double v : gi.w().data()) {
                    direct += v * v;
                }
                for (double v : gi.b()) {
                    direct += v * v;
                }
            }
            assertThat(sq[i]).isCloseTo(direct, within(1e-9 * Math.max(1, direct)));
        }
    }

    static double loss(Stack s, DenseMatrix x, int[] y) {
        DenseMatrix out = s.forward(x, 0.5, new SplittableRandom(42)).output();
        double l = 0;
        for (int i = 0; i < y.length; i++) {
            double max = Double.NEGATIVE_INFINITY;
            for (int c = 0; c < out.cols(); c++) {
                max = Math.max(max, out.get(i, c));
            }
            double z = 0;
            for (int c = 0; c < out.cols(); c++) {
                z += Math.exp(out.get(i, c) - max);
            }
            l += -(out.get(i, y[i]) - max - Math.log(z));
        }
        return l;
    }
}
