package org.privadapt.math;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DenseMatrixTest {

    @Test
    void layoutIsColumnMajor() {
        DenseMatrix m = DenseMatrix.fromRows(new double[][] {{1, 2, 3}, {4, 5, 6}});
        assertThat(m.data()).containsExactly(1, 4, 2, 5, 3, 6);
        assertThat(m.row(1)).containsExactly(4, 5, 6);
        assertThat(m.transpose().row(2)).containsExactly(3, 6);
        assertThat(DenseMatrix.fromRowMajor(2, 3, new double[] {1, 2, 3, 4, 5, 6}).minus(m).maxAbs()).isZero();
    }

    @Test
    void largeTransposeIsExact() {
        DenseMatrix m = BackendsTest.random(130, 70, 5);
        DenseMatrix t = m.transpose();
        for (int i = 0; i < 130; i += 7) {
            for (int j = 0; j < 70; j += 3) {
                assertThat(t.get(j, i)).isEqualTo(m.get(i, j));
            }
        }
    }

    @Test
    void selectionsStatisticsAndFirstNonFinite() {
        DenseMatrix m = DenseMatrix.fromRows(new double[][] {{1, 2}, {3, 4}, {5, 6}});
        assertThat(m.columnMeans()).containsExactly(3, 4);
        assertThat(m.selectRows(new int[] {2, 0}).row(0)).containsExactly(5, 6);
        assertThat(m.selectColumns(new int[] {1}).columnCopy(0)).containsExactly(2, 4, 6);
        assertThat(m.vstack(m).rows()).isEqualTo(6);
        assertThat(m.firstNonFinite()).isNull();
        m.set(2, 1, Double.NaN);
        assertThat(m.firstNonFinite()).containsExactly(2, 1);
        assertThat(DenseMatrix.fromRows(new double[][] {{3, 4}}).frobeniusNorm()).isEqualTo(5.0);
    }

    @Test
    void badShapesAreRejected() {
        assertThatThrownBy(() -> new DenseMatrix(2, 2, new double[3])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DenseMatrix.fromRows(new double[][] {{1, 2}, {3}}))
                .hasMessageContaining("row 1");
    }
}
