package org.privadapt.models.discrepancy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;

class LabelledDiscrepancyTest {
    static DenseMatrix rows(int n, int d, double shift, SplittableRandom r) {
        DenseMatrix x = DenseMatrix.zeros(n, d);
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < d; k++) {
                x.set(i, k, r.nextGaussian() / Math.sqrt(d) + (k == 0 ? shift : 0));
            }
        }
        return x;
    }

    static double[] targets(int n, SplittableRandom r) {
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            y[i] = 2 * r.nextDouble() - 1;
        }
        return y;
    }

    /** With fewer rows than features the (r + 1)-dimensional route gives the d x d route's supremum. */
    @Test
    void theLowRankRouteEqualsTheFullOneOnWideData() {
        for (long seed = 1; seed <= 20; seed++) {
            SplittableRandom r = new SplittableRandom(seed);
            int d = 40;
            DenseMatrix xp = rows(7, d, 0.3, r);
            DenseMatrix xq = rows(5, d, -0.2, r);
            double[] yp = targets(7, r);
            double[] yq = targets(5, r);
            // identical target rows on both sides in some seeds: A and b nearly cancel, c decides
            double radius = seed % 3 == 0 ? 0.1 : seed % 3 == 1 ? 1 : 10;
            double full = LabelledDiscrepancy.full(xp, yp, xq, yq, radius);
            double low = LabelledDiscrepancy.lowRank(xp, yp, xq, yq, radius);
            assertThat(low).isCloseTo(full, Offset.offset(1e-9 * Math.max(1, full)));
            assertThat(LabelledDiscrepancy.squaredLoss(xp, yp, xq, yq, radius)).isEqualTo(low);
        }
    }

    /** The discrepancy of a sample with itself is 0 on either route. */
    @Test
    void aSampleHasNoDiscrepancyWithItself() {
        SplittableRandom r = new SplittableRandom(3);
        DenseMatrix x = rows(6, 30, 0, r);
        double[] y = targets(6, r);
        assertThat(LabelledDiscrepancy.squaredLoss(x, y, x, y, 2)).isCloseTo(0, Offset.offset(1e-12));
        assertThat(LabelledDiscrepancy.full(x, y, x, y, 2)).isCloseTo(0, Offset.offset(1e-12));
    }
}
