package org.privadapt.math.ot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.privadapt.math.DenseMatrix;

class SinkhornTest {

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void marginalsMatchOnSmallRandomProblems(boolean logDomain) {
        SplittableRandom rng = new SplittableRandom(2);
        SinkhornOptions options = SinkhornOptions.defaults().withMaxIterations(20_000).withLogDomain(logDomain);
        for (int trial = 0; trial < 12; trial++) {
            int n = 2 + rng.nextInt(30);
            int m = 2 + rng.nextInt(30);
            double[] a = OtTestData.randomWeights(n, rng);
            double[] b = OtTestData.randomWeights(m, rng);
            DenseMatrix c = OtTestData.randomCost(n, m, rng);
            double reg = new double[] {0.5, 0.1, 0.05}[trial % 3];
            DenseMatrix cCopy = c.copy();
            double[] aCopy = a.clone();
            Coupling r = Sinkhorn.solve(a, b, c, reg, options);
            assertThat(r.converged()).as("trial %d", trial).isTrue();
            assertThat(OtTestData.maxAbsDiff(OtTestData.rowSums(r.plan()), a)).isLessThan(1e-8);
            assertThat(OtTestData.maxAbsDiff(OtTestData.colSums(r.plan()), b)).isLessThan(1e-8);
            assertThat(r.marginalError()).isLessThan(1e-8);
            assertThat(r.plan().firstNonFinite()).isNull();
            double dot = 0;
            for (int k = 0; k < n * m; k++) {
                assertThat(r.plan().data()[k]).isGreaterThanOrEqualTo(0.0);
                dot += r.plan().data()[k] * c.data()[k];
            }
            assertThat(r.transportCost()).isCloseTo(dot, org.assertj.core.api.Assertions.within(1e-14));
            assertThat(c.minus(cCopy).maxAbs()).as("cost untouched").isZero();
            assertThat(a).containsExactly(aCopy);
        }
    }

    @Test
    void stabilisedAndLogDomainGiveTheSamePlan() {
        SplittableRandom rng = new SplittableRandom(3);
        double[] a = OtTestData.randomWeights(25, rng);
        double[] b = OtTestData.randomWeights(31, rng);
        DenseMatrix c = OtTestData.randomCost(25, 31, rng);
        SinkhornOptions o = SinkhornOptions.defaults().withMaxIterations(5000);
        Coupling s = Sinkhorn.solve(a, b, c, 0.01, o);
        Coupling l = Sinkhorn.solve(a, b, c, 0.01, o.withLogDomain(true));
        assertThat(s.iterations()).isEqualTo(l.iterations());
        assertThat(s.plan().minus(l.plan()).maxAbs()).isLessThan(1e-12);
    }

    @Test
    void approachesTheExactOptimumAsRegularisationVanishes() {
        // Below reg ~ 1e-2 the entropic plan of a random n x n problem is nearly a permutation and Sinkhorn's
        // marginal error decays only like 1/k, so the small-reg solves are not run to 1e-9: the cost is compared
        // through the nearest coupling (the rounding of Altschuler, Weed and Rigollet 2017), which is feasible, so
        // its cost is >= the exact optimum, and differs from the plan's by at most 2 * marginal error * max C.
        SplittableRandom rng = new SplittableRandom(4);
        double[] regs = {0.1, 0.03, 0.01, 0.003, 0.001};
        SinkhornOptions options = SinkhornOptions.defaults().withMaxIterations(50_000);
        for (int n = 4; n <= 7; n++) {
            DenseMatrix c = OtTestData.randomCost(n, n, rng);
            double exact = bruteForceOptimum(c);
            double[] w = CostMatrices.uniform(n);
            double[] errors = new double[regs.length];
            double[] slack = new double[regs.length];
            for (int k = 0; k < regs.length; k++) {
                Coupling r = Sinkhorn.solve(w, w, c, regs[k], options);
                assertThat(r.plan().firstNonFinite()).isNull();
                assertThat(r.marginalError()).as("n=%d reg=%s", n, regs[k]).isLessThan(1e-4);
                double rounded = cost(round(r.plan(), w, w), c);
                assertThat(rounded).isGreaterThanOrEqualTo(exact - 1e-12);
                errors[k] = rounded - exact;
                slack[k] = 2 * r.marginalError();
            }
            for (int k = 1; k < regs.length; k++) {
                assertThat(errors[k]).as("n=%d: error at reg %s vs %s", n, regs[k], regs[k - 1])
                        .isLessThanOrEqualTo(errors[k - 1] + slack[k] + slack[k - 1] + 1e-12);
            }
            assertThat(errors[regs.length - 1] / exact).as("n=%d relative error at reg 1e-3", n).isLessThan(1e-3);
            assertThat(errors[regs.length - 1]).isLessThan(errors[0] / 10);
        }
    }

    /** Altschuler-Weed-Rigollet rounding of an approximate coupling onto the couplings of a and b. */
    static DenseMatrix round(DenseMatrix p, double[] a, double[] b) {
        DenseMatrix f = p.copy();
        double[] r = OtTestData.rowSums(f);
        for (int i = 0; i < f.rows(); i++) {
            double x = r[i] > a[i] ? a[i] / r[i] : 1.0;
            for (int j = 0; j < f.cols(); j++) {
                f.set(i, j, f.get(i, j) * x);
            }
        }
        double[] cs = OtTestData.colSums(f);
        for (int j = 0; j < f.cols(); j++) {
            double y = cs[j] > b[j] ? b[j] / cs[j] : 1.0;
            for (int i = 0; i < f.rows(); i++) {
                f.set(i, j, f.get(i, j) * y);
            }
        }
        double[] er = OtTestData.rowSums(f);
        double[] ec = OtTestData.colSums(f);
        double deficit = 0;
        for (int i = 0; i < er.length; i++) {
            er[i] = a[i] - er[i];
            deficit += er[i];
        }
        for (int j = 0; j < ec.length; j++) {
            ec[j] = b[j] - ec[j];
        }
        if (deficit > 0) {
            for (int i = 0; i < er.length; i++) {
                for (int j = 0; j < ec.length; j++) {
                    f.add(i, j, er[i] * ec[j] / deficit);
                }
            }
        }
        return f;
    }

    static double cost(DenseMatrix p, DenseMatrix c) {
        double s = 0;
        for (int k = 0; k < p.data().length; k++) {
            s += p.data()[k] * c.data()[k];
        }
        return s;
    }

    /** For uniform weights on an n x n problem the optimum is a permutation divided by n (Birkhoff). */
    static double bruteForceOptimum(DenseMatrix c) {
        int n = c.rows();
        int[] perm = new int[n];
        for (int i = 0; i < n; i++) {
            perm[i] = i;
        }
        double best = Double.POSITIVE_INFINITY;
        do {
            double s = 0;
            for (int i = 0; i < n; i++) {
                s += c.get(i, perm[i]);
            }
            best = Math.min(best, s);
        } while (nextPermutation(perm));
        return best / n;
    }

    private static boolean nextPermutation(int[] p) {
        int i = p.length - 2;
        while (i >= 0 && p[i] >= p[i + 1]) {
            i--;
        }
        if (i < 0) {
            return false;
        }
        int j = p.length - 1;
        while (p[j] <= p[i]) {
            j--;
        }
        int t = p[i];
        p[i] = p[j];
        p[j] = t;
        for (int l = i + 1, r = p.length - 1; l < r; l++, r--) {
            t = p[l];
            p[l] = p[r];
            p[r] = t;
        }
        return true;
    }

    @Test
    void smallRegularisationStaysFiniteAndConvergesOnClusteredData() {
        // n = 200 points in 4 tight clusters of R^5; the target's clusters have other sizes than the source's, so
        // mass must cross between clusters, where the kernel exp(-C/reg) underflows to exactly 0 at reg 1e-3
        int n = 200;
        int d = 5;
        SplittableRandom rng = new SplittableRandom(7);
        double[][] centres = new double[4][d];
        for (double[] centre : centres) {
            for (int q = 0; q < d; q++) {
                centre[q] = rng.nextGaussian();
            }
        }
        DenseMatrix xs = DenseMatrix.zeros(n, d);
        DenseMatrix xt = DenseMatrix.zeros(n, d);
        for (int i = 0; i < n; i++) {
            int cs = i % 4;
            int ct = i % 5 == 4 ? 0 : i % 5;
            for (int q = 0; q < d; q++) {
                xs.set(i, q, centres[cs][q] + 0.03 * rng.nextGaussian());
                xt.set(i, q, centres[ct][q] + 0.2 + 0.03 * rng.nextGaussian());
            }
        }
        DenseMatrix c = OtTestData.normalisedSquaredEuclidean(xs, xt);
        double[] w = CostMatrices.uniform(n);
        Coupling r = Sinkhorn.solve(w, w, c, 1e-3, SinkhornOptions.defaults().withMaxIterations(20_000));
        assertThat(r.plan().firstNonFinite()).isNull();
        assertThat(r.converged()).isTrue();
        assertThat(r.marginalError()).isLessThanOrEqualTo(1e-9);
        assertThat(OtTestData.maxAbsDiff(OtTestData.colSums(r.plan()), w)).isLessThan(1e-9);
    }

    @Test
    void smallRegularisationStaysFiniteOnGaussianData() {
        // 64-dimensional Gaussian clouds: at reg 1e-3 Sinkhorn needs far more sweeps than this test can afford
        // (the error decays like 1/k), but every iterate must stay finite and the error must keep falling
        SplittableRandom rng = new SplittableRandom(8);
        DenseMatrix c = OtTestData.normalisedSquaredEuclidean(OtTestData.gaussian(200, 64, 0, rng),
                OtTestData.gaussian(200, 64, 0.3, rng));
        double[] w = CostMatrices.uniform(200);
        double previous = Double.POSITIVE_INFINITY;
        for (int iterations : new int[] {10, 100, 1000}) {
            Coupling r = Sinkhorn.solve(w, w, c, 1e-3, SinkhornOptions.defaults().withMaxIterations(iterations));
            assertThat(r.plan().firstNonFinite()).isNull();
            assertThat(Double.isFinite(r.transportCost())).isTrue();
            assertThat(r.marginalError()).isLessThan(previous);
            previous = r.marginalError();
        }
        assertThat(previous).isLessThan(1e-3);
    }

    @Test
    void extremeWeightsUseTheLogDomainFallbackAndStayExact() {
        // weights down to 1e-300 and costs up to 100 at reg 0.01 make scaled products under- or overflow; such a
        // half-step is redone exactly in the log domain, and the sequence stays the log-domain Sinkhorn sequence
        SplittableRandom q = new SplittableRandom(22);
        int n = 3 + q.nextInt(6);
        int m = 3 + q.nextInt(6);
        double[] a = extremeWeights(n, q);
        double[] b = extremeWeights(m, q);
        DenseMatrix c = DenseMatrix.zeros(n, m);
        for (int k = 0; k < n * m; k++) {
            c.data()[k] = 100 * q.nextDouble();
        }
        long before = Sinkhorn.LOG_STEP_FALLBACKS.sum();
        SinkhornOptions o = SinkhornOptions.defaults().withMaxIterations(5000);
        Coupling s = Sinkhorn.solve(a, b, c, 1e-2, o);
        assertThat(Sinkhorn.LOG_STEP_FALLBACKS.sum()).isGreaterThan(before);
        Coupling l = Sinkhorn.solve(a, b, c, 1e-2, o.withLogDomain(true));
        assertThat(s.plan().firstNonFinite()).isNull();
        assertThat(s.converged()).isTrue();
        assertThat(s.iterations()).isEqualTo(l.iterations());
        assertThat(s.plan().minus(l.plan()).maxAbs()).isLessThan(1e-12);
    }

    private static double[] extremeWeights(int n, SplittableRandom q) {
        double[] w = new double[n];
        double s = 0;
        for (int i = 0; i < n; i++) {
            w[i] = Math.pow(10, -300 * Math.pow(q.nextDouble(), 4));
            s += w[i];
        }
        for (int i = 0; i < n; i++) {
            w[i] /= s;
        }
        return w;
    }

    @Test
    void infiniteCostsGetExactlyZeroMass() {
        SplittableRandom rng = new SplittableRandom(10);
        int n = 12;
        DenseMatrix c = OtTestData.randomCost(n, n, rng);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if ((i + 2 * j) % 3 == 0) {
                    c.set(i, j, Double.POSITIVE_INFINITY); // a third of the entries, never a whole row or column
                }
            }
        }
        double[] w = CostMatrices.uniform(n);
        for (boolean log : new boolean[] {false, true}) {
            Coupling r = Sinkhorn.solve(w, w, c, 0.05, SinkhornOptions.defaults().withLogDomain(log));
            assertThat(r.converged()).isTrue();
            for (int k = 0; k < n * n; k++) {
                if (c.data()[k] == Double.POSITIVE_INFINITY) {
                    assertThat(r.plan().data()[k]).isEqualTo(0.0);
                }
            }
            assertThat(Double.isFinite(r.transportCost())).isTrue();
        }
    }

    @Test
    void labelMaskPutsZeroMassAcrossLabels() {
        SplittableRandom rng = new SplittableRandom(11);
        int n = 30;
        int[] ls = new int[n];
        int[] lt = new int[n];
        for (int i = 0; i < n; i++) {
            ls[i] = i % 3;
            lt[i] = i % 2 == 0 ? -1 : (i / 2) % 3; // half the target unlabelled
        }
        DenseMatrix c = OtTestData.normalisedSquaredEuclidean(OtTestData.gaussian(n, 4, 0, rng),
                OtTestData.gaussian(n, 4, 1, rng));
        DenseMatrix masked = CostMatrices.maskDifferentLabels(c, ls, lt);
        double[] w = CostMatrices.uniform(n);
        Coupling r = Sinkhorn.solve(w, w, masked, 0.05, SinkhornOptions.defaults().withMaxIterations(20_000));
        assertThat(r.converged()).isTrue();
        double cost = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if (lt[j] >= 0 && lt[j] != ls[i]) {
                    assertThat(r.plan().get(i, j)).isEqualTo(0.0);
                } else {
                    cost += r.plan().get(i, j) * c.get(i, j);
                }
            }
        }
        assertThat(r.transportCost()).isCloseTo(cost, org.assertj.core.api.Assertions.within(1e-12));
    }

    @Test
    void zeroWeightsGiveZeroRowsAndColumns() {
        SplittableRandom rng = new SplittableRandom(12);
        DenseMatrix c = OtTestData.randomCost(4, 3, rng);
        c.set(0, 0, Double.POSITIVE_INFINITY);
        c.set(0, 1, Double.POSITIVE_INFINITY);
        c.set(0, 2, Double.POSITIVE_INFINITY); // all-infinite, but the row has weight 0
        double[] a = {0.0, 0.5, 0.25, 0.25};
        double[] b = {0.5, 0.0, 0.5};
        Coupling r = Sinkhorn.solve(a, b, c, 0.1, SinkhornOptions.defaults());
        assertThat(r.converged()).isTrue();
        assertThat(r.plan().rows()).isEqualTo(4);
        assertThat(r.plan().row(0)).containsExactly(0.0, 0.0, 0.0);
        assertThat(r.plan().columnCopy(1)).containsExactly(0.0, 0.0, 0.0, 0.0);
        assertThat(OtTestData.maxAbsDiff(OtTestData.colSums(r.plan()), b)).isLessThan(1e-9);
    }

    @Test
    void badInputsAreRejected() {
        DenseMatrix c = DenseMatrix.fromRows(new double[][] {{0, 1}, {1, 0}});
        double[] w = {0.5, 0.5};
        SinkhornOptions o = SinkhornOptions.defaults();
        assertThatThrownBy(() -> Sinkhorn.solve(new double[] {-0.5, 1.5}, w, c, 0.1, o))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("non-negative");
        assertThatThrownBy(() -> Sinkhorn.solve(new double[] {Double.NaN, 0.5}, w, c, 0.1, o))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Sinkhorn.solve(new double[] {0.2, 0.3, 0.5}, w, c, 0.1, o))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("2x2");
        assertThatThrownBy(() -> Sinkhorn.solve(w, w, c, 0.0, o)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Sinkhorn.solve(w, w, c, -1.0, o)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Sinkhorn.solve(w, w, c, Double.NaN, o)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Sinkhorn.solve(new double[] {0.5, 0.6}, w, c, 0.1, o))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("different totals");
        assertThatThrownBy(() -> Sinkhorn.solve(new double[] {0, 0}, new double[] {0, 0}, c, 0.1, o))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("positive total");
        DenseMatrix infRow = DenseMatrix.fromRows(new double[][] {{Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY}, {1, 0}});
        assertThatThrownBy(() -> Sinkhorn.solve(w, w, infRow, 0.1, o))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("source row 0");
        DenseMatrix infCol = DenseMatrix.fromRows(new double[][] {{0, Double.POSITIVE_INFINITY}, {1, Double.POSITIVE_INFINITY}});
        assertThatThrownBy(() -> Sinkhorn.solve(w, w, infCol, 0.1, o))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("target column 1");
        DenseMatrix nan = DenseMatrix.fromRows(new double[][] {{0, Double.NaN}, {1, 0}});
        assertThatThrownBy(() -> Sinkhorn.solve(w, w, nan, 0.1, o)).isInstanceOf(IllegalArgumentException.class);
        DenseMatrix negInf = DenseMatrix.fromRows(new double[][] {{0, Double.NEGATIVE_INFINITY}, {1, 0}});
        assertThatThrownBy(() -> Sinkhorn.solve(w, w, negInf, 0.1, o)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SinkhornOptions(-1, 1e-9, 1e3, false)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> o.withTolerance(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SinkhornOptions(10, 1e-9, 1.0, false)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void negativeCostsAreAccepted() {
        // a debiased noisy cost may be negative; entropic OT is invariant to adding a constant
        SplittableRandom rng = new SplittableRandom(13);
        DenseMatrix c = OtTestData.randomCost(8, 9, rng);
        double[] a = OtTestData.randomWeights(8, rng);
        double[] b = OtTestData.randomWeights(9, rng);
        Coupling shifted = Sinkhorn.solve(a, b, c.map(x -> x - 0.7), 0.05, SinkhornOptions.defaults());
        Coupling plain = Sinkhorn.solve(a, b, c, 0.05, SinkhornOptions.defaults());
        assertThat(shifted.converged()).isTrue();
        assertThat(shifted.plan().minus(plain.plan()).maxAbs()).isLessThan(1e-9);
    }

    @Test
    void optionsDefaultsAndWithers() {
        SinkhornOptions d = SinkhornOptions.defaults();
        assertThat(d.maxIterations()).isEqualTo(1000);
        assertThat(d.tolerance()).isEqualTo(1e-9);
        assertThat(d.absorbThreshold()).isEqualTo(1e3);
        assertThat(d.logDomain()).isFalse();
        assertThat(d.withMaxIterations(5).withTolerance(1e-3).withLogDomain(true))
                .isEqualTo(new SinkhornOptions(5, 1e-3, 1e3, true));
    }
}
