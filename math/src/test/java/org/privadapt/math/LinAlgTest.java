package org.privadapt.math;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The facade on the active backend: matrix functions, covariance, immutability of inputs. */
@Tag("linalg")
class LinAlgTest {

    @Test
    void covarianceMatchesDefinitionWithNMinusOne() {
        DenseMatrix x = BackendsTest.random(25, 4, 11);
        DenseMatrix c = LinAlg.covariance(x);
        double[] mu = x.columnMeans();
        for (int a = 0; a < 4; a++) {
            for (int b = 0; b < 4; b++) {
                double s = 0;
                for (int i = 0; i < 25; i++) {
                    s += (x.get(i, a) - mu[a]) * (x.get(i, b) - mu[b]);
                }
                assertThat(c.get(a, b)).isCloseTo(s / 24, within(1e-13));
            }
        }
        assertThat(c.asymmetry()).isZero();
    }

    @Test
    void squareRootAndInverseSquareRootAreConsistent() {
        DenseMatrix x = BackendsTest.random(40, 10, 12);
        DenseMatrix s = LinAlg.gram(x).plusIdentity(1.0);
        DenseMatrix copy = s.copy();
        DenseMatrix root = LinAlg.spdPower(s, 0.5);
        DenseMatrix invRoot = LinAlg.spdPower(s, -0.5);
        assertThat(LinAlg.multiply(root, root).minus(s).maxAbs()).isLessThan(1e-11);
        DenseMatrix whitened = LinAlg.multiply(LinAlg.multiply(invRoot, s), invRoot);
        assertThat(whitened.minus(DenseMatrix.identity(10)).maxAbs()).isLessThan(1e-11);
        assertThat(s.minus(copy).maxAbs()).as("input untouched").isZero();
    }

    @Test
    void powerOfIndefiniteMatrixIsRefused() {
        DenseMatrix s = DenseMatrix.diagonal(new double[] {2, -1});
        assertThatThrownBy(() -> LinAlg.spdPower(s, 0.5)).isInstanceOf(ArithmeticException.class)
                .hasMessageContaining("not positive semi-definite");
        assertThatThrownBy(() -> LinAlg.cholesky(s)).isInstanceOf(LinAlg.NotPositiveDefiniteException.class);
    }

    @Test
    void choleskyReturnsLowerTriangle() {
        DenseMatrix s = LinAlg.gram(BackendsTest.random(9, 5, 13)).plusIdentity(0.5);
        DenseMatrix l = LinAlg.cholesky(s);
        for (int j = 1; j < 5; j++) {
            for (int i = 0; i < j; i++) {
                assertThat(l.get(i, j)).isZero();
            }
        }
        assertThat(LinAlg.multiplyTransB(l, l).minus(s).maxAbs()).isLessThan(1e-12);
    }

    @Test
    void topVectorsSpanLeadingEigenspace() {
        DenseMatrix s = DenseMatrix.diagonal(new double[] {1, 5, 3, 4});
        DenseMatrix top = LinAlg.eigh(s).topVectors(2);
        assertThat(Math.abs(top.get(1, 0))).isCloseTo(1.0, within(1e-12)); // eigenvalue 5: coordinate 1
        assertThat(Math.abs(top.get(3, 1))).isCloseTo(1.0, within(1e-12)); // eigenvalue 4: coordinate 3
        assertThat(LinAlg.smallestEigenvalue(s)).isCloseTo(1.0, within(1e-12));
        assertThat(LinAlg.eigenvalues(s)).containsExactly(new double[] {1, 3, 4, 5}, within(1e-12));
    }

    @Test
    void leadingEigenvectorsComeLargestFirstAndLeaveTheInputAlone() {
        DenseMatrix s = DenseMatrix.diagonal(new double[] {1, 5, 3, 4});
        DenseMatrix before = s.copy();
        DenseMatrix top = LinAlg.leadingEigenvectors(s, 2);
        assertThat(top.rows()).isEqualTo(4);
        assertThat(top.cols()).isEqualTo(2);
        assertThat(Math.abs(top.get(1, 0))).isCloseTo(1.0, within(1e-12)); // eigenvalue 5: coordinate 1
        assertThat(Math.abs(top.get(3, 1))).isCloseTo(1.0, within(1e-12)); // eigenvalue 4: coordinate 3
        assertThat(s.minus(before).maxAbs()).isZero();
        // a dense case: the same subspace as the full decomposition (projectors agree; the eigengap is wide)
        DenseMatrix x = DenseMatrix.zeros(50, 12);
        java.util.SplittableRandom rng = new java.util.SplittableRandom(5);
        for (int i = 0; i < x.data().length; i++) {
            x.data()[i] = rng.nextGaussian() * (1 + (i / 50) % 12);
        }
        DenseMatrix c = LinAlg.gram(x);
        DenseMatrix partial = LinAlg.leadingEigenvectors(c, 3);
        DenseMatrix full = LinAlg.eigh(c).topVectors(3);
        assertThat(LinAlg.multiplyTransB(partial, partial).minus(LinAlg.multiplyTransB(full, full)).maxAbs())
                .isLessThan(1e-10);
        assertThatThrownBy(() -> LinAlg.leadingEigenvectors(c, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void principalAxesFromTheGramMatrixSpanThoseOfTheCovariance() {
        java.util.SplittableRandom rng = new java.util.SplittableRandom(8);
        // n < d (the Gram route), n > d (the covariance route), and n < d with rank below k (duplicated rows:
        // the Gram route must give way to the covariance)
        for (int[] shape : new int[][] {{25, 60, 0}, {80, 20, 0}, {25, 60, 3}}) {
            int n = shape[0];
            int d = shape[1];
            DenseMatrix x = DenseMatrix.zeros(n, d);
            for (int i = 0; i < n; i++) {
                int src = shape[2] > 0 ? i % shape[2] : i;
                for (int j = 0; j < d; j++) {
                    x.set(i, j, src == i ? rng.nextGaussian() * (1 + j % 7) + 0.5 : x.get(src, j));
                }
            }
            int k = 4;
            DenseMatrix axes = LinAlg.principalAxes(x, k);
            DenseMatrix expected = LinAlg.eigh(LinAlg.covariance(x)).topVectors(k);
            String what = n + "x" + d + " rank-limited=" + (shape[2] > 0);
            assertThat(axes.rows()).as(what).isEqualTo(d);
            assertThat(LinAlg.multiplyTransA(axes, axes).minus(DenseMatrix.identity(k)).maxAbs()).as(what).isLessThan(1e-10);
            if (shape[2] == 0) { // a repeated zero eigenvalue has no unique subspace to compare
                assertThat(LinAlg.multiplyTransB(axes, axes).minus(LinAlg.multiplyTransB(expected, expected)).maxAbs())
                        .as(what).isLessThan(1e-9);
                // with canonical signs the vectors themselves agree, whichever route and solver produced them
                assertThat(axes.minus(LinAlg.withCanonicalSigns(expected)).maxAbs()).as(what).isLessThan(1e-9);
            } else {
                // the leading (rank) directions still agree
                DenseMatrix a2 = axes.selectColumns(new int[] {0, 1});
                DenseMatrix e2 = expected.selectColumns(new int[] {0, 1});
                assertThat(LinAlg.multiplyTransB(a2, a2).minus(LinAlg.multiplyTransB(e2, e2)).maxAbs())
                        .as(what).isLessThan(1e-9);
            }
        }
    }

    @Test
    void aPartialSolverThatFailsToConvergeGivesWayToTheFullDecomposition() {
        LinAlgBackend real = LinAlg.backend();
        LinAlgBackend failing = new LinAlgBackend() {
            public String name() { return "failing-partial"; }
            public String description() { return name(); }
            public boolean isNative() { return real.isNative(); }
            public void gemm(boolean ta, boolean tb, int m, int n, int k, double alpha, double[] a, int lda, double[] b,
                             int ldb, double beta, double[] c, int ldc) {
                real.gemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
            }
            public void syrkTransUpper(int n, int k, double alpha, double[] a, int lda, double beta, double[] c, int ldc) {
                real.syrkTransUpper(n, k, alpha, a, lda, beta, c, ldc);
            }
            public void syrkUpper(int n, int k, double alpha, double[] a, int lda, double beta, double[] c, int ldc) {
                real.syrkUpper(n, k, alpha, a, lda, beta, c, ldc);
            }
            public void gemv(boolean ta, int m, int n, double alpha, double[] a, int lda, double[] x, double beta, double[] y) {
                real.gemv(ta, m, n, alpha, a, lda, x, beta, y);
            }
            public void symmetricEigen(int n, double[] a, double[] w, boolean vectors) { real.symmetricEigen(n, a, w, vectors); }
            public void largestEigenpairs(int n, double[] a, int k, double[] w, double[] z) {
                java.util.Arrays.fill(a, Double.NaN); // as a failed LAPACK call would leave it
                throw new ArithmeticException("dstein failed to converge (simulated)");
            }
            public double[] smallestEigenvalues(int n, double[] a, int count) { return real.smallestEigenvalues(n, a, count); }
            public int choleskyLower(int n, double[] a) { return real.choleskyLower(n, a); }
        };
        DenseMatrix s = DenseMatrix.diagonal(new double[] {1, 5, 3, 4});
        DenseMatrix expected = LinAlg.leadingEigenvectors(s, 2);
        LinAlgBackend previous = LinAlg.useBackend(failing);
        try {
            assertThat(LinAlg.leadingEigenvectors(s, 2).minus(expected).maxAbs()).isZero();
            assertThat(CovarianceSpectrum.leading(DenseMatrix.diagonal(new double[] {1, 2, 3}).plusIdentity(1.0), 1).rank())
                    .isEqualTo(1);
        } finally {
            LinAlg.useBackend(previous);
        }
    }

    @Test
    void canonicalSignsMakeTheLargestEntryOfEachColumnPositive() {
        DenseMatrix v = DenseMatrix.fromRows(new double[][] {{0.6, -0.1, 0.5}, {-0.8, 0.2, -0.5}, {0.0, -0.9, 0.1}});
        DenseMatrix before = v.copy();
        DenseMatrix c = LinAlg.withCanonicalSigns(v);
        assertThat(c.minus(DenseMatrix.fromRows(new double[][] {{-0.6, 0.1, 0.5}, {0.8, -0.2, -0.5}, {0.0, 0.9, 0.1}})).maxAbs())
                .isZero(); // column 3: a tie between 0.5 and -0.5, the first decides (already positive)
        assertThat(v.minus(before).maxAbs()).isZero();
    }

    @Test
    void shapeMismatchIsReported() {
        assertThatThrownBy(() -> LinAlg.multiply(DenseMatrix.zeros(2, 3), DenseMatrix.zeros(2, 3)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("2x3 * 2x3");
    }

    @Test
    void emptyInnerDimensionGivesZeros() {
        DenseMatrix c = LinAlg.multiply(DenseMatrix.zeros(3, 0), DenseMatrix.zeros(0, 2));
        assertThat(c.rows()).isEqualTo(3);
        assertThat(c.maxAbs()).isZero();
    }
}
