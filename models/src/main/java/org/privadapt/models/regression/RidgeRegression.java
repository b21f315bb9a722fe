package org.privadapt.models.regression;

import org.privadapt.math.DenseMatrix;
import org.privadapt.math.LinAlg;
import org.privadapt.math.SymmetricEigen;

/**
 * Weighted ridge regression with an unpenalised intercept:
 *
 * <pre>
 *   min_{beta, b}  (1 / sum_i c_i) sum_i c_i (y_i - x_i . beta - b)^2 + lambda ||beta||^2
 * </pre>
 *
 * with non-negative row weights c (all 1 for plain ridge). Solved in closed form: with X and y centred at their
 * c-weighted means, beta = (X^T C X / sum c + lambda I)^{-1} X^T C y / sum c, through one eigendecomposition of the
 * d x d weighted Gram matrix, so that a whole path of lambdas costs one decomposition ({@link #path}).
 */
public final class RidgeRegression {
    private RidgeRegression() {
    }

    /** A fitted linear predictor y = x . beta + intercept. */
    public record Model(double[] beta, double intercept, double lambda) {
        public Model {
            beta = beta.clone();
        }

        public double[] predict(DenseMatrix x) {
            if (x.cols() != beta.length) {
                throw new IllegalArgumentException("rows have " + x.cols() + " features, the model " + beta.length);
            }
            double[] p = LinAlg.multiply(x, beta);
            for (int i = 0; i < p.length; i++) {
                p[i] += intercept;
            }
            return p;
        }
    }

    /** Plain ridge (all weights 1). */
    public static Model fit(DenseMatrix x, double[] y, double lambda) {
        return path(x, y, null, new double[] {lambda})[0];
    }

    /** Weighted ridge at one lambda. */
    public static Model fit(DenseMatrix x, double[] y, double[] weights, double lambda) {
        return path(x, y, weights, new double[] {lambda})[0];
    }

    /**
     * The weighted ridge solutions for every lambda in {@code lambdas} (each >= 0; 0 gives the minimum-norm least-squares
     * solution, directions of zero weighted variance get no weight).
     *
     * @param weights row weights c_i >= 0 with a positive sum, or null for all 1
     */
    public static Model[] path(DenseMatrix x, double[] y, double[] weights, double[] lambdas) {
        int n = x.rows();
        int d = x.cols();
        if (y.length != n) {
            throw new IllegalArgumentException(n + " rows but " + y.length + " targets");
        }
        if (n == 0) {
            throw new IllegalArgumentException("no rows to fit");
        }
        double[] c = org.privadapt.models.SampleWeights.normalised(weights, n);
        // weighted means
        double[] mx = LinAlg.multiplyTransA(x, c);
        double my = 0;
        for (int i = 0; i < n; i++) {
            my += c[i] * y[i];
        }
        DenseMatrix centred = x.minusRowVector(mx);
        double[] sqrtC = new double[n];
        double[] ys = new double[n];
        for (int i = 0; i < n; i++) {
            sqrtC[i] = Math.sqrt(c[i]);
            ys[i] = sqrtC[i] * (y[i] - my);
        }
        DenseMatrix xs = centred.scaleRows(sqrtC);
        if (n < d) {
            return dualPath(xs, ys, mx, my, lambdas);
        }
        DenseMatrix g = xs.gram(); // X^T C X (weights normalised)
        double[] rhs = LinAlg.multiplyTransA(xs, ys); // X^T C y
        SymmetricEigen eig = LinAlg.eigh(g);
        DenseMatrix v = eig.vectors();
        double[] proj = LinAlg.multiplyTransA(v, rhs);
        double floor = 1e-12 * Math.max(eig.maxValue(), 0) + 1e-300;
        Model[] out = new Model[lambdas.length];
        for (int k = 0; k < lambdas.length; k++) {
            double lambda = lambdas[k];
            if (!(lambda >= 0) || !Double.isFinite(lambda)) {
                throw new IllegalArgumentException("lambda must be finite and >= 0, got " + lambda);
            }
            double[] z = new double[d];
            for (int j = 0; j < d; j++) {
                double ev = eig.value(j) + lambda;
                z[j] = ev > floor ? proj[j] / ev : 0.0;
            }
            double[] beta = LinAlg.multiply(v, z);
            double b = my;
            for (int j = 0; j < d; j++) {
                b -= mx[j] * beta[j];
            }
            out[k] = new Model(beta, b, lambda);
        }
        return out;
    }

    /**
     * The same path through the n x n Gram matrix when n &lt; d (text features: d = 5000, a few hundred rows):
     * {@code (X^T X + lambda I)^{-1} X^T y = X^T (X X^T + lambda I)^{-1} y}, and with {@code X X^T = U diag(s) U^T} the
     * nonzero spectrum of {@code X^T X} is s, so lambda = 0 gives the same minimum-norm solution as the primal route
     * (directions with s below the floor get no weight).
     */
    private static Model[] dualPath(DenseMatrix xs, double[] ys, double[] mx, double my, double[] lambdas) {
        int n = xs.rows();
        int d = xs.cols();
        SymmetricEigen eig = LinAlg.eigh(xs.transpose().gram());
        DenseMatrix u = eig.vectors();
        double[] proj = LinAlg.multiplyTransA(u, ys);
        double floor = 1e-12 * Math.max(eig.maxValue(), 0) + 1e-300;
        Model[] out = new Model[lambdas.length];
        for (int k = 0; k < lambdas.length; k++) {
            double lambda = lambdas[k];
            if (!(lambda >= 0) || !Double.isFinite(lambda)) {
                throw new IllegalArgumentException("lambda must be finite and >= 0, got " + lambda);
            }
            double[] z = new double[n];
            for (int j = 0; j < n; j++) {
                double ev = eig.value(j) + lambda;
                z[j] = eig.value(j) > floor ? proj[j] / ev : 0.0;
            }
            double[] beta = LinAlg.multiplyTransA(xs, LinAlg.multiply(u, z));
            double b = my;
            for (int j = 0; j < d; j++) {
                b -= mx[j] * beta[j];
            }
            out[k] = new Model(beta, b, lambda);
        }
        return out;
    }

    /** Mean squared error of predictions {@code p} against {@code y}. */
    public static double mse(double[] p, double[] y) {
        if (p.length != y.length || p.length == 0) {
            throw new IllegalArgumentException("need equally many predictions and targets, at least one: " + p.length + ", " + y.length);
        }
        double s = 0;
        for (int i = 0; i < p.length; i++) {
            double e = p[i] - y[i];
            s += e * e;
        }
        return s / p.length;
    }
}
