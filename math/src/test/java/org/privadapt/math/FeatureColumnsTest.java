package org.privadapt.math;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** {@link FeatureColumns#beside}: the left's columns then the right's, dense only when both are. */
class FeatureColumnsTest {
    static final DenseMatrix LEFT = DenseMatrix.fromRows(new double[][] {{1, 0}, {0, 2}, {3, 4}});
    static final DenseMatrix RIGHT = DenseMatrix.fromRows(new double[][] {{0, 5, 0}, {6, 0, 0}, {0, 0, 0}});

    static void assertSideBySide(FeatureMatrix m) {
        assertThat(m.rows()).isEqualTo(3);
        assertThat(m.cols()).isEqualTo(5);
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 5; j++) {
                assertThat(m.get(i, j)).isEqualTo(j < 2 ? LEFT.get(i, j) : RIGHT.get(i, j - 2));
            }
        }
    }

    @Test
    void denseBesideDenseIsDense() {
        FeatureMatrix m = FeatureColumns.beside(LEFT, RIGHT);
        assertThat(m.isSparse()).isFalse();
        assertSideBySide(m);
    }

    @Test
    void anySparseSideGivesSparseRows() {
        FeatureMatrix m = FeatureColumns.beside(LEFT, CsrMatrix.fromDense(RIGHT));
        assertThat(m.isSparse()).isTrue();
        assertThat(m.storedEntries()).isEqualTo(6);
        assertSideBySide(m);
        assertSideBySide(FeatureColumns.beside(CsrMatrix.fromDense(LEFT), RIGHT));
    }

    @Test
    void anEmptySideIsTheOtherAndRowsMustAgree() {
        assertThat(FeatureColumns.beside(DenseMatrix.zeros(3, 0), RIGHT)).isSameAs(RIGHT);
        assertThat(FeatureColumns.beside(LEFT, DenseMatrix.zeros(3, 0))).isSameAs(LEFT);
        assertThatThrownBy(() -> FeatureColumns.beside(LEFT, DenseMatrix.zeros(2, 1))).isInstanceOf(IllegalArgumentException.class);
    }
}
