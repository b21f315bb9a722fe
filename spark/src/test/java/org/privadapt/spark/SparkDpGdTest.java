package org.privadapt.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.privadapt.spark.SparkTestSupport.CLASSES;
import static org.privadapt.spark.SparkTestSupport.assertRelativelyClose;

import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.PrivateLearners;
import org.privadapt.methods.core.PrivateTraining;
import org.privadapt.models.dp.DpSgdTrainer;
import org.privadapt.models.nn.Gradients;
import org.privadapt.models.nn.Network;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * The dp-gd learner (full-batch DP gradient descent) with the rows on Spark (local[2]) against the in-process one: on
 * the same seeded noise the trained network (linear, and with a hidden layer) is equal to 1e-9 relative; the exact
 * per-step clipped gradient sum does not depend on the partitioning beyond that; on neighbours (a row far outside the
 * clip added, or replacing one) it moves by at most C (add/remove) or 2C (replace-one).
 */
class SparkDpGdTest {
    static final double REL = 1e-9;
    static SparkSession spark;
    static SparkTestSupport.Rows data;

    @org.junit.jupiter.api.AfterAll
    static void report() {
        SparkTestSupport.reportWorst("dp-gd (Spark vs in-process, and across partitionings)");
    }

    @BeforeAll
    static void start() {
        spark = SparkTestSupport.spark();
        data = SparkTestSupport.generate(240, 6, 9);
    }

    static PrivateLearners.Plan plan(String classifier, int n, NeighbouringRelation rel) {
        MethodConfig c = new MethodConfig(classifier, 4, 1, Map.of("learner", "dp-gd", "epochs", "6", "lr", "0.1", "hidden", "4",
                "clip", "0.5"));
        return PrivateLearners.plan(c, n, data.dimension(), 3, 2.0, 1e-5, rel, null, 1);
    }

    static double[] flat(Gradients g) {
        return java.util.Arrays.stream(g.arrays()).flatMapToDouble(java.util.Arrays::stream).toArray();
    }

    @Test
    void theTrainedNetworkEqualsTheInProcessOneOnTheSameSeededNoise() {
        SparkTable table = data.table(spark, 3);
        for (String classifier : new String[] {"lr", "dnn"}) {
            PrivateLearners.Plan p = plan(classifier, data.rows().length, NeighbouringRelation.ADD_OR_REMOVE_ONE);
            assertThat(p.gradient().config().samplingRate()).isEqualTo(1.0);
            Network local = PrivateLearners.train(p, data.matrix(), data.codes(CLASSES), CLASSES, NoiseSource.seeded(6));
            Network distributed = SparkDpGd.train(p, table, CLASSES, NoiseSource.seeded(6));
            assertThat(distributed.layers()).isEqualTo(local.layers());
            for (int l = 0; l < local.layers(); l++) {
                assertRelativelyClose(distributed.weights(l).data(), local.weights(l).data(), REL, classifier + " weights " + l);
                assertRelativelyClose(distributed.bias(l), local.bias(l), REL, classifier + " bias " + l);
            }
        }
    }

    static int[] all(int n) {
        return java.util.stream.IntStream.range(0, n).toArray();
    }

    @Test
    void theExactClippedSumDoesNotDependOnThePartitioning() {
        PrivateLearners.Plan p = plan("dnn", data.rows().length, NeighbouringRelation.ADD_OR_REMOVE_ONE);
        Network net = PrivateTraining.initial(p.gradient(), data.dimension(), CLASSES);
        double clip = p.gradient().config().clipNorm();
        int n = data.rows().length;
        DpSgdTrainer.ClippedSum local = DpSgdTrainer.clippedSum(net, data.matrix(), data.codes(CLASSES), all(n), clip, 256, 0);
        DpSgdTrainer.ClippedSum one = SparkDpGd.batchSums(data.table(spark, 1), CLASSES, clip).sum(net, all(n), 0);
        assertRelativelyClose(flat(one.sum()), flat(local.sum()), REL, "1 partition vs in-process");
        assertRelativelyClose(new double[] {one.lossSum()}, new double[] {local.lossSum()}, REL, "loss");
        for (int parts : new int[] {3, 7}) {
            DpSgdTrainer.ClippedSum s = SparkDpGd.batchSums(data.table(spark, parts), CLASSES, clip).sum(net, all(n), 0);
            assertRelativelyClose(flat(s.sum()), flat(one.sum()), REL, parts + " partitions vs 1");
        }
    }

    @Test
    void onNeighboursTheExactClippedSumMovesByAtMostTheClipOrTwice() {
        PrivateLearners.Plan p = plan("dnn", data.rows().length, NeighbouringRelation.ADD_OR_REMOVE_ONE);
        Network net = PrivateTraining.initial(p.gradient(), data.dimension(), CLASSES);
        double clip = p.gradient().config().clipNorm();
        double[] far = {50, -50, 50, -50, 50, -50};
        int n = data.rows().length;
        double[] base = flat(SparkDpGd.batchSums(data.table(spark, 2), CLASSES, clip).sum(net, all(n), 0).sum());
        double[] added = flat(SparkDpGd.batchSums(data.plus(far, "c").table(spark, 3), CLASSES, clip).sum(net, all(n + 1), 0).sum());
        double[] replaced = flat(SparkDpGd.batchSums(data.replacing(4, far, "b").table(spark, 3), CLASSES, clip).sum(net, all(n), 0).sum());
        assertThat(SparkClassStatisticsTest.l2(base, added)).as("add one").isLessThanOrEqualTo(clip * (1 + REL)).isGreaterThan(0.0);
        assertThat(SparkClassStatisticsTest.l2(base, replaced)).as("replace one").isLessThanOrEqualTo(2 * clip * (1 + REL)).isGreaterThan(0.0);
    }
}
