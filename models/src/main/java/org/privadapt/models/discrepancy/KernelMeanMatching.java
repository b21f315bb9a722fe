package org.privadapt.models.discrepancy;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.ojalgo.optimisation.Expression;
import org.ojalgo.optimisation.ExpressionsBasedModel;
import org.ojalgo.optimisation.Optimisation;
import org.ojalgo.optimisation.Variable;
import org.ojalgo.optimisation.convex.ConvexSolver;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.LinAlg;

/**
 * Kernel mean matching (Huang, Smola, Gretton, Borgwardt, Schoelkopf 2006), paper 003's KMM baseline (notes 3.9):
 * weights beta for the m source rows that bring the source's kernel mean embedding to the target's,
 *
 * <pre>
 *   min  (1/2) beta^T K beta - kappa^T beta
 *   s.t. 0 &lt;= beta_i &lt;= B,   | sum_i beta_i - m | &lt;= m eps
 * </pre>
 *
 * with K_ij = k(x_i, x_j) over the source, kappa_i = (m / n') sum_j k(x_i, x'_j) over the n' target inputs, and the
 * Gaussian kernel k(a, b) = exp(-||a - b||^2 / (2 s^2)). Defaults: B = 1000, eps = (sqrt(m) - 1) / sqrt(m) (the paper's
 * suggestion), s by the median heuristic (median pairwise distance over the pooled rows, on a seeded subsample of at
 * most 1,000). The QP is solved by ojAlgo (its modelling layer, ADMM convex solver), K with a ridge of
 * 1e-8 times its mean diagonal added so that rounding cannot make it indefinite. The solver's state is checked: anything
 * but an optimal (or, failing that, feasible and checked) solution is an error.
 *
 * <p>Dense QP cost grows as m^3 (measured on 2 cores with ADMM: m = 200 in 1.5 s, 1,000 in 15 s, 2,000 in 77 s): {@link Settings#maxRows()} (default 1,000) caps the source rows matched; a larger
 * source is matched on a seeded subsample and the other rows get weight 0 (the caller sees which through the weights).
 */
public final class KernelMeanMatching {
    private KernelMeanMatching() {
    }

    /**
     * @param bound     B, the upper bound of each weight
     * @param epsilon   the band on the weights' mean (NaN: (sqrt(m) - 1) / sqrt(m))
     * @param bandwidth the kernel width s (NaN: the median heuristic)
     * @param maxRows   the most source rows matched (a seeded subsample beyond)
     * @param seed      for the subsamples
     */
    public record Settings(double bound, double epsilon, double bandwidth, int maxRows, long seed) {
        public Settings {
            if (!(bound > 0) || !(Double.isNaN(epsilon) || epsilon >= 0) || !(Double.isNaN(bandwidth) || bandwidth > 0)
                    || maxRows < 2) {
                throw new IllegalArgumentException("need B > 0, epsilon >= 0, bandwidth > 0 and maxRows >= 2");
            }
        }

        public static Settings defaults(long seed) {
            return new Settings(1000, Double.NaN, Double.NaN, 1000, seed);
        }
    }

    /** The weights (one per source row, 0 for rows outside the matched subsample), the bandwidth, the QP's state. */
    public record Result(double[] weights, double bandwidth, String state, int matchedRows) {
    }

    public static Result weights(DenseMatrix source, DenseMatrix target, Settings s) {
        if (source.cols() != target.cols() || source.rows() < 2 || target.rows() < 1) {
            throw new IllegalArgumentException("need source and target rows of equal width, at least 2 and 1 rows");
        }
        SplittableRandom rng = new SplittableRandom(s.seed());
        int[] idx = subsample(source.rows(), s.maxRows(), rng);
        DenseMatrix xs = idx.length == source.rows() ? source : source.selectRows(idx);
        int m = xs.rows();
        double width = Double.isNaN(s.bandwidth()) ? medianDistance(xs, target, rng) : s.bandwidth();
        double eps = Double.isNaN(s.epsilon()) ? (Math.sqrt(m) - 1) / Math.sqrt(m) : s.epsilon();
        DenseMatrix k = kernel(xs, xs, width);
        DenseMatrix kt = kernel(xs, target, width);
        double[] kappa = new double[m];
        double meanDiag = 0;
        for (int i = 0; i < m; i++) {
            double sum = 0;
            for (int j = 0; j < target.rows(); j++) {
                sum += kt.get(i, j);
            }
            kappa[i] = (double) m / target.rows() * sum;
            meanDiag += k.get(i, i) / m;
        }
        // ojAlgo's modelling layer: the weights as bounded variables, the band as a bounded expression, the objective
        // as a quadratic expression; its ADMM algorithm (the active-set one took 30 s at m = 200 with many weights at
        // their bounds, ADMM 1.5 s to the same objective within 2e-7 relative)
        ExpressionsBasedModel model = new ExpressionsBasedModel();
        model.options.convex().algorithm(ConvexSolver.Algorithm.ADMM);
        Variable[] v = new Variable[m];
        for (int i = 0; i < m; i++) {
            v[i] = model.addVariable("beta" + i).lower(0).upper(s.bound());
        }
        Expression band = model.addExpression("band").lower(m * Math.max(0, 1 - eps)).upper(m * (1 + eps));
        Expression objective = model.addExpression("objective").weight(1);
        for (int i = 0; i < m; i++) {
            band.set(v[i], 1);
            objective.set(v[i], -kappa[i]);
            for (int j = 0; j < m; j++) {
                objective.set(v[i], v[j], 0.5 * (k.get(i, j) + (i == j ? 1e-8 * meanDiag : 0)));
            }
        }
        Optimisation.Result r = model.minimise();
        Optimisation.State state = r.getState();
        double[] beta = new double[m];
        for (int i = 0; i < m; i++) {
            beta[i] = r.doubleValue(i);
        }
        for (int i = 0; i < m; i++) {
            beta[i] = Math.max(0, Math.min(s.bound(), beta[i])); // ADMM's iterate is feasible to its tolerance
        }
        if (!state.isFeasible() || !feasible(beta, s.bound(), m, eps)) {
            throw new IllegalStateException("kernel mean matching: the QP solver returned " + state + " for " + m + " rows");
        }
        double[] w = new double[source.rows()];
        for (int i = 0; i < m; i++) {
            w[idx[i]] = Math.max(0, Math.min(s.bound(), beta[i]));
        }
        return new Result(w, width, state.toString(), m);
    }

    static boolean feasible(double[] beta, double bound, int m, double eps) {
        double tol = 1e-6 * Math.max(1, bound);
        double sum = 0;
        for (double v : beta) {
            if (!(v >= -tol && v <= bound + tol)) {
                return false;
            }
            sum += v;
        }
        return Math.abs(sum - m) <= m * eps + 1e-6 * m;
    }

    /** The objective (1/2) beta^T K beta - kappa^T beta for a weight vector on the matched rows (tests). */
    static double objective(DenseMatrix k, double[] kappa, double[] beta) {
        double[] kb = LinAlg.multiply(k, beta);
        double v = 0;
        for (int i = 0; i < beta.length; i++) {
            v += 0.5 * beta[i] * kb[i] - kappa[i] * beta[i];
        }
        return v;
    }

    /** Gaussian kernel matrix k(a_i, b_j) = exp(-||a_i - b_j||^2 / (2 s^2)), through one matrix product. */
    static DenseMatrix kernel(DenseMatrix a, DenseMatrix b, double width) {
        double[] na = a.rowSquaredNorms();
        double[] nb = b.rowSquaredNorms();
        DenseMatrix g = LinAlg.multiply(a, b.transpose());
        double f = 1 / (2 * width * width);
        DenseMatrix out = DenseMatrix.zeros(a.rows(), b.rows());
        for (int j = 0; j < b.rows(); j++) {
            for (int i = 0; i < a.rows(); i++) {
                double d2 = Math.max(0, na[i] + nb[j] - 2 * g.get(i, j));
                out.set(i, j, Math.exp(-f * d2));
            }
        }
        return out;
    }

    /** Median of the pairwise distances over the pooled rows (a seeded subsample of at most 1,000 of them). */
    static double medianDistance(DenseMatrix xs, DenseMatrix xt, SplittableRandom rng) {
        DenseMatrix pool = xs.vstack(xt);
        int[] idx = subsample(pool.rows(), 1000, rng);
        DenseMatrix p = pool.selectRows(idx);
        double[] n2 = p.rowSquaredNorms();
        DenseMatrix g = LinAlg.multiply(p, p.transpose());
        int n = p.rows();
        double[] d = new double[n * (n - 1) / 2];
        int k = 0;
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                d[k++] = Math.sqrt(Math.max(0, n2[i] + n2[j] - 2 * g.get(i, j)));
            }
        }
        Arrays.sort(d);
        double med = d.length == 0 ? 1 : d[d.length / 2];
        return med > 0 ? med : 1;
    }

    private static int[] subsample(int n, int max, SplittableRandom rng) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        if (n <= max) {
            return p;
        }
        for (int i = 0; i < max; i++) {
            int j = i + rng.nextInt(n - i);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        int[] out = Arrays.copyOf(p, max);
        Arrays.sort(out);
        return out;
    }
}
