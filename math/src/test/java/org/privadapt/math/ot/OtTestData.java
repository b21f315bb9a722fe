package org.privadapt.math.ot;

import java.util.SplittableRandom;
import org.privadapt.math.DenseMatrix;

/** Seeded synthetic problems shared by the OT tests. */
final class OtTestData {
    private OtTestData() {
    }

    static DenseMatrix gaussian(int n, int d, double shift, SplittableRandom rng) {
        DenseMatrix x = DenseMatrix.zeros(n, d);
        for (int k = 0; k < n * d; k++) {
            x.data()[k] = shift + rng.nextGaussian();
        }
        return x;
    }

    static DenseMatrix randomCost(int n, int m, SplittableRandom rng) {
        DenseMatrix c = DenseMatrix.zeros(n, m);
        for (int k = 0; k < n * m; k++) {
            c.data()[k] = rng.nextDouble();
        }
        return c;
    }

    /** Positive weights summing to 1, spread over two orders of magnitude. */
    static double[] randomWeights(int n, SplittableRandom rng) {
        double[] w = new double[n];
        double s = 0;
        for (int i = 0; i < n; i++) {
            w[i] = Math.exp(2.3 * rng.nextDouble());
            s += w[i];
        }
        for (int i = 0; i < n; i++) {
            w[i] /= s;
        }
        return w;
    }

    static DenseMatrix normalisedSquaredEuclidean(DenseMatrix xs, DenseMatrix xt) {
        DenseMatrix c = CostMatrices.squaredEuclidean(xs, xt);
        c.scaleInPlace(1.0 / c.maxAbs());
        return c;
    }

    static double[] rowSums(DenseMatrix p) {
        double[] r = new double[p.rows()];
        for (int j = 0; j < p.cols(); j++) {
            for (int i = 0; i < p.rows(); i++) {
                r[i] += p.get(i, j);
            }
        }
        return r;
    }

    static double[] colSums(DenseMatrix p) {
        double[] c = new double[p.cols()];
        for (int j = 0; j < p.cols(); j++) {
            for (int i = 0; i < p.rows(); i++) {
                c[j] += p.get(i, j);
            }
        }
        return c;
    }

    static double maxAbsDiff(double[] x, double[] y) {
        double m = 0;
        for (int i = 0; i < x.length; i++) {
            m = Math.max(m, Math.abs(x[i] - y[i]));
        }
        return m;
    }
}
