package org.privadapt.spark;

import static org.assertj.core.api.Assertions.assertThat;

import static org.privadapt.spark.SparkTestSupport.assertRelativelyClose;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.LinAlg;
import org.privadapt.methods.bassily.NoisyGradientDescent;
import org.privadapt.methods.bassily.PCnvxAdap;
import org.privadapt.methods.bassily.StatisticsPCnvxAdap;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.PrivateLearners;
import org.privadapt.methods.neighbours.Neighbours;
import org.privadapt.methods.neighbours.ReleaseComparison;
import org.privadapt.methods.prima.Partition;
import org.privadapt.methods.prima.Prima;
import org.privadapt.methods.prima.PrimaConfig;
import org.privadapt.methods.prima.SecondMomentRelease;
import org.privadapt.models.discrepancy.LabelledDiscrepancy;
import org.privadapt.models.dp.ClassStatistics;
import org.privadapt.models.dp.DpSgdTrainer;
import org.privadapt.models.dp.SessionRandomness;
import org.privadapt.models.mixture.CovarianceType;
import org.privadapt.models.mixture.DpGaussianMixtureEm;
import org.privadapt.models.mixture.GaussianMixture;
import org.privadapt.models.mixture.SufficientStatistics;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.Network;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.mechanisms.Sensitivities;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * The neighbouring-dataset harness on the Spark path (issue 31): the methods module's pairs ({@link Neighbours}:
 * random and adversarial, add/remove-one and replace-one) run through the Spark releases' exact statistics, the vector
 * each Gaussian release adds its noise to, which must move by at most the sensitivity the release declares: the
 * class statistics of ncm (unit rows: sums) and lda (rows clipped to R: counts, sums, second moment), block by block;
 * adassp's moments (rows projected and bounded on the executors: the augmented second moment, the cross moment, the
 * smallest eigenvalue);
 * PRIMA/PRISA's target moments (forward selection's full moments and the subspace moments over several partitions,
 * with their block bounds); the full-batch clipped gradient sum of dp-gd; paper 003's releases under replace-one
 * (dp-target-only's gradient sum, <= 2G, at the point of the ball that moves each pair most; pcnvxadap-stats'
 * statistics, <= sqrt(2 r^4 + 4 r^2), and exact discrepancy, <= B / n); DP-EM's per-component statistics under
 * add/remove (<= 1, R, R^2 and sqrt 3 jointly, both covariance types, the initial release and later inputs); PRIMA's
 * and PRISA's source moments (both relations, two configurations, several partitions, with their block bounds). Each
 * check also requires the pairs to come near its bound (the largest move over the bound: attained where the bound is,
 * above a stated share where it is not), and for the last three the Spark values on every pair equal the in-process
 * ones to 1e-9 relative. DPOT's per-row map and DP-SGD's sampled sums are in {@code SparkDpotTest} and
 * {@code SparkDpSgdTest}.
 *
 * <p>Most pairs of a list share their D (the base dataset; D' is the one changed): Spark's value on a dataset is
 * computed once per test and reused for every pair holding it ({@link #once}), so each check still compares D and D'
 * pair by pair at half the Spark jobs.
 */
class SparkNeighboursTest {
    static final int D = 6;
    static final int K = 3;
    static SparkSession spark;

    @BeforeAll
    static void start() {
        spark = SparkTestSupport.spark();
    }

    /** Spark's answers per dataset (by identity) and per question, for {@link #once}; emptied before each test. */
    private static final Map<Neighbours.Labelled, Map<String, Object>> ANSWERS = new IdentityHashMap<>();

    @BeforeEach
    void forget() {
        ANSWERS.clear();
    }

    /**
     * {@code spark}'s answer to {@code question} on the dataset {@code l}, computed the first time it is asked in a test:
     * the question must name everything the answer depends on besides the rows (bounds, partition, input mixture).
     */
    @SuppressWarnings("unchecked")
    static <T> T once(Neighbours.Labelled l, String question, Supplier<T> spark) {
        Map<String, Object> known = ANSWERS.computeIfAbsent(l, k -> new HashMap<>());
        Object v = known.get(question);
        if (v == null) {
            v = spark.get();
            known.put(question, v);
        }
        return (T) v;
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
                ClassStatistics a = once(p.d(), "lda " + r, () -> SparkClassStatistics.ldaExact(table(p.d()), names(), r));
                ClassStatistics b = once(p.dPrime(), "lda " + r, () -> SparkClassStatistics.ldaExact(table(p.dPrime()), names(), r));
                ReleaseComparison.assertWithin(ReleaseComparison.l2(a.counts(), b.counts()), lda.count(), 1e-9, what + ": lda counts");
                ReleaseComparison.assertWithin(ReleaseComparison.l2(a.sums().data(), b.sums().data()), lda.sum(), 1e-9, what + ": lda sums");
                ReleaseComparison.assertWithin(a.moment().minus(b.moment()).frobeniusNorm(), lda.moment(), 1e-9, what + ": lda moment");
                worstSum = Math.max(worstSum, ReleaseComparison.l2(a.sums().data(), b.sums().data()) / lda.sum());
                ClassStatistics na = once(p.d(), "ncm", () -> SparkClassStatistics.ncmExact(table(p.d()), names()));
                ClassStatistics nb = once(p.dPrime(), "ncm", () -> SparkClassStatistics.ncmExact(table(p.dPrime()), names()));
                ReleaseComparison.assertWithin(ReleaseComparison.l2(na.sums().data(), nb.sums().data()), ncm.sum(), 1e-9, what + ": ncm sums");
                // the same release from a sparse vector column (the sparse blocks' path)
                ClassStatistics sa = once(p.d(), "ncm sparse", () -> SparkClassStatistics.ncmExact(vectors(p.d()), names()));
                ClassStatistics sb = once(p.dPrime(), "ncm sparse", () -> SparkClassStatistics.ncmExact(vectors(p.dPrime()), names()));
                ReleaseComparison.assertWithin(ReleaseComparison.l2(sa.sums().data(), sb.sums().data()), ncm.sum(), 1e-9,
                        what + ": ncm sums from sparse vectors");
                ReleaseComparison.assertWithin(ReleaseComparison.l2(sa.counts(), sb.counts()), ncm.count(), 1e-9, what + ": ncm counts, sparse");
                ClassStatistics la = once(p.d(), "lda sparse " + r, () -> SparkClassStatistics.ldaExact(vectors(p.d()), names(), r));
                ClassStatistics lb = once(p.dPrime(), "lda sparse " + r, () -> SparkClassStatistics.ldaExact(vectors(p.dPrime()), names(), r));
                ReleaseComparison.assertWithin(ReleaseComparison.l2(la.sums().data(), lb.sums().data()), lda.sum(), 1e-9, what + ": lda sums, sparse");
                ReleaseComparison.assertWithin(la.moment().minus(lb.moment()).frobeniusNorm(), lda.moment(), 1e-9, what + ": lda moment, sparse");
            }
            // the adversarial pairs reach the sums' bound (rows at the clip bound): the test can see a bound too small
            assertThat(worstSum).as(rel + ": lda sums' bound reached").isGreaterThan(0.99);
        }
    }

    /**
     * The adassp release on Spark (rows projected and bounded on the executors): its exact statistic (the augmented second
     * moment, the cross moment, the smallest eigenvalue) moves by at most the declared sensitivities on every pair, with
     * the identity projection and with a projection to 3 dimensions; the adversarial pairs bring the moment to its bound
     * under add/remove (above 0.99 of it) and near it under replace-one (above 0.8: its sqrt 2 R'^2 needs the two augmented
     * rows at R' and orthogonal, which these pairs approach without reaching).
     */
    @Test
    void theAdasspStatisticOnSparkMovesByAtMostItsDeclaredSensitivities() {
        double r = 2.0;
        Neighbours.Labelled base = Neighbours.random(40, D, K, 2 * r, 55);
        for (String dim : List.of("1024", "3")) {
            for (NeighbouringRelation rel : NeighbouringRelation.values()) {
                PrivateLearners.Plan plan = PrivateLearners.plan(new MethodConfig("lr", 0, 1, Map.of("learner", "adassp",
                        "learner-row-bound", Double.toString(r), "adassp-dim", dim)), base.y().length, D, K, 1.0, 1e-5, rel, null, 1);
                org.privadapt.models.dp.AdaSsp.Sensitivities sens = org.privadapt.models.dp.AdaSsp.sensitivities(rel, r);
                double worst = 0;
                for (Neighbours.Pair p : pairs(rel, base, 2 * r, 56)) {
                    String what = rel + " adassp-dim " + dim + " " + p;
                    org.privadapt.models.dp.AdaSsp a = once(p.d(), "adassp " + dim + " " + rel,
                            () -> SparkClassStatistics.adasspExact(plan, table(p.d()), names()));
                    org.privadapt.models.dp.AdaSsp b = once(p.dPrime(), "adassp " + dim + " " + rel,
                            () -> SparkClassStatistics.adasspExact(plan, table(p.dPrime()), names()));
                    double moment = a.moment().minus(b.moment()).frobeniusNorm();
                    ReleaseComparison.assertWithin(moment, sens.moment(), 1e-9, what + ": moment");
                    ReleaseComparison.assertWithin(a.cross().minus(b.cross()).frobeniusNorm(), sens.cross(), 1e-9, what + ": cross moment");
                    ReleaseComparison.assertWithin(Math.abs(a.eigen() - b.eigen()), sens.eigen(), 1e-9, what + ": eigenvalue");
                    worst = Math.max(worst, moment / sens.moment());
                }
                assertThat(worst).as(rel + " adassp-dim " + dim + ": the moment's bound approached").isGreaterThan(rel == NeighbouringRelation.ADD_OR_REMOVE_ONE ? 0.99 : 0.8);
            }
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
                Prima.MomentSource ma = once(p.d(), "target moments", () -> SparkPrima.checkedMomentSource(table(p.d()), cfg, 7));
                Prima.MomentSource mb = once(p.dPrime(), "target moments", () -> SparkPrima.checkedMomentSource(table(p.dPrime()), cfg, 7));
                double[] full = {r};
                ReleaseComparison.assertWithin(ReleaseComparison.l2(
                        once(p.d(), "stage 1", () -> SparkPrimaTest.released(ma.moments(Partition.single(d), full), c)),
                        once(p.dPrime(), "stage 1", () -> SparkPrimaTest.released(mb.moments(Partition.single(d), full), c))),
                        SecondMomentRelease.sensitivity(rel, 1, r, r, c), 1e-9, what + ": stage 1");
                for (int i = 0; i < partitions.size(); i++) {
                    Partition part = partitions.get(i);
                    double[] bounds = cfg.blockBounds(part);
                    ReleaseComparison.assertWithin(ReleaseComparison.l2(
                            once(p.d(), "partition " + i, () -> SparkPrimaTest.released(ma.moments(part, bounds), c)),
                            once(p.dPrime(), "partition " + i, () -> SparkPrimaTest.released(mb.moments(part, bounds), c))),
                            SecondMomentRelease.sensitivity(rel, bounds, r, c), 1e-9, what + ": " + part.size() + " blocks");
                }
            }
            // issue 45 item 1: the same from one features column (sparse Spark ML vectors as stored, a row-local
            // preprocessing per block inside the aggregate, one BLAS call per block): one pair per relation
            for (Neighbours.Pair p : pairs(rel, base, r, 54).subList(0, 1)) {
                Partition part = partitions.get(1);
                double[] bounds = cfg.blockBounds(part);
                double[] a = SparkPrimaTest.released(SparkPrima.checkedMomentSource(vectors(p.d()), cfg, 7).moments(part, bounds), c);
                double[] b = SparkPrimaTest.released(SparkPrima.checkedMomentSource(vectors(p.dPrime()), cfg, 7).moments(part, bounds), c);
                ReleaseComparison.assertWithin(ReleaseComparison.l2(a, b), SecondMomentRelease.sensitivity(rel, bounds, r, c), 1e-9,
                        rel + " " + p + ": a features column");
            }
        }
    }

    /** A dataset as one column of sparse vectors, scaled by 2 block by block as the aggregate reads it. */
    static SparkTable vectors(Neighbours.Labelled l) {
        String[] labels = new String[l.y().length];
        for (int i = 0; i < labels.length; i++) {
            labels[i] = "c" + l.y()[i];
        }
        return new SparkTestSupport.Rows(l.x(), labels).vectors(spark, "sparse", 2).withBlockMap("scale=2");
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
                double[] a = once(p.d(), "dp-gd sum", () -> flat(SparkDpGd.batchSums(table(p.d()), names(), clip).sum(net, all(p.d().n()), 0)));
                double[] b = once(p.dPrime(), "dp-gd sum", () -> flat(SparkDpGd.batchSums(table(p.dPrime()), names(), clip)
                        .sum(net, all(p.dPrime().n()), 0)));
                double diff = ReleaseComparison.l2(a, b);
                ReleaseComparison.assertWithin(diff, bound, 1e-9, rel + " " + p);
                worst = Math.max(worst, diff / bound);
            }
            assertThat(worst).as(rel + ": some pair moves the sum").isGreaterThan(0.1);
        }
    }

    /**
     * Paper 003's regression target from a row and its class, as the in-process harness makes it
     * ({@code BassilyNeighboursTest}): moving a record between classes moves its target, and some targets lie beyond
     * [-1, 1] (the releases clip them).
     */
    static double[] regressionTargets(Neighbours.Labelled l) {
        double[] y = new double[l.n()];
        for (int i = 0; i < y.length; i++) {
            y[i] = 0.8 * (l.y()[i] - 1) + 0.3 * l.x()[i][0];
        }
        return y;
    }

    /** The rows with their regression targets as the label column ({@link SparkBassily#target} parses it back exactly). */
    static SparkTable regressionTable(Neighbours.Labelled l) {
        double[] y = regressionTargets(l);
        String[] labels = new String[y.length];
        for (int i = 0; i < y.length; i++) {
            labels[i] = Double.toString(y[i]);
        }
        return new SparkTestSupport.Rows(l.x(), labels).table(spark, 2);
    }

    /** A point of the ball of radius {@code radius}: on its boundary or strictly inside. */
    static double[] inBall(int d, double radius, boolean onBoundary, SplittableRandom r) {
        double[] w = new double[d];
        double s = 0;
        for (int j = 0; j < d; j++) {
            w[j] = SparkTestSupport.gauss(r);
            s += w[j] * w[j];
        }
        double f = (onBoundary ? radius : radius * r.nextDouble()) / Math.sqrt(s);
        for (int j = 0; j < d; j++) {
            w[j] *= f;
        }
        return w;
    }

    /**
     * Paper 003 on Spark (replace-one, n public, the only relation its releases accept): dp-target-only's gradient sum
     * {@code sum 2 (w.x - y) x} over rows clipped to r and targets to [-1, 1] ({@link SparkBassily#gradientSum}) moves by
     * at most 2G, G = 2 r (Lambda r + 1), at points of the ball of radius Lambda (per pair the one of 402 boundary points
     * where the in-process sums differ most, and a random interior point); pcnvxadap-stats' statistics (upper(X^T X), X^T y) of rows
     * clipped to 1 ({@link SparkBassily#targetSource}) by at most sqrt(2 r^4 + 4 r^2) at r = 1
     * ({@link StatisticsPCnvxAdap#sensitivity}), and its exact discrepancy, computed on the driver from the same
     * aggregate, by at most B / n, B = (Lambda + 1)^2, for three radii. The Spark values equal the in-process ones
     * on the same rows (adversarial ones included) to 1e-9 relative.
     */
    @Test
    void paper003sGradientSumAndStatisticsOnSparkMoveByAtMostTheirSensitivities() {
        int d = 4;
        double r = 1.0;
        Neighbours.Labelled base = Neighbours.random(40, d, K, 2 * r, 57);
        Neighbours.Labelled src = Neighbours.random(60, d, K, 2 * r, 58);
        DenseMatrix xs = PCnvxAdap.clipRows(src.matrix(), 1.0);
        double[] ys = PCnvxAdap.clipTargets(regressionTargets(src));
        SplittableRandom rnd = new SplittableRandom(59);
        double worstGradient = 0;
        double worstStatistics = 0;
        double worstDiscrepancy = 0;
        for (Neighbours.Pair p : Neighbours.replaceOne(base, r, 60)) {
            String what = "replace-one " + p;
            SparkTable ta = once(p.d(), "regression table", () -> regressionTable(p.d()));
            SparkTable tb = once(p.dPrime(), "regression table", () -> regressionTable(p.dPrime()));
            double[] ya = PCnvxAdap.clipTargets(regressionTargets(p.d()));
            double[] yb = PCnvxAdap.clipTargets(regressionTargets(p.dPrime()));
            // (row bound, radius): at each, the point the in-process sums say moves the pair most (of +-Lambda e1, along
            // the adversarial rows, and 400 random points of the sphere: an auditor's choice of w), and a random interior point
            for (double[] setting : new double[][] {{r, 2.0}, {2.5, 0.5}}) {
                double rowBound = setting[0];
                double radius = setting[1];
                double g = 2 * rowBound * (radius * rowBound + 1);
                NoisyGradientDescent.GradientSum localA = NoisyGradientDescent.inProcess(PCnvxAdap.clipRows(p.d().matrix(), rowBound), ya);
                NoisyGradientDescent.GradientSum localB = NoisyGradientDescent.inProcess(PCnvxAdap.clipRows(p.dPrime().matrix(), rowBound), yb);
                List<double[]> points = List.of(adversarialPoint(localA, localB, d, radius, rnd), inBall(d, radius, false, rnd));
                for (double[] w : points) {
                    double[] a = SparkBassily.gradientSum(ta, rowBound).at(w);
                    double[] b = SparkBassily.gradientSum(tb, rowBound).at(w);
                    assertRelativelyClose(a, localA.at(w), 1e-9, what + ": gradient sum on D, Spark vs in-process");
                    assertRelativelyClose(b, localB.at(w), 1e-9, what + ": gradient sum on D', Spark vs in-process");
                    double diff = ReleaseComparison.l2(a, b);
                    ReleaseComparison.assertWithin(diff, 2 * g, 0, what + ": gradient sum at r = " + rowBound + ", Lambda = " + radius);
                    worstGradient = Math.max(worstGradient, diff / (2 * g));
                }
            }
            // pcnvxadap-stats: one aggregate per side gives the statistics and the discrepancy
            int n = p.d().n();
            DenseMatrix xa = PCnvxAdap.clipRows(p.d().matrix(), 1.0);
            DenseMatrix xb = PCnvxAdap.clipRows(p.dPrime().matrix(), 1.0);
            StatisticsPCnvxAdap.TargetSource sa = once(p.d(), "target source", () -> SparkBassily.targetSource(ta, n));
            StatisticsPCnvxAdap.TargetSource sb = once(p.dPrime(), "target source", () -> SparkBassily.targetSource(tb, n));
            double[] qa = sa.statistics();
            double[] qb = sb.statistics();
            assertRelativelyClose(qa, StatisticsPCnvxAdap.statistics(xa, ya), 1e-9, what + ": statistics on D, Spark vs in-process");
            assertRelativelyClose(qb, StatisticsPCnvxAdap.statistics(xb, yb), 1e-9, what + ": statistics on D', Spark vs in-process");
            double sensitivity = StatisticsPCnvxAdap.sensitivity(1.0);
            ReleaseComparison.assertWithin(ReleaseComparison.l2(qa, qb), sensitivity, 0, what + ": statistics");
            worstStatistics = Math.max(worstStatistics, ReleaseComparison.l2(qa, qb) / sensitivity);
            for (double radius : new double[] {0.5, 2, 8}) {
                double bound = (radius + 1) * (radius + 1) / n;
                double da = sa.discrepancy(xs, ys, radius);
                double db = sb.discrepancy(xs, ys, radius);
                assertRelativelyClose(new double[] {da}, new double[] {LabelledDiscrepancy.squaredLoss(xs, ys, xa, ya, radius)}, 1e-9,
                        what + ": discrepancy on D, Spark vs in-process");
                assertRelativelyClose(new double[] {db}, new double[] {LabelledDiscrepancy.squaredLoss(xs, ys, xb, yb, radius)}, 1e-9,
                        what + ": discrepancy on D', Spark vs in-process");
                ReleaseComparison.assertWithin(Math.abs(da - db), bound, 0, what + ": discrepancy at Lambda = " + radius);
                worstDiscrepancy = Math.max(worstDiscrepancy, Math.abs(da - db) / bound);
            }
        }
        System.out.printf("privadapt-spark: paper 003 on Spark's neighbours, largest share of the bound: gradient sum %.3f,"
                + " statistics %.3f, discrepancy %.3f%n", worstGradient, worstStatistics, worstDiscrepancy);
        // the pairs come close to the bounds (observed 0.49, 0.67, 0.85): the statistics' and the discrepancy's checks would
        // catch a bound half as large. 2G is not attained at any one w: the per-row terms 2 (w.x - y) x lie almost in a
        // half-space (at ||w|| = Lambda their component along w is at least -1 / (2 Lambda)): the largest difference at
        // Lambda r = 2 is about 0.59 of 2G (found numerically), the pairs reach 0.49
        assertThat(worstGradient).as("the pairs' largest move of the gradient sum, over 2G").isGreaterThan(0.4);
        assertThat(worstStatistics).as("the pairs' largest move of the statistics, over their sensitivity").isGreaterThan(0.5);
        assertThat(worstDiscrepancy).as("the pairs' largest move of the discrepancy, over B / n").isGreaterThan(0.5);
    }

    /** Of +-radius e1 and 400 random points of the sphere of that radius, the w where the two sums differ most. */
    static double[] adversarialPoint(NoisyGradientDescent.GradientSum a, NoisyGradientDescent.GradientSum b, int d, double radius,
                                     SplittableRandom rnd) {
        double[] e1 = new double[d];
        e1[0] = radius;
        double[] best = null;
        double bestDiff = -1;
        for (int k = 0; k < 402; k++) {
            double[] w = k == 0 ? e1 : k == 1 ? scaled(e1, -1) : inBall(d, radius, true, rnd);
            double diff = ReleaseComparison.l2(a.at(w), b.at(w));
            if (diff > bestDiff) {
                bestDiff = diff;
                best = w;
            }
        }
        return best;
    }

    static double[] scaled(double[] v, double f) {
        double[] o = v.clone();
        for (int j = 0; j < o.length; j++) {
            o[j] *= f;
        }
        return o;
    }

    /** A random mixture of {@code k} components in {@code d} dimensions (it stands for any public previous release). */
    static GaussianMixture randomMixture(CovarianceType type, int k, int d, SplittableRandom r) {
        double[] w = new double[k];
        double total = 0;
        for (int c = 0; c < k; c++) {
            w[c] = 0.05 + r.nextDouble();
            total += w[c];
        }
        DenseMatrix means = DenseMatrix.zeros(k, d);
        DenseMatrix variances = DenseMatrix.zeros(k, d);
        List<DenseMatrix> covariances = new ArrayList<>();
        for (int c = 0; c < k; c++) {
            w[c] /= total;
            DenseMatrix a = DenseMatrix.zeros(d, d);
            for (int j = 0; j < d; j++) {
                means.set(c, j, 2 * SparkTestSupport.gauss(r));
                variances.set(c, j, 0.01 + 3 * r.nextDouble());
                for (int i = 0; i < d; i++) {
                    a.set(i, j, SparkTestSupport.gauss(r));
                }
            }
            covariances.add(LinAlg.multiplyTransB(a, a).plusIdentity(0.01));
        }
        return type == CovarianceType.FULL ? GaussianMixture.full(w, means, covariances) : GaussianMixture.diagonal(w, means, variances);
    }

    /**
     * DP-EM (paper 004) on Spark, add/remove-one as in process: each release's exact per-component statistics
     * ({@link SparkDpEm#exact}: responsibility-weighted counts, sums and second moments of the rows clipped to R), given
     * the same public input (none: the initial K = 1 release; the in-process fit's later inputs on D; a random mixture),
     * move by at most 1, R and R^2 block by block and sqrt 3 jointly after dividing by them, for both covariance types;
     * the bounds are attained (a row at the clip bound added, K = 1). The Spark statistics equal the in-process ones
     * ({@link DpGaussianMixtureEm#statistics} on {@link DpGaussianMixtureEm#clipRows}) to 1e-9 relative.
     */
    @Test
    void dpEmsStatisticsOnSparkMoveByAtMostOneRAndRSquared() {
        int d = 4;
        double r = 3.0;
        Neighbours.Labelled base = Neighbours.random(40, d, K, 2 * r, 61);
        SplittableRandom rnd = new SplittableRandom(62);
        for (CovarianceType type : CovarianceType.values()) {
            List<GaussianMixture> inputs = new ArrayList<>();
            inputs.add(null);
            List<GaussianMixture> fitted = new ArrayList<>();
            DpGaussianMixtureEm.fit(DpGaussianMixtureEm.inProcess(base.matrix(), r), DpGaussianMixtureEm.Config.of(3, type, r, 3, 1.0, 11),
                    new SessionRandomness(NoiseSource.seeded(63)), (i, in, noisy) -> fitted.add(in));
            inputs.add(fitted.get(fitted.size() - 1));
            inputs.add(randomMixture(type, 3, d, rnd));
            double[] worst = new double[3];
            for (Neighbours.Pair p : Neighbours.addRemove(base, r, 64)) {
                SparkTable ta = once(p.d(), "table", () -> table(p.d()));
                SparkTable tb = once(p.dPrime(), "table", () -> table(p.dPrime()));
                DenseMatrix za = DpGaussianMixtureEm.clipRows(p.d().matrix(), r);
                DenseMatrix zb = DpGaussianMixtureEm.clipRows(p.dPrime().matrix(), r);
                for (int t = 0; t < inputs.size(); t++) {
                    GaussianMixture m = inputs.get(t);
                    String what = "add/remove " + p + ", " + type + ", input " + (m == null ? "none (initial release)" : t);
                    String question = "dp-em " + type + " input " + t;
                    SufficientStatistics a = once(p.d(), question, () -> SparkDpEm.exact(ta, r, m, type));
                    SufficientStatistics b = once(p.dPrime(), question, () -> SparkDpEm.exact(tb, r, m, type));
                    sameStatistics(a, m == null ? DpGaussianMixtureEm.initialStatistics(za, type) : DpGaussianMixtureEm.statistics(za, m),
                            what + " on D, Spark vs in-process");
                    sameStatistics(b, m == null ? DpGaussianMixtureEm.initialStatistics(zb, type) : DpGaussianMixtureEm.statistics(zb, m),
                            what + " on D', Spark vs in-process");
                    double[] moved = {ReleaseComparison.l2(a.countVector(), b.countVector()),
                            ReleaseComparison.l2(a.sumVector(), b.sumVector()) / r,
                            ReleaseComparison.l2(a.secondMomentVector(), b.secondMomentVector()) / (r * r)};
                    ReleaseComparison.assertWithin(moved[0], 1, 0, what + ": counts");
                    ReleaseComparison.assertWithin(moved[1], 1, 0, what + ": sums / R");
                    ReleaseComparison.assertWithin(moved[2], 1, 0, what + ": second moments / R^2");
                    ReleaseComparison.assertWithin(Math.sqrt(moved[0] * moved[0] + moved[1] * moved[1] + moved[2] * moved[2]), Math.sqrt(3),
                            0, what + ": jointly, each block over its bound");
                    for (int k = 0; k < 3; k++) {
                        worst[k] = Math.max(worst[k], moved[k]);
                    }
                }
            }
            // a row at the clip bound added moves the initial release's blocks by exactly 1, R and R^2
            for (int k = 0; k < 3; k++) {
                assertThat(worst[k]).as(type + ": block " + k + "'s largest move over its bound").isGreaterThan(1 - 1e-9);
            }
        }
    }

    static void sameStatistics(SufficientStatistics spark, SufficientStatistics local, String what) {
        assertThat(spark.components()).as(what).isEqualTo(local.components());
        assertRelativelyClose(spark.countVector(), local.countVector(), 1e-9, what + ": counts");
        assertRelativelyClose(spark.sumVector(), local.sumVector(), 1e-9, what + ": sums");
        assertRelativelyClose(spark.secondMomentVector(), local.secondMomentVector(), 1e-9, what + ": second moments");
    }

    /**
     * PRIMA's and PRISA's source moments on Spark ({@link SparkPrimaSource#exact}: block Gram matrices, column sums and
     * count of the source's rows clipped to R, then each block to its bound), the vector
     * {@link Prima#sourceMomentsNoise} adds its noise to (every block's upper triangle, c S, c^2 n; c = moment weight x R),
     * move by at most {@link SecondMomentRelease#sensitivity} for the partition's block bounds, under both relations,
     * for two configurations (PRIMA's defaults; PRISA with R = 2, block scale 1, moment weight 0.5, so the blocks are
     * clipped tighter than R) and several partitions. Add/remove attains the bound (a row at the clip bound added, one
     * block). The Spark moments equal the in-process ones ({@link Prima#sourceExact} on {@link Prima#clipRows}) to 1e-9
     * relative.
     */
    @Test
    void primasSourceMomentsOnSparkMoveByAtMostTheirSensitivity() {
        int d = 10;
        PrimaConfig prisa = PrimaConfig.from(PrimaConfig.prima(PrimaConfig.Adaptation.SA),
                new MethodConfig("lr", 0, 1, Map.of("row-bound", "2.0", "block-scale", "1.0", "moment-weight", "0.5")));
        List<Map.Entry<PrimaConfig, List<Partition>>> configs = List.of(
                Map.entry(PrimaConfig.prima(PrimaConfig.Adaptation.CORAL), List.of(Partition.single(d), Partition.random(d, 4, 1),
                        Partition.random(d, 2, 2))),
                Map.entry(prisa, List.of(Partition.single(d), Partition.random(d, 3, 3))));
        for (Map.Entry<PrimaConfig, List<Partition>> e : configs) {
            PrimaConfig cfg = e.getKey();
            double r = cfg.rowBound();
            double c = cfg.momentWeight() * r;
            Neighbours.Labelled base = Neighbours.random(40, d, K, 2 * r, 65);
            for (NeighbouringRelation rel : NeighbouringRelation.values()) {
                double worst = 0;
                for (Neighbours.Pair p : pairs(rel, base, r, 66)) {
                    SparkTable ta = once(p.d(), "table", () -> table(p.d()));
                    SparkTable tb = once(p.dPrime(), "table", () -> table(p.dPrime()));
                    for (int i = 0; i < e.getValue().size(); i++) {
                        Partition part = e.getValue().get(i);
                        String what = cfg.adaptation() + " R = " + r + ", " + rel + " " + p + ", " + part.size() + " blocks";
                        double[] bounds = cfg.blockBounds(part);
                        SecondMomentRelease.ExactMoments a = once(p.d(), "source moments " + i, () -> SparkPrimaSource.exact(ta, cfg, part));
                        SecondMomentRelease.ExactMoments b = once(p.dPrime(), "source moments " + i, () -> SparkPrimaSource.exact(tb, cfg, part));
                        SparkPrimaTest.assertExactSame(a, Prima.sourceExact(Prima.clipRows(p.d().matrix(), cfg, part), part),
                                what + " on D, Spark vs in-process");
                        SparkPrimaTest.assertExactSame(b, Prima.sourceExact(Prima.clipRows(p.dPrime().matrix(), cfg, part), part),
                                what + " on D', Spark vs in-process");
                        double sensitivity = SecondMomentRelease.sensitivity(rel, bounds, r, c);
                        double moved = ReleaseComparison.l2(SparkPrimaTest.released(a, c), SparkPrimaTest.released(b, c));
                        ReleaseComparison.assertWithin(moved, sensitivity, 0, what);
                        worst = Math.max(worst, moved / sensitivity);
                    }
                }
                System.out.printf("privadapt-spark: PRIMA source moments on Spark's neighbours, %s R = %s, %s: largest share of the"
                        + " sensitivity %.3f%n", cfg.adaptation(), r, rel, worst);
                assertThat(worst).as(cfg.adaptation() + " " + rel + ": the pairs' largest move over the sensitivity")
                        .isGreaterThan(rel == NeighbouringRelation.ADD_OR_REMOVE_ONE ? 1 - 1e-9 : 0.5);
            }
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
