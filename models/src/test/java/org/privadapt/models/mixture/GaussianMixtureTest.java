package org.privadapt.models.mixture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.LinAlg;

class GaussianMixtureTest {
    static final double LOG_2PI = Math.log(2 * Math.PI);

    static GaussianMixture diagonal3() {
        return GaussianMixture.diagonal(new double[] {0.2, 0.5, 0.3},
                DenseMatrix.fromRows(new double[][] {{0, 1, -1}, {2, 0, 0.5}, {-3, 1, 1}}),
                DenseMatrix.fromRows(new double[][] {{1, 0.5, 2}, {0.3, 1.5, 1}, {4, 0.1, 0.7}}));
    }

    static GaussianMixture full3() {
        DenseMatrix a = DenseMatrix.fromRows(new double[][] {{2, 0.3, -0.4}, {0.3, 1, 0.2}, {-0.4, 0.2, 0.5}});
        DenseMatrix b = DenseMatrix.fromRows(new double[][] {{0.7, -0.2, 0}, {-0.2, 0.4, 0.1}, {0, 0.1, 3}});
        return GaussianMixture.full(new double[] {0.35, 0.65},
                DenseMatrix.fromRows(new double[][] {{1, -1, 0}, {-0.5, 2, 1}}), List.of(a, b));
    }

    /** log N(z; mu, S) from the textbook formula with an explicit inverse and determinant (Gauss-Jordan). */
    static double directLogNormal(double[] z, double[] mu, double[][] s) {
        int d = z.length;
        double[][] a = new double[d][2 * d];
        for (int i = 0; i < d; i++) {
            System.arraycopy(s[i], 0, a[i], 0, d);
            a[i][d + i] = 1;
        }
        double det = 1;
        for (int c = 0; c < d; c++) {
            int p = c;
            for (int r = c + 1; r < d; r++) {
                if (Math.abs(a[r][c]) > Math.abs(a[p][c])) {
                    p = r;
                }
            }
            if (p != c) {
                double[] t = a[p];
                a[p] = a[c];
                a[c] = t;
                det = -det;
            }
            det *= a[c][c];
            double piv = a[c][c];
            for (int j = 0; j < 2 * d; j++) {
                a[c][j] /= piv;
            }
            for (int r = 0; r < d; r++) {
                if (r != c) {
                    double f = a[r][c];
                    for (int j = 0; j < 2 * d; j++) {
                        a[r][j] -= f * a[c][j];
                    }
                }
            }
        }
        double q = 0;
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                q += (z[i] - mu[i]) * a[i][d + j] * (z[j] - mu[j]);
            }
        }
        return -0.5 * (d * LOG_2PI + Math.log(det) + q);
    }

    static double directLogDensity(GaussianMixture g, double[] z) {
        double p = 0;
        for (int c = 0; c < g.components(); c++) {
            double[][] s = new double[g.dimension()][];
            for (int i = 0; i < g.dimension(); i++) {
                s[i] = g.covariance(c).row(i);
            }
            p += g.weight(c) * Math.exp(directLogNormal(z, g.mean(c), s));
        }
        return Math.log(p);
    }

    static DenseMatrix points(int n, int d, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        DenseMatrix x = DenseMatrix.zeros(n, d);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                x.set(i, j, 3 * r.nextGaussian());
            }
        }
        return x;
    }

    @Test
    void logDensityMatchesTheDirectFormulaForDiagonalAndFull() {
        for (GaussianMixture g : List.of(diagonal3(), full3())) {
            DenseMatrix x = points(25, 3, 7);
            double[] batch = g.logDensities(x);
            for (int i = 0; i < x.rows(); i++) {
                double direct = directLogDensity(g, x.row(i));
                assertThat(g.logDensity(x.row(i))).as("%s row %d", g.covarianceType(), i).isCloseTo(direct, within(1e-9 * (1 + Math.abs(direct))));
                assertThat(batch[i]).isCloseTo(direct, within(1e-9 * (1 + Math.abs(direct))));
            }
        }
    }

    @Test
    void diagonalAndFullAgreeOnTheSameDiagonalCovariances() {
        GaussianMixture diag = diagonal3();
        List<DenseMatrix> cov = List.of(diag.covariance(0), diag.covariance(1), diag.covariance(2));
        GaussianMixture full = GaussianMixture.full(diag.weights(), diag.means(), cov);
        DenseMatrix x = points(40, 3, 3);
        double[] a = diag.logDensities(x);
        double[] b = full.logDensities(x);
        for (int i = 0; i < a.length; i++) {
            assertThat(a[i]).isCloseTo(b[i], within(1e-10 * (1 + Math.abs(a[i]))));
        }
    }

    @Test
    void farAwayPointsHaveFiniteLogDensitiesAndResponsibilities() {
        // in the linear domain every density underflows to 0; the log domain keeps them finite
        GaussianMixture g = full3();
        double[] far = {300, -200, 500};
        assertThat(g.logDensity(far)).isFinite().isLessThan(-1e4);
        DenseMatrix r = g.responsibilities(new DenseMatrix(1, 3, far.clone()));
        assertThat(r.get(0, 0) + r.get(0, 1)).isCloseTo(1.0, within(1e-12));
    }

    @Test
    void responsibilitiesAreTheBayesPosteriorAndSumToOne() {
        for (GaussianMixture g : List.of(diagonal3(), full3())) {
            DenseMatrix x = points(30, 3, 11);
            DenseMatrix r = g.responsibilities(x);
            DenseMatrix lp = g.componentLogDensities(x);
            assertThat(r.rows()).isEqualTo(30);
            assertThat(r.cols()).isEqualTo(g.components());
            for (int i = 0; i < x.rows(); i++) {
                double s = 0;
                double logp = g.logDensity(x.row(i));
                for (int c = 0; c < g.components(); c++) {
                    assertThat(r.get(i, c)).isBetween(0.0, 1.0);
                    assertThat(r.get(i, c)).isCloseTo(g.weight(c) * Math.exp(lp.get(i, c) - logp), within(1e-10));
                    s += r.get(i, c);
                }
                assertThat(s).isCloseTo(1.0, within(1e-12));
            }
        }
    }

    /** Mixture mean sum_k pi_k mu_k and covariance sum_k pi_k (Sigma_k + mu_k mu_k^T) - m m^T. */
    static void assertSampleMomentsMatch(GaussianMixture g, int n, double tol) {
        DenseMatrix s = g.sample(n, new SplittableRandom(42));
        int d = g.dimension();
        double[] m = new double[d];
        DenseMatrix second = DenseMatrix.zeros(d, d);
        for (int c = 0; c < g.components(); c++) {
            double[] mu = g.mean(c);
            DenseMatrix cov = g.covariance(c);
            for (int i = 0; i < d; i++) {
                m[i] += g.weight(c) * mu[i];
                for (int j = 0; j < d; j++) {
                    second.add(i, j, g.weight(c) * (cov.get(i, j) + mu[i] * mu[j]));
                }
            }
        }
        double[] sm = s.columnMeans();
        DenseMatrix scov = LinAlg.covariance(s);
        for (int i = 0; i < d; i++) {
            assertThat(sm[i]).as("mean %d", i).isCloseTo(m[i], within(tol));
            for (int j = 0; j < d; j++) {
                assertThat(scov.get(i, j)).as("cov %d %d", i, j).isCloseTo(second.get(i, j) - m[i] * m[j], within(3 * tol));
            }
        }
    }

    @Test
    void samplingMomentsMatchTheMixture() {
        // n = 200,000 draws: the standard errors are below 0.01 for these scales; tolerance 0.03 on means, 0.09 on covariances
        assertSampleMomentsMatch(diagonal3(), 200_000, 0.03);
        assertSampleMomentsMatch(full3(), 200_000, 0.03);
    }

    @Test
    void samplingPicksComponentsByWeightAndIsReproducible() {
        // well separated: each draw's component is its nearest mean
        GaussianMixture g = GaussianMixture.diagonal(new double[] {0.1, 0.6, 0.3},
                DenseMatrix.fromRows(new double[][] {{-50, 0}, {0, 0}, {50, 0}}),
                DenseMatrix.fromRows(new double[][] {{1, 1}, {1, 1}, {1, 1}}));
        DenseMatrix s = g.sample(50_000, new SplittableRandom(5));
        int[] counts = new int[3];
        for (int i = 0; i < s.rows(); i++) {
            double x = s.get(i, 0);
            counts[x < -25 ? 0 : x > 25 ? 2 : 1]++;
        }
        assertThat(counts[0] / 50_000.0).isCloseTo(0.1, within(0.01));
        assertThat(counts[1] / 50_000.0).isCloseTo(0.6, within(0.01));
        assertThat(counts[2] / 50_000.0).isCloseTo(0.3, within(0.01));
        DenseMatrix again = g.sample(50_000, new SplittableRandom(5));
        assertThat(again.data()).containsExactly(s.data());
    }

    @Test
    void choleskyFactorAndItsInverse() {
        GaussianMixture g = full3();
        for (int c = 0; c < 2; c++) {
            DenseMatrix l = g.choleskyFactor(c);
            assertThat(LinAlg.multiplyTransB(l, l).minus(g.covariance(c)).maxAbs()).isLessThan(1e-12);
            DenseMatrix prod = LinAlg.multiply(l, GaussianMixture.lowerTriangularInverse(l));
            assertThat(prod.minus(DenseMatrix.identity(3)).maxAbs()).isLessThan(1e-12);
        }
        DenseMatrix ld = diagonal3().choleskyFactor(1);
        assertThat(ld.get(1, 1)).isCloseTo(Math.sqrt(1.5), within(1e-15));
    }

    @Test
    void accessorsReturnCopies() {
        GaussianMixture g = full3();
        g.weights()[0] = 5;
        g.means().set(0, 0, 99);
        g.covariance(0).set(0, 0, 99);
        g.mean(0)[0] = 99;
        assertThat(g.weight(0)).isEqualTo(0.35);
        assertThat(g.mean(0)[0]).isEqualTo(1.0);
        assertThat(g.covariance(0).get(0, 0)).isEqualTo(2.0);
        assertThat(g.variances(1)).containsExactly(0.7, 0.4, 3.0);
    }

    @Test
    void validationNamesWhatIsWrong() {
        DenseMatrix means = DenseMatrix.fromRows(new double[][] {{0, 0}, {1, 1}});
        DenseMatrix vars = DenseMatrix.fromRows(new double[][] {{1, 1}, {1, 1}});
        DenseMatrix id = DenseMatrix.identity(2);
        assertThatThrownBy(() -> GaussianMixture.diagonal(new double[] {0.5, 0.6}, means, vars))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sum to 1");
        assertThatThrownBy(() -> GaussianMixture.diagonal(new double[] {1.5, -0.5}, means, vars))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("weight 1 must be non-negative");
        assertThatThrownBy(() -> GaussianMixture.diagonal(new double[] {Double.NaN, 1}, means, vars))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("weight 0");
        assertThatThrownBy(() -> GaussianMixture.diagonal(new double[0], DenseMatrix.zeros(0, 2), DenseMatrix.zeros(0, 2)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one component");
        DenseMatrix nanMean = DenseMatrix.fromRows(new double[][] {{0, 0}, {1, Double.NaN}});
        assertThatThrownBy(() -> GaussianMixture.diagonal(new double[] {0.5, 0.5}, nanMean, vars))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("mean 1 has a non-finite entry");
        DenseMatrix zeroVar = DenseMatrix.fromRows(new double[][] {{1, 1}, {1, 0}});
        assertThatThrownBy(() -> GaussianMixture.diagonal(new double[] {0.5, 0.5}, means, zeroVar))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("variance 1 of component 1");
        assertThatThrownBy(() -> GaussianMixture.diagonal(new double[] {0.5, 0.5}, means, DenseMatrix.zeros(2, 3)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expected 2x2");
        assertThatThrownBy(() -> GaussianMixture.diagonal(new double[] {1.0}, means, vars))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("2 means for 1 components");
        DenseMatrix indefinite = DenseMatrix.fromRows(new double[][] {{1, 2}, {2, 1}});
        assertThatThrownBy(() -> GaussianMixture.full(new double[] {0.5, 0.5}, means, List.of(id, indefinite)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("covariance 1 is not positive definite");
        DenseMatrix singular = DenseMatrix.fromRows(new double[][] {{1, 1}, {1, 1}});
        assertThatThrownBy(() -> GaussianMixture.full(new double[] {0.5, 0.5}, means, List.of(singular, id)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("covariance 0 is not positive definite");
        DenseMatrix asym = DenseMatrix.fromRows(new double[][] {{1, 0.5}, {0.1, 1}});
        assertThatThrownBy(() -> GaussianMixture.full(new double[] {0.5, 0.5}, means, List.of(id, asym)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("covariance 1 is not symmetric");
        DenseMatrix inf = DenseMatrix.fromRows(new double[][] {{1, 0}, {0, Double.POSITIVE_INFINITY}});
        assertThatThrownBy(() -> GaussianMixture.full(new double[] {0.5, 0.5}, means, List.of(id, inf)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("non-finite entry");
        assertThatThrownBy(() -> GaussianMixture.full(new double[] {0.5, 0.5}, means, List.of(id)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1 covariances for 2 components");
        assertThatThrownBy(() -> GaussianMixture.full(new double[] {0.5, 0.5}, means, List.of(id, DenseMatrix.identity(3))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expected 2x2");
        GaussianMixture ok = GaussianMixture.full(new double[] {0.5, 0.5 + 1e-9}, means, List.of(id, id));
        assertThat(ok.weight(0) + ok.weight(1)).isCloseTo(1.0, within(1e-15));
        assertThatThrownBy(() -> ok.logDensity(new double[3])).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("expected 2");
        assertThatThrownBy(() -> ok.sample(-1, new SplittableRandom(1))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aZeroWeightComponentIsNeverSampledAndGetsNoResponsibility() {
        GaussianMixture g = GaussianMixture.diagonal(new double[] {0.0, 1.0},
                DenseMatrix.fromRows(new double[][] {{0, 0}, {10, 10}}), DenseMatrix.fromRows(new double[][] {{1, 1}, {1, 1}}));
        DenseMatrix s = g.sample(1000, new SplittableRandom(1));
        for (int i = 0; i < s.rows(); i++) {
            assertThat(s.get(i, 0)).isGreaterThan(3);
        }
        DenseMatrix r = g.responsibilities(DenseMatrix.fromRows(new double[][] {{0, 0}}));
        assertThat(r.get(0, 0)).isZero();
        assertThat(r.get(0, 1)).isEqualTo(1.0);
    }
}
