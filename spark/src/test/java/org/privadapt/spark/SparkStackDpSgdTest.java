package org.privadapt.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.privadapt.spark.SparkTestSupport.CLASSES;
import static org.privadapt.spark.SparkTestSupport.assertRelativelyClose;

import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;
import org.privadapt.models.dp.SessionRandomness;
import org.privadapt.models.dp.StackDpSgdTrainer;
import org.privadapt.models.dp.Targets;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.graph.DenseLayer;
import org.privadapt.models.nn.graph.EncoderClassifier;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * DP-SGD of an encoder + classifier (paper 004's source model) with the rows on Spark (local[2]), cached as blocks,
 * against the in-process {@link StackDpSgdTrainer}: on the same seeded noise, with the rows in the same order, the
 * trained network (every layer, a frozen one included) equals the in-process one to 1e-9 relative on 1 and 3
 * partitions; a step's exact query over a sampled batch does not depend on the partitioning; on neighbours it moves by
 * at most C (a sampled row added) or 2C (a sampled row replaced), and not at all when the changed row is not sampled
 * (the methods harness's check); the rows mapped through the encoder on the executors are the in-process features;
 * tables and networks that do not fit are refused (issue 31).
 */
class SparkStackDpSgdTest {
    static final double REL = 1e-9;
    static SparkSession spark;
    static SparkTestSupport.Rows data;

    @AfterAll
    static void report() {
        SparkTestSupport.reportWorst("encoder + classifier DP-SGD (Spark vs in-process, and across partitionings)");
    }

    @BeforeAll
    static void start() {
        spark = SparkTestSupport.spark();
        data = SparkTestSupport.generate(240, 6, 31);
    }

    /** Encoder 6 -> 5 -> 4 (tanh), classifier 4 -> 3 (elu) -> 3 classes. */
    static EncoderClassifier network(boolean freezeFirst) {
        EncoderClassifier m = EncoderClassifier.create(6, new int[] {5, 4}, Activation.TANH, new int[] {3}, Activation.ELU, 3, 5);
        if (freezeFirst) {
            m.encoder().layers().get(0).freeze();
        }
        return m;
    }

    static StackDpSgdTrainer.Config config() {
        // q = 40 / 240, 12 steps, physical chunks of 16 rows, weight decay
        return new StackDpSgdTrainer.Config(12, 40, 0.5, 0.8, 16, "adam", 0.05, "constant", 0.01, 7L);
    }

    static double[] flat(StackDpSgdTrainer.ClippedSum s) {
        return java.util.Arrays.stream(s.sum()).flatMapToDouble(java.util.Arrays::stream).toArray();
    }

    static void assertSameNetwork(EncoderClassifier spark, EncoderClassifier local, String what) {
        List<DenseLayer> a = spark.layers();
        List<DenseLayer> b = local.layers();
        assertThat(a).hasSameSizeAs(b);
        for (int l = 0; l < b.size(); l++) {
            assertRelativelyClose(a.get(l).weights().data(), b.get(l).weights().data(), REL, what + ", layer " + l + " weights");
            assertRelativelyClose(a.get(l).bias(), b.get(l).bias(), REL, what + ", layer " + l + " bias");
            assertThat(a.get(l).frozen()).isEqualTo(b.get(l).frozen());
        }
    }

    @Test
    void theTrainedNetworkEqualsTheInProcessOneOnTheSameSeededNoise() {
        StackDpSgdTrainer.Config c = config();
        Targets y = Targets.classes(data.codes(CLASSES));
        for (boolean frozen : new boolean[] {false, true}) {
            EncoderClassifier init = network(frozen);
            StackDpSgdTrainer.Result local = StackDpSgdTrainer.train(init, data.matrix(), y, c, new SessionRandomness(NoiseSource.seeded(6)));
            for (int partitions : new int[] {1, 3}) {
                StackDpSgdTrainer.Result distributed = SparkStackDpSgd.train(init, data.ordered(spark, partitions), CLASSES, c,
                        new SessionRandomness(NoiseSource.seeded(6)));
                String what = (frozen ? "frozen first layer" : "all layers trained") + ", " + partitions + " partition(s)";
                assertSameNetwork(distributed.model(), local.model(), what);
                assertThat(distributed.examplesUsed()).isEqualTo(local.examplesUsed());
                assertThat(distributed.steps()).isEqualTo(12);
                assertThat(distributed.event()).isEqualTo(local.event());
                assertThat(distributed.noise()).isEqualTo(local.noise());
                assertThat(distributed.isPrivate()).isEqualTo(local.isPrivate());
                double[] ls = distributed.meanBatchLoss().stream().mapToDouble(Double::doubleValue).toArray();
                double[] ll = local.meanBatchLoss().stream().mapToDouble(Double::doubleValue).toArray();
                assertRelativelyClose(ls, ll, REL, what + ", batch losses");
            }
            // training moved the network
            assertThat(local.model().layers().get(2).weights().data()).isNotEqualTo(init.layers().get(2).weights().data());
        }
    }

    /** The windowed path: a window's rows fetched in one job, its steps summed on the driver, the in-process model. */
    @Test
    void windowsOfStepsFetchedInOneJobGiveTheInProcessNetwork() {
        StackDpSgdTrainer.Config c = config();
        Targets y = Targets.classes(data.codes(CLASSES));
        EncoderClassifier init = network(false);
        StackDpSgdTrainer.Result local = StackDpSgdTrainer.train(init, data.matrix(), y, c,
                org.privadapt.models.dp.SeparateSampling.of(NoiseSource.seeded(6)));
        for (int partitions : new int[] {1, 3}) {
            StackDpSgdTrainer.Result distributed = SparkStackDpSgd.train(init, data.ordered(spark, partitions), CLASSES, c,
                    org.privadapt.models.dp.SeparateSampling.of(NoiseSource.seeded(6)));
            String what = "separate sampling, " + partitions + " partition(s)";
            List<DenseLayer> a = distributed.model().layers();
            List<DenseLayer> b = local.model().layers();
            for (int l = 0; l < b.size(); l++) {
                assertThat(a.get(l).weights().data()).as(what + " layer " + l).isEqualTo(b.get(l).weights().data());
                assertThat(a.get(l).bias()).as(what + " layer " + l).isEqualTo(b.get(l).bias());
            }
            assertThat(distributed.meanBatchLoss()).isEqualTo(local.meanBatchLoss());
            assertThat(distributed.examplesUsed()).isEqualTo(local.examplesUsed());
        }
    }

    static int[] sample(int n, int every) {
        return java.util.stream.IntStream.range(0, n).filter(i -> i % every == 1).toArray();
    }

    @Test
    void aStepsQueryDoesNotDependOnThePartitioning() {
        EncoderClassifier net = network(true);
        double clip = 0.5;
        int[] batch = sample(data.rows().length, 3);
        StackDpSgdTrainer.ClippedSum local = StackDpSgdTrainer.clippedSum(net, data.matrix(), Targets.classes(data.codes(CLASSES)),
                batch, clip, 16, 0);
        for (int partitions : new int[] {1, 2, 7}) {
            try (SparkDpSgd.Cached c = SparkDpSgd.cache(data.ordered(spark, partitions), CLASSES, StorageLevel.MEMORY_ONLY())) {
                StackDpSgdTrainer.ClippedSum s = SparkStackDpSgd.batchSums(c, clip, 16).sum(net, batch, 0);
                assertThat(s.sum().length).isEqualTo(local.sum().length);
                assertRelativelyClose(flat(s), flat(local), REL, partitions + " partition(s) vs in process");
                assertRelativelyClose(new double[] {s.lossSum()}, new double[] {local.lossSum()}, REL, "loss");
                StackDpSgdTrainer.ClippedSum empty = SparkStackDpSgd.batchSums(c, clip, 16).sum(net, new int[0], 0);
                assertThat(flat(empty)).containsOnly(0.0).hasSameSizeAs(flat(local));
            }
        }
    }

    /** Neighbours for one step's query over a fixed sampled batch (the methods harness's check). */
    @Test
    void onNeighboursAStepsQueryMovesByAtMostTheClipOrTwiceAndNotAtAllWhenTheRowIsNotSampled() {
        EncoderClassifier net = network(false);
        double clip = 0.5;
        SparkTestSupport.assertSampledSumNeighbours(data, clip, sample(data.rows().length, 3), (rows, b) -> query(rows, net, clip, b));
    }

    static double[] query(SparkTestSupport.Rows rows, EncoderClassifier net, double clip, int[] batch) {
        try (SparkDpSgd.Cached c = SparkDpSgd.cache(rows.ordered(spark, 3), CLASSES, StorageLevel.MEMORY_ONLY())) {
            return flat(SparkStackDpSgd.batchSums(c, clip, 16).sum(net, batch, 0));
        }
    }

    @Test
    void theEncodersFeaturesOnTheExecutorsAreTheInProcessOnes() {
        EncoderClassifier net = network(false);
        DenseMatrix local = net.features(data.matrix());
        for (int partitions : new int[] {1, 3}) {
            SparkTable z = SparkStackDpSgd.features(data.ordered(spark, partitions), net);
            assertThat(z.dimension()).isEqualTo(4);
            assertThat(z.labelled()).isFalse();
            assertThat(z.featureNames()).containsExactly("e0", "e1", "e2", "e3");
            List<Row> rows = z.rows().collectAsList();
            assertThat(rows).hasSize(data.rows().length);
            for (int i = 0; i < rows.size(); i++) {
                double[] row = SparkTable.features(rows.get(i), 4);
                double[] expected = new double[4];
                for (int j = 0; j < 4; j++) {
                    expected[j] = local.get(i, j);
                }
                assertRelativelyClose(row, expected, REL, partitions + " partition(s), row " + i);
            }
        }
    }

    @Test
    void tablesAndNetworksThatDoNotFitAreRefused() {
        StackDpSgdTrainer.Config c = config();
        SessionRandomness rnd = new SessionRandomness(NoiseSource.seeded(1));
        SparkTable table = data.ordered(spark, 2);
        assertThatThrownBy(() -> SparkStackDpSgd.train(EncoderClassifier.create(6, new int[] {4}, Activation.TANH, new int[0],
                Activation.IDENTITY, 2, 1), table, List.of("a", "b"), c, rnd)).hasMessageContaining("outside the declared classes");
        assertThatThrownBy(() -> SparkStackDpSgd.train(network(false), table, List.of("a", "b"), c, rnd))
                .hasMessageContaining("3 outputs for 2 classes");
        assertThatThrownBy(() -> SparkStackDpSgd.train(network(false), table, List.of("a", "b", "b"), c, rnd))
                .hasMessageContaining("distinct classes");
        assertThatThrownBy(() -> SparkStackDpSgd.train(EncoderClassifier.create(5, new int[] {4}, Activation.TANH, new int[0],
                Activation.IDENTITY, 3, 1), table, CLASSES, c, rnd)).hasMessageContaining("takes 5 features");
        SparkTable unlabelled = new SparkTable(table.rows().select(SparkTable.FEATURES), table.featureNames(), null);
        assertThatThrownBy(() -> SparkStackDpSgd.train(network(false), unlabelled, CLASSES, c, rnd)).hasMessageContaining("label column");
        double[] nan = new double[6];
        nan[2] = Double.NaN;
        assertThatThrownBy(() -> SparkStackDpSgd.train(network(false), data.plus(nan, "a").ordered(spark, 2), CLASSES, c, rnd))
                .hasMessageContaining("non-finite");
        // the caching pass is the check: a missing label is refused there, and the rows stay uncached
        assertThatThrownBy(() -> SparkStackDpSgd.train(network(false), data.plus(new double[6], null).ordered(spark, 2), CLASSES, c, rnd))
                .hasMessageContaining("1 row(s) have no label");
    }
}
