package org.privadapt.models.nn;

import java.util.SplittableRandom;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;

/**
 * Non-private minibatch training of a {@link Network} (shuffled epochs, mean gradient of the batch): the baseline
 * the private trainer is compared with, and the trainer of non-private methods.
 */
public final class SgdTrainer {
    private SgdTrainer() {
    }

    /**
     * @param epochs    passes over the data
     * @param batchSize examples per step
     */
    public static Network train(Network init, FeatureMatrix x, int[] labels, int epochs, int batchSize, String optimizer,
                                double learningRate, String schedule, double weightDecay, long seed) {
        Network net = init.copy();
        FeatureMatrix xb = org.privadapt.math.RowGather.of(x, (double) epochs * x.rows()); // dense batches gathered from a row-major copy (issue 32)
        Optimizer opt = Optimizer.parse(optimizer);
        int n = x.rows();
        long stepsPerEpoch = (n + batchSize - 1) / batchSize;
        long total = stepsPerEpoch * epochs;
        LearningRateSchedule lr = LearningRateSchedule.parse(schedule, learningRate);
        SplittableRandom rng = new SplittableRandom(seed);
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        long step = 0;
        for (int e = 0; e < epochs; e++) {
            for (int i = n - 1; i > 0; i--) {
                int j = rng.nextInt(i + 1);
                int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
            for (int from = 0; from < n; from += batchSize) {
                int[] idx = java.util.Arrays.copyOfRange(order, from, Math.min(n, from + batchSize));
                int[] y = new int[idx.length];
                for (int k = 0; k < idx.length; k++) {
                    y[k] = labels[idx[k]];
                }
                Network.Forward f = net.forward(xb.selectRows(idx));
                DenseMatrix[] d = Backprop.deltas(net, f, y);
                Gradients g = Backprop.weightedSum(f, d, null);
                g.scaleInPlace(1.0 / idx.length);
                if (weightDecay > 0) {
                    for (int l = 0; l < net.layers(); l++) {
                        g.weights(l).addScaledInPlace(weightDecay, net.weights(l));
                    }
                }
                opt.step(net, g, lr.at(step++, total));
            }
        }
        return net;
    }
}
