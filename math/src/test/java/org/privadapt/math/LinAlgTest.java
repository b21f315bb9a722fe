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
