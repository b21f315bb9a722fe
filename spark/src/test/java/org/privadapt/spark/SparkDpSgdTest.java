package org.privadapt.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.privadapt.spark.SparkTestSupport.CLASSES;
import static org.privadapt.spark.SparkTestSupport.assertRelativelyClose;

import java.util.Map;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.PrivateLearners;
import org.privadapt.methods.core.PrivateTraining;
import org.privadapt.models.dp.DpSgdTrainer;
import org.privadapt.models.nn.Network;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * DP-SGD with Poisson sampling, the rows on Spark (local[2]) and cached as blocks, against the in-process trainer: on
 * the same seeded noise, with the rows in the same order, the trained network (linear, and with a hidden layer) is
 * equal to 1e-9 relative on 1 and 3 partitions; a step's exact query over a sampled batch does not depend on the
 * partitioning; on neighbours it moves by at most C (a row added to the batch) or 2C (a row of the batch replaced),
 * and not at all when the changed row is not sampled; a label outside the classes and a table of another size than the
 * plan's are refused.
 */
class SparkDpSgdTest {
    static final double REL = 1e-9;
    static SparkSession spark;
    static SparkTestSupport.Rows data;

    @AfterAll
    static void report() {
        SparkTestSupport.reportWorst("dp-sgd (Spark vs in-process, and across partitionings)");
    }

    @BeforeAll
    static void start() {
        spark = SparkTestSupport.spark();
        data = SparkTestSupport.generate(240, 6, 12);
    }

    /** The rows as a table of {@code partitions} partitions in their original order. */
    static SparkTable ordered(SparkTestSupport.Rows rows, int partitions) {
        Dataset<Row> frame = rows.frame(spark);
        Dataset<Row> sliced = spark.createDataFrame(new JavaSparkContext(spark.sparkContext())
                .parallelize(frame.collectAsList(), partitions), frame.schema());
        return SparkData.of(sliced, rows.featureNames(), "y");
    }

    static PrivateLearners.Plan plan(String classifier, int n, String learner) {
        MethodConfig c = new MethodConfig(classifier, 4, 1, Map.of("learner", learner, "epochs", "2", "batch", "40", "lr", "0.1",
                "hidden", "4", "clip", "0.5", "physical-batch", "16"));
        return PrivateLearners.plan(c, n, data.dimension(), 3, 2.0, 1e-5, NeighbouringRelation.ADD_OR_REMOVE_ONE, null, 1);
    }

    static double[] flat(DpSgdTrainer.ClippedSum s) {
        return java.util.Arrays.stream(s.sum().arrays()).flatMapToDouble(java.util.Arrays::stream).toArray();
    }

    @Test
    void theTrainedNetworkEqualsTheInProcessOneOnTheSameSeededNoise() {
        for (String classifier : new String[] {"lr", "dnn"}) {
            PrivateLearners.Plan p = plan(classifier, data.rows().length, "dp-sgd");
            assertThat(p.kind()).isEqualTo(PrivateLearners.Kind.DP_SGD);
            assertThat(p.gradient().config().samplingRate()).isLessThan(0.5);
            assertThat(p.gradient().config().steps()).isGreaterThan(5);
            Network local = PrivateLearners.train(p, data.matrix(), data.codes(CLASSES), CLASSES, NoiseSource.seeded(6));
            for (int partitions : new int[] {1, 3}) {
                Network distributed = SparkDpSgd.train(p, ordered(data, partitions), CLASSES, NoiseSource.seeded(6));
                for (int l = 0; l < local.layers(); l++) {
                    String what = classifier + " on " + partitions + " partition(s), layer " + l;
                    assertRelativelyClose(distributed.weights(l).data(), local.weights(l).data(), REL, what + " weights");
                    assertRelativelyClose(distributed.bias(l), local.bias(l), REL, what + " bias");
                }
            }
        }
        // dp-gd (q = 1) through the same path equals the full-batch SparkDpGd
        PrivateLearners.Plan gd = plan("lr", data.rows().length, "dp-gd");
        Network a = SparkDpSgd.train(gd, ordered(data, 2), CLASSES, NoiseSource.seeded(8));
        Network b = SparkDpGd.train(gd, data.table(spark, 3), CLASSES, NoiseSource.seeded(8));
        assertRelativelyClose(a.weights(0).data(), b.weights(0).data(), REL, "dp-gd weights");
    }

    /**
     * The windowed path (issue 45 item 2): with the batches on a stream of their own, the steps summed on the driver on
     * the rows each window fetched in one job give the in-process network under the same randomness, bit for bit, for
     * windows of 1 (every step a job on the executors), 3 and 7 steps on 1 and 3 partitions; one fetch per window.
     */
    @Test
    void windowsOfStepsFetchedInOneJobGiveTheInProcessNetwork() {
        for (String classifier : new String[] {"lr", "dnn"}) {
            PrivateLearners.Plan p = plan(classifier, data.rows().length, "dp-sgd");
            org.privadapt.models.dp.DpSgdConfig cfg = p.gradient().config();
            Network local = org.privadapt.models.dp.DpSgdTrainer.train(PrivateTraining.initial(p.gradient(), data.dimension(), CLASSES),
                    data.matrix(), data.codes(CLASSES), cfg, org.privadapt.models.dp.SeparateSampling.of(NoiseSource.seeded(6))).model();
            for (int partitions : new int[] {1, 3}) {
                for (int window : new int[] {1, 3, 7}) {
                    try (SparkDpSgd.Cached c = SparkDpSgd.cache(ordered(data, partitions), CLASSES, StorageLevel.MEMORY_ONLY())) {
                        GatheredBatches g = GatheredBatches.withWindow(c, window);
                        Network distributed = PrivateTraining.train(p.gradient(), data.rows().length,
                                SparkDpSgd.batchSums(c, cfg.clipNorm(), cfg.maxPhysicalBatch(), g), data.dimension(), CLASSES,
                                org.privadapt.models.dp.SeparateSampling.of(NoiseSource.seeded(6)));
                        String what = classifier + ", " + partitions + " partition(s), window " + window;
                        for (int l = 0; l < local.layers(); l++) {
                            if (window == 1) { // the executors' sums, merged compensated: equal within rounding
                                assertRelativelyClose(distributed.weights(l).data(), local.weights(l).data(), REL, what);
                            } else {
                                assertThat(distributed.weights(l).data()).as(what + " layer " + l).isEqualTo(local.weights(l).data());
                                assertThat(distributed.bias(l)).as(what).isEqualTo(local.bias(l));
                            }
                        }
                        long steps = cfg.steps();
                        assertThat(g.fetches()).as(what).isEqualTo(window == 1 ? 0 : (int) ((steps + window - 1) / window));
                    }
                }
            }
        }
    }

    /**
     * Windows whose batches are all empty (q n = 0.12, drawn by geometric gaps at this rate): nothing to fetch, the steps'
     * sums are zeros, as in process; the steps that do sample rows give the in-process update.
     */
    @Test
    void windowsOfEmptyBatchesGiveTheInProcessNetwork() {
        int n = data.rows().length;
        org.privadapt.models.dp.DpSgdConfig cfg = new org.privadapt.models.dp.DpSgdConfig(0.5, 1.0, 0.0005, 0.0005 * n, 30, 16,
                "sgd", 0.1, "constant", 0.0, 1L);
        Network init = Network.create(data.dimension(), new int[0], org.privadapt.models.nn.Activation.RELU, CLASSES, 1);
        org.privadapt.models.dp.DpSgdTrainer.Result inProcess = org.privadapt.models.dp.DpSgdTrainer.train(init, data.matrix(),
                data.codes(CLASSES), cfg, org.privadapt.models.dp.SeparateSampling.of(NoiseSource.seeded(3)));
        Network local = inProcess.model();
        assertThat(inProcess.examplesUsed()).as("some steps sample rows").isBetween(1L, 10L);
        try (SparkDpSgd.Cached c = SparkDpSgd.cache(ordered(data, 2), CLASSES, StorageLevel.MEMORY_ONLY())) {
            GatheredBatches g = GatheredBatches.withWindow(c, 5);
            Network distributed = org.privadapt.models.dp.DpSgdTrainer.train(init, n, SparkDpSgd.batchSums(c, 0.5, 16, g), cfg,
                    org.privadapt.models.dp.SeparateSampling.of(NoiseSource.seeded(3))).model();
            assertThat(distributed.weights(0).data()).isEqualTo(local.weights(0).data());
            assertThat(distributed.bias(0)).isEqualTo(local.bias(0));
            assertThat(g.fetches()).isEqualTo(6);
        }
    }

    @Test
    void theWindowIsSetByPublicSizesAndBoundsTheDriversMemory() {
        assertThat(GatheredBatches.window(256.0 / 1e6, 1_000_000, 100)).isEqualTo(163); // 2^22 / 25,600
        assertThat(GatheredBatches.window(1e-6, 1_000_000, 10)).isEqualTo(GatheredBatches.MAX_WINDOW);
        assertThat(GatheredBatches.window(0.0327, 1_000_000, 100)).isEqualTo(1); // 32,700-row batches: a job per step
        assertThat(GatheredBatches.window(1.0, 240, 6)).isGreaterThan(1);
        // secure noise: the batches on their own stream; seeded: the in-process stream (a seeded run equals in process)
        assertThat(SparkDpSgd.randomness(NoiseSource.secure()).samplingSeparate()).isTrue();
        assertThat(SparkDpSgd.randomness(NoiseSource.seeded(1)).samplingSeparate()).isFalse();
    }

    static int[] sample(int n, int every) {
        return java.util.stream.IntStream.range(0, n).filter(i -> i % every == 1).toArray();
    }

    @Test
    void aStepsQueryDoesNotDependOnThePartitioning() {
        PrivateLearners.Plan p = plan("dnn", data.rows().length, "dp-sgd");
        Network net = PrivateTraining.initial(p.gradient(), data.dimension(), CLASSES);
        double clip = p.gradient().config().clipNorm();
        int[] batch = sample(data.rows().length, 3);
        DpSgdTrainer.ClippedSum local = DpSgdTrainer.clippedSum(net, data.matrix(), data.codes(CLASSES), batch, clip, 16, 0);
        for (int partitions : new int[] {1, 2, 7}) {
            try (SparkDpSgd.Cached c = SparkDpSgd.cache(ordered(data, partitions), CLASSES, StorageLevel.MEMORY_ONLY())) {
                DpSgdTrainer.ClippedSum s = SparkDpSgd.batchSums(c, clip, 16).sum(net, batch, 0);
                assertRelativelyClose(flat(s), flat(local), REL, partitions + " partition(s) vs in process");
                assertRelativelyClose(new double[] {s.lossSum()}, new double[] {local.lossSum()}, REL, "loss");
            }
        }
    }

    /** Neighbours for one step's query over a fixed sampled batch (the methods harness's check). */
    @Test
    void onNeighboursAStepsQueryMovesByAtMostTheClipOrTwiceAndNotAtAllWhenTheRowIsNotSampled() {
        PrivateLearners.Plan p = plan("dnn", data.rows().length, "dp-sgd");
        Network net = PrivateTraining.initial(p.gradient(), data.dimension(), CLASSES);
        double clip = p.gradient().config().clipNorm();
        SparkTestSupport.assertSampledSumNeighbours(data, clip, sample(data.rows().length, 3), (rows, b) -> query(rows, net, clip, b));
    }

    static double[] query(SparkTestSupport.Rows rows, Network net, double clip, int[] batch) {
        try (SparkDpSgd.Cached c = SparkDpSgd.cache(ordered(rows, 3), CLASSES, StorageLevel.MEMORY_ONLY())) {
            return flat(SparkDpSgd.batchSums(c, clip, 16).sum(net, batch, 0));
        }
    }

    @Test
    void aLabelOutsideTheClassesOrAnotherRowCountIsRefused() {
        PrivateLearners.Plan p = plan("lr", data.rows().length, "dp-sgd");
        assertThatThrownBy(() -> SparkDpSgd.train(p, ordered(data, 2), java.util.List.of("a", "b"), NoiseSource.seeded(1)))
                .hasMessageContaining("outside the declared classes");
        PrivateLearners.Plan other = plan("lr", data.rows().length + 5, "dp-sgd");
        assertThatThrownBy(() -> SparkDpSgd.train(other, ordered(data, 2), CLASSES, NoiseSource.seeded(1)))
                .hasMessageContaining("rows (public)");
    }
}
