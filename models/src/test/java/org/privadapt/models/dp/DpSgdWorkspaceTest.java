package org.privadapt.models.dp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.CsrMatrix;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.Backprop;
import org.privadapt.models.nn.Gradients;
import org.privadapt.models.nn.LearningRateSchedule;
import org.privadapt.models.nn.Network;
import org.privadapt.models.nn.Optimizer;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * A DP-SGD step reuses one pair of gradient buffers for the whole training (issue 32: no garbage of the parameters'
 * size per step). The values must be those of the allocating code it replaced, which is copied below as the oracle:
 * fresh zero gradients plus each physical batch's freshly allocated weighted sum. Dense and sparse rows, one and
 * several physical batches, empty batches.
 */
class DpSgdWorkspaceTest {

    /** The clipped sum as it was computed before the workspace. */
    static DpSgdTrainer.ClippedSum oldClippedSum(Network net, FeatureMatrix x, int[] labels, int[] batch, double clip,
                                                 int maxPhysicalBatch, long step) {
        Gradients sum = Gradients.zerosLike(net);
        double lossSum = 0;
        for (int from = 0; from < batch.length; from += maxPhysicalBatch) {
            int to = Math.min(batch.length, from + maxPhysicalBatch);
            int[] idx = java.util.Arrays.copyOfRange(batch, from, to);
            int[] y = new int[idx.length];
            for (int k = 0; k < idx.length; k++) {
                y[k] = labels[idx[k]];
            }
            Network.Forward f = net.forward(x.selectRows(idx));
            org.privadapt.math.DenseMatrix[] d = Backprop.deltas(net, f, y);
            double[] sq = Backprop.perExampleSquaredNorms(f, d);
            double[] factor = new double[sq.length];
            for (int k = 0; k < sq.length; k++) {
                factor[k] = DpSgdTrainer.clipFactor(sq[k], clip, step);
            }
            sum.addInPlace(Backprop.weightedSum(f, d, factor));
            lossSum += Backprop.meanLoss(f, y) * idx.length;
        }
        return new DpSgdTrainer.ClippedSum(sum, lossSum);
    }

    static Network oldTrain(Network init, FeatureMatrix x, int[] labels, DpSgdConfig c, NoiseAndSampling rnd) {
        Network net = init.copy();
        Optimizer opt = Optimizer.parse(c.optimizer());
        LearningRateSchedule lr = LearningRateSchedule.parse(c.schedule(), c.learningRate());
        int n = x.rows();
        for (long step = 0; step < c.steps(); step++) {
            int[] batch = new int[n];
            int size = 0;
            for (int i = 0; i < n; i++) {
                if (rnd.bernoulli(c.samplingRate())) {
                    batch[size++] = i;
                }
            }
            Gradients sum = oldClippedSum(net, x, labels, java.util.Arrays.copyOf(batch, size), c.clipNorm(),
                    c.maxPhysicalBatch(), step).sum();
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

    private static FeatureMatrix[] inputs(int n, int d, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] rows = new double[n][d];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                rows[i][j] = r.nextInt(3) == 0 ? r.nextGaussian() * (1 + i % 3) : 0.0;
            }
        }
        DenseMatrix dense = DenseMatrix.fromRows(rows);
        return new FeatureMatrix[] {dense, CsrMatrix.fromDense(dense)};
    }

    @Test
    void reusedBuffersGiveTheAllocatingSumsBitForBit() {
        int n = 70;
        int d = 6;
        SplittableRandom r = new SplittableRandom(3);
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = r.nextInt(3);
        }
        for (FeatureMatrix x : inputs(n, d, 4)) {
            Network net = Network.create(d, new int[] {5}, Activation.RELU, List.of("a", "b", "c"), 2);
            DpSgdTrainer.Workspace space = new DpSgdTrainer.Workspace(net);
            int[][] batches = {{3, 9, 40}, {}, java.util.stream.IntStream.range(0, 50).toArray(), {69}, {0, 1, 2, 3, 4}};
            for (int[] batch : batches) { // one buffer pair reused across steps: no value may leak from a step to the next
                DpSgdTrainer.ClippedSum fresh = oldClippedSum(net, x, y, batch, 0.7, 16, 0);
                DpSgdTrainer.ClippedSum reused = DpSgdTrainer.clippedSum(net, x, y, batch, 0.7, 16, 0, space);
                assertThat(reused.lossSum()).isEqualTo(fresh.lossSum());
                double[][] a = reused.sum().arrays();
                double[][] b = fresh.sum().arrays();
                for (int k = 0; k < a.length; k++) {
                    for (int j = 0; j < a[k].length; j++) {
                        assertThat(a[k][j] == b[k][j]).as("%s, batch of %d, array %d, entry %d: %s vs %s",
                                x.getClass().getSimpleName(), batch.length, k, j, a[k][j], b[k][j]).isTrue();
                    }
                }
            }
        }
    }

    @Test
    void trainingWithTheWorkspaceIsTheOldTraining() {
        int n = 60;
        int d = 5;
        SplittableRandom r = new SplittableRandom(6);
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = r.nextInt(2);
        }
        for (FeatureMatrix x : inputs(n, d, 7)) {
            for (double q : new double[] {1.0, 0.4}) { // full batches of 60 (4 physical batches of 16) and Poisson
                DpSgdConfig c = new DpSgdConfig(1.0, 0.9, q, q * n, 9, 16, "sgd", 0.1, "constant", 0.01, 3);
                Network init = Network.create(d, new int[] {4}, Activation.RELU, List.of("neg", "pos"), 5);
                Network now = DpSgdTrainer.train(init, x, y, c, new SessionRandomness(NoiseSource.seeded(9))).model();
                Network old = oldTrain(init, x, y, c, new SessionRandomness(NoiseSource.seeded(9)));
                for (int l = 0; l < old.layers(); l++) {
                    assertThat(now.weights(l).data()).as("%s q=%s layer %d", x.getClass().getSimpleName(), q, l)
                            .isEqualTo(old.weights(l).data());
                    assertThat(now.bias(l)).isEqualTo(old.bias(l));
                }
            }
        }
    }
}
