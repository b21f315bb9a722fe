package org.privadapt.math.optim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.LinAlg;

class TrustRegionTest {
    static DenseMatrix symmetric(int n, SplittableRandom r) {
        DenseMatrix a = DenseMatrix.zeros(n, n);
        for (int i = 0; i < n; i++) {
            for (int j = i; j < n; j++) {
                double v = r.nextDouble() * 2 - 1;
                a.set(i, j, v);
                a.set(j, i, v);
            }
        }
        return a;
    }

    static double[] vector(int n, SplittableRandom r, double scale) {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = scale * (r.nextDouble() * 2 - 1);
        }
        return v;
    }

    static double norm(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x * x;
        }
        return Math.sqrt(s);
    }

    /** The maximum beats dense random sampling of the ball and sphere and projected-gradient ascent from many starts. */
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
                assertThat(norm(s.w())).isLessThanOrEqualTo(radius * (1 + 1e-9));
                assertThat(s.value()).isCloseTo(TrustRegion.value(a, b, c, s.w()), within(1e-9));
                double best = Double.NEGATIVE_INFINITY;
                for (int k = 0; k < 20000; k++) {
                    double[] w = vector(n, r, 1);
                    double f = radius / Math.max(norm(w), 1e-12) * (k % 2 == 0 ? 1 : r.nextDouble());
                    for (int i = 0; i < n; i++) {
                        w[i] *= f;
                    }
                    best = Math.max(best, TrustRegion.value(a, b, c, w));
                }
                for (int start = 0; start < 30; start++) {
                    best = Math.max(best, ascent(a, b, c, radius, vector(n, r, radius / Math.sqrt(n))));
                }
                assertThat(s.value()).as("n %d seed %d", n, seed).isGreaterThanOrEqualTo(best - 1e-9 * Math.max(1, Math.abs(best)));
                // stationarity (lambda I - A) w = -b and lambda I - A positive semi-definite
                double[] aw = LinAlg.multiply(a, s.w());
                for (int i = 0; i < n; i++) {
                    assertThat(s.lambda() * s.w()[i] - aw[i]).isCloseTo(-b[i], within(1e-7));
                }
                DenseMatrix m = a.copy();
                m.scaleInPlace(-1);
                for (int i = 0; i < n; i++) {
                    m.set(i, i, m.get(i, i) + s.lambda());
                }
                assertThat(LinAlg.smallestEigenvalue(m)).isGreaterThan(-1e-8);
                assertThat(s.lambda()).isGreaterThanOrEqualTo(0);
            }
        }
    }

    static double ascent(DenseMatrix a, double[] b, double c, double radius, double[] w) {
        for (int it = 0; it < 2000; it++) {
            double[] aw = LinAlg.multiply(a, w);
            for (int i = 0; i < w.length; i++) {
                w[i] += 0.01 * (2 * aw[i] - 2 * b[i]);
            }
            double nw = norm(w);
            if (nw > radius) {
                for (int i = 0; i < w.length; i++) {
                    w[i] *= radius / nw;
                }
            }
        }
        return TrustRegion.value(a, b, c, w);
    }

    @Test
    void aConcaveQuadraticWithItsPeakInsideTheBallHasAnInteriorMaximum() {
        DenseMatrix a = DenseMatrix.fromRows(new double[][] {{-2, 0.5}, {0.5, -1}});
        double[] b = {0.2, -0.1};
        TrustRegion.Solution s = TrustRegion.maximize(a, b, 0, 10);
        // grad: 2 A w - 2 b = 0 -> w = A^{-1} b
        double det = (-2) * (-1) - 0.25;
        double[] expected = {((-1) * 0.2 - 0.5 * (-0.1)) / det, (-0.5 * 0.2 + (-2) * (-0.1)) / det};
        assertThat(s.lambda()).isZero();
        assertThat(s.w()[0]).isCloseTo(expected[0], within(1e-12));
        assertThat(s.w()[1]).isCloseTo(expected[1], within(1e-12));
    }

    /** A = diag(3, 1, -2), b orthogonal to the top eigenvector and small: the maximiser leans on e_1 to the sphere. */
    @Test
    void theHardCaseIsSolvedExactly() {
        DenseMatrix a = DenseMatrix.fromRows(new double[][] {{3, 0, 0}, {0, 1, 0}, {0, 0, -2}});
        double[] b = {0, 0.2, 0.5};
        double radius = 1;
        TrustRegion.Solution s = TrustRegion.maximize(a, b, 0, radius);
        // lambda = 3: w_2 = -b_2 / (3 - 1) = -0.1, w_3 = -b_3 / (3 + 2) = -0.1, w_1 = +-sqrt(1 - 0.02)
        assertThat(s.hardCase()).isTrue();
        assertThat(s.lambda()).isCloseTo(3, within(1e-12));
        double expected = 3 * 0.98 + 1 * 0.01 - 2 * 0.01 - 2 * (0.2 * -0.1 + 0.5 * -0.1);
        assertThat(s.value()).isCloseTo(expected, within(1e-12));
        assertThat(norm(s.w())).isCloseTo(radius, within(1e-12));
    }

    /** f(w) = w1^2 - w2^2 - 2 w1 on the unit disc: max at w = (-1, 0) with value 3 (by hand). */
    @Test
    void aTwoDimensionalCaseByHand() {
        DenseMatrix a = DenseMatrix.fromRows(new double[][] {{1, 0}, {0, -1}});
        TrustRegion.Solution s = TrustRegion.maximize(a, new double[] {1, 0}, 0, 1);
        assertThat(s.value()).isCloseTo(3, within(1e-12));
        assertThat(s.w()[0]).isCloseTo(-1, within(1e-9));
        // the minimum: f = (w1 - 1)^2 - 1 - w2^2; on the circle (cos t, sin t) it is 2 cos^2 t - 2 cos t - 1, least at
        // cos t = 1/2: -1.5 (the interior is no lower). So max |f| = 3, and with c = -5 the minimum wins: |-6.5|
        assertThat(TrustRegion.maxAbs(a, new double[] {1, 0}, 0, 1)).isCloseTo(3, within(1e-12));
        assertThat(TrustRegion.maxAbs(a, new double[] {1, 0}, -5, 1)).isCloseTo(6.5, within(1e-9));
    }

    @Test
    void maxAbsMatchesAGridOverTheDisc() {
        SplittableRandom r = new SplittableRandom(9);
        for (int trial = 0; trial < 5; trial++) {
            DenseMatrix a = symmetric(2, r);
            double[] b = vector(2, r, 1);
            double c = r.nextDouble() - 0.5;
            double grid = 0;
            for (int i = -400; i <= 400; i++) {
                for (int j = -400; j <= 400; j++) {
                    double[] w = {i / 400.0, j / 400.0};
                    if (norm(w) <= 1) {
                        grid = Math.max(grid, Math.abs(TrustRegion.value(a, b, c, w)));
                    }
                }
            }
            double exact = TrustRegion.maxAbs(a, b, c, 1);
            assertThat(exact).isGreaterThanOrEqualTo(grid - 1e-12).isCloseTo(grid, within(0.02));
        }
    }

    @Test
    void badInputsAreRefused() {
        DenseMatrix sq = DenseMatrix.fromRows(new double[][] {{1, 2}, {0, 1}});
        assertThatThrownBy(() -> TrustRegion.maximize(sq, new double[] {1, 1}, 0, 1)).hasMessageContaining("symmetric");
        assertThatThrownBy(() -> TrustRegion.maximize(DenseMatrix.zeros(2, 3), new double[] {1, 1}, 0, 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TrustRegion.maximize(DenseMatrix.zeros(2, 2), new double[] {1, 1}, 0, -1))
                .hasMessageContaining("radius");
        assertThat(TrustRegion.maximize(DenseMatrix.zeros(2, 2), new double[] {1, 1}, 4, 0).value()).isEqualTo(4);
    }
}
