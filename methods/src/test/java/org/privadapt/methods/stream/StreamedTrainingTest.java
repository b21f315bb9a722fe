package org.privadapt.methods.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.Dataset;
import org.privadapt.data.io.DataFiles;
import org.privadapt.data.io.RowChunks;
import org.privadapt.data.preprocess.Preprocessing;
import org.privadapt.models.dp.DpSgdConfig;
import org.privadapt.models.dp.DpSgdTrainer;
import org.privadapt.models.dp.SessionRandomness;
import org.privadapt.models.mixture.CovarianceType;
import org.privadapt.models.mixture.DpGaussianMixtureEm;
import org.privadapt.models.mixture.GaussianMixture;
import org.privadapt.models.mixture.SufficientStatistics;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.Network;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * DP-EM's releases and dp-gd's steps from a file read in blocks ({@link StreamedTraining}) against the load-everything
 * path on the same seeded noise: every release's exact statistics and the fitted mixture (both covariance types), the
 * trained network, to 1e-9 relative, for blocks of 1, 7, 64 and more than the file; a label outside the classes and a
 * file changed between passes are refused.
 */
class StreamedTrainingTest {
    static final int N = 143;
    static final int D = 5;
    static final int[] CHUNKS = {1, 7, 64, N + 3};

    @TempDir
    Path dir;

    Path csv(String name, String lastLabel) throws Exception {
        SplittableRandom rng = new SplittableRandom(9);
        StringBuilder sb = new StringBuilder("x0,x1,x2,x3,x4,label\n");
        for (int i = 0; i < N; i++) {
            double scale = i == 5 ? 0 : Math.pow(10, rng.nextDouble(-1, 1));
            for (int j = 0; j < D; j++) {
                sb.append(scale * (rng.nextGaussian() + (i % 3) * (j % 2))).append(',');
            }
            sb.append(i == N - 1 ? lastLabel : new String[] {"a", "b", "c"}[i % 3]).append('\n');
        }
        Path p = dir.resolve(name);
        Files.writeString(p, sb.toString());
        return p;
    }

    static void assertSame(SufficientStatistics s, SufficientStatistics l, String what) {
        StreamedReleasesTest.assertClose(s.countVector(), l.countVector(), what + " counts");
        StreamedReleasesTest.assertClose(s.sumVector(), l.sumVector(), what + " sums");
        StreamedReleasesTest.assertClose(s.secondMomentVector(), l.secondMomentVector(), what + " moments");
    }

    @Test
    void dpEmFromBlocksIsTheLoadEverythingFit() throws Exception {
        Path p = csv("em.csv", "a");
        Preprocessing steps = Preprocessing.parse("l2,scale=2");
        Dataset whole = steps.fitAndApply(DataFiles.load(p, "em", DataFiles.Options.DEFAULT));
        RowChunks rows = RowChunks.open(p, "em", DataFiles.Options.DEFAULT);
        RowChunks.Summary first = StreamedTraining.check(rows, steps, 16);
        assertThat(first.rows()).isEqualTo(N);
        for (CovarianceType type : CovarianceType.values()) {
            DpGaussianMixtureEm.Config c = DpGaussianMixtureEm.Config.of(3, type, 1.5, 4, 0.05, 17);
            List<SufficientStatistics> local = new ArrayList<>();
            DpGaussianMixtureEm.Result l = DpGaussianMixtureEm.fit(DpGaussianMixtureEm.inProcess(whole.features(), c.clipNorm()), c,
                    new SessionRandomness(NoiseSource.seeded(3)), (i, in, s) -> local.add(s));
            for (int chunk : CHUNKS) {
                String what = type + ", blocks of " + chunk;
                List<SufficientStatistics> streamed = new ArrayList<>();
                DpGaussianMixtureEm.Result s = DpGaussianMixtureEm.fit(StreamedTraining.dpEm(rows, steps, chunk, c.clipNorm(), first),
                        c, new SessionRandomness(NoiseSource.seeded(3)), (i, in, st) -> streamed.add(st));
                assertThat(streamed).hasSize(c.releases()).hasSameSizeAs(local);
                for (int i = 0; i < local.size(); i++) {
                    assertSame(streamed.get(i), local.get(i), what + ", release " + i);
                }
                GaussianMixture a = s.model();
                GaussianMixture b = l.model();
                StreamedReleasesTest.assertClose(a.weights(), b.weights(), what + " weights");
                StreamedReleasesTest.assertClose(a.means().data(), b.means().data(), what + " means");
                for (int k = 0; k < a.components(); k++) {
                    StreamedReleasesTest.assertClose(a.covariance(k).data(), b.covariance(k).data(), what + " covariance " + k);
                }
            }
        }
    }

    @Test
    void dpGdFromBlocksIsTheLoadEverythingTraining() throws Exception {
        Path p = csv("gd.csv", "a");
        Preprocessing steps = Preprocessing.parse("l2,scale=2");
        Dataset whole = steps.fitAndApply(DataFiles.load(p, "gd", DataFiles.Options.DEFAULT));
        ClassLabels y = (ClassLabels) whole.labels().orElseThrow();
        RowChunks rows = RowChunks.open(p, "gd", DataFiles.Options.DEFAULT);
        RowChunks.Summary first = StreamedTraining.check(rows, steps, 16);
        Network init = Network.create(D, new int[] {4}, Activation.RELU, y.names(), 5);
        DpSgdConfig cfg = new DpSgdConfig(1.0, 1.2, 1.0, N, 6, 32, "adam", 0.05, "constant", 0.01, 3);
        Network local = DpSgdTrainer.train(init, whole.features(), y.codes(), cfg, new SessionRandomness(NoiseSource.seeded(4))).model();
        for (int chunk : CHUNKS) {
            Network streamed = DpSgdTrainer.train(init, N, StreamedTraining.dpGd(rows, steps, chunk, y.names(), cfg.clipNorm(),
                    cfg.maxPhysicalBatch(), first), cfg, new SessionRandomness(NoiseSource.seeded(4))).model();
            for (int l = 0; l < local.layers(); l++) {
                StreamedReleasesTest.assertClose(streamed.weights(l).data(), local.weights(l).data(), "blocks of " + chunk + ", layer " + l);
                StreamedReleasesTest.assertClose(streamed.bias(l), local.bias(l), "blocks of " + chunk + ", bias " + l);
            }
        }
    }

    @Test
    void paper003sGradientSumFromBlocksIsTheLoadEverythingOne() throws Exception {
        SplittableRandom rng = new SplittableRandom(12);
        StringBuilder sb = new StringBuilder("x0,x1,x2,x3,x4,y\n");
        double[][] x = new double[N][D];
        double[] y = new double[N];
        for (int i = 0; i < N; i++) {
            double scale = Math.pow(10, rng.nextDouble(-1, 1));
            for (int j = 0; j < D; j++) {
                x[i][j] = scale * rng.nextGaussian();
                sb.append(x[i][j]).append(',');
            }
            y[i] = 3 * rng.nextGaussian(); // some targets beyond [-1, 1]: clipped
            sb.append(y[i]).append('\n');
        }
        Path p = dir.resolve("regression.csv");
        Files.writeString(p, sb.toString());
        RowChunks rows = RowChunks.open(p, "regression", DataFiles.Options.DEFAULT); // the targets read as the labels' text
        RowChunks.Summary first = StreamedTraining.check(rows, Preprocessing.none(), 16);
        org.privadapt.math.DenseMatrix whole = org.privadapt.math.DenseMatrix.fromRows(x);
        double[] w = {0.3, -0.2, 0.1, 0.0, 0.5};
        double[] local = org.privadapt.methods.bassily.NoisyGradientDescent.inProcess(
                org.privadapt.methods.bassily.PCnvxAdap.clipRows(whole, 1.5), org.privadapt.methods.bassily.PCnvxAdap.clipTargets(y)).at(w);
        for (int chunk : CHUNKS) {
            StreamedReleasesTest.assertClose(StreamedTraining.gradientSum(rows, Preprocessing.none(), chunk, 1.5, first).at(w), local, "blocks of " + chunk);
        }
    }

    @Test
    void aLabelOutsideTheClassesAndAChangedFileAreRefused() throws Exception {
        Path p = csv("bad.csv", "z");
        RowChunks rows = RowChunks.open(p, "bad", DataFiles.Options.DEFAULT);
        RowChunks.Summary first = StreamedTraining.check(rows, Preprocessing.none(), 16);
        Network net = Network.create(D, new int[0], Activation.RELU, List.of("a", "b", "c"), 1);
        DpSgdTrainer.BatchSums sums = StreamedTraining.dpGd(rows, Preprocessing.none(), 16, List.of("a", "b", "c"), 1.0, 32, first);
        int[] all = new int[N];
        for (int i = 0; i < N; i++) {
            all[i] = i;
        }
        assertThatThrownBy(() -> sums.sum(net, all, 0)).isInstanceOf(StreamedMoments.StreamException.class)
                .hasMessageContaining("row " + N).hasMessageContaining("label 'z'");
        Path q = csv("changing.csv", "a");
        RowChunks changing = RowChunks.open(q, "changing", DataFiles.Options.DEFAULT);
        RowChunks.Summary before = StreamedTraining.check(changing, Preprocessing.none(), 16);
        Files.writeString(q, Files.readString(q) + "1,1,1,1,1,a\n"); // a row more after the first pass
        DpGaussianMixtureEm.StatisticsSource source = StreamedTraining.dpEm(changing, Preprocessing.none(), 16, 1.0, before);
        assertThatThrownBy(() -> source.exact(null, CovarianceType.DIAGONAL)).isInstanceOf(StreamedMoments.StreamException.class);
    }
}
