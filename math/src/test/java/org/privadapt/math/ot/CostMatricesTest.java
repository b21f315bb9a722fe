package org.privadapt.math.ot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;

class CostMatricesTest {

    @Test
    void squaredEuclideanMatchesNaiveDoubleLoop() {
        SplittableRandom rng = new SplittableRandom(1);
        DenseMatrix xs = OtTestData.gaussian(23, 7, 0.5, rng);
        DenseMatrix xt = OtTestData.gaussian(17, 7, -1.0, rng);
        DenseMatrix xsCopy = xs.copy();
        DenseMatrix c = CostMatrices.squaredEuclidean(xs, xt);
        assertThat(c.rows()).isEqualTo(23);
        assertThat(c.cols()).isEqualTo(17);
        for (int i = 0; i < 23; i++) {
            for (int j = 0; j < 17; j++) {
                double s = 0;
                for (int k = 0; k < 7; k++) {
                    double d = xs.get(i, k) - xt.get(j, k);
                    s += d * d;
                }
                assertThat(c.get(i, j)).isCloseTo(s, within(1e-10));
                assertThat(CostMatrices.euclidean(xs, xt).get(i, j)).isCloseTo(Math.sqrt(s), within(1e-9));
            }
        }
        assertThat(xs.minus(xsCopy).maxAbs()).as("input untouched").isZero();
    }

    @Test
    void euclideanIsClampedButSquaredIsNot() {
        // identical rows with large norms: the GEMM expansion rounds to a tiny value of either sign
        DenseMatrix x = DenseMatrix.fromRows(new double[][] {{1e3 + 0.1, -7e2 + 0.3, 3e2 + 0.7}});
        DenseMatrix sq = CostMatrices.squaredEuclidean(x, x);
        assertThat(Math.abs(sq.get(0, 0))).isLessThan(1e-9);
        assertThat(CostMatrices.euclidean(x, x).get(0, 0)).isGreaterThanOrEqualTo(0.0).isLessThan(1e-4);
        DenseMatrix noisy = DenseMatrix.fromRows(new double[][] {{0.0, 0.0}});
        DenseMatrix y = DenseMatrix.fromRows(new double[][] {{0.0, 0.0}, {3.0, 4.0}});
        assertThat(CostMatrices.squaredEuclidean(noisy, y).row(0)).containsExactly(0.0, 25.0);
        assertThat(CostMatrices.euclidean(noisy, y).row(0)).containsExactly(0.0, 5.0);
    }

    @Test
    void zeroFeaturesAndEmptySamples() {
        assertThat(CostMatrices.squaredEuclidean(DenseMatrix.zeros(3, 0), DenseMatrix.zeros(2, 0)).maxAbs()).isZero();
        assertThat(CostMatrices.squaredEuclidean(DenseMatrix.zeros(0, 4), DenseMatrix.zeros(2, 4)).rows()).isZero();
    }

    @Test
    void maskForbidsOnlyLabelledDifferentPairs() {
        DenseMatrix c = DenseMatrix.fromRows(new double[][] {{1, 2, 3}, {4, 5, 6}});
        DenseMatrix masked = CostMatrices.maskDifferentLabels(c, new int[] {0, 1}, new int[] {0, -1, 1});
        assertThat(masked.row(0)).containsExactly(1, 2, Double.POSITIVE_INFINITY);
        assertThat(masked.row(1)).containsExactly(Double.POSITIVE_INFINITY, 5, 6);
        assertThat(c.get(0, 2)).as("input untouched").isEqualTo(3.0);
        assertThatThrownBy(() -> CostMatrices.maskDifferentLabels(c, new int[] {0}, new int[] {0, 0, 0}))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CostMatrices.maskDifferentLabels(c, new int[] {0, 1}, new int[] {0}))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void uniformAndShapeChecks() {
        assertThat(CostMatrices.uniform(4)).containsExactly(0.25, 0.25, 0.25, 0.25);
        assertThatThrownBy(() -> CostMatrices.uniform(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CostMatrices.squaredEuclidean(DenseMatrix.zeros(2, 3), DenseMatrix.zeros(2, 4)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("features");
    }
}
