package org.privadapt.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.privadapt.spark.SparkTestSupport.assertRelativelyClose;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privadapt.data.Dataset;
import org.privadapt.data.Provenance;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.prima.Partition;
import org.privadapt.methods.prima.Prima;
import org.privadapt.methods.prima.PrimaConfig;
import org.privadapt.methods.prima.SecondMomentRelease;
import org.privadapt.methods.prima.SecondMoments;
import org.privadapt.methods.prima.TargetRelease;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * PRIMA's target moments on Spark (local[2]) against the in-process release: with the same seeded session the noisy
 * moments (count, sums, every block's Gram matrix) are equal to 1e-9 relative for the single, random and
 * forward-selected partitions (the partition itself identical), the exact moments do not move beyond that under 1, 3
 * or 7 partitions, and on neighbouring datasets they move by at most the release's declared sensitivity.
 */
class SparkPrimaTest {
    static final double REL = 1e-9;
    static SparkSession spark;
    static SparkTestSupport.Rows data;

    @org.junit.jupiter.api.AfterAll
    static void report() {
        SparkTestSupport.reportWorst("PRIMA moments (Spark vs in-process, and across partitionings)");
    }

    @BeforeAll
    static void start() {
        spark = SparkTestSupport.spark();
        data = SparkTestSupport.generate(300, 10, 2);
    }

    static PrimaConfig config(PrimaConfig.Partitioning p) {
        PrimaConfig base = PrimaConfig.prima(PrimaConfig.Adaptation.CORAL).with(p, true);
        return PrimaConfig.from(base, new MethodConfig("lr", 0, 1, Map.of("block-size", "4", "max-block", "5", "row-bound", "3.0")));
    }

    static PrivacySession session(NeighbouringRelation rel) {
        return new PrivacySession("target", new PrivacyBudget(2.0, 1e-5), rel, NoiseSource.seeded(31), null);
    }

    static void assertSame(SecondMoments spark, SecondMoments local, String what) {
        assertThat(spark.partition().blocks()).as(what + " partition").usingRecursiveComparison().isEqualTo(local.partition().blocks());
        assertRelativelyClose(new double[] {spark.count()}, new double[] {local.count()}, REL, what + " count");
        assertRelativelyClose(spark.sums(), local.sums(), REL, what + " sums");
        for (int b = 0; b < local.partition().size(); b++) {
            assertRelativelyClose(spark.blockGrams().get(b).data(), local.blockGrams().get(b).data(), REL, what + " block " + b);
        }
        assertThat(spark.noiseStd()).as(what + " noise").isEqualTo(local.noiseStd());
    }

    @Test
    void theNoisyMomentsEqualTheInProcessOnesOnTheSameSeededNoise() throws Exception {
        Dataset target = new Dataset("t", data.matrix(), null, null, Provenance.generated("spark test"));
        SparkTable table = SparkData.of(data.frame(spark), data.featureNames(), null).repartition(3);
        for (PrimaConfig.Partitioning p : PrimaConfig.Partitioning.values()) {
            for (NeighbouringRelation rel : NeighbouringRelation.values()) {
                PrimaConfig cfg = config(p);
                PrivacySession inProcess = session(rel);
                PrivacySession onSpark = session(rel);
                Prima.NoisyMoments local = Prima.noisyMoments(target, cfg, "prima", 5, inProcess);
                Prima.NoisyMoments distributed = SparkPrima.noisyMoments(table, cfg, "prima", 5, onSpark);
                String what = p + " " + rel;
                assertSame(distributed.moments(), local.moments(), what);
                assertThat(distributed.stage1NoiseStd()).as(what).isEqualTo(local.stage1NoiseStd());
                assertThat(distributed.stage2().sensitivity()).as(what).isEqualTo(local.stage2().sensitivity());
                assertThat(onSpark.events()).as(what + " charges").isEqualTo(inProcess.events());
            }
        }
    }

    @Test
    void theTargetsReleaseArtifactEqualsTheInProcessOne() throws Exception {
        Dataset target = new Dataset("t", data.matrix(), null, null, Provenance.generated("spark test"));
        SparkTable table = SparkData.of(data.frame(spark), data.featureNames(), null).repartition(2);
        for (PrimaConfig.Partitioning p : PrimaConfig.Partitioning.values()) {
            PrimaConfig cfg = config(p);
            TargetRelease local = Prima.release(target, cfg, "none", "prima", 5, "run", session(NeighbouringRelation.ADD_OR_REMOVE_ONE));
            TargetRelease distributed = SparkPrima.release(table, cfg, "none", "prima", 5, "run", session(NeighbouringRelation.ADD_OR_REMOVE_ONE));
            assertThat(distributed.partition().blocks()).as(p + " partition").usingRecursiveComparison().isEqualTo(local.partition().blocks());
            assertRelativelyClose(distributed.mean(), local.mean(), REL, p + " mean");
            assertRelativelyClose(distributed.sd(), local.sd(), REL, p + " sd");
            assertRelativelyClose(distributed.shrinkAlphas(), local.shrinkAlphas(), REL, p + " shrinking");
            for (int b = 0; b < local.blocks().size(); b++) {
                assertRelativelyClose(distributed.blocks().get(b).data(), local.blocks().get(b).data(), REL, p + " block " + b);
            }
            // the privacy statement (target, events, noise, sampler) is the same: nothing about partitions or executors
            assertThat(distributed.privacy()).as(p + " privacy statement").isEqualTo(local.privacy());
        }
    }

    /**
     * Issue 45 item 1: the target's release from one features column (array<double>, a dense and a sparse Spark ML
     * vector as stored), preprocessed block by block inside the aggregate and summed with one BLAS call per block,
     * equals the in-process release of the preprocessed matrix, for every partitioning; the same charges.
     */
    @Test
    void theReleaseFromAFeaturesColumnEqualsTheInProcessOne() throws Exception {
        String pre = "l2,scale=3";
        Dataset target = org.privadapt.data.preprocess.Preprocessing.parse(pre).fitAndApply(
                new Dataset("t", data.matrix(), null, null, Provenance.generated("spark test")));
        List<String> kinds = List.of("array", "dense", "sparse");
        for (int k = 0; k < kinds.size(); k++) { // each kind with one partitioning: each partitioning once
            String kind = kinds.get(k);
            SparkTable table = data.vectors(spark, kind, 3).withBlockMap(pre);
            assertThat(SparkVectors.isFeaturesColumn(table)).isTrue();
            if (k == 0) {
                assertThat(SparkVectors.dimension(table.rows(), SparkTable.FEATURES)).isEqualTo(data.dimension());
            }
            for (PrimaConfig.Partitioning p : List.of(PrimaConfig.Partitioning.values()[k % PrimaConfig.Partitioning.values().length])) {
                PrimaConfig cfg = config(p);
                PrivacySession inProcess = session(NeighbouringRelation.ADD_OR_REMOVE_ONE);
                PrivacySession onSpark = session(NeighbouringRelation.ADD_OR_REMOVE_ONE);
                TargetRelease local = Prima.release(target, cfg, pre, "prima", 5, "run", inProcess);
                TargetRelease distributed = SparkPrima.release(table, cfg, pre, "prima", 5, "run", onSpark);
                String what = kind + " " + p;
                assertThat(distributed.partition().blocks()).as(what).usingRecursiveComparison().isEqualTo(local.partition().blocks());
                assertRelativelyClose(distributed.mean(), local.mean(), REL, what + " mean");
                for (int b = 0; b < local.blocks().size(); b++) {
                    assertRelativelyClose(distributed.blocks().get(b).data(), local.blocks().get(b).data(), REL, what + " block " + b);
                }
                assertThat(distributed.privacy()).as(what + " privacy statement").isEqualTo(local.privacy());
                assertThat(onSpark.events()).as(what + " charges").isEqualTo(inProcess.events());
            }
        }
        // a vector of another length, and a non-finite value, are refused before anything is charged
        double[] shortRow = new double[data.dimension() - 1];
        double[] nan = new double[data.dimension()];
        nan[2] = Double.NaN;
        for (double[] bad : List.of(shortRow, nan)) {
            SparkTable table = data.plus(bad, "a").vectors(spark, "array", 2);
            PrivacySession s = session(NeighbouringRelation.ADD_OR_REMOVE_ONE);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> SparkPrima.release(table, config(PrimaConfig.Partitioning.SINGLE),
                    "none", "prima", 5, "run", s)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("missing or non-finite");
            assertThat(s.events()).isEmpty();
        }
    }

    @Test
    void theExactMomentsEqualTheInProcessOnesAndDoNotDependOnThePartitioning() {
        PrimaConfig cfg = config(PrimaConfig.Partitioning.RANDOM);
        Partition p = Partition.random(data.dimension(), 4, 5);
        double[] bounds = cfg.blockBounds(p);
        SecondMomentRelease.ExactMoments local = Prima.inProcess(data.matrix(), cfg).moments(p, bounds);
        SecondMomentRelease.ExactMoments one = SparkPrima.exactMoments(data.table(spark, 1), cfg.rowBound(), p, bounds);
        assertExactSame(one, local, "1 partition vs in-process");
        for (int parts : new int[] {3, 7}) {
            assertExactSame(SparkPrima.exactMoments(data.table(spark, parts), cfg.rowBound(), p, bounds), one, parts + " partitions vs 1");
        }
    }

    static void assertExactSame(SecondMomentRelease.ExactMoments a, SecondMomentRelease.ExactMoments b, String what) {
        assertThat(a.count()).as(what).isEqualTo(b.count());
        assertRelativelyClose(a.sums(), b.sums(), REL, what + " sums");
        for (int k = 0; k < b.grams().size(); k++) {
            assertRelativelyClose(a.grams().get(k).data(), b.grams().get(k).data(), REL, what + " block " + k);
        }
    }

    /** The released vector before noise: every block's upper triangle, c S, c^2 n. */
    static double[] released(SecondMomentRelease.ExactMoments m, double c) {
        List<Double> v = new ArrayList<>();
        for (DenseMatrix g : m.grams()) {
            for (int j = 0; j < g.cols(); j++) {
                for (int i = 0; i <= j; i++) {
                    v.add(g.get(i, j));
                }
            }
        }
        for (double s : m.sums()) {
            v.add(c * s);
        }
        v.add(c * c * m.count());
        return v.stream().mapToDouble(Double::doubleValue).toArray();
    }

    @Test
    void onNeighboursTheExactSparkMomentsMoveByAtMostTheSensitivity() {
        PrimaConfig cfg = config(PrimaConfig.Partitioning.RANDOM);
        double c = cfg.momentWeight() * cfg.rowBound();
        double[] far = new double[data.dimension()];
        java.util.Arrays.fill(far, 25.0);
        for (Partition p : List.of(Partition.single(data.dimension()), Partition.random(data.dimension(), 4, 5))) {
            double[] bounds = p.size() == 1 ? new double[] {cfg.rowBound()} : cfg.blockBounds(p);
            for (NeighbouringRelation rel : NeighbouringRelation.values()) {
                SparkTestSupport.Rows dPrime = rel == NeighbouringRelation.REPLACE_ONE ? data.replacing(7, far, "a") : data.plus(far, "a");
                double[] a = released(SparkPrima.exactMoments(data.table(spark, 2), cfg.rowBound(), p, bounds), c);
                double[] b = released(SparkPrima.exactMoments(dPrime.table(spark, 3), cfg.rowBound(), p, bounds), c);
                double moved = SparkClassStatisticsTest.l2(a, b);
                double sensitivity = SecondMomentRelease.sensitivity(rel, bounds, cfg.rowBound(), c);
                assertThat(moved).as(p.size() + " blocks " + rel).isLessThanOrEqualTo(sensitivity * (1 + REL)).isGreaterThan(0.0);
            }
        }
    }

    @Test
    void rowsTheInProcessPathRefusesAreRefusedBeforeAnyCharge() {
        double[] bad = new double[data.dimension()];
        bad[2] = Double.NaN;
        SparkTable t = SparkData.of(data.plus(bad, "a").frame(spark), data.featureNames(), null);
        PrivacySession s = session(NeighbouringRelation.ADD_OR_REMOVE_ONE);
        assertThatThrownBy(() -> SparkPrima.noisyMoments(t, config(PrimaConfig.Partitioning.SINGLE), "prima", 5, s))
                .hasMessageContaining("1 row(s) have a missing or non-finite feature value");
        assertThat(s.events()).isEmpty();
    }
}
