package org.privadapt.math.optim;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;

/**
 * Limited-memory BFGS (Nocedal and Wright, Numerical Optimization, Alg. 7.4/7.5) for smooth unconstrained
 * minimisation, with a backtracking line search on the Armijo condition. Curvature pairs with
 * {@code s'y <= 1e-10 |s||y|} are skipped, so the implicit Hessian approximation stays positive definite.
 * Stops when the gradient's infinity norm falls below {@code gradTol} or the relative decrease of the objective
 * over one iteration falls below {@code relTol}.
 */
public final class Lbfgs {
    /** f(x), writing the gradient into {@code grad}. */
    @FunctionalInterface
    public interface Objective {
        double valueAndGradient(double[] x, double[] grad);
    }

    /** Outcome of a run. */
    public record Result(double[] x, double value, int iterations, boolean converged, String reason) {
    }

    private final int memory;
    private final int maxIterations;
    private final double gradTol;
    private final double relTol;

    public Lbfgs(int memory, int maxIterations, double gradTol, double relTol) {
        this.memory = memory;
        this.maxIterations = maxIterations;
        this.gradTol = gradTol;
        this.relTol = relTol;
    }

    public static Lbfgs defaults() {
        return new Lbfgs(10, 500, 1e-6, 1e-10);
    }

    public Result minimize(Objective f, double[] x0) {
        int n = x0.length;
        double[] x = x0.clone();
        double[] g = new double[n];
        double fx = f.valueAndGradient(x, g);
        if (!Double.isFinite(fx)) {
            throw new ArithmeticException("objective is not finite at the starting point");
        }
        Deque<double[][]> pairs = new ArrayDeque<>(); // {s, y, {rho}}
        double[] xNew = new double[n];
        double[] gNew = new double[n];
        for (int it = 1; it <= maxIterations; it++) {
            if (normInf(g) <= gradTol) {
                return new Result(x, fx, it - 1, true, "gradient norm below tolerance");
            }
            double[] dir = twoLoop(g, pairs);
            double slope = dot(dir, g);
            if (slope >= 0) { // not a descent direction: reset memory and use steepest descent
                pairs.clear();
                for (int i = 0; i < n; i++) {
                    dir[i] = -g[i];
                }
                slope = dot(dir, g);
            }
            double step = pairs.isEmpty() ? Math.min(1.0, 1.0 / Math.max(1e-12, norm2(g))) : 1.0;
            double fNew;
            int backtracks = 0;
            while (true) {
                for (int i = 0; i < n; i++) {
                    xNew[i] = x[i] + step * dir[i];
                }
                fNew = f.valueAndGradient(xNew, gNew);
                if (Double.isFinite(fNew) && fNew <= fx + 1e-4 * step * slope) {
                    break;
                }
                step *= 0.5;
                if (++backtracks > 60) {
                    return new Result(x, fx, it, false, "line search failed");
                }
            }
            double[] s = new double[n];
            double[] y = new double[n];
            for (int i = 0; i < n; i++) {
                s[i] = xNew[i] - x[i];
                y[i] = gNew[i] - g[i];
            }
            double sy = dot(s, y);
            if (sy > 1e-10 * norm2(s) * norm2(y)) {
                if (pairs.size() == memory) {
                    pairs.removeFirst();
                }
                pairs.addLast(new double[][] {s, y, {1.0 / sy}});
            }
            double rel = Math.abs(fx - fNew) / Math.max(1.0, Math.abs(fx));
            System.arraycopy(xNew, 0, x, 0, n);
            System.arraycopy(gNew, 0, g, 0, n);
            fx = fNew;
            if (rel < relTol) {
                return new Result(x, fx, it, true, "relative decrease below tolerance");
            }
        }
        return new Result(x, fx, maxIterations, false, "iteration limit reached");
    }

    private static double[] twoLoop(double[] g, Deque<double[][]> pairs) {
        int n = g.length;
        double[] q = new double[n];
        for (int i = 0; i < n; i++) {
            q[i] = -g[i];
        }
        int m = pairs.size();
        double[] alpha = new double[m];
        int k = m - 1;
        for (Iterator<double[][]> it = pairs.descendingIterator(); it.hasNext(); k--) {
            double[][] p = it.next();
            alpha[k] = p[2][0] * dot(p[0], q);
            axpy(-alpha[k], p[1], q);
        }
        if (m > 0) {
            double[][] last = pairs.peekLast();
            double gamma = dot(last[0], last[1]) / dot(last[1], last[1]);
            for (int i = 0; i < n; i++) {
                q[i] *= gamma;
            }
        }
        k = 0;
        for (double[][] p : pairs) {
            double beta = p[2][0] * dot(p[1], q);
            axpy(alpha[k] - beta, p[0], q);
            k++;
        }
        return q;
    }

    private static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    private static void axpy(double a, double[] x, double[] y) {
        for (int i = 0; i < x.length; i++) {
            y[i] += a * x[i];
        }
    }

    private static double norm2(double[] a) {
        return Math.sqrt(dot(a, a));
    }

    private static double normInf(double[] a) {
        double m = 0;
        for (double v : a) {
            m = Math.max(m, Math.abs(v));
        }
        return m;
    }
}
