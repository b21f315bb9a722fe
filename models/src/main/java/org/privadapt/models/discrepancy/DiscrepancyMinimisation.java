package org.privadapt.models.discrepancy;

import org.privadapt.math.DenseMatrix;
import org.privadapt.math.LinAlg;
import org.privadapt.math.SymmetricEigen;

/**
 * Discrepancy minimisation (Cortes and Mohri 2014), paper 003's DM baseline (notes 3.9): the distribution Q on the m
 * source rows whose second moment is closest to the target sample's in spectral norm,
 *
 * <pre>
 *   min over Q in the simplex of  || sum_i Q_i x_i x_i^T - (1/n) sum_j x'_j x'_j^T ||_2 ,
 * </pre>
 *
 * the unlabelled discrepancy of the squared loss over a ball of linear predictors (up to the factor 4 Lambda^2). The
 * objective is convex in Q (a norm of an affine map); it is minimised by entropic mirror descent (exponentiated
 * subgradient steps, which stay on the simplex) with the subgradient {@code g_i = sign(lambda) (x_i . v)^2}, v the unit
 * eigenvector of the eigenvalue lambda of largest modulus, and the best iterate kept. Mirror descent with step
 * {@code sqrt(2 log m / T) / G_inf} is within {@code G_inf sqrt(2 log m / T)} of the optimum after T steps
 * (G_inf = max_i ||x_i||^2 bounds the subgradient's entries); that bound is reported beside the value.
 *
 * <p>When there are fewer rows than features (text, d = 5,000) everything happens in the coordinates of the rows'
 * span: with {@code Z = [X_s; X_t] = U s V^T}, the rows' coordinates {@code W = U s} satisfy
 * {@code X^T D X = V (W^T D W) V^T} for any diagonal D, so the spectral norm is that of an r x r matrix.
 */
public final class DiscrepancyMinimisation {
    private DiscrepancyMinimisation() {
    }

    /** Q (sums to 1), the objective there, the iterations and the mirror-descent guarantee's gap bound. */
    public record Result(double[] weights, double objective, double uniformObjective, int iterations, double gapBound) {
    }

    public static Result weights(DenseMatrix source, DenseMatrix target, int iterations) {
        if (source.cols() != target.cols() || source.rows() < 1 || target.rows() < 1 || iterations < 1) {
            throw new IllegalArgumentException("need rows of equal width on both sides and iterations >= 1");
        }
        int m = source.rows();
        int n = target.rows();
        DenseMatrix[] f = coordinates(source, target);
        DenseMatrix fs = f[0];
        DenseMatrix ft = f[1];
        DenseMatrix tm = LinAlg.gram(ft).scale(1.0 / n);
        double[] norms = fs.rowSquaredNorms();
        double gInf = 0;
        for (double v : norms) {
            gInf = Math.max(gInf, v);
        }
        double step = gInf > 0 ? Math.sqrt(2 * Math.log(Math.max(m, 2)) / iterations) / gInf : 0;
        double[] q = new double[m];
        java.util.Arrays.fill(q, 1.0 / m);
        double uniform = norm(fs, q, tm);
        double[] best = q.clone();
        double bestValue = uniform;
        double[] logq = new double[m];
        java.util.Arrays.fill(logq, -Math.log(m));
        for (int t = 0; t < iterations; t++) {
            SymmetricEigen e = LinAlg.eigh(moment(fs, q).minus(tm));
            int k = extreme(e);
            double lambda = e.value(k);
            if (Math.abs(lambda) < bestValue) {
                bestValue = Math.abs(lambda);
                best = q.clone();
            }
            DenseMatrix vectors = e.vectors(); // a copy: taken once
            double[] v = new double[vectors.rows()];
            for (int i = 0; i < v.length; i++) {
                v[i] = vectors.get(i, k);
            }
            double[] proj = LinAlg.multiply(fs, v);
            double sign = Math.signum(lambda);
            double max = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < m; i++) {
                logq[i] -= step * sign * proj[i] * proj[i];
                max = Math.max(max, logq[i]);
            }
            double z = 0;
            for (int i = 0; i < m; i++) {
                q[i] = Math.exp(logq[i] - max);
                z += q[i];
            }
            for (int i = 0; i < m; i++) {
                q[i] /= z;
                logq[i] = Math.log(Math.max(q[i], 1e-300));
            }
        }
        double last = norm(fs, q, tm);
        if (last < bestValue) {
            bestValue = last;
            best = q.clone();
        }
        return new Result(best, bestValue, uniform, iterations, gInf * Math.sqrt(2 * Math.log(Math.max(m, 2)) / iterations));
    }

    /** The spectral norm of {@code sum_i q_i x_i x_i^T - T} from a full eigendecomposition. */
    static double norm(DenseMatrix fs, double[] q, DenseMatrix tm) {
        SymmetricEigen e = LinAlg.eigh(moment(fs, q).minus(tm));
        return Math.abs(e.value(extreme(e)));
    }

    /** The objective for weights q on the original rows (tests): recomputed from scratch. */
    public static double objective(DenseMatrix source, DenseMatrix target, double[] q) {
        DenseMatrix[] f = coordinates(source, target);
        return norm(f[0], q, LinAlg.gram(f[1]).scale(1.0 / target.rows()));
    }

    private static DenseMatrix moment(DenseMatrix fs, double[] q) {
        double[] sq = new double[q.length];
        for (int i = 0; i < q.length; i++) {
            sq[i] = Math.sqrt(q[i]);
        }
        return LinAlg.gram(fs.scaleRows(sq));
    }

    private static int extreme(SymmetricEigen e) {
        int k = 0;
        for (int i = 1; i < e.values().length; i++) {
            if (Math.abs(e.value(i)) > Math.abs(e.value(k))) {
                k = i;
            }
        }
        return k;
    }

    /** The rows themselves, or their coordinates in the rows' span when they are fewer than the features. */
    static DenseMatrix[] coordinates(DenseMatrix source, DenseMatrix target) {
        int m = source.rows();
        int n = target.rows();
        if (m + n >= source.cols()) {
            return new DenseMatrix[] {source, target};
        }
        DenseMatrix z = source.vstack(target);
        SymmetricEigen e = LinAlg.eigh(z.transpose().gram());
        double top = Math.max(e.maxValue(), 0);
        java.util.List<Integer> keep = new java.util.ArrayList<>();
        for (int k = 0; k < m + n; k++) {
            if (e.value(k) > 1e-12 * top) {
                keep.add(k);
            }
        }
        DenseMatrix vectors = e.vectors(); // a copy: taken once
        DenseMatrix w = DenseMatrix.zeros(m + n, keep.size());
        for (int j = 0; j < keep.size(); j++) {
            int k = keep.get(j);
            double sv = Math.sqrt(e.value(k));
            for (int i = 0; i < m + n; i++) {
                w.set(i, j, vectors.get(i, k) * sv);
            }
        }
        int[] s = java.util.stream.IntStream.range(0, m).toArray();
        int[] t = java.util.stream.IntStream.range(m, m + n).toArray();
        return new DenseMatrix[] {w.selectRows(s), w.selectRows(t)};
    }
}
