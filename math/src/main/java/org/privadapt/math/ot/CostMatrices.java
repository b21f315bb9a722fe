package org.privadapt.math.ot;

import java.util.Arrays;
import java.util.Objects;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.LinAlg;

/**
 * Ground-cost matrices between a source sample (rows of {@code xs}) and a target sample (rows of {@code xt}),
 * and the semi-supervised label mask of Courty et al. 2017.
 *
 * <p>The squared Euclidean cost is computed as {@code ||x_i||^2 + ||y_j||^2 - 2 x_i.y_j} with the cross term from
 * one GEMM. That expansion loses absolute accuracy of order {@code 1e-16 (||x_i||^2 + ||y_j||^2)} against the
 * direct difference, which is irrelevant for transport costs; it can also make the distance of two identical
 * points a tiny negative number. The result is deliberately not clamped: callers that add noise to the rows, or
 * debias a noisy cost, rely on negative entries being passed through. {@link #euclidean} clamps before its sqrt.
 */
public final class CostMatrices {
    private CostMatrices() {
    }

    /**
     * n_s x n_t matrix of squared Euclidean distances {@code ||x_i - y_j||^2}, by one GEMM plus row norms; NOT
     * clamped (callers may pass noisy rows, and a debiased noisy cost may be negative).
     */
    public static DenseMatrix squaredEuclidean(DenseMatrix xs, DenseMatrix xt) {
        Objects.requireNonNull(xs, "xs");
        Objects.requireNonNull(xt, "xt");
        if (xs.cols() != xt.cols()) {
            throw new IllegalArgumentException("source rows have " + xs.cols() + " features, target rows " + xt.cols());
        }
        int ns = xs.rows();
        int nt = xt.rows();
        int d = xs.cols();
        DenseMatrix c = DenseMatrix.zeros(ns, nt);
        if (ns == 0 || nt == 0) {
            return c;
        }
        double[] cd = c.data();
        if (d > 0) {
            LinAlg.backend().gemm(false, true, ns, nt, d, -2.0, xs.data(), ns, xt.data(), nt, 0.0, cd, ns);
        }
        double[] sx = xs.rowSquaredNorms();
        double[] sy = xt.rowSquaredNorms();
        for (int j = 0; j < nt; j++) {
            int off = j * ns;
            double y = sy[j];
            for (int i = 0; i < ns; i++) {
                cd[off + i] += sx[i] + y;
            }
        }
        return c;
    }

    /** sqrt of {@link #squaredEuclidean}, clamped at 0 before the sqrt. */
    public static DenseMatrix euclidean(DenseMatrix xs, DenseMatrix xt) {
        DenseMatrix c = squaredEuclidean(xs, xt);
        double[] cd = c.data();
        for (int k = 0; k < cd.length; k++) {
            cd[k] = Math.sqrt(Math.max(0.0, cd[k]));
        }
        return c;
    }

    /**
     * Copy of {@code cost} with {@code +Infinity} where {@code sourceLabels[i] != targetLabels[j]} and
     * {@code targetLabels[j] >= 0} (target label -1 = unlabelled): the semi-supervised mask of Courty et al. 2017
     * that forbids mass between differently labelled samples. The solvers give such entries exactly zero mass.
     */
    public static DenseMatrix maskDifferentLabels(DenseMatrix cost, int[] sourceLabels, int[] targetLabels) {
        Objects.requireNonNull(cost, "cost");
        Objects.requireNonNull(sourceLabels, "sourceLabels");
        Objects.requireNonNull(targetLabels, "targetLabels");
        if (sourceLabels.length != cost.rows()) {
            throw new IllegalArgumentException(sourceLabels.length + " source labels for " + cost.rows() + " cost rows");
        }
        if (targetLabels.length != cost.cols()) {
            throw new IllegalArgumentException(targetLabels.length + " target labels for " + cost.cols() + " cost columns");
        }
        DenseMatrix masked = cost.copy();
        double[] md = masked.data();
        int n = cost.rows();
        for (int j = 0; j < targetLabels.length; j++) {
            int t = targetLabels[j];
            if (t < 0) {
                continue;
            }
            int off = j * n;
            for (int i = 0; i < n; i++) {
                if (sourceLabels[i] != t) {
                    md[off + i] = Double.POSITIVE_INFINITY;
                }
            }
        }
        return masked;
    }

    /** The uniform weights 1/n (n &gt;= 1). */
    public static double[] uniform(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("uniform weights need n >= 1, got " + n);
        }
        double[] w = new double[n];
        Arrays.fill(w, 1.0 / n);
        return w;
    }
}
