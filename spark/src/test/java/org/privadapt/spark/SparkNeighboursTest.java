package org.privadapt.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privadapt.methods.neighbours.Neighbours;
import org.privadapt.methods.neighbours.ReleaseComparison;
import org.privadapt.methods.prima.Partition;
import org.privadapt.methods.prima.PrimaConfig;
import org.privadapt.methods.prima.SecondMomentRelease;
import org.privadapt.models.dp.ClassStatistics;
import org.privadapt.models.dp.DpSgdTrainer;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.Network;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.mechanisms.Sensitivities;

/**
 * The neighbouring-dataset harness on the Spark path (issue 31): the methods module's pairs ({@link Neighbours}:
 * random and adversarial, add/remove-one and replace-one) run through the Spark releases' exact statistics, the vector
 * each Gaussian release adds its noise to, which must move by at most the sensitivity the release declares: the
 * class statistics of ncm (unit rows: sums) and lda (rows clipped to R: counts, sums, second moment), block by block;
 * PRIMA/PRISA's target moments (forward selection's full moments and the subspace moments over several partitions,
 * with their block bounds); the full-batch clipped gradient sum of dp-gd. DPOT's per-row map and DP-SGD's sampled
 * sums are in {@code SparkDpotTest} and {@code SparkDpSgdTest}.
 */
class SparkNeighboursTest {
    static final int D = 6;
    static final int K = 3;
    static SparkSession spark;

    @BeforeAll
    static void start() {
        spark = SparkTestSupport.spark();
    }

    static List<String> names() {
        List<String> n = new ArrayList<>();
        for (int c = 0; c < K; c++) {
            n.add("c" + c);
        }
        return n;
    }

    static SparkTable table(Neighbours.Labelled l) {
        String[] labels = new String[l.y().length];
        for (int i = 0; i < labels.length; i++) {
            labels[i] = "c" + l.y()[i];
        }
        return new SparkTestSupport.Rows(l.x(), labels).table(spark, 2);
    }

    static List<Neighbours.Pair> pairs(NeighbouringRelation rel, Neighbours.Labelled base, double bound, long seed) {
        return rel == NeighbouringRelation.REPLACE_ONE ? Neighbours.replaceOne(base, bound, seed) : Neighbours.addRemove(base, bound, seed);
    }

    @Test
    void theClassStatisticsOnSparkMoveByAtMostTheirDeclaredSensitivities() {
        double r = 2.0;
        Neighbours.Labelled base = Neighbours.random(40, D, K, 2 * r, 51);
        for (NeighbouringRelation rel : NeighbouringRelation.values()) {
            ClassStatistics.Sensitivities lda = ClassStatistics.sensitivities(rel, r);
            ClassStatistics.Sensitivities ncm = ClassStatistics.sensitivities(rel, 1.0);
            double worstSum = 0;
            for (Neighbours.Pair p : pairs(rel, base, 2 * r, 52)) {
                String what = rel + " " + p;
                ClassStatistics a = SparkClassStatistics.ldaExact(table(p.d()), names(), r);
                ClassStatistics b = SparkClassStatistics.ldaExact(table(p.dPrime()), names(), r);
                ReleaseComparison.assertWithin(ReleaseComparison.l2(a.counts(), b.counts()), lda.count(), 1e-9, what + ": lda counts");
                ReleaseComparison.assertWithin(ReleaseComparison.l2(a.sums().data(), b.sums().data()), lda.sum(), 1e-9, what + ": lda sums");
                ReleaseComparison.assertWithin(a.moment().minus(b.moment()).frobeniusNorm(), lda.moment(), 1e-9, what + ": lda moment");
                worstSum = Math.max(worstSum, ReleaseComparison.l2(a.sums().data(), b.sums().data()) / lda.sum());
                ClassStatistics na = SparkClassStatistics.ncmExact(table(p.d()), names());
                ClassStatistics nb = SparkClassStatistics.ncmExact(table(p.dPrime()), names());
                ReleaseComparison.assertWithin(ReleaseComparison.l2(na.sums().data(), nb.sums().data()), ncm.sum(), 1e-9, what + ": ncm sums");
            }
            // the adversarial pairs reach the sums' bound (rows at the clip bound): the test can see a bound too small
            assertThat(worstSum).as(rel + ": lda sums' bound reached").isGreaterThan(0.99);
        }
    }

    @Test
    void primasTargetMomentsOnSparkMoveByAtMostTheirSensitivity() {
        int d = 10;
        PrimaConfig cfg = PrimaConfig.prima(PrimaConfig.Adaptation.CORAL);
        double r = cfg.rowBound();
        double c = cfg.momentWeight() * r;
        Neighbours.Labelled base = Neighbours.random(40, d, K, 2 * r, 53);
        List<Partition> partitions = List.of(Partition.single(d), Partition.random(d, 4, 1), Partition.random(d, 3, 2));
        for (NeighbouringRelation rel : NeighbouringRelation.values()) {
            for (Neighbours.Pair p : pairs(rel, base, r, 54)) {
                String what = rel + " " + p;
                var ma = SparkPrima.checkedMomentSource(table(p.d()), cfg, 7);
                var mb = SparkPrima.checkedMomentSource(table(p.dPrime()), cfg, 7);
                double[] full = {r};
                ReleaseComparison.assertWithin(ReleaseComparison.l2(SparkPrimaTest.released(ma.moments(Partition.single(d), full), c),
                        SparkPrimaTest.released(mb.moments(Partition.single(d), full), c)), SecondMomentRelease.sensitivity(rel, 1, r, r, c), 1e-9,
                        what + ": stage 1");
                for (Partition part : partitions) {
                    double[] bounds = cfg.blockBounds(part);
                    ReleaseComparison.assertWithin(ReleaseComparison.l2(SparkPrimaTest.released(ma.moments(part, bounds), c),
                            SparkPrimaTest.released(mb.moments(part, bounds), c)), SecondMomentRelease.sensitivity(rel, bounds, r, c), 1e-9,
                            what + ": " + part.size() + " blocks");
                }
            }
        }
    }

    @Test
    void dpGdsClippedSumOnSparkMovesByAtMostC() {
        double clip = 0.8;
        Neighbours.Labelled base = Neighbours.random(30, D, K, 3.0, 55);
        Network net = Network.create(D, new int[] {4}, Activation.RELU, names(), 3);
        for (NeighbouringRelation rel : NeighbouringRelation.values()) {
            double bound = Sensitivities.clippedSum(rel, clip);
            double worst = 0;
            for (Neighbours.Pair p : pairs(rel, base, 3.0, 56)) {
                double[] a = flat(SparkDpGd.batchSums(table(p.d()), names(), clip).sum(net, all(p.d().n()), 0));
                double[] b = flat(SparkDpGd.batchSums(table(p.dPrime()), names(), clip).sum(net, all(p.dPrime().n()), 0));
                double diff = ReleaseComparison.l2(a, b);
                ReleaseComparison.assertWithin(diff, bound, 1e-9, rel + " " + p);
                worst = Math.max(worst, diff / bound);
            }
            assertThat(worst).as(rel + ": some pair moves the sum").isGreaterThan(0.1);
        }
    }

    static int[] all(int n) {
        int[] idx = new int[n];
        for (int i = 0; i < n; i++) {
            idx[i] = i;
        }
        return idx;
    }

    static double[] flat(DpSgdTrainer.ClippedSum s) {
        List<Double> v = new ArrayList<>();
        for (double[] a : s.sum().arrays()) {
            for (double x : a) {
                v.add(x);
            }
        }
        return v.stream().mapToDouble(Double::doubleValue).toArray();
    }
}
