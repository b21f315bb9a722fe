package org.privadapt.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.privadapt.spark.SparkTestSupport.assertRelativelyClose;

import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privadapt.data.Dataset;
import org.privadapt.data.Provenance;
import org.privadapt.methods.prima.Partition;
import org.privadapt.methods.prima.Prima;
import org.privadapt.methods.prima.PrimaConfig;
import org.privadapt.methods.prima.SecondMomentRelease;
import org.privadapt.methods.prima.SecondMoments;
import org.privadapt.methods.prima.TargetRelease;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * PRIMA's source moments on Spark (local[2]) against the in-process release ({@link Prima#sourceMomentsNoise} on the
 * in-process exact statistic, which {@code PrimaSourceMomentsSplitTest} shows is {@link Prima#train}'s composition bit
 * for bit): equal to 1e-9 relative on the same seeded noise for the single, random and forward-selected partitions of
 * a target release, independent of the partitioning of the rows, and moving on neighbours by at most the declared
 * sensitivity.
 */
class SparkPrimaSourceTest {
    static final double REL = 1e-9;
    static SparkSession spark;
    static SparkTestSupport.Rows target;
    static SparkTestSupport.Rows source;

    @org.junit.jupiter.api.AfterAll
    static void report() {
        SparkTestSupport.reportWorst("PRIMA source moments (Spark vs in-process, and across partitionings)");
    }

    @BeforeAll
    static void start() {
        spark = SparkTestSupport.spark();
        target = SparkTestSupport.generate(250, 10, 7);
        source = SparkTestSupport.generate(300, 10, 8);
    }

    static TargetRelease release(PrimaConfig.Partitioning p) throws Exception {
        Dataset t = new Dataset("t", target.matrix(), null, null, Provenance.generated("spark test"));
        return Prima.release(t, SparkPrimaTest.config(p), "none", "prima", 5, "run", SparkPrimaTest.session(NeighbouringRelation.ADD_OR_REMOVE_ONE));
    }

    @Test
    void theSourceMomentsEqualTheInProcessOnesOnTheSameSeededNoise() throws Exception {
        SparkTable table = source.table(spark, 3);
        for (PrimaConfig.Partitioning p : PrimaConfig.Partitioning.values()) {
            TargetRelease r = release(p);
            PrimaConfig cfg = r.config();
            for (NeighbouringRelation rel : NeighbouringRelation.values()) {
                PrivacySession session = SparkPrimaTest.session(rel);
                double s = Prima.sourceMomentsMultiplier(cfg, session);
                SecondMoments local = Prima.sourceMomentsNoise(Prima.inProcess(source.matrix(), cfg).moments(r.partition(),
                        cfg.blockBounds(r.partition())), cfg, s, rel, NoiseSource.seeded(77));
                SecondMoments distributed = SparkPrimaSource.noisyMoments(table, r, s, rel, NoiseSource.seeded(77));
                SparkPrimaTest.assertSame(distributed, local, p + " " + rel + " (" + r.partition().size() + " blocks)");
            }
        }
    }

    @Test
    void theExactSourceMomentsDoNotDependOnThePartitioning() throws Exception {
        TargetRelease r = release(PrimaConfig.Partitioning.RANDOM);
        PrimaConfig cfg = r.config();
        Partition p = r.partition();
        assertThat(p.size()).isGreaterThan(1);
        SecondMomentRelease.ExactMoments local = Prima.inProcess(source.matrix(), cfg).moments(p, cfg.blockBounds(p));
        SecondMomentRelease.ExactMoments one = SparkPrimaSource.exact(source.table(spark, 1), cfg, p);
        SparkPrimaTest.assertExactSame(one, local, "1 partition vs in-process");
        for (int parts : new int[] {3, 7}) {
            SparkPrimaTest.assertExactSame(SparkPrimaSource.exact(source.table(spark, parts), cfg, p), one, parts + " partitions vs 1");
        }
    }

    @Test
    void onNeighboursTheExactSourceMomentsMoveByAtMostTheSensitivity() throws Exception {
        double[] far = new double[source.dimension()];
        java.util.Arrays.fill(far, -30.0);
        for (PrimaConfig.Partitioning pp : List.of(PrimaConfig.Partitioning.SINGLE, PrimaConfig.Partitioning.RANDOM)) {
            TargetRelease r = release(pp);
            PrimaConfig cfg = r.config();
            Partition p = r.partition();
            double c = cfg.momentWeight() * cfg.rowBound();
            for (NeighbouringRelation rel : NeighbouringRelation.values()) {
                SparkTestSupport.Rows dPrime = rel == NeighbouringRelation.REPLACE_ONE ? source.replacing(11, far, "b") : source.plus(far, "b");
                double[] a = SparkPrimaTest.released(SparkPrimaSource.exact(source.table(spark, 2), cfg, p), c);
                double[] b = SparkPrimaTest.released(SparkPrimaSource.exact(dPrime.table(spark, 3), cfg, p), c);
                double moved = SparkClassStatisticsTest.l2(a, b);
                double sensitivity = SecondMomentRelease.sensitivity(rel, cfg.blockBounds(p), cfg.rowBound(), c);
                assertThat(moved).as(pp + " " + rel).isLessThanOrEqualTo(sensitivity * (1 + REL)).isGreaterThan(0.0);
            }
        }
    }

    @Test
    void aSourceOfAnotherDimensionOrWithANaNIsRefusedBeforeAnyNoise() throws Exception {
        TargetRelease r = release(PrimaConfig.Partitioning.SINGLE);
        double[] bad = new double[source.dimension()];
        bad[3] = Double.NaN;
        SparkTable withNaN = source.plus(bad, "a").table(spark, 2);
        NoiseSource noise = NoiseSource.seeded(1);
        assertThatThrownBy(() -> SparkPrimaSource.noisyMoments(withNaN, r, 1.0, NeighbouringRelation.ADD_OR_REMOVE_ONE, noise))
                .hasMessageContaining("non-finite");
        SparkTable narrow = SparkData.of(SparkTestSupport.generate(50, 4, 1).frame(spark), List.of("f0", "f1", "f2", "f3"), "y");
        assertThatThrownBy(() -> SparkPrimaSource.noisyMoments(narrow, r, 1.0, NeighbouringRelation.ADD_OR_REMOVE_ONE, noise))
                .hasMessageContaining("release is for 10");
    }
}
