package org.privadapt.models.dp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.Network;
import org.privadapt.models.nn.graph.EncoderClassifier;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * Drawing DP-SGD's batches a window ahead ({@link PoissonBatches}) changes nothing a run computes: with the batches on
 * a stream of their own ({@link SeparateSampling}, seeded), both trainers give the same model bit for bit with and
 * without a window, the windows are handed over in order before their steps and hold exactly the batches the steps
 * then get; with one stream ({@link SessionRandomness}) a window is never asked for.
 */
class PoissonBatchesTest {
    /** A lookahead of {@code window} steps that records what it is handed. */
    static final class Recording implements PoissonBatches.Lookahead {
        final int window;
        final List<Long> firsts = new ArrayList<>();
        final List<int[]> handed = new ArrayList<>();

        Recording(int window) {
            this.window = window;
        }

        @Override
        public int window() {
            return window;
        }

        @Override
        public void ahead(int[][] batches, long firstStep) {
            firsts.add(firstStep);
            assertThat(firstStep).as("windows in order").isEqualTo(handed.size());
            for (int[] b : batches) {
                handed.add(b.clone());
            }
        }
    }

    static DenseMatrix rows(int n, int d, int[] y) {
        SplittableRandom r = new SplittableRandom(5);
        double[][] rows = new double[n][d];
        for (int i = 0; i < n; i++) {
            y[i] = r.nextInt(3);
            for (int j = 0; j < d; j++) {
                rows[i][j] = r.nextGaussian() + (j == y[i] ? 1 : 0);
            }
        }
        return DenseMatrix.fromRows(rows);
    }

    @Test
    void aWindowChangesNeitherTheBatchesNorTheModel() {
        int n = 90;
        int[] y = new int[n];
        DenseMatrix x = rows(n, 4, y);
        DpSgdConfig c = new DpSgdConfig(1.0, 0.8, 0.2, 0.2 * n, 11, 16, "adam", 0.05, "constant", 0.1, 3);
        Network init = Network.create(4, new int[] {5}, Activation.RELU, List.of("a", "b", "c"), 3);
        for (int window : new int[] {1, 3, 4, 11, 50}) {
            Recording look = new Recording(window);
            List<int[]> used = new ArrayList<>();
            Network ahead = DpSgdTrainer.train(init, n, new DpSgdTrainer.BatchSums() {
                @Override
                public DpSgdTrainer.ClippedSum sum(Network net, int[] batch, long step) {
                    used.add(batch.clone());
                    return DpSgdTrainer.clippedSum(net, x, y, batch, c.clipNorm(), c.maxPhysicalBatch(), step);
                }

                @Override
                public PoissonBatches.Lookahead lookahead() {
                    return look;
                }
            }, c, SeparateSampling.of(NoiseSource.seeded(8))).model();
            Network plain = DpSgdTrainer.train(init, x, y, c, SeparateSampling.of(NoiseSource.seeded(8))).model();
            for (int l = 0; l < plain.layers(); l++) {
                assertThat(ahead.weights(l).data()).as("window %d layer %d", window, l).isEqualTo(plain.weights(l).data());
                assertThat(ahead.bias(l)).isEqualTo(plain.bias(l));
            }
            assertThat(used).hasSize(11);
            if (window == 1) {
                assertThat(look.firsts).isEmpty();
            } else {
                int w = Math.min(window, 11);
                assertThat(look.firsts).hasSize((11 + w - 1) / w);
                assertThat(look.handed).hasSize(11);
                for (int t = 0; t < 11; t++) {
                    assertThat(look.handed.get(t)).as("step %d", t).containsExactly(used.get(t));
                }
            }
        }
    }

    @Test
    void oneStreamNeverDrawsAhead() {
        int n = 50;
        int[] y = new int[n];
        DenseMatrix x = rows(n, 3, y);
        DpSgdConfig c = new DpSgdConfig(1.0, 0.8, 0.3, 0.3 * n, 5, 16, "sgd", 0.05, "constant", 0.0, 3);
        Recording look = new Recording(4);
        Network init = Network.create(3, new int[0], Activation.RELU, List.of("a", "b", "c"), 1);
        Network viaSums = DpSgdTrainer.train(init, n, new DpSgdTrainer.BatchSums() {
            @Override
            public DpSgdTrainer.ClippedSum sum(Network net, int[] batch, long step) {
                return DpSgdTrainer.clippedSum(net, x, y, batch, c.clipNorm(), c.maxPhysicalBatch(), step);
            }

            @Override
            public PoissonBatches.Lookahead lookahead() {
                return look;
            }
        }, c, new SessionRandomness(NoiseSource.seeded(2))).model();
        Network matrix = DpSgdTrainer.train(init, x, y, c, new SessionRandomness(NoiseSource.seeded(2))).model();
        assertThat(look.firsts).isEmpty();
        assertThat(viaSums.weights(0).data()).isEqualTo(matrix.weights(0).data());
    }

    @Test
    void separateSamplingDrawsByGapsAtSmallRatesAndByBytesAbove() {
        NoiseSource reference = NoiseSource.seeded(5).split();
        SeparateSampling s = SeparateSampling.of(NoiseSource.seeded(5));
        assertThat(s.poissonBatch(200_000, 1e-4)).containsExactly(reference.poissonSampleByGaps(200_000, 1e-4));
        assertThat(s.poissonBatch(5_000, 0.05)).containsExactly(reference.poissonSample(5_000, 0.05));
        assertThat(s.samplingSeparate()).isTrue();
        assertThat(s.isPrivate()).isFalse();
        assertThat(SeparateSampling.of(NoiseSource.secure()).isPrivate()).isTrue();
    }

    @Test
    void theStackTrainerToo() {
        int n = 60;
        DenseMatrix x = StackDpSgdTrainerTest.gaussianRows(n, 4, 21, 1.5);
        Targets y = StackDpSgdTrainerTest.bothLosses(n, 22).get(0);
        StackDpSgdTrainer.Config c = new StackDpSgdTrainer.Config(9, 18, 0.4, 0.9, 5, "adam", 0.05, "cosine", 0.01, 7L);
        EncoderClassifier init = StackDpSgdTrainerTest.tiny(3, 23);
        Recording look = new Recording(4);
        StackDpSgdTrainer.Result ahead = StackDpSgdTrainer.train(init, n, new StackDpSgdTrainer.BatchSums() {
            @Override
            public StackDpSgdTrainer.ClippedSum sum(EncoderClassifier model, int[] batch, long step) {
                return StackDpSgdTrainer.clippedSum(model, x, y, batch, c.clipNorm(), c.maxPhysicalBatch(), step);
            }

            @Override
            public PoissonBatches.Lookahead lookahead() {
                return look;
            }
        }, c, SeparateSampling.of(NoiseSource.seeded(31)));
        StackDpSgdTrainer.Result plain = StackDpSgdTrainer.train(init, x, y, c, SeparateSampling.of(NoiseSource.seeded(31)));
        StackDpSgdTrainerSplitTest.assertSameModel(ahead.model(), plain.model(), "window 4 vs none");
        assertThat(ahead.meanBatchLoss()).isEqualTo(plain.meanBatchLoss());
        assertThat(look.firsts).containsExactly(0L, 4L, 8L);
        assertThat(plain.noise()).contains("split stream");
    }
}
