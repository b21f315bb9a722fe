package org.privadapt.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.privadapt.spark.SparkTestSupport.assertRelativelyClose;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;
import org.privadapt.models.dp.SessionRandomness;
import org.privadapt.models.mixture.CovarianceType;
import org.privadapt.models.mixture.DpGaussianMixtureEm;
import org.privadapt.models.mixture.GaussianMixture;
import org.privadapt.models.mixture.SufficientStatistics;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * DP-EM (paper 004) on Spark (local[2]) against the in-process fit: with the same seeded noise every release's noisy
 * statistics and the fitted mixture are equal to 1e-9 relative, the charge is the same; the exact statistics under a
 * fixed mixture do not depend on the partitioning (1, 3, 7); adding a row far outside the bound moves the exact count,
 * sum and second-moment blocks by at most 1, R and R^2; a NaN row is refused before any charge.
 */
class SparkDpEmTest {
    static final double REL = 1e-9;
    static final double R = 3.0;
    static SparkSession spark;
    static SparkTestSupport.Rows data;

    @AfterAll
    static void report() {
        SparkTestSupport.reportWorst("DP-EM (Spark vs in-process, and across partitionings)");
    }

    @BeforeAll
    static void start() {
        spark = SparkTestSupport.spark();
        data = SparkTestSupport.generate(300, 5, 4);
    }

    static DpGaussianMixtureEm.Config config(CovarianceType type) {
        return DpGaussianMixtureEm.Config.of(3, type, R, 4, 0.05, 17);
    }

    static void assertSame(SufficientStatistics spark, SufficientStatistics local, String what) {
        assertThat(spark.covarianceType()).isEqualTo(local.covarianceType());
        assertRelativelyClose(spark.countVector(), local.countVector(), REL, what + " counts");
        assertRelativelyClose(spark.sumVector(), local.sumVector(), REL, what + " sums");
        assertRelativelyClose(spark.secondMomentVector(), local.secondMomentVector(), REL, what + " moments");
    }

    static void assertSame(GaussianMixture spark, GaussianMixture local, String what) {
        assertThat(spark.covarianceType()).isEqualTo(local.covarianceType());
        assertRelativelyClose(spark.weights(), local.weights(), REL, what + " weights");
        assertRelativelyClose(spark.means().data(), local.means().data(), REL, what + " means");
        for (int k = 0; k < local.components(); k++) {
            assertRelativelyClose(spark.covariance(k).data(), local.covariance(k).data(), REL, what + " covariance " + k);
        }
    }

    static PrivacySession session() {
        return new PrivacySession("source", new PrivacyBudget(1e4, 1e-5), NeighbouringRelation.ADD_OR_REMOVE_ONE,
                NoiseSource.seeded(23), null);
    }

    @Test
    void theFitEqualsTheInProcessOneOnTheSameSeededNoise() throws Exception {
        SparkTable table = data.table(spark, 3);
        for (CovarianceType type : CovarianceType.values()) {
            DpGaussianMixtureEm.Config c = config(type);
            List<SufficientStatistics> local = new ArrayList<>();
            List<SufficientStatistics> onSpark = new ArrayList<>();
            List<GaussianMixture> localInputs = new ArrayList<>();
            List<GaussianMixture> sparkInputs = new ArrayList<>();
            PrivacySession ls = session();
            PrivacySession ss = session();
            DpGaussianMixtureEm.Result l = DpGaussianMixtureEm.fit(data.matrix(), c, ls, (i, in, s) -> {
                local.add(s);
                localInputs.add(in);
            });
            DpGaussianMixtureEm.Result s = SparkDpEm.fit(table, c, ss, (i, in, st) -> {
                onSpark.add(st);
                sparkInputs.add(in);
            });
            assertThat(onSpark).hasSize(c.releases()).hasSameSizeAs(local);
            for (int i = 0; i < local.size(); i++) {
                assertSame(onSpark.get(i), local.get(i), type + " release " + i);
                if (i > 0) {
                    assertSame(sparkInputs.get(i), localInputs.get(i), type + " model into release " + i);
                }
            }
            assertSame(s.model(), l.model(), type + " fitted mixture");
            assertThat(s.releases()).isEqualTo(l.releases());
            assertThat(s.event()).isEqualTo(l.event());
            assertThat(s.noise()).isEqualTo(l.noise());
            assertThat(s.isPrivate()).isEqualTo(l.isPrivate()).isFalse();
            assertThat(ss.events()).as("charges").isEqualTo(ls.events()).hasSize(1);
            // the fit moved off its start: the statistics under the last model are not the initial ones
            assertThat(s.model().components()).isEqualTo(3);
        }
    }

    /** A mixture to evaluate the statistics under (the in-process fit's, public here). */
    static GaussianMixture model(CovarianceType type) {
        return DpGaussianMixtureEm.fit(data.matrix(), config(type), new SessionRandomness(NoiseSource.seeded(2))).model();
    }

    @Test
    void theExactStatisticsEqualTheInProcessOnesAndDoNotDependOnThePartitioning() {
        DenseMatrix z = DpGaussianMixtureEm.clipRows(data.matrix(), R);
        for (CovarianceType type : CovarianceType.values()) {
            GaussianMixture m = model(type);
            SufficientStatistics one = SparkDpEm.exact(data.table(spark, 1), R, m, type);
            assertSame(one, DpGaussianMixtureEm.statistics(z, m), type + " 1 partition vs in process");
            SufficientStatistics init1 = SparkDpEm.exact(data.table(spark, 1), R, null, type);
            assertSame(init1, DpGaussianMixtureEm.initialStatistics(z, type), type + " initial, 1 partition vs in process");
            for (int parts : new int[] {3, 7}) {
                assertSame(SparkDpEm.exact(data.table(spark, parts), R, m, type), one, type + ", " + parts + " partitions");
                assertSame(SparkDpEm.exact(data.table(spark, parts), R, null, type), init1, type + " initial, " + parts + " partitions");
            }
        }
    }

    static double l2(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += (a[i] - b[i]) * (a[i] - b[i]);
        }
        return Math.sqrt(s);
    }

    @Test
    void addingAFarRowMovesTheExactStatisticsByAtMostOneRAndRSquared() {
        double[] far = new double[data.dimension()];
        java.util.Arrays.fill(far, 40.0); // norm ~89: clipped to a hair inside R
        double[] between = far.clone();
        between[0] = -40;
        for (CovarianceType type : CovarianceType.values()) {
            GaussianMixture m = model(type);
            for (GaussianMixture current : java.util.Arrays.asList(null, m)) {
                SufficientStatistics base = SparkDpEm.exact(data.table(spark, 2), R, current, type);
                for (double[] row : List.of(far, between)) {
                    SufficientStatistics moved = SparkDpEm.exact(data.plus(row, "a").table(spark, 3), R, current, type);
                    String what = type + (current == null ? " initial" : " under a model");
                    assertThat(l2(moved.countVector(), base.countVector())).as(what + " counts")
                            .isLessThanOrEqualTo(1 * (1 + REL)).isGreaterThanOrEqualTo(1 / Math.sqrt(3) * (1 - REL)); // ||r||_2, r a probability vector
                    assertThat(l2(moved.sumVector(), base.sumVector())).as(what + " sums")
                            .isLessThanOrEqualTo(R * (1 + REL)).isGreaterThan(0.0);
                    assertThat(l2(moved.secondMomentVector(), base.secondMomentVector())).as(what + " moments")
                            .isLessThanOrEqualTo(R * R * (1 + REL)).isGreaterThan(0.0);
                }
            }
        }
    }

    @Test
    void aNaNRowIsRefusedBeforeAnyCharge() {
        double[] bad = new double[data.dimension()];
        bad[1] = Double.NaN;
        PrivacySession s = session();
        assertThatThrownBy(() -> SparkDpEm.fit(data.plus(bad, "a").table(spark, 2), config(CovarianceType.FULL), s, null))
                .hasMessageContaining("1 row(s) have a missing or non-finite");
        assertThat(s.events()).isEmpty();
    }
}
