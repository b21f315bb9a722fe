package org.privadapt.models.dp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.CsrMatrix;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.graph.DenseLayer;
import org.privadapt.models.nn.graph.EncoderClassifier;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.accounting.NoiseCalibration;
import org.privadapt.privacy.accounting.RdpAccountant;
import org.privadapt.privacy.events.NonPrivateEvent;

class StackDpSgdTrainerTest {
    static StackDpSgdTrainer.Config cfg(long t, int batch, double clip, double sigma, String opt, double lr) {
        return new StackDpSgdTrainer.Config(t, batch, clip, sigma, 16, opt, lr, "constant", 0.0, 7L);
    }

    static DenseMatrix gaussianRows(int n, int d, long seed, double scale) {
        SplittableRandom r = new SplittableRandom(seed);
        DenseMatrix x = DenseMatrix.zeros(n, d);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                x.set(i, j, scale * r.nextGaussian());
            }
        }
        return x;
    }

    /** Tiny network: encoder 4 -> 5 -> 3 (tanh), classifier 3 -> 4 -> k (elu hidden): smooth, so differences work. */
    static EncoderClassifier tiny(int k, long seed) {
        return EncoderClassifier.create(4, new int[] {5, 3}, Activation.TANH, new int[] {4}, Activation.ELU, k, seed);
    }

    static double[][] multiLabelTargets(int n, int k, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] y = new double[n][k];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < k; j++) {
                y[i][j] = r.nextBoolean() ? 1 : 0;
            }
        }
        return y;
    }

    static double loss(EncoderClassifier m, FeatureMatrix x, Targets y, int[] idx) {
        return y.lossSum(m.logits(x.selectRows(idx)), idx);
    }

    /** Central differences of {@code f} with respect to every trainable parameter, in the trainer's array order. */
    static double[][] numericGradient(EncoderClassifier m, java.util.function.DoubleSupplier f) {
        List<DenseLayer> layers = m.trainableLayers();
        double[][] g = new double[2 * layers.size()][];
        double h = 1e-6;
        for (int l = 0; l < layers.size(); l++) {
            double[][] arrays = {layers.get(l).weights().data(), layers.get(l).bias()};
            for (int part = 0; part < 2; part++) {
                double[] p = arrays[part];
                double[] out = new double[p.length];
                for (int k = 0; k < p.length; k++) {
                    double old = p[k];
                    p[k] = old + h;
                    double up = f.getAsDouble();
                    p[k] = old - h;
                    double down = f.getAsDouble();
                    p[k] = old;
                    out[k] = (up - down) / (2 * h);
                }
                g[2 * l + part] = out;
            }
        }
        return g;
    }

    static void assertClose(double[][] a, double[][] b, double tol) {
        assertThat(a.length).isEqualTo(b.length);
        for (int k = 0; k < a.length; k++) {
            assertThat(a[k].length).isEqualTo(b[k].length);
            for (int j = 0; j < a[k].length; j++) {
                assertThat(a[k][j]).as("array %d entry %d", k, j).isCloseTo(b[k][j], within(tol * Math.max(1, Math.abs(b[k][j]))));
            }
        }
    }

    static double distance(double[][] a, double[][] b) {
        double s = 0;
        for (int k = 0; k < a.length; k++) {
            for (int j = 0; j < a[k].length; j++) {
                s += (a[k][j] - b[k][j]) * (a[k][j] - b[k][j]);
            }
        }
        return Math.sqrt(s);
    }

    static List<Targets> bothLosses(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int[] classes = new int[n];
        for (int i = 0; i < n; i++) {
            classes[i] = r.nextInt(3);
        }
        return List.of(Targets.classes(classes), Targets.multiLabel(multiLabelTargets(n, 3, seed + 1)));
    }

    /**
     * The unclipped summed gradient over every trainable parameter of both stacks (the lowest encoder layer frozen)
     * equals central differences of the summed loss, for both losses, dense and sparse input, and chunked batches.
     */
    @Test
    void gradientSumMatchesFiniteDifferencesOfTheJointLoss() {
        DenseMatrix dense = gaussianRows(9, 4, 1, 1.0);
        for (FeatureMatrix x : List.of(dense, CsrMatrix.fromDense(dense))) {
            for (Targets y : bothLosses(9, 2)) {
                EncoderClassifier m = tiny(3, 3);
                m.encoder().layers().get(0).freeze();
                int[] batch = {0, 2, 3, 5, 6, 8};
                StackDpSgdTrainer.Step s = StackDpSgdTrainer.gradientSum(m, x, y, batch, Double.NaN, 4, 0);
                double[][] fd = numericGradient(m, () -> loss(m, x, y, batch));
                assertThat(s.sum().length).isEqualTo(2 * 3); // three trainable layers: weights and bias each
                assertClose(s.sum(), fd, 1e-6);
                assertThat(s.lossSum()).isCloseTo(loss(m, x, y, batch), within(1e-10));
            }
        }
    }

    /**
     * DP mode: the clipped sum is sum_i min(1, C / ||g_i||) g_i with g_i each example's finite-difference gradient
     * (the bound is active for half the examples).
     */
    @Test
    void clippedSumIsTheSumOfFiniteDifferenceGradientsEachClipped() {
        DenseMatrix x = gaussianRows(6, 4, 4, 2.0);
        for (Targets y : bothLosses(6, 5)) {
            EncoderClassifier m = tiny(3, 6);
            int[] batch = {0, 1, 2, 3, 4, 5};
            double[][][] perExample = new double[batch.length][][];
            double[] norms = new double[batch.length];
            for (int i = 0; i < batch.length; i++) {
                int[] one = {batch[i]};
                perExample[i] = numericGradient(m, () -> loss(m, x, y, one));
                norms[i] = distance(perExample[i], zerosLike(perExample[i]));
            }
            double[] sorted = norms.clone();
            java.util.Arrays.sort(sorted);
            double clip = 0.5 * (sorted[2] + sorted[3]);
            double[][] expected = zerosLike(perExample[0]);
            for (int i = 0; i < batch.length; i++) {
                double f = Math.min(1.0, clip / norms[i]);
                for (int k = 0; k < expected.length; k++) {
                    for (int j = 0; j < expected[k].length; j++) {
                        expected[k][j] += f * perExample[i][k][j];
                    }
                }
            }
            StackDpSgdTrainer.Step s = StackDpSgdTrainer.gradientSum(m, x, y, batch, clip, 4, 0);
            assertClose(s.sum(), expected, 1e-6);
        }
    }

    static double[][] snapshot(EncoderClassifier m) {
        List<DenseLayer> ls = m.trainableLayers();
        double[][] p = new double[2 * ls.size()][];
        for (int l = 0; l < ls.size(); l++) {
            p[2 * l] = ls.get(l).weights().data().clone();
            p[2 * l + 1] = ls.get(l).bias().clone();
        }
        return p;
    }

    /** One private step with sigma = 0 and q = 1 moves the parameters by -lr * (clipped sum) / (q n). */
    @Test
    void onePrivateNoiselessFullBatchStepIsTheClippedSumOverTheExpectedBatch() {
        DenseMatrix x = gaussianRows(10, 4, 8, 1.5);
        for (Targets y : bothLosses(10, 9)) {
            EncoderClassifier init = tiny(3, 10);
            StackDpSgdTrainer.Config c = cfg(1, 12, 0.3, 0.0, "sgd", 0.7); // B >= n: q = 1, normaliser n = 10
            EncoderClassifier after = StackDpSgdTrainer.train(init, x, y, c, new SeededRandomness(1)).model();
            double[][] sum = StackDpSgdTrainer.gradientSum(init, x, y, new int[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, 0.3, 16, 0).sum();
            double[][] before = snapshot(init);
            double[][] now = snapshot(after);
            for (int k = 0; k < now.length; k++) {
                for (int j = 0; j < now[k].length; j++) {
                    assertThat(now[k][j]).isCloseTo(before[k][j] - 0.7 * sum[k][j] / 10.0, within(1e-12));
                }
            }
        }
    }

    /** One non-private full-batch SGD step moves the parameters by -lr times the finite-difference mean gradient. */
    @Test
    void oneNonPrivateFullBatchStepFollowsTheFiniteDifferenceMeanGradient() {
        DenseMatrix x = gaussianRows(7, 4, 11, 1.0);
        int[] all = {0, 1, 2, 3, 4, 5, 6};
        for (Targets y : bothLosses(7, 12)) {
            EncoderClassifier init = tiny(3, 13);
            init.encoder().layers().get(1).freeze(); // a frozen layer between trained ones
            double[][] fd = numericGradient(init, () -> loss(init, x, y, all) / all.length);
            StackDpSgdTrainer.Result r = StackDpSgdTrainer.trainNonPrivate(init, x, y, cfg(1, 7, 1.0, 0.0, "sgd", 0.3));
            double[][] before = snapshot(init);
            double[][] now = snapshot(r.model());
            for (int k = 0; k < now.length; k++) {
                for (int j = 0; j < now[k].length; j++) {
                    assertThat(now[k][j]).isCloseTo(before[k][j] - 0.3 * fd[k][j], within(1e-7));
                }
            }
            assertThat(r.isPrivate()).isFalse();
            assertThat(r.event()).isInstanceOf(NonPrivateEvent.class);
        }
    }

    /** Counts the noise draws; otherwise the seeded test randomness. */
    static final class Counting implements NoiseAndSampling {
        final SeededRandomness inner;
        long noiseDraws;

        Counting(long seed) {
            inner = new SeededRandomness(seed);
        }

        public boolean bernoulli(double p) {
            return inner.bernoulli(p);
        }

        public void addGaussian(double[] v, double sigma) {
            noiseDraws += v.length;
            inner.addGaussian(v, sigma);
        }

        public boolean isPrivate() {
            return false;
        }

        public String description() {
            return "counting test randomness";
        }
    }

    /** Frozen layers are returned unchanged in both modes, get no noise, and the others do move. */
    @Test
    void frozenLayersAreUnchangedAndGetNoNoise() {
        DenseMatrix x = gaussianRows(40, 4, 14, 1.0);
        for (Targets y : bothLosses(40, 15)) {
            EncoderClassifier init = tiny(3, 16);
            DenseLayer frozen = init.encoder().layers().get(0).freeze();
            double[] w0 = frozen.weights().data().clone();
            double[] b0 = frozen.bias().clone();
            Counting rnd = new Counting(3);
            StackDpSgdTrainer.Config c = cfg(20, 10, 1.0, 1.0, "adam", 0.01);
            StackDpSgdTrainer.Result dp = StackDpSgdTrainer.train(init, x, y, c, rnd);
            StackDpSgdTrainer.Result plain = StackDpSgdTrainer.trainNonPrivate(init, x, y, c);
            for (StackDpSgdTrainer.Result r : List.of(dp, plain)) {
                DenseLayer l0 = r.model().encoder().layers().get(0);
                assertThat(l0.frozen()).isTrue();
                assertThat(l0.weights().data()).containsExactly(w0);
                assertThat(l0.bias()).containsExactly(b0);
                double[][] before = snapshot(init);
                double[][] after = snapshot(r.model());
                for (int k = 0; k < before.length; k++) {
                    assertThat(after[k]).as("trainable array %d moved", k).isNotEqualTo(before[k]);
                }
            }
            assertThat(rnd.noiseDraws).isEqualTo(20 * init.trainableParameterCount());
            assertThat(init.trainableParameterCount()).isEqualTo((5 * 3 + 3) + (3 * 4 + 4) + (4 * 3 + 3));
        }
    }

    static double[][] zerosLike(double[][] a) {
        double[][] z = new double[a.length][];
        for (int k = 0; k < a.length; k++) {
            z[k] = new double[a[k].length];
        }
        return z;
    }
}
