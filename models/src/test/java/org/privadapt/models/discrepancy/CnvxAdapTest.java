package org.privadapt.models.discrepancy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;

class CnvxAdapTest {
    /** Rows in the unit ball, targets in [-1, 1]: y = clip(w* . x + noise). */
    static Object[] data(int n, double[] wStar, double noise, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int d = wStar.length;
        DenseMatrix x = DenseMatrix.zeros(n, d);
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            double norm = 0;
            double[] row = new double[d];
            for (int k = 0; k < d; k++) {
                row[k] = r.nextDouble() * 2 - 1;
                norm += row[k] * row[k];
            }
            norm = Math.sqrt(norm);
            double dot = 0;
            for (int k = 0; k < d; k++) {
                row[k] /= Math.max(1, norm);
                x.set(i, k, row[k]);
                dot += row[k] * wStar[k];
            }
            y[i] = Math.max(-1, Math.min(1, dot + noise * (r.nextDouble() * 2 - 1)));
        }
        return new Object[] {x, y};
    }

    static CnvxAdap.Problem problem(long seed, int m, int n) {
        Object[] s = data(m, new double[] {0.8, -0.4, 0.3, 0.0}, 0.1, seed);
        Object[] t = data(n, new double[] {0.7, -0.5, 0.3, 0.1}, 0.1, seed + 1);
        return new CnvxAdap.Problem((DenseMatrix) s[0], (double[]) s[1], (DenseMatrix) t[0], (double[]) t[1], 0.01, 0.5,
                0.1, 0.01, 0.01, 2, 1);
    }

    @Test
    void theIterateStaysFeasibleAndMoreIterationsLowerTheObjective() {
        CnvxAdap.Problem p = problem(1, 400, 40);
        double[] u0 = new double[p.m() + p.n()];
        for (int i = 0; i < u0.length; i++) {
            u0[i] = i < p.m() ? p.m() / p.alpha() : p.n() / (1 - p.alpha());
        }
        double start = CnvxAdap.objective(p, new double[p.dim()], u0);
        CnvxAdap.Result shortRun = CnvxAdap.solve(p, CnvxAdap.Config.nonPrivate(20), null);
        CnvxAdap.Result longRun = CnvxAdap.solve(p, CnvxAdap.Config.nonPrivate(2000), null);
        assertThat(shortRun.objective()).isLessThan(start);
        assertThat(longRun.objective()).isLessThan(shortRun.objective());
        double norm = 0;
        for (double v : longRun.w()) {
            norm += v * v;
        }
        assertThat(Math.sqrt(norm)).isLessThanOrEqualTo(p.lambda() * (1 + 1e-12));
        for (int i = 0; i < longRun.u().length; i++) {
            assertThat(longRun.u()[i]).isGreaterThanOrEqualTo(u0[i]);
        }
    }

    @Test
    void theLearnedPredictorFitsTheTarget() {
        CnvxAdap.Problem p = problem(2, 2000, 50);
        CnvxAdap.Result r = CnvxAdap.solve(p, CnvxAdap.Config.nonPrivate(3000), null);
        Object[] test = data(2000, new double[] {0.7, -0.5, 0.3, 0.1}, 0.1, 99);
        double mse = mse((DenseMatrix) test[0], (double[]) test[1], r.w());
        double zero = mse((DenseMatrix) test[0], (double[]) test[1], new double[4]);
        assertThat(mse).isLessThan(0.1 * zero);
    }

    @Test
    void noiseIsAddedOnlyWhenAsked() {
        CnvxAdap.Problem p = problem(3, 300, 30);
        CnvxAdap.Result a = CnvxAdap.solve(p, new CnvxAdap.Config(200, 0.05, 1e-6, 1), new TestNoise(5));
        CnvxAdap.Result b = CnvxAdap.solve(p, new CnvxAdap.Config(200, 0.05, 1e-6, 1), new TestNoise(5));
        CnvxAdap.Result c = CnvxAdap.solve(p, new CnvxAdap.Config(200, 0.05, 1e-6, 1), new TestNoise(6));
        assertThat(a.w()).containsExactly(b.w());
        assertThat(a.w()).isNotEqualTo(c.w());
    }

    /** Replace-one of a private row (rows at the bounds): the private gradient moves by at most s1 and s2. */
    @Test
    void theExactSolverReachesAtLeastTheLongDescentsObjectiveAndIsAFixedPointOfBothBlocks() {
        Object[] sData = data(300, new double[] {0.8, -0.4, 0.3, 0.0}, 0.3, 11);
        Object[] tData = data(30, new double[] {0.2, 0.5, -0.3, 0.4}, 0.05, 12);
        CnvxAdap.Problem p = new CnvxAdap.Problem((DenseMatrix) sData[0], (double[]) sData[1], (DenseMatrix) tData[0],
                (double[]) tData[1], 0.05, 0.4, 0.02, 0, 0, 1.5, 1);
        CnvxAdap.Result exact = CnvxAdap.solveExact(p, null, 200, 1e-13);
        CnvxAdap.Result descent = CnvxAdap.solve(p, CnvxAdap.Config.nonPrivate(20000), null, null, 0.5);
        // the descent's averaged iterate is feasible, so the optimum is no larger (to rounding)
        assertThat(exact.objective()).isLessThanOrEqualTo(descent.objective() + 1e-9);
        // the descent approaches it, slowly (its u steps are the theory's, sized for the noisy worst case)
        CnvxAdap.Result shorter = CnvxAdap.solve(p, CnvxAdap.Config.nonPrivate(2000), null, null, 0.5);
        assertThat(descent.objective() - exact.objective()).isLessThan(shorter.objective() - exact.objective());
        // no feasible perturbation of either block lowers F (first-order optimality, checked by sampling)
        SplittableRandom r = new SplittableRandom(5);
        for (int k = 0; k < 200; k++) {
            double[] w = exact.w().clone();
            double[] u = exact.u().clone();
            for (int j = 0; j < w.length; j++) {
                w[j] += 1e-3 * (r.nextDouble() - 0.5);
            }
            double norm = Math.sqrt(java.util.Arrays.stream(w).map(v -> v * v).sum());
            if (norm > p.lambda()) {
                for (int j = 0; j < w.length; j++) {
                    w[j] *= p.lambda() / norm;
                }
            }
            for (int i = 0; i < u.length; i++) {
                double lower = i < p.m() ? p.m() / p.alpha() : p.n() / (1 - p.alpha());
                u[i] = Math.max(lower, u[i] * (1 + 1e-3 * (r.nextDouble() - 0.5)));
            }
            assertThat(CnvxAdap.objective(p, w, u)).isGreaterThanOrEqualTo(exact.objective() - 1e-12);
        }
        // the closed-form u step: q_i = p0_i min(1, sqrt(kappa_1 / a_i)) at the returned w
        double[] q = exact.weights();
        double[] res = CnvxAdap.residuals(p.xPriv(), p.yPriv(), exact.w());
        for (int j = 0; j < p.n(); j++) {
            double p0 = (1 - p.alpha()) / p.n();
            double a = res[j] * res[j];
            assertThat(q[p.m() + j]).isCloseTo(p0 * Math.min(1, Math.sqrt(p.kappa1() / a)), org.assertj.core.data.Offset.offset(1e-6 * p0));
        }
    }

    @Test
    void theExactSolverRefusesThePenaltiesItCannotHandle() {
        CnvxAdap.Problem p = problem(1, 50, 10);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> CnvxAdap.solveExact(p, null, 10, 1e-9))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("kappa_2 = kappa_inf = 0");
    }

    @Test
    void fixedPrivateWeightsFromExactStatisticsMatchTheFullSolverWhenNoRowIsDownWeighted() {
        // kappa_1 above every loss (<= (Lambda r + 1)^2 = 6.25): every weight sits at p0 in both problems
        CnvxAdap.Problem p = new CnvxAdap.Problem(problem(3, 200, 40).xPub(), problem(3, 200, 40).yPub(),
                problem(3, 200, 40).xPriv(), problem(3, 200, 40).yPriv(), 0.02, 0.3, 50, 0, 0, 1.5, 1);
        CnvxAdap.Result full = CnvxAdap.solveExact(p, null, 100, 1e-13);
        DenseMatrix a = org.privadapt.math.LinAlg.gram(p.xPriv()).scale(1.0 / p.n());
        double[] b = org.privadapt.math.LinAlg.multiplyTransA(p.xPriv(), p.yPriv());
        for (int k = 0; k < b.length; k++) {
            b[k] /= p.n();
        }
        CnvxAdap.Result fixed = CnvxAdap.solveExactFixedPrivate(p.xPub(), p.yPub(), p.d(), p.alpha(), p.kappa1(), p.lambda(), a, b,
                null, 100, 1e-13);
        for (int k = 0; k < full.w().length; k++) {
            assertThat(fixed.w()[k]).isCloseTo(full.w()[k], org.assertj.core.data.Offset.offset(1e-9));
        }
        // a center moves the ball: a radius-0.01 ball around a far point keeps w within 0.01 of it
        double[] center = {3, 0, 0, 0};
        CnvxAdap.Result shifted = CnvxAdap.solveExactFixedPrivate(p.xPub(), p.yPub(), p.d(), p.alpha(), p.kappa1(), 0.01, a, b,
                center, 100, 1e-13);
        double dist = 0;
        for (int k = 0; k < 4; k++) {
            dist += (shifted.w()[k] - center[k]) * (shifted.w()[k] - center[k]);
        }
        assertThat(Math.sqrt(dist)).isLessThanOrEqualTo(0.01 + 1e-12).isGreaterThan(0.0099);
    }

    @Test
    void thePrivateGradientMovesByAtMostItsSensitivities() {
        SplittableRandom r = new SplittableRandom(7);
        for (int trial = 0; trial < 200; trial++) {
            CnvxAdap.Problem p = problem(trial, 50, 20);
            DenseMatrix x2 = p.xPriv().copy();
            double[] y2 = p.yPriv().clone();
            int j = r.nextInt(p.n());
            double[] row = new double[p.dim()];
            double norm = 0;
            for (int k = 0; k < row.length; k++) {
                row[k] = r.nextDouble() * 2 - 1;
                norm += row[k] * row[k];
            }
            for (int k = 0; k < row.length; k++) {
                x2.set(j, k, row[k] / Math.sqrt(norm) * p.r()); // on the sphere ||x|| = r
            }
            y2[j] = r.nextBoolean() ? 1 : -1;
            CnvxAdap.Problem q = new CnvxAdap.Problem(p.xPub(), p.yPub(), x2, y2, p.d(), p.alpha(), p.kappa1(), p.kappa2(),
                    p.kappaInf(), p.lambda(), p.r());
            double[] w = new double[p.dim()];
            double wn = 0;
            for (int k = 0; k < w.length; k++) {
                w[k] = r.nextDouble() * 2 - 1;
                wn += w[k] * w[k];
            }
            for (int k = 0; k < w.length; k++) {
                w[k] *= p.lambda() / Math.sqrt(wn); // on the boundary of the ball: the worst case
            }
            double[] u = new double[p.m() + p.n()];
            for (int i = 0; i < u.length; i++) {
                double lower = i < p.m() ? p.m() / p.alpha() : p.n() / (1 - p.alpha());
                u[i] = lower * (r.nextBoolean() ? 1 : 1 + r.nextDouble());
            }
            double[][] g1 = CnvxAdap.privateGradient(p, w, u);
            double[][] g2 = CnvxAdap.privateGradient(q, w, u);
            assertThat(dist(g1[0], g2[0])).isLessThanOrEqualTo(p.s1() * (1 + 1e-9));
            assertThat(dist(g1[1], g2[1])).isLessThanOrEqualTo(p.s2() * (1 + 1e-9));
        }
    }

    static double dist(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += (a[i] - b[i]) * (a[i] - b[i]);
        }
        return Math.sqrt(s);
    }

    static double mse(DenseMatrix x, double[] y, double[] w) {
        double s = 0;
        for (int i = 0; i < y.length; i++) {
            double e = -y[i];
            for (int k = 0; k < w.length; k++) {
                e += x.get(i, k) * w[k];
            }
            s += e * e;
        }
        return s / y.length;
    }

    /** Seeded Gaussian noise for tests. */
    static final class TestNoise implements org.privadapt.models.dp.NoiseAndSampling {
        private final SplittableRandom r;

        TestNoise(long seed) {
            r = new SplittableRandom(seed);
        }

        public boolean bernoulli(double p) {
            return r.nextDouble() < p;
        }

        public void addGaussian(double[] v, double sigma) {
            for (int i = 0; i < v.length; i++) {
                v[i] += sigma * Math.sqrt(-2 * Math.log(1 - r.nextDouble())) * Math.cos(2 * Math.PI * r.nextDouble());
            }
        }

        public boolean isPrivate() {
            return false;
        }

        public String description() {
            return "test";
        }
    }
}
