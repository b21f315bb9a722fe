package org.privadapt.models.dp;

import java.util.Arrays;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.math.optim.Lbfgs;
import org.privadapt.models.Softmax;

/**
 * The objective shared by output and objective perturbation: the unnormalised multinomial cross-entropy of a linear
 * model theta = (W, c) on rows x_i (bias penalised as the weight of a constant input 1), plus
 * {@code (Lambda / 2) ||theta||^2}, plus an optional linear term {@code b^T theta} (J). Parameters are laid out as W
 * (d x K, column-major) followed by c (K).
 */
final class RegularisedSoftmax {
    private RegularisedSoftmax() {
    }

    /**
     * The objective as an L-BFGS function of {@code phi = theta - offset}: {@code CE(phi + offset) + (Lambda / 2)
     * ||phi + offset||^2 + b^T (phi + offset)} with {@code offset = -b / Lambda} is, up to a constant,
     * {@code CE(phi + offset) + (Lambda / 2) ||phi||^2}; its gradient in phi is grad J at theta. Solving in phi keeps
     * the objective's magnitude that of the data term, so its values stay precise to small gradients.
     */
    static Lbfgs.Objective objective(FeatureMatrix rows, int[] y, int k, double lambda, double[] offset) {
        int n = rows.rows();
        int d = rows.cols();
        return (phi, grad) -> {
            double[] theta = phi.clone();
            if (offset != null) {
                for (int j = 0; j < theta.length; j++) {
                    theta[j] += offset[j];
                }
            }
            DenseMatrix w = new DenseMatrix(d, k, Arrays.copyOf(theta, d * k));
            double[] b = Arrays.copyOfRange(theta, d * k, d * k + k);
            DenseMatrix p = Softmax.inPlace(rows.multiply(w).plusRowVector(b));
            double[] pa = p.data();
            double loss = 0;
            for (int i = 0; i < n; i++) {
                loss -= Math.log(Math.max(pa[i + y[i] * n], 1e-300));
                pa[i + y[i] * n] -= 1.0;
            }
            DenseMatrix gw = rows.transposeMultiply(p);
            double[] gwa = gw.data();
            double reg = 0;
            for (int j = 0; j < d * k; j++) {
                grad[j] = gwa[j] + lambda * phi[j];
                reg += phi[j] * phi[j];
            }
            for (int c = 0; c < k; c++) {
                double s = 0;
                for (int i = 0; i < n; i++) {
                    s += pa[i + c * n];
                }
                grad[d * k + c] = s + lambda * phi[d * k + c];
                reg += phi[d * k + c] * phi[d * k + c];
            }
            return loss + 0.5 * lambda * reg;
        };
    }

    /**
     * A point with {@code ||grad|| <= gamma} (L2), checked; throws {@link IllegalStateException} with a message that
     * carries no data-dependent number when the iteration cap is reached first.
     */
    static double[] solve(FeatureMatrix rows, int[] y, int k, double lambda, double[] linear, double gamma, int maxIterations,
                          String what) {
        int params = rows.cols() * k + k;
        double[] offset = null;
        if (linear != null) {
            offset = new double[params];
            for (int j = 0; j < params; j++) {
                offset[j] = -linear[j] / lambda;
            }
        }
        Lbfgs.Objective f = objective(rows, y, k, lambda, offset);
        // the infinity-norm stop of L-BFGS at g / sqrt(#params) implies an L2 norm <= g; checked below all the same
        // a relative decrease below 1e-15 per iteration is round-off: the value-free finish takes over from there
        Lbfgs solver = new Lbfgs(20, maxIterations, gamma / Math.sqrt(params), 1e-15);
        double[] phi = new double[params]; // theta = phi + offset
        double gnorm = Double.POSITIVE_INFINITY;
        double[] grad = new double[params];
        for (int round = 0; round < 5 && gnorm > gamma; round++) { // restarts clear stale curvature
            Lbfgs.Result res = solver.minimize(f, phi);
            phi = res.x();
            f.valueAndGradient(phi, grad);
            double s = 0;
            for (double g : grad) {
                s += g * g;
            }
            gnorm = Math.sqrt(s);
            if (!res.converged() || res.reason().startsWith("relative")) {
                break; // the objective's values no longer resolve the steps: the value-free finish takes over
            }
        }
        if (!(gnorm <= gamma)) {
            gnorm = finish(f, phi, grad, gnorm, lambda, rows, gamma, 50L * maxIterations);
        }
        if (!(gnorm <= gamma)) {
            // the message carries no data-dependent number: only the event itself (one bit) is disclosed
            throw new IllegalStateException(what + ": the solver did not reach the gradient tolerance " + gamma
                    + " the guarantee assumes within its iteration cap; nothing was released (raise the iteration cap or lambda)");
        }
        if (offset != null) {
            for (int j = 0; j < params; j++) {
                phi[j] += offset[j];
            }
        }
        return phi;
    }

    /**
     * Gradient steps of length 1/L from where L-BFGS stopped, until {@code ||grad|| <= gamma} or {@code cap} steps.
     * L-BFGS's line search compares objective values, whose round-off stops it near the optimum; these steps need no
     * values. With {@code L = Lambda + (1/2) sum_i (||x_i||^2 + 1)} (one row's softmax Hessian is at most half its
     * squared norm, by Gershgorin) each step contracts the gradient by at least {@code 1 - Lambda / L}: the gradient
     * after the step is {@code (I - Hbar / L) grad} for an average Hessian Hbar between Lambda and L.
     */
    static double finish(Lbfgs.Objective f, double[] phi, double[] grad, double gnorm, double lambda, FeatureMatrix rows,
                         double gamma, long cap) {
        double l = lambda;
        for (double sq : rows.rowSquaredNorms()) {
            l += 0.5 * (sq + 1);
        }
        double step = 1.0 / l;
        double g = gnorm;
        for (long it = 0; it < cap && g > gamma; it++) {
            for (int j = 0; j < phi.length; j++) {
                phi[j] -= step * grad[j];
            }
            f.valueAndGradient(phi, grad);
            double s = 0;
            for (double v : grad) {
                s += v * v;
            }
            double next = Math.sqrt(s);
            if (!(next < g)) {
                return next; // round-off floor reached: no further contraction is possible
            }
            g = next;
        }
        return g;
    }
}
