package org.privadapt.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.privadapt.spark.SparkTestSupport.CLASSES;
import static org.privadapt.spark.SparkTestSupport.assertRelativelyClose;

import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.PrivateLearners;
import org.privadapt.models.dp.ClassStatistics;
import org.privadapt.models.dp.SessionRandomness;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * The ncm, lda and adassp releases on Spark (local[2]) against the in-process ones: with the same seeded
 * noise they are equal to 1e-9 relative (to each block's largest entry), re-partitioning the rows into 1, 3 or 7
 * partitions moves the exact statistic by less than that, and on neighbouring datasets (one row added, one row
 * replaced, by a row far outside the bound) the exact Spark statistic moves by at most the declared sensitivity.
 */
class SparkClassStatisticsTest {
    static final double REL = 1e-9;
    static SparkSession spark;
    static SparkTestSupport.Rows data;

    @org.junit.jupiter.api.AfterAll
    static void report() {
        SparkTestSupport.reportWorst("class statistics (Spark vs in-process, and across partitionings)");
    }

    @BeforeAll
    static void start() {
        spark = SparkTestSupport.spark();
        data = SparkTestSupport.generate(400, 6, 1);
    }

    static PrivateLearners.Plan plan(String learner, NeighbouringRelation rel) {
        MethodConfig c = new MethodConfig("lr", 0, 1, Map.of("learner", learner, "learner-row-bound", "2.0"));
        return PrivateLearners.plan(c, data.rows().length, data.dimension(), CLASSES.size(), 1.0, 1e-5, rel, null, 1);
    }

    static void assertSame(ClassStatistics spark, ClassStatistics local, String what) {
        double[] sc = spark.counts();
        double[] lc = local.counts();
        if (Double.isNaN(lc[0])) {
            assertThat(sc).as(what + " counts withheld").containsOnly(Double.NaN);
        } else {
            assertRelativelyClose(sc, lc, REL, what + " counts");
        }
        assertRelativelyClose(spark.sums().data(), local.sums().data(), REL, what + " sums");
        if (local.moment() == null) {
            assertThat(spark.moment()).as(what + " moment").isNull();
        } else {
            assertRelativelyClose(spark.moment().data(), local.moment().data(), REL, what + " moment");
        }
    }

    @Test
    void theReleasesEqualTheInProcessOnesOnTheSameSeededNoise() {
        SparkTable table = data.table(spark, 3);
        DenseMatrix x = data.matrix();
        int[] y = data.codes(CLASSES);
        for (NeighbouringRelation rel : NeighbouringRelation.values()) {
            PrivateLearners.Plan ncm = plan("ncm", rel);
            assertSame(SparkClassStatistics.ncmRelease(ncm, table, CLASSES, new SessionRandomness(NoiseSource.seeded(7))),
                    PrivateLearners.ncmRelease(ncm, x, y, CLASSES.size(), new SessionRandomness(NoiseSource.seeded(7))), "ncm " + rel);
            PrivateLearners.Plan lda = plan("lda", rel);
            assertSame(SparkClassStatistics.ldaRelease(lda, table, CLASSES, new SessionRandomness(NoiseSource.seeded(8))),
                    PrivateLearners.ldaRelease(lda, x, y, CLASSES.size(), new SessionRandomness(NoiseSource.seeded(8))), "lda " + rel);
        }
        // and the exact statistics themselves (no noise to hide a difference)
        assertSame(SparkClassStatistics.ncmExact(table, CLASSES), PrivateLearners.ncmExact(x, y, CLASSES.size()), "ncm exact");
        PrivateLearners.Plan lda = plan("lda", NeighbouringRelation.ADD_OR_REMOVE_ONE);
        assertSame(SparkClassStatistics.ldaExact(table, CLASSES, 2.0), PrivateLearners.ldaExact(lda, x, y, CLASSES.size()), "lda exact");
    }

    /**
     * The adassp release on Spark (each row projected and bounded on the executors, the moments in one aggregate, the noise
     * on the driver) equals the in-process one to 1e-9 relative, exact and with the same seeded noise, both relations;
     * with the identity projection (d 6 at the default adassp-dim) and with a projection to 3 dimensions and rows scaled
     * to R; and so does the model (its weights).
     */
    @Test
    void theAdasspReleaseEqualsTheInProcessOne() {
        SparkTable table = data.table(spark, 3);
        DenseMatrix x = data.matrix();
        int[] y = data.codes(CLASSES);
        for (Map<String, String> extra : List.of(Map.<String, String>of(), Map.of("adassp-dim", "3", "adassp-rows", "normalise"))) {
            for (NeighbouringRelation rel : NeighbouringRelation.values()) {
                Map<String, String> params = new java.util.HashMap<>(extra);
                params.put("learner", "adassp");
                params.put("learner-row-bound", "2.0");
                PrivateLearners.Plan p = PrivateLearners.plan(new MethodConfig("lr", 0, 1, params), data.rows().length, data.dimension(),
                        CLASSES.size(), 1.0, 1e-5, rel, null, 1);
                String what = "adassp " + extra + " " + rel;
                org.privadapt.models.dp.AdaSsp se = SparkClassStatistics.adasspExact(p, table, CLASSES);
                org.privadapt.models.dp.AdaSsp le = PrivateLearners.adasspExact(p, x, y, CLASSES.size());
                assertThat(se.dimension()).as(what + " projected dimension + 1").isEqualTo(extra.isEmpty() ? 7 : 4);
                assertRelativelyClose(se.moment().data(), le.moment().data(), REL, what + " exact moment");
                assertRelativelyClose(se.cross().data(), le.cross().data(), REL, what + " exact cross moment");
                assertRelativelyClose(new double[] {se.eigen()}, new double[] {le.eigen()}, REL, what + " exact eigenvalue");
                org.privadapt.models.dp.AdaSsp sn = PrivateLearners.adasspNoise(p, se, new SessionRandomness(NoiseSource.seeded(9)));
                org.privadapt.models.dp.AdaSsp ln = PrivateLearners.adasspNoise(p, le, new SessionRandomness(NoiseSource.seeded(9)));
                assertRelativelyClose(sn.moment().data(), ln.moment().data(), REL, what + " noisy moment");
                assertRelativelyClose(sn.cross().data(), ln.cross().data(), REL, what + " noisy cross moment");
                org.privadapt.models.nn.Network sm = SparkClassStatistics.model(p, table, CLASSES, NoiseSource.seeded(10));
                org.privadapt.models.nn.Network lm = PrivateLearners.train(p, x, y, CLASSES, NoiseSource.seeded(10));
                assertRelativelyClose(sm.weights(0).data(), lm.weights(0).data(), 1e-6, what + " model weights");
            }
        }
    }

    @Test
    void repartitioningDoesNotChangeTheStatistic() {
        ClassStatistics ncm1 = SparkClassStatistics.ncmExact(data.table(spark, 1), CLASSES);
        ClassStatistics lda1 = SparkClassStatistics.ldaExact(data.table(spark, 1), CLASSES, 2.0);
        for (int parts : new int[] {3, 7}) {
            SparkTable t = data.table(spark, parts);
            assertSame(SparkClassStatistics.ncmExact(t, CLASSES), ncm1, "ncm, " + parts + " partitions");
            assertSame(SparkClassStatistics.ldaExact(t, CLASSES, 2.0), lda1, "lda, " + parts + " partitions");
        }
    }

    static double l2(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += (a[i] - b[i]) * (a[i] - b[i]);
        }
        return Math.sqrt(s);
    }

    /** Moves of the three blocks: counts (L2), sums (Frobenius), moment (Frobenius, the released scaled triangle's norm). */
    static double[] moves(ClassStatistics a, ClassStatistics b) {
        return new double[] {l2(a.counts(), b.counts()), l2(a.sums().data(), b.sums().data()),
                a.moment() == null ? 0 : l2(a.moment().data(), b.moment().data())};
    }

    @Test
    void onNeighboursTheExactSparkStatisticMovesByAtMostTheSensitivity() {
        double r = 2.0;
        double[] far = new double[data.dimension()];
        java.util.Arrays.fill(far, 40.0); // norm ~98: clipped to R (lda), normalised to 1 (ncm)
        double[] farOther = far.clone();
        farOther[0] = -40;
        for (NeighbouringRelation rel : NeighbouringRelation.values()) {
            SparkTestSupport.Rows neighbour = rel == NeighbouringRelation.REPLACE_ONE
                    ? data.replacing(5, far, data.labels()[5].equals("a") ? "b" : "a")
                    : data.plus(far, "c");
            SparkTestSupport.Rows sameClass = rel == NeighbouringRelation.REPLACE_ONE
                    ? data.replacing(5, farOther, data.labels()[5]) : data.plus(farOther, "a");
            for (SparkTestSupport.Rows dPrime : List.of(neighbour, sameClass)) {
                ClassStatistics.Sensitivities unit = ClassStatistics.sensitivities(rel, 1.0);
                double[] ncm = moves(SparkClassStatistics.ncmExact(data.table(spark, 2), CLASSES),
                        SparkClassStatistics.ncmExact(dPrime.table(spark, 3), CLASSES));
                assertThat(ncm[1]).as("ncm sums " + rel).isLessThanOrEqualTo(unit.sum() * (1 + REL)).isGreaterThan(0.0);
                ClassStatistics.Sensitivities delta = ClassStatistics.sensitivities(rel, r);
                double[] lda = moves(SparkClassStatistics.ldaExact(data.table(spark, 2), CLASSES, r),
                        SparkClassStatistics.ldaExact(dPrime.table(spark, 3), CLASSES, r));
                assertThat(lda[0]).as("lda counts " + rel).isLessThanOrEqualTo(delta.count() * (1 + REL));
                assertThat(lda[1]).as("lda sums " + rel).isLessThanOrEqualTo(delta.sum() * (1 + REL)).isGreaterThan(0.0);
                assertThat(lda[2]).as("lda moment " + rel).isLessThanOrEqualTo(delta.moment() * (1 + REL)).isGreaterThan(0.0);
            }
        }
    }

    @Test
    void aLabelOutsideTheDeclaredClassesIsRefusedBeforeAnyNoise() {
        SparkTable t = data.plus(new double[data.dimension()], "zebra").table(spark, 2);
        assertThatThrownBy(() -> SparkClassStatistics.ncmExact(t, CLASSES)).hasMessageContaining("1 row(s) have a label outside");
        assertThatThrownBy(() -> SparkClassStatistics.ldaExact(data.table(spark, 1).repartition(1), List.of("a", "a"), 1.0))
                .hasMessageContaining("without repeats");
    }
}
