package org.privadapt.models.dp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.Gradients;
import org.privadapt.models.nn.LearningRateSchedule;
import org.privadapt.models.nn.Network;
import org.privadapt.models.nn.Optimizer;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * DP-SGD's trainer over a {@link DpSgdTrainer.BatchSums} (the split an engine summing the rows elsewhere uses) is the
 * trainer as it was before the split, bit for bit on the same seeded noise: full batches (DP-GD, q = 1) and Poisson
 * batches, linear and with a hidden layer. The old loop is copied below as the reference.
 */
class DpSgdTrainerSplitTest {

    static Network oldTrain(Network init, FeatureMatrix x, int[] labels, DpSgdConfig c, NoiseAndSampling rnd) {
        Network net = init.copy();
        Optimizer opt = Optimizer.parse(c.optimizer());
        LearningRateSchedule lr = LearningRateSchedule.parse(c.schedule(), c.learningRate());
        int n = x.rows();
        int[] batch = new int[Math.max(16, (int) Math.min(n, 2L * Math.ceil(c.samplingRate() * n) + 16))];
        for (long step = 0; step < c.steps(); step++) {
            int size = 0;
            for (int i = 0; i < n; i++) {
                if (rnd.bernoulli(c.samplingRate())) {
                    if (size == batch.length) {
                        batch = java.util.Arrays.copyOf(batch, batch.length * 2);
                    }
                    batch[size++] = i;
                }
            }
            DpSgdTrainer.ClippedSum cs = DpSgdTrainer.clippedSum(net, x, labels, java.util.Arrays.copyOf(batch, size), c.clipNorm(),
                    c.maxPhysicalBatch(), step);
            Gradients sum = cs.sum();
            double sigma = c.noiseMultiplier() * c.clipNorm();
            if (sigma > 0) {
                for (double[] a : sum.arrays()) {
                    rnd.addGaussian(a, sigma);
                }
            }
            sum.scaleInPlace(1.0 / c.normaliser());
            if (c.weightDecay() > 0) {
                DpSgdTrainer.addWeightDecay(sum, net, c.weightDecay());
            }
            opt.step(net, sum, lr.at(step, c.steps()));
        }
        return net;
    }

    @Test
    void theSplitTrainerIsTheOldOneBitForBit() {
        SplittableRandom r = new SplittableRandom(5);
        int n = 70;
        int d = 4;
        double[][] rows = new double[n][d];
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = r.nextInt(3);
            for (int j = 0; j < d; j++) {
                rows[i][j] = r.nextGaussian() * (1 + i % 4) + (j == y[i] ? 1 : 0);
            }
        }
        DenseMatrix x = DenseMatrix.fromRows(rows);
        List<String> classes = List.of("a", "b", "c");
        for (double q : new double[] {1.0, 0.3}) {
            for (int[] hidden : new int[][] {{}, {5}}) {
                DpSgdConfig c = new DpSgdConfig(1.0, 0.8, q, q * n, 12, 16, "adam", 0.05, "constant", 0.1, 3);
                Network init = Network.create(d, hidden, Activation.RELU, classes, 3);
                Network split = DpSgdTrainer.train(init, x, y, c, new SessionRandomness(NoiseSource.seeded(8))).model();
                Network old = oldTrain(init, x, y, c, new SessionRandomness(NoiseSource.seeded(8)));
                for (int l = 0; l < old.layers(); l++) {
                    assertThat(split.weights(l).data()).as("q=%s hidden=%s layer %d", q, hidden.length, l).isEqualTo(old.weights(l).data());
                    assertThat(split.bias(l)).isEqualTo(old.bias(l));
                }
            }
        }
    }
}
