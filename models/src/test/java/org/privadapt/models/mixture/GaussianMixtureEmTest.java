package org.privadapt.models.mixture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;

class GaussianMixtureEmTest {
    static final double[][] TRUE_MEANS = {{-4, 0, 1}, {4, 0, -1}, {0, 5, 0}};
    static final double[] TRUE_WEIGHTS = {0.5, 0.3, 0.2};

    /** A well-separated 3-component mixture in R^3 (means at distance >= 6, unit-scale full covariances). */
    static GaussianMixture truth() {
        DenseMatrix a = DenseMatrix.fromRows(new double[][] {{1, 0.3, 0}, {0.3, 0.6, 0.1}, {0, 0.1, 0.8}});
        DenseMatrix b = DenseMatrix.fromRows(new double[][] {{0.5, 0, 0}, {0, 1.2, -0.3}, {0, -0.3, 0.7}});
        DenseMatrix c = DenseMatrix.fromRows(new double[][] {{0.8, -0.2, 0.1}, {-0.2, 0.4, 0}, {0.1, 0, 1}});
        return GaussianMixture.full(TRUE_WEIGHTS, DenseMatrix.fromRows(TRUE_MEANS), List.of(a, b, c));
    }

    /** For each true mean, the nearest fitted component; asserts the matching is one-to-one. */
    static int[] match(GaussianMixture fitted) {
        int[] m = new int[TRUE_MEANS.length];
        boolean[] used = new boolean[fitted.components()];
        for (int t = 0; t < TRUE_MEANS.length; t++) {
            double best = Double.POSITIVE_INFINITY;
            for (int c = 0; c < fitted.components(); c++) {
                double d = dist(fitted.mean(c), TRUE_MEANS[t]);
                if (d < best) {
                    best = d;
                    m[t] = c;
                }
            }
            assertThat(used[m[t]]).as("component %d matched twice", m[t]).isFalse();
            used[m[t]] = true;
        }
        return m;
    }

    static double dist(double[] a, double[] b) {
        double s = 0;
        for (int j = 0; j < a.length; j++) {
            s += (a[j] - b[j]) * (a[j] - b[j]);
        }
        return Math.sqrt(s);
    }

    /** Means within 0.15 (n = 3000: standard errors about 0.03) and weights within 0.03 of the truth. */
    static void assertRecovers(GaussianMixture fitted) {
        int[] m = match(fitted);
        for (int t = 0; t < TRUE_MEANS.length; t++) {
            assertThat(dist(fitted.mean(m[t]), TRUE_MEANS[t])).as("mean %d", t).isLessThan(0.15);
            assertThat(fitted.weight(m[t])).as("weight %d", t).isCloseTo(TRUE_WEIGHTS[t], within(0.03));
        }
    }

    @Test
    void recoversAWellSeparatedThreeComponentMixture() {
        DenseMatrix x = truth().sample(3000, new SplittableRandom(1));
        for (CovarianceType type : CovarianceType.values()) {
            GaussianMixtureEm.Result r = GaussianMixtureEm.fit(x, GaussianMixtureEm.Config.of(3, type), new SplittableRandom(2));
            assertThat(r.converged()).isTrue();
            assertThat(r.iterations()).isBetween(1, 100);
            assertThat(r.meanLogLikelihood()).isCloseTo(r.model().meanLogLikelihood(x), within(1e-12));
            assertRecovers(r.model());
            if (type == CovarianceType.FULL) {
                int[] m = match(r.model());
                DenseMatrix cov = r.model().covariance(m[0]);
                DenseMatrix want = truth().covariance(0);
                assertThat(cov.minus(want).maxAbs()).isLessThan(0.15);
            }
        }
    }

    @Test
    void fullCovariancesFitBetterThanDiagonalOnesOnCorrelatedData() {
        DenseMatrix x = truth().sample(3000, new SplittableRandom(3));
        double full = GaussianMixtureEm.fit(x, GaussianMixtureEm.Config.of(3, CovarianceType.FULL), new SplittableRandom(4))
                .meanLogLikelihood();
        double diag = GaussianMixtureEm.fit(x, GaussianMixtureEm.Config.of(3, CovarianceType.DIAGONAL), new SplittableRandom(4))
                .meanLogLikelihood();
        assertThat(full).isGreaterThan(diag);
        // the true model's likelihood bounds what a good fit reaches, up to sampling error
        assertThat(full).isCloseTo(truth().meanLogLikelihood(x), within(0.05));
    }

    @Test
    void isReproducibleForAGivenSeedAndStopsAtMaxIterations() {
        DenseMatrix x = truth().sample(500, new SplittableRandom(5));
        GaussianMixtureEm.Config c = new GaussianMixtureEm.Config(3, CovarianceType.FULL, 2, 0.0, 1e-6);
        GaussianMixtureEm.Result a = GaussianMixtureEm.fit(x, c, new SplittableRandom(9));
        GaussianMixtureEm.Result b = GaussianMixtureEm.fit(x, c, new SplittableRandom(9));
        assertThat(a.iterations()).isEqualTo(2);
        assertThat(a.converged()).isFalse();
        assertThat(a.model().means().data()).containsExactly(b.model().means().data());
    }

    @Test
    void kMeansPlusPlusPicksDistinctRowsAndHandlesDuplicates() {
        DenseMatrix x = truth().sample(300, new SplittableRandom(6));
        DenseMatrix c = GaussianMixtureEm.kMeansPlusPlus(x, 3, new SplittableRandom(1));
        assertThat(c.rows()).isEqualTo(3);
        for (int a = 0; a < 3; a++) {
            for (int b = a + 1; b < 3; b++) {
                assertThat(dist(c.row(a), c.row(b))).isGreaterThan(0);
            }
        }
        DenseMatrix same = DenseMatrix.fromRows(new double[][] {{1, 1}, {1, 1}, {1, 1}});
        assertThat(GaussianMixtureEm.kMeansPlusPlus(same, 2, new SplittableRandom(1)).row(1)).containsExactly(1, 1);
        // identical rows: the regulariser keeps every covariance positive definite
        GaussianMixtureEm.Result r = GaussianMixtureEm.fit(same, GaussianMixtureEm.Config.of(2, CovarianceType.FULL), new SplittableRandom(1));
        assertThat(r.model().covariance(0).get(0, 0)).isGreaterThan(0);
    }

    @Test
    void configAndInputValidation() {
        assertThatThrownBy(() -> new GaussianMixtureEm.Config(0, CovarianceType.FULL, 10, 1e-3, 1e-6))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("components");
        assertThatThrownBy(() -> new GaussianMixtureEm.Config(2, CovarianceType.FULL, 0, 1e-3, 1e-6))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("iterations");
        assertThatThrownBy(() -> new GaussianMixtureEm.Config(2, CovarianceType.FULL, 10, -1, 1e-6))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tolerance");
        assertThatThrownBy(() -> new GaussianMixtureEm.Config(2, CovarianceType.FULL, 10, 1e-3, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("regulariser");
        DenseMatrix two = DenseMatrix.fromRows(new double[][] {{1, 1}, {2, 2}});
        assertThatThrownBy(() -> GaussianMixtureEm.fit(two, GaussianMixtureEm.Config.of(3, CovarianceType.FULL), new SplittableRandom(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot seed 3");
        DenseMatrix nan = DenseMatrix.fromRows(new double[][] {{1, 1}, {2, Double.NaN}});
        assertThatThrownBy(() -> GaussianMixtureEm.fit(nan, GaussianMixtureEm.Config.of(1, CovarianceType.FULL), new SplittableRandom(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("row 1");
    }
}
