package org.privadapt.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;

class MultiLabelsTest {
    static final List<String> NAMES = List.of("a", "b", "c");

    static MultiLabels sample() {
        return new MultiLabels(new int[][] {{1, 0, 0}, {0, 0, 0}, {1, 1, 0}, {0, 1, 0}}, NAMES);
    }

    @Test
    void holdsTheMatrixAndCountsPositivesPerLabel() {
        MultiLabels y = sample();
        assertThat(y.size()).isEqualTo(4);
        assertThat(y.numLabels()).isEqualTo(3);
        assertThat(y.names()).containsExactly("a", "b", "c");
        assertThat(y.positiveCounts()).containsExactly(2, 2, 0);
        assertThat(y.has(2, 1)).isTrue();
        assertThat(y.has(1, 0)).isFalse();
        assertThat(y.row(2)).containsExactly(1, 1, 0);
        assertThat(y.column(0)).containsExactly(1, 0, 1, 0);
        assertThat(y.matrix()[3]).containsExactly(0, 1, 0);
        assertThat(y.toString()).contains("4 rows").contains("[2, 2, 0]");
    }

    @Test
    void isACopyOfItsInput() {
        int[][] m = {{1, 0, 0}};
        MultiLabels y = new MultiLabels(m, NAMES);
        m[0][0] = 0;
        y.row(0)[0] = 0;
        y.matrix()[0][0] = 0;
        assertThat(y.has(0, 0)).isTrue();
    }

    @Test
    void selectsRowsInTheGivenOrderWithRepeats() {
        MultiLabels s = sample().selectRows(new int[] {3, 0, 0});
        assertThat(s.size()).isEqualTo(3);
        assertThat(s.names()).isEqualTo(NAMES);
        assertThat(s.matrix()).isDeepEqualTo(new int[][] {{0, 1, 0}, {1, 0, 0}, {1, 0, 0}});
        assertThat(s.positiveCounts()).containsExactly(2, 1, 0);
        assertThat(sample().selectRows(new int[0]).size()).isZero();
        assertThatThrownBy(() -> sample().selectRows(new int[] {4})).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void refusesBadValuesShapesAndNames() {
        assertThatThrownBy(() -> new MultiLabels(new int[][] {{1, 2, 0}}, NAMES))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("value 2 at row 0, label 'b'");
        assertThatThrownBy(() -> new MultiLabels(new int[][] {{1, 0}}, NAMES))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("row 0 has 2 values for 3 labels");
        assertThatThrownBy(() -> new MultiLabels(new int[][] {{1}}, List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one label");
        assertThatThrownBy(() -> new MultiLabels(new int[][] {{1, 0}}, List.of("a", "a")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("repeated");
        assertThatThrownBy(() -> new MultiLabels(new int[][] {{1, 0}}, List.of("a", " ")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("blank");
        assertThatThrownBy(() -> sample().has(0, 3)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void aDatasetWithMultiLabelsIsNotSingleLabelClassification() {
        Dataset d = new Dataset("m", new DenseMatrix(4, 1, new double[4]), sample(), null, null);
        assertThat(d.isClassification()).isFalse();
        assertThatThrownBy(d::classLabels).isInstanceOf(DataException.class)
                .hasMessageContaining("does not support multi-label targets");
        Dataset s = d.selectRows(new int[] {2}, "test");
        assertThat(((MultiLabels) s.labels().orElseThrow()).row(0)).containsExactly(1, 1, 0);
    }
}
