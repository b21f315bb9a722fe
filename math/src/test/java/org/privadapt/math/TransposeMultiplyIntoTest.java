package org.privadapt.math;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@code transposeMultiplyInto} writes {@code X^T g} over a given matrix (a training step's reused gradient buffer):
 * the values of {@code transposeMultiply} bit for bit, whatever the buffer held, for dense, sparse and row-gathered
 * matrices; a wrong output shape is refused.
 */
class TransposeMultiplyIntoTest {

    private static DenseMatrix random(int rows, int cols, SplittableRandom r, double zeros) {
        double[] a = new double[rows * cols];
        for (int k = 0; k < a.length; k++) {
            a[k] = r.nextDouble() < zeros ? 0.0 : r.nextGaussian();
        }
        return new DenseMatrix(rows, cols, a);
    }

    @Test
    void writesTheProductOverWhateverTheBufferHeld() {
        SplittableRandom r = new SplittableRandom(11);
        DenseMatrix dense = random(300, 130, r, 0.6); // 39,000 entries: RowGather wraps it
        FeatureMatrix[] forms = {dense, CsrMatrix.fromDense(dense), RowGather.of(dense, 10.0 * dense.rows())};
        assertThat(forms[2]).isInstanceOf(RowGather.class);
        DenseMatrix g = random(300, 7, r, 0.2);
        for (FeatureMatrix x : forms) {
            DenseMatrix expected = x.transposeMultiply(g);
            DenseMatrix out = random(130, 7, r, 0.0); // stale values from a previous step
            out.data()[5] = Double.NaN;
            x.transposeMultiplyInto(g, out);
            assertThat(Arrays.equals(out.data(), expected.data())).as(x.getClass().getSimpleName()).isTrue();
        }
    }

    @Test
    void emptyInnerDimensionGivesZerosAndWrongShapesAreRefused() {
        DenseMatrix none = new DenseMatrix(0, 4, new double[0]);
        DenseMatrix out = new DenseMatrix(4, 2, new double[] {1, 2, 3, 4, 5, 6, 7, 8});
        none.transposeMultiplyInto(new DenseMatrix(0, 2, new double[0]), out);
        assertThat(out.data()).containsOnly(0.0);
        DenseMatrix x = new DenseMatrix(3, 4, new double[12]);
        DenseMatrix g = new DenseMatrix(3, 2, new double[6]);
        assertThatThrownBy(() -> x.transposeMultiplyInto(g, new DenseMatrix(4, 3, new double[12])))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CsrMatrix.fromDense(x).transposeMultiplyInto(g, new DenseMatrix(2, 2, new double[4])))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
