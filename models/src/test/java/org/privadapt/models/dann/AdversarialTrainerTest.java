package org.privadapt.models.dann;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;
import org.privadapt.models.dp.NoiseAndSampling;
import org.privadapt.models.dp.SessionRandomness;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.graph.DenseLayer;
import org.privadapt.models.nn.graph.PerExample;
import org.privadapt.models.nn.graph.Stack;
import org.privadapt.privacy.noise.NoiseSource;

class AdversarialTrainerTest {
    static DenseMatrix rows(int n, int d, long seed, double scale) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] x = new double[n][d];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                x[i][j] = scale * r.nextGaussian();
            }
        }
        return DenseMatrix.fromRows(x);
    }

    static AdversarialNetwork net(int d, long seed) {
        return AdversarialNetwork.create(d, new int[] {5}, Activation.SIGMOID, List.of("a", "b", "c"), new int[] {4},
                Activation.RELU, false, seed);
    }

    /** Sampling from a seeded generator and no noise at all: isolates the clipped query. */
    static NoiseAndSampling noNoise(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        return new NoiseAndSampling() {
            public boolean bernoulli(double p) {
                return r.nextDouble() < p;
            }

            public void addGaussian(double[] v, double sigma) {
            }

            public boolean isPrivate() {
                return false;
            }

            public String description() {
                return "test";
            }
        };
    }

    static AdversarialTrainer.Config cfg(AdversarialTrainer.Mode m, boolean joint) {
        return new AdversarialTrainer.Config(m, 5, 8, 0.05, 0.01, 0.5, 1.0, joint);
    }

    static double loss(AdversarialNetwork n, Stack head, DenseMatrix x, int[] labels) {
        DenseMatrix p = org.privadapt.models.Softmax.inPlace(head.forward(n.trunk().forward(x).output()).output().copy());
        double s = 0;
        for (int i = 0; i < x.rows(); i++) {
            s -= Math.log(p.get(i, labels[i]));
        }
        return s;
    }

    /** The domain step's gradient (before reversal) equals finite differences of the summed domain loss, over M. */
    @Test
    void domainStepGradientsMatchFiniteDifferences() {
        AdversarialNetwork n = net(4, 1);
        DenseMatrix x = rows(6, 4, 2, 1.0);
        int[] batch = {0, 1, 2, 3, 4, 5};
        int[] ones = {1, 1, 1, 1, 1, 1};
        AdversarialTrainer.Config c = cfg(AdversarialTrainer.Mode.DANN, true);
        Map<DenseLayer, PerExample.Grad> g = AdversarialTrainer.domainStep(n, n.targetDomainHead(), x, batch, 1, c, false, noNoise(0));
        List<DenseLayer> check = new ArrayList<>(n.trunk().layers());
        check.addAll(n.targetDomainHead().layers());
        double h = 1e-6;
        for (DenseLayer l : check) {
            double[] w = l.weights().data();
            for (int k = 0; k < w.length; k += 3) {
                double old = w[k];
                w[k] = old + h;
                double up = loss(n, n.targetDomainHead(), x, ones);
                w[k] = old - h;
                double down = loss(n, n.targetDomainHead(), x, ones);
                w[k] = old;
                assertThat(g.get(l).w().data()[k]).isCloseTo((up - down) / (2 * h) / c.batch(), within(1e-6));
            }
        }
    }

    /** The factorised per-example norms equal each example's gradient computed alone. */
    @Test
    void perExampleNormsEqualBatchOfOneGradients() {
        AdversarialNetwork n = net(4, 3);
        DenseMatrix x = rows(5, 4, 4, 1.0);
        int[] y = {0, 2, 1, 1, 0};
        List<PerExample.Piece> pieces = pieces(n, x, y);
        double[] sq = PerExample.squaredNorms(pieces);
        for (int i = 0; i < 5; i++) {
            List<PerExample.Piece> alone = pieces(n, x.selectRows(new int[] {i}), new int[] {y[i]});
            double direct = 0;
            for (PerExample.Grad g : PerExample.weightedSum(alone, null).values()) {
                for (double v : g.w().data()) {
                    direct += v * v;
                }
                for (double v : g.b()) {
                    direct += v * v;
                }
            }
            assertThat(sq[i]).isCloseTo(direct, within(1e-10 * Math.max(1, direct)));
        }
    }

    static List<PerExample.Piece> pieces(AdversarialNetwork n, DenseMatrix x, int[] y) {
        List<PerExample.Piece> pieces = new ArrayList<>();
        Stack.Pass tp = n.trunk().forward(x);
        Stack.Pass hp = n.labelHead().forward(tp.output());
        Stack.Errors he = n.labelHead().backward(hp, PerExample.softmaxError(hp.output(), y), true);
        Stack.Errors te = n.trunk().backward(tp, he.inputError(), false);
        PerExample.collect(n.labelHead(), hp, he, pieces);
        PerExample.collect(n.trunk(), tp, te, pieces);
        return pieces;
    }

    /**
     * One target example's influence on everything it touches (domain head and trunk together) is at most C, however
     * large its features: the neighbouring-dataset bound of the target's release. Separate clipping allows sqrt(2) C.
     */
    @Test
    void oneTargetExampleMovesTheJointlyClippedSumByAtMostC() {
        AdversarialNetwork n = net(4, 5);
        DenseMatrix x = rows(7, 4, 6, 1.0);
        DenseMatrix withOutlier = DenseMatrix.fromRows(appendRow(x, new double[] {1e3, -1e3, 5e2, 0}));
        for (boolean joint : new boolean[] {true, false}) {
            AdversarialTrainer.Config c = cfg(AdversarialTrainer.Mode.DPDA, joint);
            Map<DenseLayer, PerExample.Grad> a = AdversarialTrainer.domainStep(n, n.targetDomainHead(), x,
                    new int[] {0, 1, 2, 3, 4, 5, 6}, 1, c, true, noNoise(0));
            Map<DenseLayer, PerExample.Grad> b = AdversarialTrainer.domainStep(n, n.targetDomainHead(), withOutlier,
                    new int[] {0, 1, 2, 3, 4, 5, 6, 7}, 1, c, true, noNoise(0));
            double sq = 0;
            for (DenseLayer l : a.keySet()) {
                double[] wa = a.get(l).w().data();
                double[] wb = b.get(l).w().data();
                for (int k = 0; k < wa.length; k++) {
                    sq += Math.pow((wa[k] - wb[k]) * c.batch(), 2);
                }
                for (int k = 0; k < a.get(l).b().length; k++) {
                    sq += Math.pow((a.get(l).b()[k] - b.get(l).b()[k]) * c.batch(), 2);
                }
            }
            double bound = joint ? c.clip() : Math.sqrt(2) * c.clip();
            assertThat(Math.sqrt(sq)).as("joint=" + joint).isLessThanOrEqualTo(bound * (1 + 1e-9));
        }
    }

    static double[][] appendRow(DenseMatrix x, double[] row) {
        double[][] r = new double[x.rows() + 1][];
        for (int i = 0; i < x.rows(); i++) {
            r[i] = x.row(i);
        }
        r[x.rows()] = row;
        return r;
    }

    @Test
    void gradientReversalFlipsAndScalesTheTrunkOnly() {
        AdversarialNetwork n = net(3, 7);
        AdversarialNetwork before = n.copy();
        DenseMatrix x = rows(4, 3, 8, 1.0);
        Map<DenseLayer, PerExample.Grad> g = AdversarialTrainer.domainStep(n, n.targetDomainHead(), x, new int[] {0, 1, 2, 3}, 1,
                cfg(AdversarialTrainer.Mode.DANN, true), false, noNoise(0));
        double lr = 0.1;
        double nu = 0.37;
        AdversarialTrainer.apply(g, lr, -nu, n.trunk());
        DenseLayer t0 = n.trunk().layers().get(0);
        DenseLayer t0b = before.trunk().layers().get(0);
        for (int k = 0; k < t0.weights().data().length; k++) {
            assertThat(t0.weights().data()[k] - t0b.weights().data()[k]).isCloseTo(lr * nu * g.get(t0).w().data()[k], within(1e-15));
        }
        DenseLayer h0 = n.targetDomainHead().layers().get(0);
        DenseLayer h0b = before.targetDomainHead().layers().get(0);
        for (int k = 0; k < h0.weights().data().length; k++) {
            assertThat(h0.weights().data()[k] - h0b.weights().data()[k]).isCloseTo(-lr * g.get(h0).w().data()[k], within(1e-15));
        }
        assertThat(AdversarialTrainer.nu(0, 10)).isZero();
        assertThat(AdversarialTrainer.nu(10, 10)).isCloseTo(2 / (1 + Math.exp(-10)) - 1, within(1e-15));
    }

    @Test
    void seededTrainingIsReproducibleAndDannSeparatesEasyClasses() {
        DenseMatrix xs = rows(120, 3, 9, 1.0);
        int[] ys = new int[120];
        for (int i = 0; i < 120; i++) {
            ys[i] = xs.get(i, 0) > 0 ? 1 : 0;
        }
        DenseMatrix xt = rows(100, 3, 10, 1.5);
        AdversarialNetwork init = AdversarialNetwork.create(3, new int[] {8}, Activation.SIGMOID, List.of("0", "1"), new int[0],
                Activation.RELU, false, 11);
        AdversarialTrainer.Config c = new AdversarialTrainer.Config(AdversarialTrainer.Mode.DPDA, 300, 20, 0.5, 0.05, 1.0, 1.0, true);
        AdversarialNetwork a = AdversarialTrainer.train(init, xs, ys, xt, c, new SessionRandomness(NoiseSource.seeded(1)),
                new SessionRandomness(NoiseSource.seeded(2)));
        AdversarialNetwork b = AdversarialTrainer.train(init, xs, ys, xt, c, new SessionRandomness(NoiseSource.seeded(1)),
                new SessionRandomness(NoiseSource.seeded(2)));
        assertThat(a.trunk().layers().get(0).weights().data()).containsExactly(b.trunk().layers().get(0).weights().data());
        AdversarialTrainer.Config dann = new AdversarialTrainer.Config(AdversarialTrainer.Mode.DANN, 300, 20, 0.5, 0.05, 1.0, 1.0, true);
        AdversarialNetwork d = AdversarialTrainer.train(init, xs, ys, xt, dann, noNoise(3), noNoise(4));
        int[] p = d.predict(xs);
        int ok = 0;
        for (int i = 0; i < p.length; i++) {
            ok += p[i] == ys[i] ? 1 : 0;
        }
        assertThat(ok / 120.0).isGreaterThan(0.85);
        // the target was never labelled, and its Poisson batches came from the target's own randomness
        assertThat(AdversarialTrainer.targetEvent(c, 100).toString()).contains("0.2");
    }
}
