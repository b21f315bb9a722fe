package org.privadapt.models.discrepancy;

import java.util.SplittableRandom;
import org.privadapt.math.DenseMatrix;

/**
 * The labelled discrepancy {@code sup over ||W||_F <= Lambda of |L_a(W) - L_b(W)|} for the softmax cross-entropy of
 * linear classifiers between two labelled samples, by DCA (Tao and An 1998; the notes, 3.5): to maximise
 * L_a - L_b, iterate {@code W_{k+1} = argmin over the ball of L_b(W) - <grad L_a(W_k), W>} (each a convex problem,
 * solved by projected gradient descent with step 2 / r^2), from W = 0 and a few seeded starts, both signs, keeping the
 * best value met.
 *
 * <p><b>A local method</b>: the value is a lower bound of the supremum, and when one row changes it can jump between
 * basins, so the B / n sensitivity that an exact supremum has is not guaranteed (notes 3.6, Note 5). privadapt
 * therefore applies it only to public rows (the source against the target's public validation rows), where no privacy
 * depends on it.
 */
public final class LogisticDiscrepancy {
    private LogisticDiscrepancy() {
    }

    public static double estimate(DenseMatrix xa, int[] ya, DenseMatrix xb, int[] yb, int classes, double radius, long seed) {
        if (xa.cols() != xb.cols() || xa.rows() != ya.length || xb.rows() != yb.length) {
            throw new IllegalArgumentException("shapes do not match");
        }
        double r = Math.sqrt(Math.max(max(xa.rowSquaredNorms()), max(xb.rowSquaredNorms())));
        double step = 2 / Math.max(r * r, 1e-12);
        int dim = xa.cols();
        SplittableRandom rng = new SplittableRandom(seed);
        double best = Math.abs(meanLoss(xa, ya, DenseMatrix.zeros(dim, classes)) - meanLoss(xb, yb, DenseMatrix.zeros(dim, classes)));
        for (int sign = 0; sign < 2; sign++) {
            DenseMatrix[] p = sign == 0 ? new DenseMatrix[] {xa, xb} : new DenseMatrix[] {xb, xa};
            int[][] q = sign == 0 ? new int[][] {ya, yb} : new int[][] {yb, ya};
            for (int start = 0; start < 3; start++) {
                DenseMatrix w = DenseMatrix.zeros(dim, classes);
                if (start > 0) {
                    double[] a = w.data();
                    for (int j = 0; j < a.length; j++) {
                        a[j] = rng.nextGaussian();
                    }
                    NCnvxAdap.project(w, radius * rng.nextDouble());
                }
                for (int outer = 0; outer < 20; outer++) {
                    double[] ga = gradient(p[0], q[0], w, classes);
                    // inner: min L_b(W) - <ga, W> over the ball
                    for (int inner = 0; inner < 50; inner++) {
                        double[] gb = gradient(p[1], q[1], w, classes);
                        double[] a = w.data();
                        for (int j = 0; j < a.length; j++) {
                            a[j] -= step * (gb[j] - ga[j]);
                        }
                        NCnvxAdap.project(w, radius);
                    }
                    best = Math.max(best, Math.abs(meanLoss(p[0], q[0], w) - meanLoss(p[1], q[1], w)));
                }
            }
        }
        return best;
    }

    static double meanLoss(DenseMatrix x, int[] y, DenseMatrix w) {
        double[] l = (double[]) NCnvxAdap.lossesAndResiduals(x, y, w)[0];
        double s = 0;
        for (double v : l) {
            s += v;
        }
        return s / l.length;
    }

    static double[] gradient(DenseMatrix x, int[] y, DenseMatrix w, int classes) {
        DenseMatrix res = (DenseMatrix) NCnvxAdap.lossesAndResiduals(x, y, w)[1];
        res.scaleInPlace(1.0 / x.rows());
        return x.transposeMultiply(res).data().clone();
    }

    private static double max(double[] v) {
        double m = 0;
        for (double x : v) {
            m = Math.max(m, x);
        }
        return m;
    }
}
