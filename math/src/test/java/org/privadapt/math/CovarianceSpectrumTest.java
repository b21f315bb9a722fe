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
    void columnsOnWildlyDifferentScalesKeepTheirSmallEigenvaluesOrSayTheRouteIsNotExact() {
        // one column 1e6 times the others: its variance (1e12) dwarfs the rest, which must not be dropped as zero
        DenseMatrix x = rows(15, 40, 0, 9);
        for (int i = 0; i < 15; i++) {
            x.set(i, 3, x.get(i, 3) * 1e6);
        }
        CovarianceSpectrum s = CovarianceSpectrum.of(x);
        assertThat(s.viaGram()).isTrue();
        assertThat(s.rank()).isEqualTo(14); // the 13 eigenvalues of order 1 are kept
        DenseMatrix y = rows(5, 40, 0, 10);
        for (double p : new double[] {-0.5, 0.5}) {
            // neither route resolves the order-1 directions better than the rounding of a 1.6e13 variance (about
            // 4e-3 of lambda = 1): agreement to 1e-2, where dropping them (the earlier cutoff) was 80 % off
            DenseMatrix expected = LinAlg.multiply(y, LinAlg.spdPower(LinAlg.covariance(x).plusIdentity(1.0), p));
            assertThat(relativeError(s.ridgedPowerTimes(y, 1.0, p), expected)).as("p %s", p).isLessThan(1e-2);
        }
        // but a zero eigenvalue cannot be told from one below the rounding level of a 1.6e13 variance (about 0.1 here):
        // exact to 1e-8 only for a ridge far above it, which is when callers may skip the d x d route
        assertThat(s.droppedBound()).isBetween(1e-3, 1.0);
        assertThat(s.exactFor(1.0)).isFalse();
        assertThat(s.exactFor(1e9)).isTrue();
        assertThat(CovarianceSpectrum.of(rows(15, 40, 0, 9)).exactFor(1.0)).isTrue(); // the same without the outlier
    }

    @Test
    void oneRowHasTheZeroCovariance() {
        DenseMatrix x = rows(1, 6, 0, 12);
        CovarianceSpectrum s = CovarianceSpectrum.of(x);
        assertThat(s.rank()).isZero();
        DenseMatrix y = rows(3, 6, 0, 13);
        assertThat(s.ridgedPowerTimes(y, 4.0, 0.5).minus(y.scale(2.0)).maxAbs()).isZero();
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
