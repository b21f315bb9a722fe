package org.privadapt.models.mixture;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;

/**
 * Issue 30's audit: DP-EM's clipping scaled a long row to exactly R / norm, so rounding could leave its norm a hair
 * above R, past the bound its sensitivities assume; it now lands inside the bound as the other clippers' rows do.
 */
class ClipInsideTheBoundTest {
    @Test
    void everyClippedRowIsWithinTheBound() {
        SplittableRandom r = new SplittableRandom(30);
        int n = 20_000;
        int d = 7;
        double[][] x = new double[n][d];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                x[i][j] = (r.nextDouble() * 2 - 1) * Math.pow(10, r.nextInt(-3, 6));
            }
        }
        for (double bound : new double[] {0.3, 1.0, 3.0, 7.77}) {
            DenseMatrix c = DpGaussianMixtureEm.clipRows(DenseMatrix.fromRows(x), bound);
            double[] sq = c.rowSquaredNorms();
            for (int i = 0; i < n; i++) {
                assertThat(Math.sqrt(sq[i])).as("row %d, bound %s", i, bound).isLessThanOrEqualTo(bound);
            }
        }
    }
}
