package org.privadapt.models.mixture;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;

/**
 * The blocked diagonal M-step kernel ({@link GaussianMixtureEm#diagonalVariances}, issue 32) gives the variances of
 * the plain triple loop bit for bit: same sums in the same order, only the loop nest differs. Checked on shapes that
 * are not multiples of the slab and column blocks, with an empty component, large offsets (where a
 * second-moment formula would cancel) and above and below the parallel threshold.
 */
class DiagonalMStepKernelTest {

    @Test
    void blockedVariancesEqualTheTripleLoopBitForBit() {
        int[][] shapes = {{1, 1, 1}, {7, 3, 2}, {127, 63, 3}, {129, 65, 4}, {600, 70, 5}, {1000, 64, 10}, {3001, 130, 7}};
        SplittableRandom rng = new SplittableRandom(32);
        for (int[] s : shapes) {
            int n = s[0];
            int d = s[1];
            int k = s[2];
            DenseMatrix x = DenseMatrix.zeros(n, d);
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < d; j++) {
                    x.set(i, j, 1e3 * (j % 3) + rng.nextGaussian() * (0.1 + j % 5));
                }
            }
            DenseMatrix resp = DenseMatrix.zeros(n, k);
            for (int i = 0; i < n; i++) {
                double t = 0;
                double[] w = new double[k];
                for (int c = 0; c < k; c++) {
                    w[c] = k > 1 && c == k - 1 ? 0.0 : rng.nextDouble(); // the last component empty when K > 1
                    t += w[c];
                }
                for (int c = 0; c < k; c++) {
                    resp.set(i, c, w[c] / t);
                }
            }
            double[] counts = new double[k];
            for (int c = 0; c < k; c++) {
                for (int i = 0; i < n; i++) {
                    counts[c] += resp.get(i, c);
                }
            }
            DenseMatrix means = DenseMatrix.zeros(k, d);
            for (int c = 0; c < k; c++) {
                for (int j = 0; j < d; j++) {
                    means.set(c, j, 1e3 * (j % 3) + rng.nextGaussian());
                }
            }
            DenseMatrix fast = GaussianMixtureEm.diagonalVariances(x, resp.data(), k, counts, means, 1e-6);
            DenseMatrix ref = GaussianMixtureEm.diagonalVariancesReference(x, resp.data(), k, counts, means, 1e-6);
            assertThat(fast.data()).as("n=%d d=%d K=%d", n, d, k).containsExactly(ref.data());
        }
    }

    @Test
    void emFitWithTheCachedSquaresAndBlockedStepIsUnchanged() {
        // the fit's E-steps use x o x formed once; the model it returns must score rows as a fresh evaluation does
        DenseMatrix x = EmBenchmark.data(2000, 40, 4, 5L);
        GaussianMixtureEm.Result r = GaussianMixtureEm.fit(x, new GaussianMixtureEm.Config(4, CovarianceType.DIAGONAL, 5, 0.0, 1e-6),
                new SplittableRandom(3));
        assertThat(r.meanLogLikelihood()).isEqualTo(r.model().meanLogLikelihood(x));
        assertThat(r.model().posterior(x, GaussianMixture.squares(x)).responsibilities().data())
                .containsExactly(r.model().responsibilities(x).data());
    }
}
