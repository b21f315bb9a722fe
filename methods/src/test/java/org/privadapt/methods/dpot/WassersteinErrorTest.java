package org.privadapt.methods.dpot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;

class WassersteinErrorTest {
    /** Two clouds of unit rows in 40 dimensions, shifted apart so that W is well away from zero. */
    static DenseMatrix cloud(int n, int k, double shift, long seed) {
        double[][] rows = new double[n][];
        for (int i = 0; i < n; i++) {
            double[] v = DpotTest.rand(k, seed * 1000 + i);
            v[0] += shift;
            double norm = Math.sqrt(Arrays.stream(v).map(x -> x * x).sum());
            for (int j = 0; j < k; j++) {
                v[j] /= norm;
            }
            rows[i] = v;
        }
        return DenseMatrix.fromRows(rows);
    }

    static double mean(double[] a) {
        return Arrays.stream(a).average().orElseThrow();
    }

    /**
     * Without noise the only error is the JL distortion of squared distances, O(1/sqrt(l)) (here l = 20: at most about
     * 0.3 on average); with noise the error grows with the ratio sigma / w, as in paper 002's Figure 2.
     */
    @Test
    void errorIsSmallWithoutNoiseAndGrowsWithIt() {
        DenseMatrix xs = cloud(60, 40, 1.5, 1);
        DenseMatrix xt = cloud(50, 40, -1.5, 2);
        double e0 = mean(WassersteinError.errors(xs, xt, 0.0, 20, 10, 0, 1e-2, 7));
        double e1 = mean(WassersteinError.errors(xs, xt, 0.5, 20, 10, 0, 1e-2, 7));
        double e2 = mean(WassersteinError.errors(xs, xt, 2.0, 20, 10, 0, 1e-2, 7));
        assertThat(e0).isLessThan(0.3);
        assertThat(e1).isGreaterThan(e0);
        assertThat(e2).isGreaterThan(e1);
        double[] mini = WassersteinError.errors(xs, xt, 0.5, 20, 5, 16, 1e-2, 7);
        assertThat(mini).hasSize(5);
        assertThat(Arrays.stream(mini).allMatch(v -> Double.isFinite(v) && v >= 0)).isTrue();
    }

    @Test
    void refusesBadSettings() {
        DenseMatrix xs = cloud(5, 4, 1, 1);
        assertThatThrownBy(() -> WassersteinError.errors(xs, xs, 0.5, 2, 1, 0, 0.0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> WassersteinError.errors(xs, xs, -1, 2, 1, 0, 1e-2, 1)).isInstanceOf(IllegalArgumentException.class);
    }
}
