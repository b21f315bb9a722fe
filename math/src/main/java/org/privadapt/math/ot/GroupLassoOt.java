package org.privadapt.math.ot;

import java.util.List;
import java.util.Objects;
import org.privadapt.math.DenseMatrix;

/**
 * Class-based group-lasso regularised optimal transport (Courty, Flamary, Tuia, Rakotomamonjy, "Optimal transport
 * for domain adaptation", IEEE TPAMI 2017, Eq. (3) of paper 002), in its convex l1-l2 form:
 *
 * <pre>
 *   min_gamma  &lt;gamma, C&gt; + regEntropic * sum_ij gamma_ij (log gamma_ij - 1) + regGroup * sum_j sum_c ||gamma(I_c, j)||_2
 * </pre>
 *
 * over couplings with marginals a, b, where {@code I_c} are the source rows of class c. Solved by generalised
 * conditional gradient (GCG; Rakotomamonjy, Flamary, Courty 2015, as used by Courty et al. 2017 and by POT's
 * {@code ot.da.sinkhorn_l1l2_gl} / {@code ot.optim.gcg}, which this class was written after reading; no code
 * copied): the group term is linearised at the current plan G, the entropic problem with cost
 * {@code C + regGroup * W(G)} ({@code W_ij = G_ij / ||G(I_c, j)||_2}, 0 for an all-zero group) is solved by
 * {@link Sinkhorn}, and a line search on the full objective picks the step towards its solution.
 *
 * <p>Choices:
 * <ul>
 *   <li>Start: the entropic plan for C alone (the optimum at regGroup = 0) rather than POT's {@code a b^T}: it
 *       is feasible for masked costs ({@code a b^T} puts mass on {@code +Infinity} entries, an infinite objective)
 *       and usually much closer to the optimum.</li>
 *   <li>Line search: Armijo backtracking on the full objective (c1 = 1e-4 as POT, first trial step 1, halving,
 *       at most 40 halvings). The step is taken as {@code (1 - alpha) G + alpha G_new}, which stays non-negative
 *       in floating point. The directional derivative uses {@code d/dgamma [gamma(log gamma - 1)] = log gamma};
 *       when G has an exact zero where the direction is positive it is {@code -Infinity}, and then plain decrease
 *       is required. Every accepted step therefore lowers the computed objective: the objective is monotone
 *       over the outer iterations.</li>
 *   <li>Stop: after {@code outerIterations} steps, or earlier when a step changes the objective by at most 1e-9
 *       relatively (POT's {@code stopThr}) or no descent step exists (the linearised problem returns the current
 *       plan, up to the inner accuracy). {@code converged} reports one of these early stops with marginals within
 *       the inner tolerance; with the customary 10 outer iterations it is often false although the plan is fine.
 *       A line search that finds no acceptable step ends the loop with {@code converged = false}.
 *       {@code iterations} counts the steps taken.</li>
 *   <li>The objective evaluates {@code 0 log 0 = 0}; mass on an infinite cost makes it {@code +Infinity}.</li>
 * </ul>
 * <p>What the penalty does, and what it costs. A column that draws mass m evenly from r rows of one class pays
 * {@code m / sqrt(r)}; the same mass drawn evenly from r0 + r1 = r rows of two classes pays
 * {@code m (sqrt(r0) + sqrt(r1)) / r}, more. So at equal spread class-pure columns are cheaper, and on clustered
 * data with regGroup 10 to 100 times regEntropic the columns become purer (paper 002 uses regEntropic 0.01 and
 * regGroup 0.1; see the tests). The penalty also rewards spreading mass over many rows of a class, though, so with
 * an entropic term that is large relative to the cost the optimum of Eq. (3) stays mixed however large regGroup
 * is (on such synthetic data the GCG optimum has a lower objective than the best class-pure plan, checked while
 * writing this class). And with regGroup &gt;&gt; regEntropic the GCG steps get short (the Frank-Wolfe
 * zig-zag): 10 outer iterations can then be far from the optimum, and a hundred or more may be needed.
 *
 * <p>Inner solves are warm-started from the previous solve's potentials, which saves 20-40 % of the Sinkhorn
 * sweeps at moderate regGroup.
 */
public final class GroupLassoOt {
    static final double ARMIJO_C1 = 1e-4;
    static final int MAX_HALVINGS = 40;
    static final double RELATIVE_STOP = 1e-9;

    private GroupLassoOt() {
    }

    /**
     * Class-based group-lasso regularised OT of Courty et al. 2017 (TPAMI), paper 002 Eq. (3), by GCG (see the
     * class documentation); {@code outerIterations} around 10 is customary, each runs one inner Sinkhorn with the
     * given options. {@code sourceLabels} in 0..K-1. Never mutates inputs.
     *
     * @throws IllegalArgumentException as {@link Sinkhorn#solve}, and for labels of the wrong length or negative,
     *     regEntropic &lt;= 0, regGroup &lt; 0, outerIterations &lt; 0
     */
    public static Coupling solve(double[] a, double[] b, DenseMatrix cost, int[] sourceLabels, double regEntropic,
                                 double regGroup, int outerIterations, SinkhornOptions inner) {
        return run(a, b, cost, sourceLabels, regEntropic, regGroup, outerIterations, inner, null);
    }

    /** As {@link #solve}, appending the objective of the start and of every iterate to {@code trace}. */
    static Coupling run(double[] a, double[] b, DenseMatrix cost, int[] sourceLabels, double regEntropic,
                        double regGroup, int outerIterations, SinkhornOptions inner, List<Double> trace) {
        Objects.requireNonNull(inner, "inner");
        Objects.requireNonNull(cost, "cost");
        int classes = checkLabels(sourceLabels, cost.rows());
        if (!(regEntropic > 0) || Double.isInfinite(regEntropic)) {
            throw new IllegalArgumentException("regEntropic must be finite and > 0, got " + regEntropic);
        }
        if (!(regGroup >= 0) || Double.isInfinite(regGroup)) {
            throw new IllegalArgumentException("regGroup must be finite and >= 0, got " + regGroup);
        }
        if (outerIterations < 0) {
            throw new IllegalArgumentException("outerIterations must be >= 0, got " + outerIterations);
        }
        int n = cost.rows();
        int m = cost.cols();
        double[] c = cost.data();
        Sinkhorn.Potentials potentials = new Sinkhorn.Potentials(); // warm start of every inner solve
        Coupling start = Sinkhorn.solve(a, b, cost, regEntropic, inner, potentials); // validates a, b, cost
        double[] g = start.plan().data(); // ours
        double fval = evaluate(g, null, 0, c, n, m, sourceLabels, classes, regEntropic, regGroup);
        if (trace != null) {
            trace.add(fval);
        }
        // n x m arrays held across the iterations: the cost c (the caller's), the plan g, the linearised cost mi
        // and the inner solve's plan gc, whose array the next inner solve reuses as its kernel (issue 32: no n x m
        // allocation per iteration). The group gradient W = G / ||G(I_c, j)|| is never stored: it is the plan
        // times one inverse norm per (class, column), recomputed with the same product where it is needed.
        double[] mi = new double[n * m];
        double[] inverseNorms = new double[classes * m];
        boolean stationary = false;
        int it = 0;
        for (int attempt = 0; attempt < outerIterations; attempt++) {
            groupInverseNorms(g, n, m, sourceLabels, classes, inverseNorms);
            for (int j = 0; j < m; j++) {
                int off = j * n;
                int on = j * classes;
                for (int i = 0; i < n; i++) {
                    double wk = g[off + i] * inverseNorms[on + sourceLabels[i]];
                    mi[off + i] = c[off + i] + regGroup * wk; // +Infinity stays +Infinity (w = 0 there)
                }
            }
            double[] gc = Sinkhorn.solve(a, b, new DenseMatrix(n, m, mi), regEntropic, inner, potentials)
                    .plan().data();
            double slope = directionalDerivative(g, gc, c, n, m, sourceLabels, classes, inverseNorms, regEntropic, regGroup);
            if (!(slope < 0)) {
                stationary = true; // no descent direction: stationary up to the inner accuracy
                break;
            }
            double alpha = 1.0;
            double trial = Double.NaN;
            boolean accepted = false;
            for (int h = 0; h <= MAX_HALVINGS; h++) {
                trial = evaluate(g, gc, alpha, c, n, m, sourceLabels, classes, regEntropic, regGroup);
                double bound = slope == Double.NEGATIVE_INFINITY ? fval : fval + ARMIJO_C1 * alpha * slope;
                if (trial <= bound) {
                    accepted = true;
                    break;
                }
                alpha *= 0.5;
            }
            if (!accepted) {
                break; // stalled: no step of length >= 2^-40 decreases the objective enough
            }
            it++;
            for (int k = 0; k < g.length; k++) {
                g[k] = (1 - alpha) * g[k] + alpha * gc[k];
            }
            potentials.kernel = gc; // free again: the next inner solve builds its kernel in it
            double previous = fval;
            fval = trial;
            if (trace != null) {
                trace.add(fval);
            }
            if (Math.abs(previous - fval) <= RELATIVE_STOP * Math.abs(previous)) {
                stationary = true;
                break;
            }
        }
        DenseMatrix plan = new DenseMatrix(n, m, g);
        double err = OtKernels.marginalError(g, n, m, a, b);
        double mass = 0;
        for (double x : a) {
            mass += x;
        }
        boolean converged = stationary && err <= inner.tolerance() * mass;
        return new Coupling(plan, OtKernels.finiteDot(g, c), it, err, converged);
    }

    /** The objective value of Eq. (3) at {@code plan}, for tests and line search. */
    public static double objective(DenseMatrix plan, DenseMatrix cost, int[] sourceLabels, double regEntropic,
                                   double regGroup) {
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(cost, "cost");
        if (plan.rows() != cost.rows() || plan.cols() != cost.cols()) {
            throw new IllegalArgumentException("plan " + plan.rows() + "x" + plan.cols() + " vs cost "
                    + cost.rows() + "x" + cost.cols());
        }
        int classes = checkLabels(sourceLabels, cost.rows());
        for (double x : plan.data()) {
            if (!(x >= 0) || x == Double.POSITIVE_INFINITY) {
                throw new IllegalArgumentException("plan entries must be finite and non-negative, found " + x);
            }
        }
        return evaluate(plan.data(), null, 0, cost.data(), cost.rows(), cost.cols(), sourceLabels, classes,
                regEntropic, regGroup);
    }

    /** Objective at {@code (1 - alpha) g + alpha gc} (at g when gc is null). */
    private static double evaluate(double[] g, double[] gc, double alpha, double[] c, int n, int m, int[] labels,
                                   int classes, double regE, double regG) {
        double linear = 0;
        double entropy = 0;
        double group = 0;
        double[] sq = new double[classes];
        for (int j = 0; j < m; j++) {
            java.util.Arrays.fill(sq, 0.0);
            int off = j * n;
            for (int i = 0; i < n; i++) {
                double x = gc == null ? g[off + i] : (1 - alpha) * g[off + i] + alpha * gc[off + i];
                if (x == 0) {
                    continue;
                }
                double cij = c[off + i];
                if (cij == Double.POSITIVE_INFINITY) {
                    return Double.POSITIVE_INFINITY;
                }
                linear += x * cij;
                entropy += x * (Math.log(x) - 1);
                sq[labels[i]] += x * x;
            }
            for (int k = 0; k < classes; k++) {
                group += Math.sqrt(sq[k]);
            }
        }
        return linear + regE * entropy + regG * group;
    }

    /**
     * {@code inv[c + j K] = 1 / ||g(I_c, j)||_2} (0 for a zero group): the gradient of the group term is
     * {@code w_ij = g_ij * inv[labels[i] + j K]}.
     */
    private static void groupInverseNorms(double[] g, int n, int m, int[] labels, int classes, double[] inv) {
        java.util.Arrays.fill(inv, 0.0);
        for (int j = 0; j < m; j++) {
            int off = j * n;
            int on = j * classes;
            for (int i = 0; i < n; i++) {
                double x = g[off + i];
                inv[on + labels[i]] += x * x;
            }
            for (int k = on; k < on + classes; k++) {
                inv[k] = inv[k] > 0 ? 1.0 / Math.sqrt(inv[k]) : 0.0;
            }
        }
    }

    /** {@code <grad F(g), gc - g>} with grad F = C + regE log g + regG w; -Infinity if g = 0 where gc &gt; 0. */
    private static double directionalDerivative(double[] g, double[] gc, double[] c, int n, int m, int[] labels,
                                                int classes, double[] inverseNorms, double regE, double regG) {
        double s = 0;
        for (int j = 0; j < m; j++) {
            int off = j * n;
            int on = j * classes;
            for (int i = 0; i < n; i++) {
                int k = off + i;
                double d = gc[k] - g[k];
                if (d == 0) {
                    continue;
                }
                if (g[k] == 0) {
                    return Double.NEGATIVE_INFINITY; // d > 0 here: the entropy's slope at 0 is -Infinity
                }
                double wk = g[k] * inverseNorms[on + labels[i]];
                s += d * (c[k] + regE * Math.log(g[k]) + regG * wk);
            }
        }
        return s;
    }

    /** Number of classes (max label + 1); rejects labels of the wrong length or negative. */
    private static int checkLabels(int[] labels, int rows) {
        Objects.requireNonNull(labels, "sourceLabels");
        if (labels.length != rows) {
            throw new IllegalArgumentException(labels.length + " source labels for " + rows + " source rows");
        }
        int max = -1;
        for (int i = 0; i < labels.length; i++) {
            if (labels[i] < 0) {
                throw new IllegalArgumentException("source label " + i + " is " + labels[i] + " (labels are 0..K-1)");
            }
            max = Math.max(max, labels[i]);
        }
        return max + 1;
    }
}
