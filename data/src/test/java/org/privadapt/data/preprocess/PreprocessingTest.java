package org.privadapt.data.preprocess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.privadapt.data.Dataset;
import org.privadapt.data.Provenance;
import org.privadapt.math.CsrMatrix;
import org.privadapt.math.DenseMatrix;

class PreprocessingTest {
    static Dataset data(double[][] rows) {
        return new Dataset("dom", DenseMatrix.fromRows(rows), null, null, Provenance.generated("test"));
    }

    @Test
    void l1MakesRowsSumToOneAndBoundsL2Norm() {
        Dataset d = data(new double[][] {{1, 3, 0}, {0, 0, 0}, {2, 2, 4}});
        Preprocessing p = Preprocessing.parse("l1");
        Dataset out = p.fitAndApply(d);
        assertThat(out.features().row(0)).containsExactly(0.25, 0.75, 0);
        assertThat(out.features().row(1)).containsExactly(0, 0, 0);
        assertThat(p.rowNormBound()).isEqualTo(1.0);
        assertThat(p.dataDependentSteps()).isEmpty();
        Dataset sparse = new Dataset("s", CsrMatrix.fromDense(DenseMatrix.fromRows(new double[][] {{1, 3, 0}})), null, null, null);
        Dataset so = p.fitAndApply(sparse);
        assertThat(so.features().isSparse()).isTrue();
        assertThat(so.features().row(0)).containsExactly(0.25, 0.75, 0);
    }

    @Test
    void zscoreUsesPopulationDeviationAndLeavesConstantColumnsCentred() {
        Dataset d = data(new double[][] {{1, 5}, {3, 5}, {5, 5}});
        Dataset out = Preprocessing.parse("zscore").fitAndApply(d);
        double sd = Math.sqrt(8.0 / 3.0);
        assertThat(out.features().get(0, 0)).isCloseTo(-2 / sd, within(1e-12));
        assertThat(out.features().get(2, 1)).isZero();
        assertThat(out.provenance().steps()).anyMatch(s -> s.contains("fitted on dom, 3 rows"));
        assertThat(Preprocessing.parse("zscore").dataDependentSteps()).containsExactly("zscore");
    }

    @Test
    void minmaxFittedAndWithPublicBounds() {
        Dataset d = data(new double[][] {{1, 10}, {3, 20}, {2, 20}});
        Dataset out = Preprocessing.parse("minmax").fitAndApply(d);
        assertThat(out.features().row(2)).containsExactly(0.5, 1.0);
        Preprocessing pub = Preprocessing.parse("minmax=0:10");
        assertThat(pub.dataDependentSteps()).isEmpty();
        Dataset out2 = pub.fitAndApply(d);
        assertThat(out2.features().row(0)).containsExactly(0.1, 1.0); // 10 -> 1, clamped at the bound
        Dataset sparse = new Dataset("s", CsrMatrix.fromDense(DenseMatrix.fromRows(new double[][] {{0, 4}, {2, 0}})), null, null, null);
        Dataset so = Preprocessing.parse("minmax").fitAndApply(sparse);
        assertThat(so.features().isSparse()).isTrue();
        assertThat(so.features().row(0)).containsExactly(0, 1);
    }

    @Test
    void clipBoundsEveryRowNorm() {
        Dataset d = data(new double[][] {{3, 4}, {0.3, 0.4}, {0, 0}});
        Preprocessing p = Preprocessing.parse("clip=1");
        Dataset out = p.fitAndApply(d);
        double[] sq = out.features().rowSquaredNorms();
        assertThat(Math.sqrt(sq[0])).isCloseTo(1.0, within(1e-12));
        assertThat(out.features().row(1)).containsExactly(0.3, 0.4);
        assertThat(p.rowNormBound()).isEqualTo(1.0);
        assertThat(Preprocessing.parse("clip=2,zscore").rowNormBound()).isNaN();
    }

    @Test
    void centerSubtractsOwnMean() {
        Dataset out = Preprocessing.parse("center").fitAndApply(data(new double[][] {{1, 2}, {3, 6}}));
        assertThat(out.features().row(0)).containsExactly(-1, -2);
    }

    @Test
    void badSpecsAreRejectedWithTheStepNamed() {
        assertThatThrownBy(() -> Preprocessing.parse("l1,whiten")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'whiten'");
        assertThatThrownBy(() -> Preprocessing.parse("clip=-1")).hasMessageContaining("'clip=-1'");
        assertThatThrownBy(() -> Preprocessing.parse("minmax=3:1")).hasMessageContaining("lo < hi");
        assertThat(Preprocessing.parse("none").steps()).isEmpty();
        assertThat(Preprocessing.parse("l1,zscore").spec()).isEqualTo("l1,zscore");
        assertThat(List.of(Preprocessing.parse("l1, clip=0.5").spec())).containsExactly("l1,clip=0.5");
    }

    /** An engine's in-place row scaling gives exactly the values of the steps applied to the rows as a matrix. */
    @Test
    void rowScalingsInPlaceEqualTheStepsOnAMatrixBitForBit() {
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(3);
        double[][] rows = new double[37][];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = new double[23];
            for (int j = 0; j < 23; j++) {
                rows[i][j] = i == 5 ? 0.0 : rnd.nextGaussian() * (1 + i % 4); // a zero row, rows of several norms
            }
        }
        for (String spec : List.of("l2,scale=10", "l1", "clip=2", "l2,clip=0.5,scale=3", "none")) {
            Preprocessing p = Preprocessing.parse(spec);
            assertThat(p.rowScalingsOnly()).as(spec).isTrue();
            DenseMatrix expected = p.fitAndApply(new Dataset("x", DenseMatrix.fromRows(rows), null, null, null)).features().toDense();
            double[][] copy = new double[rows.length][];
            for (int i = 0; i < rows.length; i++) {
                copy[i] = rows[i].clone();
            }
            p.scaleRowsInPlace(copy, copy.length);
            for (int i = 0; i < rows.length; i++) {
                for (int j = 0; j < 23; j++) {
                    assertThat(copy[i][j]).as(spec + " (" + i + ", " + j + ")").isEqualTo(expected.get(i, j));
                }
            }
        }
        assertThat(Preprocessing.parse("l2,minmax=0:1").rowScalingsOnly()).isFalse();
        assertThatThrownBy(() -> Preprocessing.parse("minmax=0:1").scaleRowsInPlace(rows, 1)).isInstanceOf(IllegalStateException.class);
    }
}
