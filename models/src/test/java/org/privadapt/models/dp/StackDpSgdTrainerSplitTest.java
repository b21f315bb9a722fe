package org.privadapt.models.dp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.privadapt.math.CsrMatrix;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.nn.LearningRateSchedule;
import org.privadapt.models.nn.Optimizer;
import org.privadapt.models.nn.graph.DenseLayer;
import org.privadapt.models.nn.graph.EncoderClassifier;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * The encoder + classifier DP-SGD trainer over a {@link StackDpSgdTrainer.BatchSums} (the split an engine summing the
 * rows elsewhere uses; the matrix {@code train} is it with the in-process clipped sum) is the trainer as it was before
 * the split, bit for bit on the same seeded noise: full batches (q = 1) and Poisson batches (q = 0.3), both losses,
 * dense and sparse rows, a frozen layer, sgd/momentum/adam with weight decay, chunked physical batches, and no noise.
 * The old private loop is copied below as the reference (issue 31).
 */
class StackDpSgdTrainerSplitTest {

    /** The old {@code StackDpSgdTrainer.train}, before the split, copied (its private helpers inlined). */
    static StackDpSgdTrainer.Result oldTrain(EncoderClassifier init, FeatureMatrix x, Targets y, StackDpSgdTrainer.Config c,
                                             NoiseAndSampling rnd) {
        EncoderClassifier model = init.copy();
        List<DenseLayer> trainable = model.trainableLayers();
        Optimizer opt = Optimizer.parse(c.optimizer());
        LearningRateSchedule lr = LearningRateSchedule.parse(c.schedule(), c.learningRate());
        double[][] params = new double[2 * trainable.size()][];
        for (int l = 0; l < trainable.size(); l++) {
            params[2 * l] = trainable.get(l).weights().data();
            params[2 * l + 1] = trainable.get(l).bias();
        }
        int n = x.rows();
        double q = StackDpSgdTrainer.samplingRate(c, n);
        double normaliser = q * n;
        double noiseStd = c.noiseMultiplier() * c.clipNorm();
        long used = 0;
        List<Double> losses = new ArrayList<>();
        FeatureMatrix xb = org.privadapt.math.RowGather.of(x, (double) c.iterations() * q * n);
        for (long step = 0; step < c.iterations(); step++) {
            StackDpSgdTrainer.Step s = StackDpSgdTrainer.preNoiseStep(model, xb, y, q, c, rnd, step);
            used += s.batchSize();
            double[][] g = s.sum();
            if (noiseStd > 0) {
                for (double[] a : g) {
                    rnd.addGaussian(a, noiseStd);
                }
            }
            for (double[] a : g) {
                for (int k = 0; k < a.length; k++) {
                    a[k] *= 1.0 / normaliser;
                }
            }
            if (c.weightDecay() > 0) {
                for (int k = 0; k < g.length; k += 2) {
                    for (int j = 0; j < g[k].length; j++) {
                        g[k][j] += c.weightDecay() * params[k][j];
                    }
                }
            }
            opt.step(params, g, lr.at(step, c.iterations()));
            losses.add(s.batchSize() == 0 ? Double.NaN : s.lossSum() / s.batchSize());
        }
        return new StackDpSgdTrainer.Result(model, c.iterations(), used, StackDpSgdTrainer.event(c, n), losses, rnd.description(),
                rnd.isPrivate() && c.noiseMultiplier() > 0);
    }

    static void assertSameModel(EncoderClassifier a, EncoderClassifier b, String what) {
        List<DenseLayer> la = a.layers();
        List<DenseLayer> lb = b.layers();
        assertThat(la).hasSameSizeAs(lb);
        for (int l = 0; l < la.size(); l++) {
            assertThat(la.get(l).weights().data()).as("%s layer %d weights", what, l).isEqualTo(lb.get(l).weights().data());
            assertThat(la.get(l).bias()).as("%s layer %d bias", what, l).isEqualTo(lb.get(l).bias());
            assertThat(la.get(l).frozen()).isEqualTo(lb.get(l).frozen());
        }
    }

    @Test
    void theSplitTrainerIsTheOldOneBitForBit() {
        int n = 60;
        DenseMatrix dense = StackDpSgdTrainerTest.gaussianRows(n, 4, 21, 1.5);
        int runs = 0;
        for (FeatureMatrix x : List.of(dense, CsrMatrix.fromDense(dense))) {
            for (Targets y : StackDpSgdTrainerTest.bothLosses(n, 22)) {
                for (int batch : new int[] {n, 18}) { // q = 1 and q = 0.3
                    for (String opt : new String[] {"sgd", "momentum", "adam"}) {
                        for (double sigma : new double[] {0.9, 0.0}) {
                            boolean frozen = opt.equals("momentum");
                            EncoderClassifier init = StackDpSgdTrainerTest.tiny(3, 23);
                            if (frozen) {
                                init.encoder().layers().get(0).freeze();
                            }
                            StackDpSgdTrainer.Config c = new StackDpSgdTrainer.Config(7, batch, 0.4, sigma, 5, opt, 0.05, "cosine",
                                    opt.equals("adam") ? 0.01 : 0.0, 7L);
                            StackDpSgdTrainer.Result split = StackDpSgdTrainer.train(init, x, y, c, new SessionRandomness(NoiseSource.seeded(31)));
                            StackDpSgdTrainer.Result old = oldTrain(init, x, y, c, new SessionRandomness(NoiseSource.seeded(31)));
                            String what = (x instanceof CsrMatrix ? "sparse" : "dense") + " " + y.loss() + " B=" + batch + " " + opt
                                    + " sigma=" + sigma + (frozen ? " frozen" : "");
                            assertSameModel(split.model(), old.model(), what);
                            assertThat(split.steps()).isEqualTo(old.steps());
                            assertThat(split.examplesUsed()).as(what).isEqualTo(old.examplesUsed());
                            assertThat(split.meanBatchLoss()).as(what).isEqualTo(old.meanBatchLoss());
                            assertThat(split.event()).isEqualTo(old.event());
                            assertThat(split.noise()).isEqualTo(old.noise());
                            assertThat(split.isPrivate()).isEqualTo(old.isPrivate());
                            runs++;
                        }
                    }
                }
            }
        }
        assertThat(runs).isEqualTo(48);
    }

    /** The split's own sums: what it is given is what it uses (the in-process clipped sum gives the matrix train). */
    @Test
    void theSplitTrainerOverThePublicClippedSumIsTheMatrixTrainer() {
        int n = 40;
        DenseMatrix x = StackDpSgdTrainerTest.gaussianRows(n, 4, 41, 2.0);
        Targets y = StackDpSgdTrainerTest.bothLosses(n, 42).get(0);
        StackDpSgdTrainer.Config c = new StackDpSgdTrainer.Config(6, 12, 0.5, 1.1, 4, "adam", 0.05, "constant", 0.0, 7L);
        EncoderClassifier init = StackDpSgdTrainerTest.tiny(3, 43);
        List<int[]> batches = new ArrayList<>();
        StackDpSgdTrainer.Result viaSums = StackDpSgdTrainer.train(init, n, (model, batch, step) -> {
            batches.add(batch.clone());
            return StackDpSgdTrainer.clippedSum(model, x, y, batch, c.clipNorm(), c.maxPhysicalBatch(), step);
        }, c, new SessionRandomness(NoiseSource.seeded(44)));
        StackDpSgdTrainer.Result matrix = StackDpSgdTrainer.train(init, x, y, c, new SessionRandomness(NoiseSource.seeded(44)));
        assertSameModel(viaSums.model(), matrix.model(), "BatchSums vs matrix");
        assertThat(viaSums.meanBatchLoss()).isEqualTo(matrix.meanBatchLoss());
        assertThat(batches).hasSize(6);
        for (int[] b : batches) {
            for (int k = 1; k < b.length; k++) {
                assertThat(b[k]).as("batch indices increase").isGreaterThan(b[k - 1]);
            }
        }
    }
}
