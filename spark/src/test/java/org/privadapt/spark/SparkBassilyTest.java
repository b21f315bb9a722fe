package org.privadapt.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.privadapt.spark.SparkTestSupport.assertRelativelyClose;

import java.util.SplittableRandom;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.bassily.NoisyGradientDescent;
import org.privadapt.methods.bassily.PCnvxAdap;
import org.privadapt.methods.bassily.StatisticsPCnvxAdap;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * Paper 003's full-batch noisy descent and pcnvxadap-stats' statistics release with the private rows on Spark
 * (local[2]) against the in-process ones: with the same seeded noise the released predictor, statistics and discrepancy
 * are equal to 1e-9 relative, the calibration and the charged events identical; the exact per-step gradient sum and the
 * exact statistics do not depend on the partitioning beyond that; and replacing one row moves them by at most the
 * declared sensitivity (2G for the gradient sum, sqrt(2 r^4 + 4 r^2) for the statistics).
 */
class SparkBassilyTest {
    static final double REL = 1e-9;
    static SparkSession spark;
    static SparkTestSupport.Rows data;
    static DenseMatrix xPub;
    static double[] yPub;

    @org.junit.jupiter.api.AfterAll
    static void report() {
        SparkTestSupport.reportWorst("paper 003 descent and statistics (Spark vs in-process, and across partitionings)");
    }

    /** n regression rows of d features (scales 0.1 to 10, so rows and targets get clipped), targets as labels. */
    static SparkTestSupport.Rows regression(int n, int d, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] x = new double[n][d];
        String[] y = new String[n];
        for (int i = 0; i < n; i++) {
            double scale = Math.pow(10, r.nextDouble(-1, 1));
            double t = 0;
            for (int j = 0; j < d; j++) {
                x[i][j] = scale * SparkTestSupport.gauss(r);
                t += (j % 2 == 0 ? 0.3 : -0.2) * x[i][j];
            }
            y[i] = Double.toString(t + 0.3 * SparkTestSupport.gauss(r));
        }
        return new SparkTestSupport.Rows(x, y);
    }

    static double[] targets(SparkTestSupport.Rows rows) {
        double[] y = new double[rows.labels().length];
        for (int i = 0; i < y.length; i++) {
            y[i] = Double.parseDouble(rows.labels()[i]);
        }
        return y;
    }

    @BeforeAll
    static void start() {
        spark = SparkTestSupport.spark();
        data = regression(300, 6, 3);
        SparkTestSupport.Rows pub = regression(60, 6, 4);
        xPub = pub.matrix();
        yPub = targets(pub);
    }

    static PrivacySession session(long seed) {
        return new PrivacySession("target", new PrivacyBudget(2, 1e-5), NeighbouringRelation.REPLACE_ONE, NoiseSource.seeded(seed), null);
    }

    static final StatisticsPCnvxAdap.Settings SETTINGS = new StatisticsPCnvxAdap.Settings(0.5, 1.0, 2.0, 0.2);
    static final double[] START = {0.2, -0.1, 0.0, 0.1, 0.0, -0.2};

    @Test
    void theNoisyDescentEqualsTheInProcessOneOnTheSameSeededNoise() throws Exception {
        for (double rowBound : new double[] {1.0, 2.5}) {
            PrivacySession inProcess = session(13);
            PrivacySession onSpark = session(13);
            NoisyGradientDescent.Result local = NoisyGradientDescent.fitSquaredLoss(data.matrix(), targets(data), 2.0, rowBound, 12, inProcess);
            NoisyGradientDescent.Result distributed = SparkBassily.fitSquaredLoss(data.table(spark, 3), 2.0, rowBound, 12, onSpark);
            assertRelativelyClose(distributed.w(), local.w(), REL, "w at r=" + rowBound);
            assertThat(distributed.calibration()).isEqualTo(local.calibration());
            assertThat(onSpark.events()).isEqualTo(inProcess.events());
        }
    }

    @Test
    void theStatisticsReleaseEqualsTheInProcessOneOnTheSameSeededNoise() throws Exception {
        PrivacySession inProcess = session(17);
        PrivacySession onSpark = session(17);
        StatisticsPCnvxAdap.NoisyStatistics local = StatisticsPCnvxAdap.noisyStatistics(xPub, yPub, data.matrix(), targets(data),
                SETTINGS, inProcess, START);
        StatisticsPCnvxAdap.NoisyStatistics distributed = SparkBassily.noisyStatistics(xPub, yPub, data.table(spark, 3), SETTINGS,
                onSpark, START);
        assertRelativelyClose(distributed.statistics(), local.statistics(), REL, "statistics");
        assertRelativelyClose(new double[] {distributed.discrepancy()}, new double[] {local.discrepancy()}, REL, "discrepancy");
        assertThat(distributed.n()).isEqualTo(local.n());
        assertThat(distributed.calibration()).isEqualTo(local.calibration());
        assertThat(distributed.sourceRows().data()).isEqualTo(local.sourceRows().data());
        assertThat(distributed.sourceTargets()).isEqualTo(local.sourceTargets());
        assertThat(onSpark.events()).isEqualTo(inProcess.events());
    }

    static final double[] W = {0.5, -1.0, 0.25, 0.0, 0.8, -0.3};

    static double[] localGradient(SparkTestSupport.Rows rows, double rowBound) {
        return NoisyGradientDescent.inProcess(PCnvxAdap.clipRows(rows.matrix(), rowBound), PCnvxAdap.clipTargets(targets(rows))).at(W);
    }

    static double[] localStatistics(SparkTestSupport.Rows rows) {
        return StatisticsPCnvxAdap.statistics(PCnvxAdap.clipRows(rows.matrix(), 1.0), PCnvxAdap.clipTargets(targets(rows)));
    }

    @Test
    void theExactGradientSumAndStatisticsDoNotDependOnThePartitioning() {
        double[] g1 = SparkBassily.gradientSum(data.table(spark, 1), 1.5).at(W);
        assertRelativelyClose(g1, localGradient(data, 1.5), REL, "gradient sum, 1 partition vs in-process");
        StatisticsPCnvxAdap.TargetSource s1 = SparkBassily.targetSource(data.table(spark, 1), 300);
        assertRelativelyClose(s1.statistics(), localStatistics(data), REL, "statistics, 1 partition vs in-process");
        DenseMatrix xs = PCnvxAdap.clipRows(xPub, 1.0);
        double[] ys = PCnvxAdap.clipTargets(yPub);
        double d1 = s1.discrepancy(xs, ys, 2.5);
        double dLocal = StatisticsPCnvxAdap.inProcess(PCnvxAdap.clipRows(data.matrix(), 1.0), PCnvxAdap.clipTargets(targets(data)))
                .discrepancy(xs, ys, 2.5);
        assertRelativelyClose(new double[] {d1}, new double[] {dLocal}, REL, "discrepancy, 1 partition vs in-process");
        for (int parts : new int[] {3, 7}) {
            SparkTable t = data.table(spark, parts);
            assertRelativelyClose(SparkBassily.gradientSum(t, 1.5).at(W), g1, REL, "gradient sum, " + parts + " partitions vs 1");
            StatisticsPCnvxAdap.TargetSource s = SparkBassily.targetSource(t, 300);
            assertRelativelyClose(s.statistics(), s1.statistics(), REL, "statistics, " + parts + " partitions vs 1");
            assertRelativelyClose(new double[] {s.discrepancy(xs, ys, 2.5)}, new double[] {d1}, REL, "discrepancy, " + parts + " vs 1");
        }
    }

    @Test
    void replacingOneRowMovesTheExactQueriesByAtMostTheirSensitivity() {
        double[] far = {40, -40, 40, -40, 40, -40};
        double radius = 2.0;
        double[] w = W.clone();
        double norm = Math.sqrt(java.util.Arrays.stream(w).map(v -> v * v).sum());
        for (int j = 0; j < w.length; j++) {
            w[j] *= radius / norm; // a w on the ball's boundary, as the descent's projected iterates can be
        }
        for (String y : new String[] {"9.5", "-7"}) {
            SparkTestSupport.Rows dPrime = data.replacing(5, far, y);
            for (double rowBound : new double[] {1.0, 2.5}) {
                double g = 2 * rowBound * (radius * rowBound + 1);
                double[] a = SparkBassily.gradientSum(data.table(spark, 2), rowBound).at(w);
                double[] b = SparkBassily.gradientSum(dPrime.table(spark, 3), rowBound).at(w);
                assertThat(SparkClassStatisticsTest.l2(a, b)).as("gradient sum, r=" + rowBound).isLessThanOrEqualTo(2 * g * (1 + REL))
                        .isGreaterThan(0.0);
            }
            double[] s = SparkBassily.targetSource(data.table(spark, 2), 300).statistics();
            double[] t = SparkBassily.targetSource(dPrime.table(spark, 3), 300).statistics();
            assertThat(SparkClassStatisticsTest.l2(s, t)).as("statistics").isLessThanOrEqualTo(StatisticsPCnvxAdap.sensitivity(1.0) * (1 + REL))
                    .isGreaterThan(0.0);
        }
    }

    @Test
    void aTargetThatIsNotANumberOrAnotherRelationIsRefusedBeforeAnyCharge() {
        SparkTestSupport.Rows bad = data.replacing(3, data.rows()[3], "not a number");
        PrivacySession s = session(1);
        assertThatThrownBy(() -> SparkBassily.fitSquaredLoss(bad.table(spark, 2), 2.0, 1.0, 5, s))
                .hasMessageContaining("1 row(s) have a target that is not a number");
        assertThatThrownBy(() -> SparkBassily.noisyStatistics(xPub, yPub, bad.table(spark, 2), SETTINGS, s, START))
                .hasMessageContaining("1 row(s) have a target that is not a number");
        assertThat(s.events()).isEmpty();
        PrivacySession addRemove = new PrivacySession("target", new PrivacyBudget(2, 1e-5), NeighbouringRelation.ADD_OR_REMOVE_ONE,
                NoiseSource.seeded(1), null);
        assertThatThrownBy(() -> SparkBassily.fitSquaredLoss(data.table(spark, 2), 2.0, 1.0, 5, addRemove))
                .hasMessageContaining("replace-one");
        assertThat(addRemove.events()).isEmpty();
    }
}
