package org.privadapt.methods.bassily;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;
import org.privadapt.models.discrepancy.CnvxAdap;
import org.privadapt.models.discrepancy.LabelledDiscrepancy;
import org.privadapt.models.discrepancy.NCnvxAdap;
import org.privadapt.methods.neighbours.Neighbours;
import org.privadapt.methods.neighbours.ReleaseComparison;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * The neighbouring-dataset harness (docs/privacy/testing.md) for paper 003's releases, on every replace-one neighbour
 * kind of {@link Neighbours} (the only relation these methods accept: they refuse add/remove before charging, tested
 * in {@link SupervisedMethodsTest}). The private rows are the neighbours; the public source is fixed.
 *
 * <p>(a) The queries against their declared sensitivities: the labelled discrepancy (B / n, Laplace), CnvxAdap's and
 * NCnvxAdap's private gradient pair (whitened by (s1, s2): at most sqrt 2, the per-step Gaussian's bound), the
 * sufficient statistics (sqrt(2 r^4 + 4 r^2)), dp-target-only's gradient sum (2G). (b) Each whole fit on D and D' with
 * the same seeded noise: the calibration it reports and the budget it charges are identical; only the DP outputs (the
 * predictor, the weights, the released discrepancy) may differ.
 */
class BassilyNeighboursTest {
    static final double BOUND = 1.0;

    /** Regression targets from a row and its class (so that moving a record between classes moves its target). */
    static double[] targets(Neighbours.Labelled d) {
        double[] y = new double[d.n()];
        for (int i = 0; i < d.n(); i++) {
            y[i] = 0.8 * (d.y()[i] - 1) + 0.3 * d.x()[i][0]; // beyond [-1, 1] for some rows: the methods clip
        }
        return y;
    }

    static Neighbours.Labelled base() {
        return Neighbours.random(40, 4, 3, BOUND, 21);
    }

    static Neighbours.Labelled source() {
        return Neighbours.random(120, 4, 3, BOUND, 22);
    }

    static PrivacySession session(long seed) {
        return new PrivacySession("target", new PrivacyBudget(3, 1e-4), NeighbouringRelation.REPLACE_ONE, NoiseSource.seeded(seed), null);
    }

    @Test
    void queriesMoveByAtMostTheirSensitivities() {
        Neighbours.Labelled base = base();
        Neighbours.Labelled src = source();
        DenseMatrix xs = src.matrix();
        double[] ys = PCnvxAdap.clipTargets(targets(src));
        SplittableRandom r = new SplittableRandom(5);
        for (Neighbours.Pair pair : Neighbours.replaceOne(base, BOUND, 6)) {
            DenseMatrix x1 = PCnvxAdap.clipRows(pair.d().matrix(), BOUND);
            DenseMatrix x2 = PCnvxAdap.clipRows(pair.dPrime().matrix(), BOUND);
            double[] y1 = PCnvxAdap.clipTargets(targets(pair.d()));
            double[] y2 = PCnvxAdap.clipTargets(targets(pair.dPrime()));
            int n = x1.rows();
            for (double lambda : new double[] {0.5, 2, 8}) {
                double b = (lambda * BOUND + 1) * (lambda * BOUND + 1);
                double d1 = LabelledDiscrepancy.squaredLoss(xs, ys, x1, y1, lambda);
                double d2 = LabelledDiscrepancy.squaredLoss(xs, ys, x2, y2, lambda);
                ReleaseComparison.assertWithin(Math.abs(d1 - d2), b / n, 0, pair + " discrepancy at Lambda " + lambda);
            }
            // CnvxAdap's private gradient at feasible points (w on the boundary or inside, u at or above its bounds)
            for (int k = 0; k < 10; k++) {
                double alpha = 0.1 + 0.8 * r.nextDouble();
                CnvxAdap.Problem p1 = new CnvxAdap.Problem(xs, ys, x1, y1, 0.1, alpha, 1, 0, 0, 3, BOUND);
                CnvxAdap.Problem p2 = new CnvxAdap.Problem(xs, ys, x2, y2, 0.1, alpha, 1, 0, 0, 3, BOUND);
                double[] w = randomBall(4, 3, k % 2 == 0, r);
                double[] u = new double[xs.rows() + n];
                for (int i = 0; i < u.length; i++) {
                    double lo = i < xs.rows() ? xs.rows() / alpha : n / (1 - alpha);
                    u[i] = lo * (k % 3 == 0 ? 1 : 1 + r.nextDouble());
                }
                double[][] g1 = CnvxAdap.privateGradient(p1, w, u);
                double[][] g2 = CnvxAdap.privateGradient(p2, w, u);
                double whitened = Math.hypot(ReleaseComparison.l2(g1[0], g2[0]) / p1.s1(), ReleaseComparison.l2(g1[1], g2[1]) / p1.s2());
                ReleaseComparison.assertWithin(whitened, Math.sqrt(2), 0, pair + " CnvxAdap gradient pair (whitened)");
            }
            // the sufficient statistics
            ReleaseComparison.assertWithin(ReleaseComparison.l2(StatisticsPCnvxAdap.statistics(x1, y1),
                    StatisticsPCnvxAdap.statistics(x2, y2)), StatisticsPCnvxAdap.sensitivity(BOUND), 0, pair + " statistics");
            // dp-target-only's gradient sum
            for (int k = 0; k < 5; k++) {
                double radius = 1 + 3 * r.nextDouble();
                double[] w = randomBall(4, radius, k % 2 == 0, r);
                double g = 2 * BOUND * (radius * BOUND + 1);
                ReleaseComparison.assertWithin(ReleaseComparison.l2(SupervisedMethodsTest.gradientSum(x1, y1, w),
                        SupervisedMethodsTest.gradientSum(x2, y2, w)), 2 * g, 0, pair + " gradient sum");
            }
            // NCnvxAdap's private gradient pair (classes: the records' own labels)
            for (int k = 0; k < 5; k++) {
                double alpha = 0.1 + 0.8 * r.nextDouble();
                NCnvxAdap.Problem p1 = new NCnvxAdap.Problem(xs, src.y(), x1, pair.d().y(), 3, 0.1, alpha, 1, 0, 0, 10, 4, BOUND);
                NCnvxAdap.Problem p2 = new NCnvxAdap.Problem(xs, src.y(), x2, pair.dPrime().y(), 3, 0.1, alpha, 1, 0, 0, 10, 4, BOUND);
                DenseMatrix w = new DenseMatrix(4, 3, randomBall(12, 4, k % 2 == 0, r));
                double[] u = new double[xs.rows() + n];
                for (int i = 0; i < u.length; i++) {
                    double lo = i < xs.rows() ? xs.rows() / alpha : n / (1 - alpha);
                    u[i] = lo * (k % 2 == 0 ? 1 : 1 + r.nextDouble());
                }
                double[][] g1 = NCnvxAdap.privateGradient(p1, w, u);
                double[][] g2 = NCnvxAdap.privateGradient(p2, w, u);
                double whitened = Math.hypot(ReleaseComparison.l2(g1[0], g2[0]) / p1.s1(), ReleaseComparison.l2(g1[1], g2[1]) / p1.s2());
                ReleaseComparison.assertWithin(whitened, Math.sqrt(2), 0, pair + " NCnvxAdap gradient pair (whitened)");
            }
        }
    }

    @Test
    void wholeFitsOnNeighboursDifferOnlyInTheirDpOutputs() throws Exception {
        Neighbours.Labelled base = base();
        Neighbours.Labelled src = source();
        DenseMatrix xs = src.matrix();
        double[] ys = targets(src);
        ObjectMapper json = new ObjectMapper();
        PCnvxAdap.Settings s = new PCnvxAdap.Settings(0.4, 1, 0, 0, 2, BOUND, 30, 0.5, true);
        StatisticsPCnvxAdap.Settings st = new StatisticsPCnvxAdap.Settings(0.4, 0.1, 1, 0.2);
        for (Neighbours.Pair pair : Neighbours.replaceOne(base, BOUND, 6)) {
            DenseMatrix x1 = pair.d().matrix();
            DenseMatrix x2 = pair.dPrime().matrix();
            double[] y1 = targets(pair.d());
            double[] y2 = targets(pair.dPrime());
            PrivacySession a = session(9);
            PrivacySession b = session(9);
            PCnvxAdap.Result r1 = PCnvxAdap.fit(xs, ys, x1, y1, s, a, null);
            PCnvxAdap.Result r2 = PCnvxAdap.fit(xs, ys, x2, y2, s, b, null);
            same(json, r1.calibration(), r2.calibration(), pair + " pcnvxadap calibration");
            assertThat(a.spent()).isEqualTo(b.spent());
            a = session(9);
            b = session(9);
            StatisticsPCnvxAdap.Result q1 = StatisticsPCnvxAdap.fit(xs, ys, x1, y1, st, a, null);
            StatisticsPCnvxAdap.Result q2 = StatisticsPCnvxAdap.fit(xs, ys, x2, y2, st, b, null);
            same(json, q1.calibration(), q2.calibration(), pair + " pcnvxadap-stats calibration");
            assertThat(a.spent()).isEqualTo(b.spent());
            a = session(9);
            b = session(9);
            NoisyGradientDescent.Result n1 = NoisyGradientDescent.fitSquaredLoss(x1, y1, 2, BOUND, 20, a);
            NoisyGradientDescent.Result n2 = NoisyGradientDescent.fitSquaredLoss(x2, y2, 2, BOUND, 20, b);
            same(json, n1.calibration(), n2.calibration(), pair + " dp-target-only calibration");
            assertThat(a.spent()).isEqualTo(b.spent());
        }
    }

    /**
     * With the public subspace and offset ({@link PublicSubspace}, built from the source alone): every neighbouring
     * pair maps to a pair that differs in the same single row (the maps are row-local), no row gets longer, the
     * transformed targets stay in [-1, 1], and the gradient pair and the discrepancy still move within their
     * sensitivities; the whole fits' calibrations and charges are identical on the two sides.
     */
    @Test
    void withThePublicSubspaceNeighboursStayNeighboursAndTheSensitivitiesHold() throws Exception {
        Neighbours.Labelled base = base();
        Neighbours.Labelled src = source();
        DenseMatrix xsRaw = src.matrix();
        DenseMatrix v = PublicSubspace.basis(xsRaw, 2);
        // rescaled by a public constant below 1, as the default does: rows may lengthen by 1 / rowScale, the clip bounds them
        double rowScale = 0.5;
        PublicSubspace sub = new PublicSubspace(v, rowScale, new double[] {0.5, -0.3, 0.2, 0.1});
        DenseMatrix xs = PCnvxAdap.clipRows(sub.project(xsRaw), BOUND);
        double[] ys = PCnvxAdap.clipTargets(sub.targets(xsRaw, PCnvxAdap.clipTargets(targets(src))));
        ObjectMapper json = new ObjectMapper();
        PCnvxAdap.Settings s = new PCnvxAdap.Settings(0.4, 1, 0, 0, 2, BOUND, 30, 0.5, true);
        SplittableRandom r = new SplittableRandom(7);
        for (Neighbours.Pair pair : Neighbours.replaceOne(base, BOUND, 6)) {
            DenseMatrix raw1 = pair.d().matrix();
            DenseMatrix raw2 = pair.dPrime().matrix();
            DenseMatrix z1 = sub.project(raw1);
            DenseMatrix z2 = sub.project(raw2);
            double[] n0 = raw1.rowSquaredNorms();
            double[] n1 = z1.rowSquaredNorms();
            for (int i = 0; i < n0.length; i++) {
                // the subspace part is no longer than x, the appended public prediction at most 1, all over rowScale
                assertThat(n1[i]).isLessThanOrEqualTo((n0[i] + 1) / (rowScale * rowScale) * (1 + 1e-12));
            }
            double[] t1 = sub.targets(raw1, PCnvxAdap.clipTargets(targets(pair.d())));
            double[] t2 = sub.targets(raw2, PCnvxAdap.clipTargets(targets(pair.dPrime())));
            int differing = 0;
            for (int i = 0; i < t1.length; i++) {
                assertThat(Math.abs(t1[i])).isLessThanOrEqualTo(1.0);
                boolean rowSame = java.util.Arrays.equals(z1.row(i), z2.row(i)) && t1[i] == t2[i];
                differing += rowSame ? 0 : 1;
            }
            assertThat(differing).as(pair + " transformed rows that differ").isLessThanOrEqualTo(1);
            DenseMatrix x1 = PCnvxAdap.clipRows(z1, BOUND);
            DenseMatrix x2 = PCnvxAdap.clipRows(z2, BOUND);
            for (double q : x1.rowSquaredNorms()) {
                assertThat(q).isLessThanOrEqualTo(BOUND * BOUND * (1 + 1e-12));
            }
            int n = x1.rows();
            double lambda = 2;
            double b = (lambda * BOUND + 1) * (lambda * BOUND + 1);
            ReleaseComparison.assertWithin(Math.abs(LabelledDiscrepancy.squaredLoss(xs, ys, x1, t1, lambda)
                    - LabelledDiscrepancy.squaredLoss(xs, ys, x2, t2, lambda)), b / n, 0, pair + " discrepancy (subspace)");
            for (int k = 0; k < 5; k++) {
                double alpha = 0.1 + 0.8 * r.nextDouble();
                CnvxAdap.Problem p1 = new CnvxAdap.Problem(xs, ys, x1, t1, 0.1, alpha, 1, 0, 0, 3, BOUND);
                CnvxAdap.Problem p2 = new CnvxAdap.Problem(xs, ys, x2, t2, 0.1, alpha, 1, 0, 0, 3, BOUND);
                double[] w = randomBall(xs.cols(), 3, k % 2 == 0, r);
                double[] u = new double[xs.rows() + n];
                for (int i = 0; i < u.length; i++) {
                    u[i] = (i < xs.rows() ? xs.rows() / alpha : n / (1 - alpha)) * (1 + r.nextDouble());
                }
                double[][] g1 = CnvxAdap.privateGradient(p1, w, u);
                double[][] g2 = CnvxAdap.privateGradient(p2, w, u);
                double whitened = Math.hypot(ReleaseComparison.l2(g1[0], g2[0]) / p1.s1(), ReleaseComparison.l2(g1[1], g2[1]) / p1.s2());
                ReleaseComparison.assertWithin(whitened, Math.sqrt(2), 0, pair + " CnvxAdap gradient pair (subspace, whitened)");
            }
            PrivacySession a = session(9);
            PrivacySession bb = session(9);
            PCnvxAdap.Result r1 = PCnvxAdap.fit(xs, ys, z1, t1, s, a, null);
            PCnvxAdap.Result r2 = PCnvxAdap.fit(xs, ys, z2, t2, s, bb, null);
            same(json, r1.calibration(), r2.calibration(), pair + " pcnvxadap calibration (subspace)");
            assertThat(a.spent()).isEqualTo(bb.spent());
            a = session(9);
            bb = session(9);
            NoisyGradientDescent.Result q1 = NoisyGradientDescent.fitSquaredLoss(z1, t1, 2, BOUND, 20, a);
            NoisyGradientDescent.Result q2 = NoisyGradientDescent.fitSquaredLoss(z2, t2, 2, BOUND, 20, bb);
            same(json, q1.calibration(), q2.calibration(), pair + " dp-target-only calibration (subspace)");
            assertThat(a.spent()).isEqualTo(bb.spent());
        }
    }

    private static void same(ObjectMapper json, Map<String, Object> a, Map<String, Object> b, String what) {
        JsonNode ja = json.valueToTree(a);
        JsonNode jb = json.valueToTree(b);
        ReleaseComparison.assertOnlyDeclaredDiffer(ja, jb, path -> false, what);
    }

    private static double[] randomBall(int d, double radius, boolean onBoundary, SplittableRandom r) {
        double[] w = new double[d];
        double s = 0;
        for (int i = 0; i < d; i++) {
            w[i] = r.nextGaussian();
            s += w[i] * w[i];
        }
        double f = (onBoundary ? radius : radius * r.nextDouble()) / Math.sqrt(s);
        for (int i = 0; i < d; i++) {
            w[i] *= f;
        }
        return w;
    }
}
