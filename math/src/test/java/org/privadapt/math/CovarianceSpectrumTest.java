package org.privadapt.math;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Both routes (covariance for n >= d, Gram for n < d) against the d x d definitions. */
class CovarianceSpectrumTest {

    /** Rows with unequal column scales and a nonzero mean; {@code distinct > 0} repeats only that many rows. */
    static DenseMatrix rows(int n, int d, int distinct, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        DenseMatrix x = DenseMatrix.zeros(n, d);
        for (int i = 0; i < n; i++) {
            int src = distinct > 0 ? i % distinct : i;
            for (int j = 0; j < d; j++) {
                x.set(i, j, src == i ? rng.nextGaussian() * (1 + j % 5) + 2.0 : x.get(src, j));
            }
        }
        return x;
    }

    static double relativeError(DenseMatrix a, DenseMatrix b) {
        return a.minus(b).maxAbs() / Math.max(b.maxAbs(), 1e-300);
    }

    @Test
    void bothRoutesFactorTheCovarianceAndApplyItsRidgedPowers() {
        for (int[] shape : new int[][] {{40, 15}, {15, 40}, {2, 9}}) {
            DenseMatrix x = rows(shape[0], shape[1], 0, 3);
            DenseMatrix before = x.copy();
            CovarianceSpectrum s = CovarianceSpectrum.of(x);
            String what = shape[0] + "x" + shape[1];
            assertThat(s.viaGram()).as(what).isEqualTo(shape[0] < shape[1]);
            assertThat(s.rank()).as(what).isEqualTo(Math.min(shape[1], shape[0] - (s.viaGram() ? 1 : 0)));
            DenseMatrix cov = LinAlg.covariance(x);
            DenseMatrix v = s.vectors();
            DenseMatrix rebuilt = LinAlg.multiplyTransB(v.scaleColumnsCopy(s.values()), v);
            assertThat(relativeError(rebuilt, cov)).as(what + " V diag(w) V^T").isLessThan(1e-10);
            assertThat(LinAlg.multiplyTransA(v, v).minus(DenseMatrix.identity(s.rank())).maxAbs()).as(what).isLessThan(1e-10);
            DenseMatrix y = rows(7, shape[1], 0, 4);
            for (double lambda : new double[] {1.0, 0.05}) {
                for (double p : new double[] {-0.5, 0.5}) {
                    DenseMatrix expected = LinAlg.multiply(y, LinAlg.spdPower(cov.plusIdentity(lambda), p));
                    assertThat(relativeError(s.ridgedPowerTimes(y, lambda, p), expected))
                            .as("%s lambda %s p %s", what, lambda, p).isLessThan(1e-9);
                }
            }
            assertThat(x.minus(before).maxAbs()).isZero();
        }
    }

    @Test
    void theGramRouteDropsTheZeroSpectrumOfRepeatedRows() {
        DenseMatrix x = rows(12, 30, 3, 5); // three distinct rows: rank 2 after centring
        CovarianceSpectrum s = CovarianceSpectrum.of(x);
        assertThat(s.viaGram()).isTrue();
        assertThat(s.rank()).isEqualTo(2);
        DenseMatrix expected = LinAlg.multiply(x, LinAlg.spdPower(LinAlg.covariance(x).plusIdentity(0.5), -0.5));
        assertThat(relativeError(s.ridgedPowerTimes(x, 0.5, -0.5), expected)).isLessThan(1e-9);
    }

    @Test
    void leadingKeepsTheLargestPairsLargestFirst() {
        for (int[] shape : new int[][] {{40, 15}, {15, 40}}) {
            DenseMatrix x = rows(shape[0], shape[1], 0, 6);
            double[] all = CovarianceSpectrum.of(x).values();
            CovarianceSpectrum top = CovarianceSpectrum.leading(x, 3);
            assertThat(top.rank()).isEqualTo(3);
            double[] w = top.values();
            for (int t = 0; t < 3; t++) {
                assertThat(Math.abs(w[t] - all[all.length - 3 + t])).isLessThan(1e-10 * all[all.length - 1]);
            }
            DenseMatrix axes = top.principalAxes();
            DenseMatrix full = LinAlg.eigh(LinAlg.covariance(x)).topVectors(3);
            assertThat(Math.abs(LinAlg.multiplyTransA(axes, full).get(0, 0))).isCloseTo(1.0,
                    org.assertj.core.api.Assertions.within(1e-9));
        }
    }

    @Test
    void badArgumentsAreRefused() {
        DenseMatrix x = rows(10, 4, 0, 7);
        CovarianceSpectrum s = CovarianceSpectrum.of(x);
        assertThatThrownBy(() -> s.ridgedPowerTimes(x, 0.0, 0.5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> s.ridgedPowerTimes(rows(3, 5, 0, 8), 1.0, 0.5))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dimension 5");
        assertThatThrownBy(() -> CovarianceSpectrum.leading(x, 5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CovarianceSpectrum.of(DenseMatrix.zeros(0, 4))).isInstanceOf(IllegalArgumentException.class);
    }
}
