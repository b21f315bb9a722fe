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

    /**
     * A synthetic multi-label task: x ~ N(0, I_10), label k = 1[x . w_k + 0.5 tanh(x_k x_{k+1}) > 0] for 4 fixed
     * directions w_k (roughly balanced labels, chance accuracy about 0.5).
     */
    static Object[] multiLabelTask(int n, long seed) {
        DenseMatrix x = gaussianRows(n, 10, seed, 1.0);
        SplittableRandom r = new SplittableRandom(99); // the task, fixed for every sample
        double[][] w = new double[4][10];
        for (double[] wk : w) {
            for (int j = 0; j < 10; j++) {
                wk[j] = r.nextGaussian();
            }
        }
        double[][] y = new double[n][4];
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < 4; k++) {
                double s = 0.5 * Math.tanh(x.get(i, k) * x.get(i, k + 1));
                for (int j = 0; j < 10; j++) {
                    s += x.get(i, j) * w[k][j];
                }
                y[i][k] = s > 0 ? 1 : 0;
            }
        }
        return new Object[] {x, y};
    }

    /** Three Gaussian classes in 10-D with unit-norm centres 2.5 apart on the first coordinates. */
    static Object[] softmaxTask(int n, long seed) {
        DenseMatrix x = gaussianRows(n, 10, seed, 0.7);
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = i % 3;
            x.add(i, y[i], 1.8);
        }
        return new Object[] {x, y};
    }

    static double[] perLabelAccuracy(EncoderClassifier m, DenseMatrix x, double[][] y) {
        DenseMatrix p = m.sigmoid(x);
        double[] acc = new double[y[0].length];
        for (int i = 0; i < y.length; i++) {
            for (int k = 0; k < acc.length; k++) {
                if ((p.get(i, k) > 0.5) == (y[i][k] > 0.5)) {
                    acc[k] += 1.0 / y.length;
                }
            }
        }
        return acc;
    }

    static double accuracy(EncoderClassifier m, DenseMatrix x, int[] y) {
        DenseMatrix p = m.logits(x);
        int ok = 0;
        for (int i = 0; i < y.length; i++) {
            int best = 0;
            for (int k = 1; k < p.cols(); k++) {
                if (p.get(i, k) > p.get(i, best)) {
                    best = k;
                }
            }
            ok += best == y[i] ? 1 : 0;
        }
        return (double) ok / y.length;
    }

    static EncoderClassifier fitNet(int outputs) {
        return EncoderClassifier.create(10, new int[] {16}, Activation.TANH, new int[0], Activation.IDENTITY, outputs, 21);
    }

    static final int N = 800;
    static final double DELTA = 1e-5;

    static StackDpSgdTrainer.Config fitConfig() {
        return new StackDpSgdTrainer.Config(600, 40, 1.0, 0.0, 64, "adam", 0.01, "constant", 0.0, 5L);
    }

    static double mean(double[] a) {
        return java.util.Arrays.stream(a).average().orElseThrow();
    }

    /**
     * Non-private training fits both tasks (held-out per-label accuracy >= 0.9 on every label; softmax accuracy
     * >= 0.9); DP training calibrated to epsilon = 20 (delta 1e-5, RDP) comes within 0.05 of it on every label; at
     * epsilon = 0.01 it does not fit (mean per-label accuracy < 0.65, chance about 0.5; softmax < 0.6, chance 1/3).
     * Fixed seeds; observed: non-private 0.96-0.975 per label and 0.924 softmax, epsilon 20 within 0.01 of them,
     * epsilon 0.01 about 0.49 and 0.46.
     */
    @Test
    void fitsWithoutPrivacyApproachesItAtHugeEpsilonAndFailsAtTinyEpsilon() {
        RdpAccountant rdp = new RdpAccountant(NeighbouringRelation.ADD_OR_REMOVE_ONE);
        Object[] tr = multiLabelTask(N, 31);
        Object[] te = multiLabelTask(N, 32);
        Targets ml = Targets.multiLabel((double[][]) tr[1]);
        StackDpSgdTrainer.Config c = fitConfig();
        double[] plain = perLabelAccuracy(StackDpSgdTrainer.trainNonPrivate(fitNet(4), (DenseMatrix) tr[0], ml, c).model(),
                (DenseMatrix) te[0], (double[][]) te[1]);
        StackDpSgdTrainer.Config loose = StackDpSgdTrainer.calibrate(c, N, rdp, 20, DELTA);
        StackDpSgdTrainer.Config tight = StackDpSgdTrainer.calibrate(c, N, rdp, 0.01, DELTA);
        double[] dpLoose = perLabelAccuracy(StackDpSgdTrainer.train(fitNet(4), (DenseMatrix) tr[0], ml, loose, new SeededRandomness(41)).model(),
                (DenseMatrix) te[0], (double[][]) te[1]);
        double[] dpTight = perLabelAccuracy(StackDpSgdTrainer.train(fitNet(4), (DenseMatrix) tr[0], ml, tight, new SeededRandomness(42)).model(),
                (DenseMatrix) te[0], (double[][]) te[1]);
        for (int k = 0; k < 4; k++) {
            assertThat(plain[k]).as("non-private, label %d", k).isGreaterThanOrEqualTo(0.9);
            assertThat(dpLoose[k]).as("epsilon 20, label %d", k).isGreaterThanOrEqualTo(plain[k] - 0.05);
        }
        assertThat(mean(dpTight)).as("epsilon 0.01").isLessThan(0.65);
        assertThat(tight.noiseMultiplier()).isGreaterThan(100 * loose.noiseMultiplier());

        Object[] str = softmaxTask(N, 33);
        Object[] ste = softmaxTask(N, 34);
        Targets sm = Targets.classes((int[]) str[1]);
        double plainS = accuracy(StackDpSgdTrainer.trainNonPrivate(fitNet(3), (DenseMatrix) str[0], sm, c).model(), (DenseMatrix) ste[0], (int[]) ste[1]);
        double looseS = accuracy(StackDpSgdTrainer.train(fitNet(3), (DenseMatrix) str[0], sm, loose, new SeededRandomness(43)).model(),
                (DenseMatrix) ste[0], (int[]) ste[1]);
        double tightS = accuracy(StackDpSgdTrainer.train(fitNet(3), (DenseMatrix) str[0], sm, tight, new SeededRandomness(44)).model(),
                (DenseMatrix) ste[0], (int[]) ste[1]);
        assertThat(plainS).as("non-private softmax").isGreaterThanOrEqualTo(0.88);
        assertThat(looseS).as("epsilon 20 softmax").isGreaterThanOrEqualTo(plainS - 0.05);
        assertThat(tightS).as("epsilon 0.01 softmax (chance 1/3)").isLessThan(0.6);
    }

    /** The event is T Poisson-subsampled Gaussians at q = B / n, as the accountant's calibration assumes. */
    @Test
    void theEventIsWhatTheAccountantCalibrates() {
        RdpAccountant rdp = new RdpAccountant(NeighbouringRelation.ADD_OR_REMOVE_ONE);
        StackDpSgdTrainer.Config c = cfg(300, 50, 1.0, 0.0, "adam", 0.01);
        StackDpSgdTrainer.Config cal = StackDpSgdTrainer.calibrate(c, 2000, rdp, 2.0, 1e-5);
        assertThat(StackDpSgdTrainer.samplingRate(c, 2000)).isEqualTo(0.025);
        assertThat(StackDpSgdTrainer.event(cal, 2000)).isEqualTo(NoiseCalibration.dpSgdEvent(cal.noiseMultiplier(), 0.025, 300));
        assertThat(cal.noiseMultiplier()).isEqualTo(NoiseCalibration.noiseMultiplier(rdp, 2.0, 1e-5, 0.025, 300));
        double eps = rdp.epsilon(StackDpSgdTrainer.event(cal, 2000), 1e-5);
        assertThat(eps).isLessThanOrEqualTo(2.0).isGreaterThan(1.99);
        // B > n: every row in every batch (q = 1), and the normaliser is n
        assertThat(StackDpSgdTrainer.samplingRate(c, 30)).isEqualTo(1.0);
        // the run's result carries the same event
        DenseMatrix x = gaussianRows(2000, 4, 50, 1.0);
        StackDpSgdTrainer.Result r = StackDpSgdTrainer.train(tiny(3, 51), x, bothLosses(2000, 52).get(1), cal.withIterations(3),
                new SeededRandomness(53));
        assertThat(r.event()).isEqualTo(StackDpSgdTrainer.event(cal.withIterations(3), 2000));
        assertThat(r.isPrivate()).isFalse(); // seeded randomness
        // iterations within a budget at a given sigma: the largest T that fits
        StackDpSgdTrainer.Config fit = StackDpSgdTrainer.iterationsWithinBudget(c.withNoiseMultiplier(1.0).withIterations(100_000), 2000,
                rdp, 2.0, 1e-5);
        assertThat(rdp.epsilon(StackDpSgdTrainer.event(fit, 2000), 1e-5)).isLessThanOrEqualTo(2.0);
        assertThat(rdp.epsilon(StackDpSgdTrainer.event(fit.withIterations(fit.iterations() + 1), 2000), 1e-5)).isGreaterThan(2.0);
    }

    /** Rows 0..n-1 of x, then {@code extra}. */
    static DenseMatrix withRow(DenseMatrix x, double[] extra) {
        double[][] r = new double[x.rows() + 1][];
        for (int i = 0; i < x.rows(); i++) {
            r[i] = x.row(i);
        }
        r[x.rows()] = extra;
        return DenseMatrix.fromRows(r);
    }

    /**
     * The neighbouring-dataset bound of one step's query: with the same seeded randomness (so the same Poisson draws
     * for the shared rows), adding an example far outside any bound (features 1e3) moves the pre-noise clipped sum by
     * at most C in L2 over every trainable parameter; replacing one by at most 2C. Both losses, a frozen encoder
     * layer, physical chunks smaller than the batch. Removing the clipping makes it fail (checked by mutation).
     */
    @Test
    void oneExampleMovesThePreNoiseSumByAtMostC() {
        int n = 30;
        DenseMatrix x = gaussianRows(n, 4, 60, 1.0);
        double[] outlier = {1e3, -1e3, 5e2, 2e2};
        DenseMatrix added = withRow(x, outlier);
        DenseMatrix replaced = x.copy();
        replaced.setRow(0, outlier);
        SplittableRandom r = new SplittableRandom(61);
        int[] classes = new int[n + 1];
        double[][] multi = multiLabelTargets(n + 1, 3, 62);
        for (int i = 0; i <= n; i++) {
            classes[i] = r.nextInt(3);
        }
        double[][] multiN = java.util.Arrays.copyOf(multi, n);
        List<Targets[]> pairs = List.of(new Targets[] {Targets.classes(java.util.Arrays.copyOf(classes, n)), Targets.classes(classes)},
                new Targets[] {Targets.multiLabel(multiN), Targets.multiLabel(multi)});
        double clip = 0.5;
        StackDpSgdTrainer.Config c = new StackDpSgdTrainer.Config(1, 10, clip, 1.0, 4, "sgd", 0.1, "constant", 0.0, 1L);
        double q = StackDpSgdTrainer.samplingRate(c, n); // a constant of the mechanism (public n): the same for both
        int withOutlier = 0;
        double maxAdd = 0;
        double maxReplace = 0;
        for (Targets[] pair : pairs) {
            EncoderClassifier m = tiny(3, 63);
            m.encoder().layers().get(0).freeze();
            for (long seed = 0; seed < 20; seed++) {
                StackDpSgdTrainer.Step a = StackDpSgdTrainer.preNoiseStep(m, x, pair[0], q, c, new SeededRandomness(seed), 0);
                StackDpSgdTrainer.Step b = StackDpSgdTrainer.preNoiseStep(m, added, pair[1], q, c, new SeededRandomness(seed), 0);
                // the first n draws are shared: b's batch is a's, plus the new row when drawn
                assertThat(b.batchSize() - a.batchSize()).isBetween(0, 1);
                double d = distance(a.sum(), b.sum());
                if (b.batchSize() > a.batchSize()) {
                    withOutlier++;
                    assertThat(d).as("the outlier's clipped gradient is at the bound").isGreaterThan(0.99 * clip);
                } else {
                    assertThat(d).isZero();
                }
                maxAdd = Math.max(maxAdd, d);
                StackDpSgdTrainer.Step rep = StackDpSgdTrainer.preNoiseStep(m, replaced, pair[0], q, c, new SeededRandomness(seed), 0);
                maxReplace = Math.max(maxReplace, distance(a.sum(), rep.sum()));
            }
        }
        assertThat(maxAdd).as("add one").isLessThanOrEqualTo(clip * (1 + 1e-9));
        assertThat(maxReplace).as("replace one").isLessThanOrEqualTo(2 * clip * (1 + 1e-9)).isGreaterThan(clip);
        assertThat(withOutlier).as("some batches contain the added row").isGreaterThan(3);
    }

    /** A non-finite gradient stops training in both modes instead of entering a sum unclipped. */
    @Test
    void aNonFiniteGradientStopsTraining() {
        DenseMatrix x = gaussianRows(20, 4, 70, 1.0);
        for (Targets y : bothLosses(20, 71)) {
            EncoderClassifier init = tiny(3, 72);
            init.classifier().layers().get(0).weights().set(0, 0, Double.NaN);
            assertThat(catchThrowable(() -> StackDpSgdTrainer.train(init, x, y, cfg(3, 10, 1.0, 1.0, "sgd", 0.1), new SeededRandomness(1))))
                    .isInstanceOf(NonFiniteGradientException.class).hasMessageContaining("step 1");
            assertThat(catchThrowable(() -> StackDpSgdTrainer.trainNonPrivate(init, x, y, cfg(3, 10, 1.0, 1.0, "sgd", 0.1))))
                    .isInstanceOf(NonFiniteGradientException.class).hasMessageContaining("step 1");
        }
    }

    @Test
    void rejectsMismatchedTargetsAndAllFrozenNetworks() {
        DenseMatrix x = gaussianRows(5, 4, 80, 1.0);
        StackDpSgdTrainer.Config c = cfg(1, 2, 1.0, 1.0, "sgd", 0.1);
        assertThat(catchThrowable(() -> StackDpSgdTrainer.trainNonPrivate(tiny(3, 1), x, Targets.classes(new int[] {0, 1, 2, 3, 0}), c)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("label 3");
        assertThat(catchThrowable(() -> StackDpSgdTrainer.trainNonPrivate(tiny(2, 1), x, Targets.multiLabel(multiLabelTargets(5, 3, 1)), c)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(catchThrowable(() -> StackDpSgdTrainer.trainNonPrivate(tiny(3, 1), x, Targets.classes(new int[] {0, 1}), c)))
                .isInstanceOf(IllegalArgumentException.class);
        EncoderClassifier frozen = tiny(3, 1);
        frozen.layers().forEach(DenseLayer::freeze);
        assertThat(catchThrowable(() -> StackDpSgdTrainer.train(frozen, x, Targets.classes(new int[] {0, 1, 2, 1, 0}), c, new SeededRandomness(1))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("frozen");
    }

    /**
     * Paper 004's shapes on sparse input: hashed bag-of-words 4096 -> 256 (relu) -> 9 labels, 20 distinct buckets per
     * row; label k is on when any of 40 buckets of its own is present. Non-private training lowers the mean loss by
     * half and beats the all-negative predictor on every label; a few private steps run (1.05M noised parameters).
     */
    @Test
    void paper004ShapesOnSparseHashedInput() {
        int n = 400;
        int d = 4096;
        SplittableRandom r = new SplittableRandom(90);
        int[] start = new int[n + 1];
        int[] cols = new int[n * 20];
        double[] vals = new double[n * 20];
        double[][] y = new double[n][9];
        for (int i = 0; i < n; i++) {
            java.util.TreeSet<Integer> buckets = new java.util.TreeSet<>();
            while (buckets.size() < 20) {
                buckets.add(r.nextInt(d));
            }
            int k = i * 20;
            for (int b : buckets) {
                cols[k] = b;
                vals[k] = 1.0 / Math.sqrt(20);
                k++;
                if (b < 9 * 40) {
                    y[i][b / 40] = 1;
                }
            }
            start[i + 1] = k;
        }
        CsrMatrix x = new CsrMatrix(n, d, start, cols, vals);
        Targets t = Targets.multiLabel(y);
        EncoderClassifier init = EncoderClassifier.create(d, new int[] {256}, Activation.RELU, new int[0], Activation.IDENTITY, 9, 91);
        StackDpSgdTrainer.Config c = new StackDpSgdTrainer.Config(120, 32, 1.0, 1.0, 256, "adam", 0.005, "constant", 0.0, 92L);
        StackDpSgdTrainer.Result plain = StackDpSgdTrainer.trainNonPrivate(init, x, t, c);
        double before = t.lossSum(init.logits(x), range(n)) / n;
        double after = t.lossSum(plain.model().logits(x), range(n)) / n;
        assertThat(after).isLessThan(0.5 * before);
        double[] acc = perLabelAccuracy(plain.model(), x.toDense(), y);
        for (int k = 0; k < 9; k++) {
            double positives = 0;
            for (double[] row : y) {
                positives += row[k];
            }
            assertThat(acc[k]).as("label %d", k).isGreaterThan(1 - positives / n);
        }
        StackDpSgdTrainer.Result dp = StackDpSgdTrainer.train(init, x, t, c.withIterations(3), new SeededRandomness(93));
        assertThat(dp.model().trainableParameterCount()).isEqualTo(4096L * 256 + 256 + 256 * 9 + 9);
        assertThat(dp.meanBatchLoss()).hasSize(3);
    }

    static int[] range(int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        return a;
    }

    static double[][] zerosLike(double[][] a) {
        double[][] z = new double[a.length][];
        for (int k = 0; k < a.length; k++) {
            z[k] = new double[a[k].length];
        }
        return z;
    }
}
