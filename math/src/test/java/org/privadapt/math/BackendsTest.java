package org.privadapt.math;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every backend against naive reference loops, on small random inputs with fixed seeds. */
@Tag("linalg")
class BackendsTest {

    static Stream<LinAlgBackend> backends() {
        List<LinAlgBackend> list = new ArrayList<>();
        LinAlgBackend nat = NetlibBackend.nativeOrNull();
        if (nat != null) {
            list.add(nat);
        }
        list.add(NetlibBackend.pureJava());
        list.add(new EjmlBackend());
        return list.stream();
    }

    static DenseMatrix random(int r, int c, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        DenseMatrix m = DenseMatrix.zeros(r, c);
        for (int k = 0; k < r * c; k++) {
            m.data()[k] = rng.nextDouble(-1, 1);
        }
        return m;
    }

    static DenseMatrix naiveProduct(DenseMatrix a, boolean ta, DenseMatrix b, boolean tb) {
        DenseMatrix a2 = ta ? a.transpose() : a;
        DenseMatrix b2 = tb ? b.transpose() : b;
        DenseMatrix c = DenseMatrix.zeros(a2.rows(), b2.cols());
        for (int i = 0; i < a2.rows(); i++) {
            for (int j = 0; j < b2.cols(); j++) {
                double s = 0;
                for (int k = 0; k < a2.cols(); k++) {
                    s += a2.get(i, k) * b2.get(k, j);
                }
                c.set(i, j, s);
            }
        }
        return c;
    }

    @ParameterizedTest
    @MethodSource("backends")
    void gemmMatchesNaiveProductForAllTranspositions(LinAlgBackend be) {
        int m = 7, n = 5, k = 9;
        for (boolean ta : new boolean[] {false, true}) {
            for (boolean tb : new boolean[] {false, true}) {
                DenseMatrix a = ta ? random(k, m, 1) : random(m, k, 1);
                DenseMatrix b = tb ? random(n, k, 2) : random(k, n, 2);
                DenseMatrix c = random(m, n, 3);
                DenseMatrix expected = naiveProduct(a, ta, b, tb).scale(2.0).plus(c.scale(0.5));
                double[] out = c.data().clone();
                be.gemm(ta, tb, m, n, k, 2.0, a.data(), a.rows(), b.data(), b.rows(), 0.5, out, m);
                assertThat(new DenseMatrix(m, n, out).minus(expected).maxAbs())
                        .as("%s ta=%s tb=%s", be.name(), ta, tb).isLessThan(1e-12);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("backends")
    void syrkFillsUpperTriangleOfGram(LinAlgBackend be) {
        DenseMatrix x = random(11, 6, 4);
        DenseMatrix expected = naiveProduct(x, true, x, false);
        double[] c = new double[36];
        be.syrkTransUpper(6, 11, 1.0, x.data(), 11, 0.0, c, 6);
        for (int j = 0; j < 6; j++) {
            for (int i = 0; i <= j; i++) {
                assertThat(c[i + j * 6]).isCloseTo(expected.get(i, j), within(1e-12));
            }
        }
    }

    @ParameterizedTest
    @MethodSource("backends")
    void syrkOfRowsStoredRowByRowFillsUpperTriangleOfGram(LinAlgBackend be) {
        DenseMatrix x = random(11, 6, 4); // 11 rows of 6
        DenseMatrix expected = naiveProduct(x, true, x, false);
        double[] rowMajor = new double[66];
        for (int i = 0; i < 11; i++) {
            for (int j = 0; j < 6; j++) {
                rowMajor[i * 6 + j] = x.get(i, j);
            }
        }
        double[] c = new double[36];
        java.util.Arrays.fill(c, 7.0); // beta 0: overwritten; the strict lower triangle left as it was
        be.syrkUpper(6, 11, 1.0, rowMajor, 6, 0.0, c, 6);
        for (int j = 0; j < 6; j++) {
            for (int i = 0; i < 6; i++) {
                if (i <= j) {
                    assertThat(c[i + j * 6]).isCloseTo(expected.get(i, j), within(1e-12));
                } else {
                    assertThat(c[i + j * 6]).isEqualTo(7.0);
                }
            }
        }
        LinAlgBackend previous = LinAlg.useBackend(be);
        try {
            assertThat(LinAlg.gramOfRows(rowMajor, 11, 6).minus(LinAlg.gram(x)).maxAbs()).isLessThan(1e-12);
        } finally {
            LinAlg.useBackend(previous);
        }
    }

    @ParameterizedTest
    @MethodSource("backends")
    void gemvBothWays(LinAlgBackend be) {
        DenseMatrix a = random(6, 4, 5);
        double[] x4 = random(4, 1, 6).data();
        double[] x6 = random(6, 1, 7).data();
        double[] y = new double[6];
        be.gemv(false, 6, 4, 1.0, a.data(), 6, x4, 0.0, y);
        DenseMatrix ref = naiveProduct(a, false, new DenseMatrix(4, 1, x4), false);
        for (int i = 0; i < 6; i++) {
            assertThat(y[i]).isCloseTo(ref.get(i, 0), within(1e-12));
        }
        double[] z = new double[4];
        be.gemv(true, 6, 4, 1.0, a.data(), 6, x6, 0.0, z);
        DenseMatrix ref2 = naiveProduct(a, true, new DenseMatrix(6, 1, x6), false);
        for (int j = 0; j < 4; j++) {
            assertThat(z[j]).isCloseTo(ref2.get(j, 0), within(1e-12));
        }
    }

    @ParameterizedTest
    @MethodSource("backends")
    void eigendecompositionIsAccurateAndAscending(LinAlgBackend be) {
        DenseMatrix x = random(30, 12, 8);
        DenseMatrix s = naiveProduct(x, true, x, false).plus(random(12, 12, 9).symmetrized());
        double[] a = s.data().clone();
        double[] w = new double[12];
        be.symmetricEigen(12, a, w, true);
        SymmetricEigen e = new SymmetricEigen(w, new DenseMatrix(12, 12, a));
        assertThat(e.residual(s)).as(be.name()).isLessThan(1e-13);
        for (int i = 1; i < 12; i++) {
            assertThat(w[i]).isGreaterThanOrEqualTo(w[i - 1]);
        }
        DenseMatrix vtv = naiveProduct(e.vectors(), true, e.vectors(), false);
        assertThat(vtv.minus(DenseMatrix.identity(12)).maxAbs()).isLessThan(1e-12);
        double[] smallest = be.smallestEigenvalues(12, s.data().clone(), 2);
        assertThat(smallest[0]).isCloseTo(w[0], within(1e-10));
        assertThat(smallest[1]).isCloseTo(w[1], within(1e-10));
    }

    @ParameterizedTest
    @MethodSource("backends")
    void largestEigenpairsAreThoseOfTheFullDecomposition(LinAlgBackend be) {
        int n = 30;
        DenseMatrix x = random(40, n, 21);
        DenseMatrix s = naiveProduct(x, true, x, false).plus(random(n, n, 22).symmetrized());
        double[] all = new double[n];
        be.symmetricEigen(n, s.data().clone(), all, false);
        for (int k : new int[] {1, 7, n}) {
            double[] w = new double[k];
            double[] z = new double[n * k];
            be.largestEigenpairs(n, s.data().clone(), k, w, z);
            DenseMatrix v = new DenseMatrix(n, k, z);
            for (int t = 0; t < k; t++) {
                assertThat(w[t]).as("%s k=%d value %d", be.name(), k, t).isCloseTo(all[n - k + t], within(1e-10));
            }
            // S v_t = w_t v_t and orthonormal columns: the k leading pairs, whatever the signs
            DenseMatrix residual = naiveProduct(s, false, v, false).minus(v.scaleColumnsCopy(w));
            assertThat(residual.maxAbs()).as("%s k=%d residual", be.name(), k).isLessThan(1e-10);
            assertThat(naiveProduct(v, true, v, false).minus(DenseMatrix.identity(k)).maxAbs())
                    .as("%s k=%d orthonormality", be.name(), k).isLessThan(1e-12);
        }
        assertThatThrownBy(() -> be.largestEigenpairs(n, s.data().clone(), n + 1, new double[n + 1], new double[n * (n + 1)]))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @MethodSource("backends")
    void choleskyFactorsPositiveDefiniteAndRejectsIndefinite(LinAlgBackend be) {
        DenseMatrix x = random(20, 8, 10);
        DenseMatrix s = naiveProduct(x, true, x, false).plusIdentity(0.1);
        double[] a = s.data().clone();
        assertThat(be.choleskyLower(8, a)).isZero();
        DenseMatrix l = new DenseMatrix(8, 8, a);
        for (int j = 1; j < 8; j++) {
            for (int i = 0; i < j; i++) {
                l.set(i, j, 0);
            }
        }
        assertThat(naiveProduct(l, false, l, true).minus(s).maxAbs()).isLessThan(1e-12);
        DenseMatrix indefinite = DenseMatrix.diagonal(new double[] {1, -1, 2});
        assertThat(be.choleskyLower(3, indefinite.data().clone())).isPositive();
    }

    @ParameterizedTest
    @MethodSource("backends")
    void backendsReportThemselves(LinAlgBackend be) {
        assertThat(be.name()).isNotBlank();
        assertThat(be.description()).contains(be.name());
    }

    @org.junit.jupiter.api.Test
    void autoPicksNativeWhenLoadableElseEjml() {
        LinAlgBackend auto = LinAlg.select("auto");
        if (NetlibBackend.nativeOrNull() != null) {
            assertThat(auto.isNative()).isTrue();
        } else {
            assertThat(auto).isInstanceOf(EjmlBackend.class);
        }
    }

    @org.junit.jupiter.api.Test
    void unknownBackendNameIsRejected() {
        assertThatThrownBy(() -> LinAlg.select("cuda")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cuda");
    }
}
