package org.privadapt.math;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class CsrMatrixTest {

    static DenseMatrix sparseRandom(int r, int c, double density, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        DenseMatrix m = DenseMatrix.zeros(r, c);
        for (int i = 0; i < r; i++) {
            for (int j = 0; j < c; j++) {
                if (rng.nextDouble() < density) {
                    m.set(i, j, rng.nextInt(1, 6));
                }
            }
        }
        return m;
    }

    @Test
    void operationsAgreeWithDense() {
        DenseMatrix d = sparseRandom(40, 30, 0.02, 1);
        CsrMatrix s = CsrMatrix.fromDense(d);
        assertThat(s.toDense().minus(d).maxAbs()).isZero();
        DenseMatrix w = BackendsTest.random(30, 3, 2);
        assertThat(s.multiply(w).minus(LinAlg.multiply(d, w)).maxAbs()).isLessThan(1e-12);
        DenseMatrix g = BackendsTest.random(40, 4, 3);
        assertThat(s.transposeMultiply(g).minus(LinAlg.multiplyTransA(d, g)).maxAbs()).isLessThan(1e-12);
        assertThat(s.gram().minus(LinAlg.gram(d)).maxAbs()).isLessThan(1e-12);
        assertThat(s.rowSquaredNorms()).containsExactly(d.rowSquaredNorms());
        int[] rows = {5, 0, 39, 5};
        assertThat(s.selectRows(rows).toDense().minus(d.selectRows(rows)).maxAbs()).isZero();
        int[] cols = {29, 3, 7};
        assertThat(s.selectColumns(cols).toDense().minus(d.selectColumns(cols)).maxAbs()).isZero();
        double[] f = new double[40];
        for (int i = 0; i < 40; i++) {
            f[i] = i * 0.5;
        }
        assertThat(s.scaleRows(f).toDense().minus(d.scaleRows(f)).maxAbs()).isZero();
        assertThat(s.get(3, 4)).isEqualTo(d.get(3, 4));
    }

    @Test
    void denseGramPathUsedForDenserMatrices() {
        DenseMatrix d = sparseRandom(20, 10, 0.5, 4);
        CsrMatrix s = CsrMatrix.fromDense(d);
        assertThat(s.density()).isGreaterThan(0.05);
        assertThat(s.gram().minus(LinAlg.gram(d)).maxAbs()).isLessThan(1e-12);
    }

    @Test
    void invalidColumnOrderIsRejected() {
        assertThatThrownBy(() -> new CsrMatrix(1, 5, new int[] {0, 2}, new int[] {3, 1}, new double[] {1, 2}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("row 0");
    }
}
