package org.privadapt.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;

class DatasetTest {
    static Dataset ds(String file, double[][] rows) {
        return new Dataset("d", DenseMatrix.fromRows(rows), null, null,
                Provenance.of(new Provenance.SourceFile(file, "0".repeat(64), "test", "")));
    }

    @Test
    void dimensionMismatchNamesTheOtherFile() {
        Dataset a = ds("a.csv", new double[][] {{1, 2}});
        Dataset b = ds("b.csv", new double[][] {{1, 2, 3}});
        assertThatThrownBy(() -> a.requireSameDimension(b)).isInstanceOf(DataException.class)
                .hasMessage("b.csv: domain 'd' has 3 features but domain 'd' (a.csv) has 2");
    }

    @Test
    void emptyDomainIsRejected() {
        Dataset e = new Dataset("empty", DenseMatrix.zeros(0, 3), null, null,
                Provenance.of(new Provenance.SourceFile("e.csv", "", "", "")));
        assertThatThrownBy(e::requireNonEmpty).hasMessage("e.csv: domain 'empty' has no examples");
    }

    @Test
    void labelsAreCodedAndRecoded() {
        ClassLabels y = ClassLabels.fromStrings(List.of("b", "a", "b"));
        assertThat(y.names()).containsExactly("a", "b");
        assertThat(y.codes()).containsExactly(1, 0, 1);
        ClassLabels r = y.recodeTo(List.of("b", "c", "a"));
        assertThat(r.codes()).containsExactly(0, 2, 0);
        assertThatThrownBy(() -> y.recodeTo(List.of("a"))).hasMessageContaining("class 'b'");
        ClassLabels n = ClassLabels.fromValues(new double[] {1, -1, 10, 2});
        assertThat(n.names()).containsExactly("-1", "1", "2", "10");
        assertThat(n.counts()).containsExactly(1, 1, 1, 1);
    }

    @Test
    void selectionsKeepLabelsAndRecordProvenance() {
        Dataset d = new Dataset("d", DenseMatrix.fromRows(new double[][] {{1, 2}, {3, 4}, {5, 6}}),
                ClassLabels.fromStrings(List.of("x", "y", "x")), List.of("f1", "f2"), Provenance.generated("t"));
        Dataset s = d.selectRows(new int[] {2, 1}, "test").selectColumns(new int[] {1}, "test");
        assertThat(s.features().row(0)).containsExactly(6);
        assertThat(s.featureNames()).containsExactly("f2");
        assertThat(s.labels().orElseThrow()).isInstanceOfSatisfying(ClassLabels.class, c -> assertThat(c.codes()).containsExactly(0, 1));
        assertThat(s.provenance().steps()).hasSize(3);
        assertThat(d.withoutLabels().hasLabels()).isFalse();
    }
}
