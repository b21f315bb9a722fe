package org.privadapt.math.optim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.LinAlg;

class TrustRegionTest {
    /** Random symmetric, entries in [-1, 1] (indefinite for n >= 2 with high probability). */
    static DenseMatrix symmetric(int n, SplittableRandom r) {
        DenseMatrix m = DenseMatrix.fromRowMajor(n, n, vector(n * n, r, 1));
        return m.plus(m.transpose()).scale(0.5);
    }

    static double[] vector(int n, SplittableRandom r, double scale) {
        return r.doubles(n, -scale, scale).toArray();
    }

    static double[] scaled(double[] v, double s) {
        return java.util.Arrays.stream(v).map(x -> s * x).toArray();
    }

    static double norm(double[] v) {
        return Math.sqrt(java.util.Arrays.stream(v).map(x -> x * x).sum());
    }

    /** Stationarity {@code (lambda I - A) w = -b}, {@code lambda >= 0}, {@code lambda I - A} PSD, slackness. */
    static void assertOptimalityConditions(DenseMatrix a, double[] b, double radius, TrustRegion.Solution s) {
        int n = b.length;
        double[] aw = LinAlg.multiply(a, s.w());
        double tol = 1e-8 * (1 + a.maxAbs() * radius + norm(b));
        for (int i = 0; i < n; i++) {
            assertThat(s.lambda() * s.w()[i] - aw[i]).as("stationarity %d", i).isCloseTo(-b[i], within(tol));
        }
        assertThat(s.lambda()).isGreaterThanOrEqualTo(0);
        assertThat(LinAlg.smallestEigenvalue(a.scale(-1).plusIdentity(s.lambda()))).isGreaterThan(-tol);
        assertThat(norm(s.w())).isLessThanOrEqualTo(radius * (1 + 1e-9));
        if (s.lambda() > 0) {
            assertThat(norm(s.w())).isCloseTo(radius, within(1e-9 * radius));
        }
    }

    /** Projected gradient ascent from w (a local method: it can stop at a local, non-global maximum). */
    static double ascent(DenseMatrix a, double[] b, double c, double radius, double[] w) {
        for (int it = 0; it < 2000; it++) {
            double[] aw = LinAlg.multiply(a, w);
            for (int i = 0; i < w.length; i++) {
                w[i] += 0.01 * (2 * aw[i] - 2 * b[i]);
            }
            w = scaled(w, radius / Math.max(radius, norm(w)));
        }
        return TrustRegion.value(a, b, c, w);
    }

    /** The maximum beats 20,000 random points of the ball and sphere and projected-gradient ascent from 30 starts. */
    @Test
    void theMaximumIsGlobalAndSatisfiesTheOptimalityConditions() {
        for (int n : new int[] {1, 2, 5, 20}) {
            for (long seed = 1; seed <= 4; seed++) {
                SplittableRandom r = new SplittableRandom(seed * 31 + n);
                DenseMatrix a = symmetric(n, r);
                double[] b = vector(n, r, 1);
                double c = r.nextDouble();
                double radius = 0.5 + 2 * r.nextDouble();
                TrustRegion.Solution s = TrustRegion.maximize(a, b, c, radius);
                assertThat(s.value()).isCloseTo(TrustRegion.value(a, b, c, s.w()), within(1e-12));
                assertOptimalityConditions(a, b, radius, s);
                double best = Double.NEGATIVE_INFINITY;
                for (int k = 0; k < 20000; k++) { // even k on the sphere, odd k inside the ball
                    double[] w = vector(n, r, 1);
                    w = scaled(w, radius / Math.max(norm(w), 1e-12) * (k % 2 == 0 ? 1 : r.nextDouble()));
                    best = Math.max(best, TrustRegion.value(a, b, c, w));
                }
                for (int start = 0; start < 30; start++) {
                    best = Math.max(best, ascent(a, b, c, radius, vector(n, r, radius / Math.sqrt(n))));
                }
                assertThat(s.value()).as("n %d seed %d", n, seed).isGreaterThanOrEqualTo(best - 1e-9 * Math.max(1, Math.abs(best)));
            }
        }
    }

    @Test
    void aConcaveQuadraticWithItsPeakInsideTheBallHasAnInteriorMaximum() {
        DenseMatrix a = DenseMatrix.fromRows(new double[][] {{-2, 0.5}, {0.5, -1}});
        double[] b = {0.2, -0.1};
        TrustRegion.Solution s = TrustRegion.maximize(a, b, 0.3, 10);
        // grad f = 2 A w - 2 b = 0 -> w = A^{-1} b; A^{-1} = [[-1, -0.5], [-0.5, -2]] / 1.75; f(w) = c - b^T A^{-1} b
        double det = (-2) * (-1) - 0.25;
        double[] expected = {((-1) * 0.2 - 0.5 * (-0.1)) / det, (-0.5 * 0.2 + (-2) * (-0.1)) / det};
        assertThat(s.lambda()).isZero();
        assertThat(s.hardCase()).isFalse();
        assertThat(s.w()[0]).isCloseTo(expected[0], within(1e-12));
        assertThat(s.w()[1]).isCloseTo(expected[1], within(1e-12));
        assertThat(s.value()).isCloseTo(0.3 - (0.2 * expected[0] - 0.1 * expected[1]), within(1e-12));
        assertOptimalityConditions(a, b, 10, s);
    }

    /**
     * A = diag(3, 1, -2), b orthogonal to the top eigenvector e_1 and small: lambda = 3, w_2 = -b_2 / (3 - 1),
     * w_3 = -b_3 / (3 + 2), and w_1 = +-sqrt(R^2 - w_2^2 - w_3^2) fills w to the sphere. Also in a rotated basis.
     */
    @Test
    void theHardCaseIsSolvedExactly() {
        double[] b0 = {0, 0.2, 0.5};
        double expected = 3 * 0.98 + 1 * 0.01 - 2 * 0.01 - 2 * (0.2 * -0.1 + 0.5 * -0.1);
        DenseMatrix a0 = DenseMatrix.diagonal(new double[] {3, 1, -2});
        // Q = Householder reflection I - 2 u u^T / u^T u, a symmetric orthogonal matrix
        double[] u = {1, -2, 0.5}; // u^T u = 5.25
        DenseMatrix q = DenseMatrix.identity(3);
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                q.add(i, j, -2 * u[i] * u[j] / 5.25);
            }
        }
        DenseMatrix a1 = LinAlg.multiply(LinAlg.multiply(q, a0), q).symmetrized();
        double[] b1 = LinAlg.multiply(q, b0);
        for (DenseMatrix a : new DenseMatrix[] {a0, a1}) {
            double[] b = a == a0 ? b0 : b1;
            TrustRegion.Solution s = TrustRegion.maximize(a, b, 0, 1);
            assertThat(s.hardCase()).isTrue();
            assertThat(s.lambda()).isCloseTo(3, within(1e-12));
            assertThat(s.value()).isCloseTo(expected, within(1e-12));
            assertThat(norm(s.w())).isCloseTo(1, within(1e-12));
            assertOptimalityConditions(a, b, 1, s);
        }
        // a tiny component e along e_1 makes it an easy case whose maximum is expected + 2 e sqrt(0.98) + O(e^2): the
        // secular equation is solved without cancellation next to the pole at lambda = 3
        TrustRegion.Solution near = TrustRegion.maximize(a0, new double[] {1e-9, 0.2, 0.5}, 0, 1);
        assertThat(near.hardCase()).isFalse();
        assertThat(near.lambda()).isGreaterThan(3);
        assertThat(near.value()).isCloseTo(expected + 2e-9 * Math.sqrt(0.98), within(1e-14));
        assertOptimalityConditions(a0, new double[] {1e-9, 0.2, 0.5}, 1, near);
    }

    /**
     * f(w) = w1^2 - w2^2 - 2 w1 on the unit disc. Max: (lambda - 1) w1 = -1 with |w1| = 1 gives w = (-1, 0),
     * lambda = 2, f = 3. Min, i.e. max of -f = -w1^2 + w2^2 + 2 w1: for fixed w1 largest at w2^2 = 1 - w1^2, where
     * -f = -2 w1^2 + 2 w1 + 1 peaks at w1 = 1/2 with value 1.5; here -b = (-1, 0) is orthogonal to e_2, the top
     * eigenvector of -A: the hard case, lambda = 1 from (lambda + 1) w1 = 1.
     */
    @Test
    void aTwoDimensionalCaseByHand() {
        DenseMatrix a = DenseMatrix.fromRows(new double[][] {{1, 0}, {0, -1}});
        double[] b = {1, 0};
        TrustRegion.Solution max = TrustRegion.maximize(a, b, 0, 1);
        assertThat(max.value()).isCloseTo(3, within(1e-12));
        assertThat(max.lambda()).isCloseTo(2, within(1e-12));
        assertThat(max.hardCase()).isFalse();
        assertThat(max.w()[0]).isCloseTo(-1, within(1e-9));
        assertThat(max.w()[1]).isCloseTo(0, within(1e-9));
        TrustRegion.Solution min = TrustRegion.maximize(a.scale(-1), new double[] {-1, 0}, 0, 1);
        assertThat(min.value()).isCloseTo(1.5, within(1e-12));
        assertThat(min.lambda()).isCloseTo(1, within(1e-12));
        assertThat(min.hardCase()).isTrue();
        assertThat(min.w()[0]).isCloseTo(0.5, within(1e-12));
        assertThat(Math.abs(min.w()[1])).isCloseTo(Math.sqrt(0.75), within(1e-12));
        // max |f| = max(3, 1.5); with c = -5 the range is [-6.5, -2]
        assertThat(TrustRegion.maxAbs(a, b, 0, 1)).isCloseTo(3, within(1e-12));
        assertThat(TrustRegion.maxAbs(a, b, -5, 1)).isCloseTo(6.5, within(1e-12));
    }

    /** n = 1: f = a w^2 - 2 b w + c on [-R, R]; the maximum is at an end or, for a < 0, at the vertex b / a. */
    @Test
    void oneDimensionalProblemsMatchTheClosedForm() {
        double radius = 1.5;
        for (double a : new double[] {-3, -1, -0.2, 0, 0.5, 2}) {
            for (double b : new double[] {-2, -0.3, 0, 0.1, 1}) {
                double best = Math.max(a * radius * radius - 2 * b * radius, a * radius * radius + 2 * b * radius);
                if (a < 0 && Math.abs(b / a) <= radius) {
                    best = Math.max(best, -b * b / a);
                }
                DenseMatrix m = DenseMatrix.fromRows(new double[][] {{a}});
                TrustRegion.Solution s = TrustRegion.maximize(m, new double[] {b}, 0.7, radius);
                assertThat(s.value()).as("a %s b %s", a, b).isCloseTo(best + 0.7, within(1e-12));
                assertOptimalityConditions(m, new double[] {b}, radius, s);
            }
        }
    }

    /** b = 0: the maximum is c + R^2 max(mu_max(A), 0); A = 0: c + 2 R ||b||, at w = -R b / ||b||. */
    @Test
    void degenerateLinearAndQuadraticParts() {
        SplittableRandom r = new SplittableRandom(5);
        DenseMatrix a = symmetric(6, r);
        double mu = LinAlg.eigenvalues(a)[5];
        assertThat(mu).isPositive();
        TrustRegion.Solution s = TrustRegion.maximize(a, new double[6], 1, 2);
        assertThat(s.value()).isCloseTo(1 + 4 * mu, within(1e-12));
        assertThat(s.hardCase()).isTrue();
        assertOptimalityConditions(a, new double[6], 2, s);
        TrustRegion.Solution neg = TrustRegion.maximize(DenseMatrix.diagonal(new double[] {-1, -2}), new double[2], 1, 2);
        assertThat(neg.value()).isEqualTo(1);
        assertThat(neg.lambda()).isZero();
        double[] b = vector(6, r, 1);
        TrustRegion.Solution lin = TrustRegion.maximize(DenseMatrix.zeros(6, 6), b, 1, 2);
        assertThat(lin.value()).isCloseTo(1 + 4 * norm(b), within(1e-12));
        assertThat(lin.w()[0]).isCloseTo(-2 * b[0] / norm(b), within(1e-12));
        assertThat(TrustRegion.maximize(DenseMatrix.zeros(2, 2), new double[2], 3, 1).value()).isEqualTo(3);
        assertThat(TrustRegion.maximize(a, b, 4, 0).value()).isEqualTo(4);
        assertThat(TrustRegion.maxAbs(a, b, -4, 0)).isEqualTo(4);
    }

    /** f(R u) = u^T (R^2 A) u - 2 (R b)^T u + c, and scaling (A, b, c) by s scales the maximum by s. */
    @Test
    void theSolutionIsScaleInvariant() {
        SplittableRandom r = new SplittableRandom(17);
        DenseMatrix a = symmetric(8, r);
        double[] b = vector(8, r, 0.3);
        double base = TrustRegion.maximize(a, b, 0.5, 1).value();
        for (double s : new double[] {1e-9, 1e-3, 1e4, 1e9}) {
            double[] bs = scaled(b, s);
            assertThat(TrustRegion.maximize(a.scale(s), bs, 0.5 * s, 1).value() / s).isCloseTo(base, within(1e-10));
            // radius R = 1/s with (s^2 A, s b): the same problem as (A, b) on the unit ball
            TrustRegion.Solution big = TrustRegion.maximize(a.scale(s * s), bs, 0.5, 1 / s);
            assertThat(big.value()).as("radius 1/%s", s).isCloseTo(base, within(1e-10));
        }
    }

    /**
     * Newton on 1/||w|| - 1/R takes a handful of steps, even next to the pole of the near-hard case; bisection alone
     * (which the safeguard falls back to, so that a broken Newton step still gives the right answer) takes about 50.
     */
    @Test
    void theSecularEquationConvergesInAFewNewtonSteps() {
        SplittableRandom r = new SplittableRandom(3);
        int most = 0;
        for (int n : new int[] {2, 5, 20, 50}) {
            for (int trial = 0; trial < 50; trial++) {
                DenseMatrix a = symmetric(n, r);
                double[] b = vector(n, r, Math.pow(10, r.nextInt(7) - 4));
                most = Math.max(most, TrustRegion.secularIterations(a, b, Math.pow(10, r.nextInt(5) - 2)));
            }
        }
        assertThat(most).isBetween(1, 20);
        DenseMatrix a0 = DenseMatrix.diagonal(new double[] {3, 1, -2});
        assertThat(TrustRegion.secularIterations(a0, new double[] {1e-9, 0.2, 0.5}, 1)).isBetween(1, 20);
        assertThat(TrustRegion.secularIterations(a0, new double[] {0, 0.2, 0.5}, 1)).isZero(); // the hard case
    }

    /** Against the maximum of |f| on a 1/400 grid of the unit disc plus 100,000 points of its circle. */
    @Test
    void maxAbsMatchesDenseSamplingOfTheDisc() {
        SplittableRandom r = new SplittableRandom(9);
        double step = 1 / 400.0;
        for (int trial = 0; trial < 6; trial++) {
            DenseMatrix a = symmetric(2, r);
            double[] b = vector(2, r, 1);
            double c = r.nextDouble() - 0.5;
            double grid = 0;
            for (int i = -400; i <= 400; i++) {
                for (int j = -400; j <= 400; j++) {
                    double[] w = {i * step, j * step};
                    if (norm(w) <= 1) {
                        grid = Math.max(grid, Math.abs(TrustRegion.value(a, b, c, w)));
                    }
                }
            }
            for (int k = 0; k < 100000; k++) {
                double t = 2 * Math.PI * k / 100000;
                grid = Math.max(grid, Math.abs(TrustRegion.value(a, b, c, new double[] {Math.cos(t), Math.sin(t)})));
            }
            double exact = TrustRegion.maxAbs(a, b, c, 1);
            // every point of the disc is within 3 h of a sampled one, and |grad f| <= 2 ||A||_F + 2 ||b|| on it
            double lipschitz = 2 * a.frobeniusNorm() + 2 * norm(b);
            assertThat(exact).isGreaterThanOrEqualTo(grid - 1e-12).isCloseTo(grid, within(3 * step * lipschitz));
            assertThat(exact - grid).isLessThan(1e-6); // in practice the circle samples get very close
        }
    }

    @Test
    void badInputsAreRefused() {
        double[] two = {1, 1};
        DenseMatrix ok = DenseMatrix.identity(2);
        assertThatThrownBy(() -> TrustRegion.maximize(DenseMatrix.fromRows(new double[][] {{1, 2}, {0, 1}}), two, 0, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("symmetric");
        // the tolerance is relative: a tiny matrix with a relatively large asymmetry is refused too
        assertThatThrownBy(() -> TrustRegion.maxAbs(DenseMatrix.fromRows(new double[][] {{1e-12, 2e-12}, {1e-12, 0}}), two, 0, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("symmetric");
        assertThat(TrustRegion.maximize(DenseMatrix.fromRows(new double[][] {{1, 2}, {2 + 1e-14, 1}}), two, 0, 1)).isNotNull();
        assertThatThrownBy(() -> TrustRegion.maximize(DenseMatrix.zeros(2, 3), two, 0, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("square");
        assertThatThrownBy(() -> TrustRegion.maximize(ok, new double[3], 0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TrustRegion.maximize(DenseMatrix.zeros(0, 0), new double[0], 0, 1))
                .isInstanceOf(IllegalArgumentException.class);
        for (double radius : new double[] {-1, Double.NaN, Double.POSITIVE_INFINITY}) {
            assertThatThrownBy(() -> TrustRegion.maximize(ok, two, 0, radius))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("radius");
        }
        assertThatThrownBy(() -> TrustRegion.maximize(ok, two, Double.NaN, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TrustRegion.maximize(ok, new double[] {1, Double.NEGATIVE_INFINITY}, 0, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("finite");
        assertThatThrownBy(() -> TrustRegion.maxAbs(DenseMatrix.diagonal(new double[] {1, Double.NaN}), two, 0, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("finite");
    }
}
