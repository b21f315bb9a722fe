package org.privadapt.models.discrepancy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;

class KernelMeanMatchingTest {
    static DenseMatrix gaussian(int n, int d, double shift, double sd, SplittableRandom r) {
        DenseMatrix x = DenseMatrix.zeros(n, d);
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < d; k++) {
                x.set(i, k, sd * r.nextGaussian() + (k == 0 ? shift : 0));
            }
        }
        return x;
    }

    @Test
    void weightsMeetTheConstraintsAndFavourSourceRowsWhereTheTargetLies() {
        SplittableRandom r = new SplittableRandom(1);
        DenseMatrix src = gaussian(200, 2, 0, 1, r);
        DenseMatrix tgt = gaussian(100, 2, 1.5, 0.5, r);
        KernelMeanMatching.Settings s = new KernelMeanMatching.Settings(50, Double.NaN, Double.NaN, 1000, 3);
        KernelMeanMatching.Result res = KernelMeanMatching.weights(src, tgt, s);
        double[] w = res.weights();
        double sum = 0;
        for (double v : w) {
            assertThat(v).isBetween(0.0, 50.0);
            sum += v;
        }
        double eps = (Math.sqrt(200) - 1) / Math.sqrt(200);
        assertThat(Math.abs(sum - 200)).isLessThanOrEqualTo(200 * eps + 1e-6);
        // rows near the target's centre (x_0 > 1) get far more weight on average than rows on the other side (x_0 < 0)
        double near = 0;
        double far = 0;
        int nNear = 0;
        int nFar = 0;
        for (int i = 0; i < 200; i++) {
            if (src.get(i, 0) > 1) {
                near += w[i];
                nNear++;
            } else if (src.get(i, 0) < 0) {
                far += w[i];
                nFar++;
            }
        }
        assertThat(near / nNear).isGreaterThan(5 * (far / nFar));
    }

    @Test
    void theSolutionIsOptimalAgainstFeasiblePerturbations() {
        SplittableRandom r = new SplittableRandom(2);
        DenseMatrix src = gaussian(40, 3, 0, 1, r);
        DenseMatrix tgt = gaussian(30, 3, 0.8, 1, r);
        double width = 1.3;
        KernelMeanMatching.Settings s = new KernelMeanMatching.Settings(5, 0.2, width, 1000, 3);
        double[] beta = KernelMeanMatching.weights(src, tgt, s).weights();
        DenseMatrix k = KernelMeanMatching.kernel(src, src, width);
        DenseMatrix kt = KernelMeanMatching.kernel(src, tgt, width);
        double[] kappa = new double[40];
        for (int i = 0; i < 40; i++) {
            for (int j = 0; j < 30; j++) {
                kappa[i] += 40.0 / 30 * kt.get(i, j);
            }
        }
        double best = KernelMeanMatching.objective(k, kappa, beta);
        SplittableRandom p = new SplittableRandom(9);
        int checked = 0;
        for (int t = 0; t < 2000; t++) {
            double[] b = beta.clone();
            int i = p.nextInt(40);
            int j = p.nextInt(40);
            double step = 0.05 * (p.nextDouble() - 0.5);
            // move mass between two rows (the sum stays) or change one row (the sum moves, within the band if allowed)
            b[i] += step;
            if (t % 2 == 0) {
                b[j] -= step;
            }
            if (KernelMeanMatching.feasible(b, 5, 40, 0.2) && min(b) >= 0 && max(b) <= 5) {
                checked++;
                // ADMM solves to a tolerance: no feasible move gains more than 1e-5 of the objective's size
                assertThat(KernelMeanMatching.objective(k, kappa, b)).isGreaterThanOrEqualTo(best - 1e-5 * Math.abs(best));
            }
        }
        assertThat(checked).isGreaterThan(500);
    }

    @Test
    void aLargeSourceIsMatchedOnASeededSubsample() {
        SplittableRandom r = new SplittableRandom(4);
        DenseMatrix src = gaussian(300, 2, 0, 1, r);
        DenseMatrix tgt = gaussian(50, 2, 0, 1, r);
        KernelMeanMatching.Result a = KernelMeanMatching.weights(src, tgt, new KernelMeanMatching.Settings(1000, Double.NaN, Double.NaN, 100, 7));
        KernelMeanMatching.Result b = KernelMeanMatching.weights(src, tgt, new KernelMeanMatching.Settings(1000, Double.NaN, Double.NaN, 100, 7));
        assertThat(a.matchedRows()).isEqualTo(100);
        assertThat(a.weights()).isEqualTo(b.weights());
        long zero = java.util.Arrays.stream(a.weights()).filter(v -> v == 0).count();
        assertThat(zero).isGreaterThanOrEqualTo(200);
    }

    private static double min(double[] v) {
        return java.util.Arrays.stream(v).min().orElseThrow();
    }

    private static double max(double[] v) {
        return java.util.Arrays.stream(v).max().orElseThrow();
    }
}
