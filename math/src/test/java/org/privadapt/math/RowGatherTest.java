package org.privadapt.math;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Issue 32: gathers from the row-major copy are the column-major matrix's own selectRows, entry for entry. */
class RowGatherTest {

    @Test
    void gathersEqualDenseSelectRows() {
        SplittableRandom rng = new SplittableRandom(32);
        for (int[] s : new int[][] {{300, 110}, {5000, 7}, {129, 1024}, {64, 513}}) {
            int n = s[0];
            int d = s[1];
            DenseMatrix x = DenseMatrix.zeros(n, d);
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < d; j++) {
                    x.set(i, j, rng.nextGaussian());
                }
            }
            FeatureMatrix g = RowGather.of(x, 3.0 * n);
            assertThat(RowGather.of(x, 2.0 * n)).isSameAs(x); // too few gathers to pay for the copy
            assertThat(g).isInstanceOf(RowGather.class);
            assertThat(g.toDense()).isSameAs(x);
            for (int b : new int[] {0, 1, 7, 8, 9, 33, 256}) {
                int[] idx = new int[b];
                for (int k = 0; k < b; k++) {
                    idx[k] = rng.nextInt(n); // repeats allowed, any order
                }
                DenseMatrix got = (DenseMatrix) g.selectRows(idx);
                DenseMatrix want = x.selectRows(idx);
                assertThat(got.rows()).isEqualTo(b);
                assertThat(got.cols()).isEqualTo(d);
                assertThat(java.util.Arrays.equals(got.data(), want.data())).isTrue();
            }
            assertThat(g.row(n - 1)).containsExactly(x.row(n - 1));
            assertThatThrownBy(() -> g.selectRows(new int[] {0, n})).isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> g.selectRows(new int[] {-1})).isInstanceOf(IndexOutOfBoundsException.class);
        }
    }

    @Test
    void sparseAndSmallMatricesAreLeftAsTheyAre() {
        DenseMatrix small = DenseMatrix.zeros(10, 10);
        assertThat(RowGather.of(small, 1e9)).isSameAs(small);
        CsrMatrix sparse = CsrMatrix.fromDense(DenseMatrix.zeros(1000, 100));
        assertThat(RowGather.of(sparse, 1e9)).isSameAs(sparse);
    }
}
