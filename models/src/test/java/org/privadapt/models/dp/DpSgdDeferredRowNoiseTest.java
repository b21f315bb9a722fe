package org.privadapt.models.dp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.CsrMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.Network;

/**
 * DP-SGD on sparse input with the first layer's noise deferred to the rows the next batch reads (issue 32): taken
 * only for plain SGD at a constant rate without weight decay, with secure noise drawn ahead; every parameter ends
 * with all its noise (each step's, once, at the configured scale); only the rows read are drawn for; and the
 * gradient part of the updates is the ordinary loop's.
 */
class DpSgdDeferredRowNoiseTest {
    private static final int CORES = AheadRandomness.CORES;
    private static final double NOISE_MULTIPLIER = 1e4; // the clipped sums (at most batch x clip) vanish beside the noise
    private static final long STEPS = 12;
    private static final double LR = 0.01;

    private static int[] labels(int n) {
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = i % 2;
        }
        return y;
    }

    private static DpSgdConfig config(int n, double noiseMultiplier, long steps, double lr, String optimizer, String schedule,
                                      double weightDecay) {
        double q = 10.0 / n;
        return new DpSgdConfig(1.0, noiseMultiplier, q, q * n, steps, 64, optimizer, lr, schedule, weightDecay, 1L);
    }

    @Test
    void theFirstLayersNoiseIsDrawnForTheRowsReadAndEveryParameterEndsWithAllOfIt() {
        assumeTrue(CORES >= 2, "drawing ahead needs a second core");
        int n = 400;
        int d = 6_000;
        CsrMatrix x = AheadRandomness.sparseOnes(n, d, 31);
        int hidden = 4;
        Network init = Network.create(d, new int[] {hidden}, Activation.RELU, List.of("a", "b"), 5);
        AheadRandomness rnd = new AheadRandomness(33, true, true);
        DpSgdConfig c = config(n, NOISE_MULTIPLIER, STEPS, LR, "sgd", "constant", 0.0);
        Network after = DpSgdTrainer.train(init, x, labels(n), c, rnd).model();

        // the batches, replayed from the same sampling seed: step t + 1's batch decides which rows step t gives noise
        SplittableRandom sampling = new SplittableRandom(33);
        List<int[]> batches = new ArrayList<>();
        for (long t = 0; t < STEPS; t++) {
            List<Integer> b = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                if (sampling.nextDouble() < c.samplingRate()) {
                    b.add(i);
                }
            }
            batches.add(b.stream().mapToInt(Integer::intValue).toArray());
        }
        long rowsGivenNoise = d; // the last step gives every row its pending noise
        for (int t = 1; t < STEPS; t++) {
            boolean[] read = new boolean[d];
            for (int i : batches.get(t)) {
                for (int k = x.rowStart(i); k < x.rowEnd(i); k++) {
                    read[x.colIndexAt(k)] = true;
                }
            }
            for (boolean r : read) {
                rowsGivenNoise += r ? 1 : 0;
            }
        }
        assertThat(rnd.ahead).isZero();
        assertThat(rnd.into).isEqualTo((int) STEPS + 1); // a probe of nothing, then one draw a step
        assertThat(rnd.intoCoordinates).isEqualTo(rowsGivenNoise * hidden);
        assertThat(rnd.intoCoordinates).isLessThan(STEPS * d * hidden / 4); // batches of ~10 rows of 5 features
        assertThat(rnd.direct).isEqualTo(3 * (int) STEPS); // b0, W1, b1 in place each step

        // plain SGD: theta_T = theta_0 - lr sum_t (g_t + N(0, sigma^2)) / normaliser, for every parameter
        double sd = LR * NOISE_MULTIPLIER * Math.sqrt(STEPS) / c.normaliser();
        List<double[]> before = init.parameterArrays();
        List<double[]> now = after.parameterArrays();
        int total = before.stream().mapToInt(a -> a.length).sum();
        double[] z = new double[total];
        int at = 0;
        for (int a = 0; a < before.size(); a++) {
            for (int k = 0; k < before.get(a).length; k++) {
                z[at++] = (now.get(a)[k] - before.get(a)[k]) / sd;
            }
        }
        AheadRandomness.assertStandardNormal(z);
    }

    @Test
    void theGradientPartOfEveryUpdateIsTheOrdinaryLoops() {
        assumeTrue(CORES >= 2, "drawing ahead needs a second core");
        int n = 200;
        int d = 300;
        CsrMatrix x = AheadRandomness.sparseOnes(n, d, 41);
        Network init = Network.create(d, new int[] {6}, Activation.RELU, List.of("a", "b"), 7);
        // the noise is negligible: the updates are the gradients' (with weight decay and a schedule as well)
        for (DpSgdConfig c : List.of(config(n, 1e-9, 40, 0.5, "sgd", "constant", 0.0),
                config(n, 1e-9, 40, 0.5, "sgd", "exp:0.97", 0.05), config(n, 1e-9, 40, 0.5, "sgd", "cosine", 0.01))) {
            AheadRandomness ordinary = new AheadRandomness(43, true, false); // the same sampling seed: the same batches
            AheadRandomness deferred = new AheadRandomness(43, true, true);
            Network a = DpSgdTrainer.train(init, x, labels(n), c, ordinary).model();
            Network b = DpSgdTrainer.train(init, x, labels(n), c, deferred).model();
            assertThat(ordinary.into).isZero();
            assertThat(deferred.into).isEqualTo(41);
            List<double[]> pa = a.parameterArrays();
            List<double[]> pb = b.parameterArrays();
            double moved = 0;
            for (int k = 0; k < pa.size(); k++) {
                for (int i = 0; i < pa.get(k).length; i++) {
                    assertThat(pb.get(k)[i]).as("%s wd %s: array %d, parameter %d", c.schedule(), c.weightDecay(), k, i)
                            .isCloseTo(pa.get(k)[i], within(1e-7));
                    moved = Math.max(moved, Math.abs(pa.get(k)[i] - init.parameterArrays().get(k)[i]));
                }
            }
            assertThat(moved).isGreaterThan(0.05); // training did move the model
        }
    }

    @Test
    void withWeightDecayAndASchedulePendingNoiseDecaysAsTheOrdinaryLoopDecaysIt() {
        // the ordinary loop: w_T = prod_t (1 - lr_t wd) w_0 + noise of variance
        // sum_t (lr_t sigma / M)^2 prod_{r > t} (1 - lr_r wd)^2 for weights; biases are not decayed
        assumeTrue(CORES >= 2, "drawing ahead needs a second core");
        int n = 400;
        int d = 3_000;
        CsrMatrix x = AheadRandomness.sparseOnes(n, d, 61);
        Network init = Network.create(d, new int[] {4}, Activation.RELU, List.of("a", "b"), 11);
        double wd = 5.0;
        DpSgdConfig c = config(n, NOISE_MULTIPLIER, STEPS, LR, "sgd", "exp:0.9", wd);
        AheadRandomness rnd = new AheadRandomness(63, true, true);
        Network after = DpSgdTrainer.train(init, x, labels(n), c, rnd).model();
        assertThat(rnd.into).isEqualTo((int) STEPS + 1);
        org.privadapt.models.nn.LearningRateSchedule schedule = org.privadapt.models.nn.LearningRateSchedule.parse(c.schedule(), LR);
        double sigmaOverM = NOISE_MULTIPLIER / c.normaliser();
        double kept = 1;
        double weightVar = 0;
        double biasVar = 0;
        for (long t = 0; t < STEPS; t++) {
            double lr = schedule.at(t, STEPS);
            double f = 1 - lr * wd;
            kept *= f;
            weightVar = f * f * weightVar + (lr * sigmaOverM) * (lr * sigmaOverM);
            biasVar += (lr * sigmaOverM) * (lr * sigmaOverM);
        }
        assertThat(kept).isLessThan(0.75); // the decay matters: noise not decayed would have 1.4x this variance
        List<double[]> before = init.parameterArrays();
        List<double[]> now = after.parameterArrays();
        List<Double> z = new ArrayList<>();
        for (int a = 0; a < before.size(); a++) {
            boolean weights = a % 2 == 0;
            for (int k = 0; k < before.get(a).length; k++) {
                double expected = weights ? kept * before.get(a)[k] : before.get(a)[k];
                z.add((now.get(a)[k] - expected) / Math.sqrt(weights ? weightVar : biasVar));
            }
        }
        AheadRandomness.assertStandardNormal(z.stream().mapToDouble(Double::doubleValue).toArray());
    }

    @Test
    void momentumAdamDenseInputAndSeededBitsUseTheOrdinaryLoop() {
        int n = 200;
        CsrMatrix x = AheadRandomness.sparseOnes(n, 300, 51);
        Network init = Network.create(300, new int[] {3}, Activation.RELU, List.of("a", "b"), 9);
        List<DpSgdConfig> configs = List.of(config(n, 1.0, 3, 0.1, "momentum", "constant", 0.0),
                config(n, 1.0, 3, 0.1, "adam", "constant", 0.0), config(n, 1.0, 3, 0.1, "adamw", "constant", 0.0));
        for (DpSgdConfig c : configs) {
            AheadRandomness rnd = new AheadRandomness(53, true, true);
            DpSgdTrainer.train(init, x, labels(n), c, rnd);
            assertThat(rnd.into).as("%s %s wd %s", c.optimizer(), c.schedule(), c.weightDecay()).isZero();
        }
        DpSgdConfig plain = config(n, 1.0, 3, 0.1, "sgd", "constant", 0.0);
        AheadRandomness dense = new AheadRandomness(55, true, true);
        FeatureMatrix xd = x.toDense();
        DpSgdTrainer.train(init, xd, labels(n), plain, dense);
        assertThat(dense.into).isZero();
        AheadRandomness seeded = new AheadRandomness(57, false, true);
        DpSgdTrainer.train(init, x, labels(n), plain, seeded);
        assertThat(seeded.into).isZero(); // reproducible bits are not drawn ahead: the ordinary loop, its draws in order
        assertThat(seeded.direct).isEqualTo(4 * 3);
    }

    @Test
    void theFirstLayersUpdateTakesEachNoiseValueOnceInOrderForTheRowsRead() {
        // 3 inputs x 2 hidden, column-major; rows 0 and 2 given noise (scales 2 and 3), row 1 not
        double[] w = new double[6];
        double[] g = {1, 1, 1, 1, 1, 1};
        double[] noise = {10, 20, 30, 40, 99, 99};
        DeferredRowNoise.applyFirstLayer(w, g, 3, 2, 0.5, 0.25, 0.0, new int[] {0, 2, 0}, new double[] {2, 0, 3}, 2, noise);
        double step = -0.5 * 0.25;
        assertThat(w).containsExactly(step + 2 * 10, step, step + 3 * 20, step + 2 * 30, step, step + 3 * 40);
        // every row given noise (the last update): the columns in order
        double[] all = new double[6];
        DeferredRowNoise.applyFirstLayer(all, g, 3, 2, 0.5, 0.25, 0.0, new int[] {0, 1, 2}, new double[] {2, 5, 3},
                3, new double[] {1, 2, 3, 4, 5, 6});
        assertThat(all).containsExactly(step + 2, step + 10, step + 9, step + 8, step + 25, step + 18);
        // weight decay: every weight w -= lr (g / M + decay w) first, as the ordinary loop
        double[] decayed = {4, 4, 4, 4, 4, 4};
        DeferredRowNoise.applyFirstLayer(decayed, g, 3, 2, 0.5, 0.25, 0.1, new int[] {1, 0, 0}, new double[] {0, 2, 0},
                1, new double[] {7, 8});
        double kept = 4 - 0.5 * (0.25 + 0.1 * 4);
        assertThat(decayed).containsExactly(kept, kept + 14, kept, kept, kept + 16, kept);
    }
}
