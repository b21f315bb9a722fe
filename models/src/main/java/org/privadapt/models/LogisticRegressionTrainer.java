package org.privadapt.models;

import org.privadapt.data.ClassLabels;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.math.optim.Lbfgs;

/**
 * Non-private training of {@link LogisticRegression}: minimises the mean cross-entropy plus
 * {@code (l2/2) ||W||_F^2} (bias not penalised) with L-BFGS on the full batch. The objective is strictly convex
 * for l2 > 0, so the result does not depend on the starting point (zeros) beyond the tolerance.
 */
public final class LogisticRegressionTrainer {
    private final double l2;
    private final int maxIterations;

    public LogisticRegressionTrainer(double l2, int maxIterations) {
        if (!(l2 >= 0)) {
            throw new IllegalArgumentException("l2 must be >= 0, got " + l2);
        }
        this.l2 = l2;
        this.maxIterations = maxIterations;
    }

    public static LogisticRegressionTrainer defaults() {
        return new LogisticRegressionTrainer(1e-3, 500);
    }

    public double l2() {
        return l2;
    }

    public LogisticRegression fit(FeatureMatrix x, ClassLabels y) {
        return fit(x, y, null);
    }

    /**
     * Weighted training: the mean cross-entropy becomes {@code sum_i c_i CE_i / sum_i c_i} (weights >= 0 with a
     * positive sum; null for all equal, which is {@link #fit(FeatureMatrix, ClassLabels)}).
     */
    public LogisticRegression fit(FeatureMatrix x, ClassLabels y, double[] weights) {
        int n = x.rows();
        int d = x.cols();
        int k = y.numClasses();
        if (n != y.size()) {
            throw new IllegalArgumentException(n + " rows but " + y.size() + " labels");
        }
        int[] codes = y.codes();
        double[] c = SampleWeights.normalised(weights, n);
        Lbfgs.Objective f = (theta, grad) -> {
            DenseMatrix w = new DenseMatrix(d, k, java.util.Arrays.copyOf(theta, d * k));
            double[] b = java.util.Arrays.copyOfRange(theta, d * k, d * k + k);
            DenseMatrix p = Softmax.inPlace(x.multiply(w).plusRowVector(b));
            double[] pa = p.data();
            double loss = 0;
            if (weights == null) { // the unweighted arithmetic exactly as before weights existed
                for (int i = 0; i < n; i++) {
                    loss -= Math.log(Math.max(pa[i + codes[i] * n], 1e-300));
                    pa[i + codes[i] * n] -= 1.0; // P - Y
                }
                loss /= n;
                p.scaleInPlace(1.0 / n);
            } else {
                for (int i = 0; i < n; i++) {
                    loss -= c[i] * Math.log(Math.max(pa[i + codes[i] * n], 1e-300));
                    pa[i + codes[i] * n] -= 1.0;
                }
                for (int col = 0; col < k; col++) {
                    for (int i = 0; i < n; i++) {
                        pa[i + col * n] *= c[i];
                    }
                }
            }
            DenseMatrix gw = x.transposeMultiply(p);
            double[] gwa = gw.data();
            double reg = 0;
            for (int t = 0; t < d * k; t++) {
                reg += theta[t] * theta[t];
                grad[t] = gwa[t] + l2 * theta[t];
            }
            for (int cls = 0; cls < k; cls++) {
                double s = 0;
                for (int i = 0; i < n; i++) {
                    s += pa[i + cls * n];
                }
                grad[d * k + cls] = s;
            }
            return loss + 0.5 * l2 * reg;
        };
        Lbfgs.Result r = new Lbfgs(10, maxIterations, 1e-6, 1e-10).minimize(f, new double[d * k + k]);
        double[] theta = r.x();
        return new LogisticRegression(new DenseMatrix(d, k, java.util.Arrays.copyOf(theta, d * k)),
                java.util.Arrays.copyOfRange(theta, d * k, d * k + k), y.names());
    }
}
