package org.privadapt.math.ot;

import java.util.Arrays;
import java.util.Objects;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.LinAlg;

/**
 * Barycentric mapping of source samples through a coupling (Reich, "A nonparametric ensemble transform method for
 * Bayesian inference", SIAM J. Sci. Comput. 2013; Courty et al. 2017, paper 002 Eq. (2) for the squared Euclidean
 * cost): each source row goes to the gamma-weighted mean of the target rows it sends mass to.
 *
 * <p>The image matrix is {@code diag(1 / (gamma 1)) gamma X_t}: one GEMM for {@code gamma X_t}, one gemv for the
 * row masses {@code gamma 1}, then a row scaling. Dividing by the actual row masses, rather than multiplying by
 * n_s as Eq. (2) writes for uniform weights, makes the map exact for any source weights and insensitive to the
 * residual marginal error of an inexact solver; for uniform weights and an exact plan both agree. A row of zero
 * mass (a zero-weight source sample, or a sample whose mass underflowed) has no barycentre: it is returned as a
 * row of zeros, and {@link #zeroMassRows} lists such rows so the caller can treat them (e.g. keep the sample
 * unmapped).
 */
public final class BarycentricMapping {
    private BarycentricMapping() {
    }

    /**
     * Barycentric images of the source rows: row i = {@code sum_j gamma_ij x_t_j / sum_j gamma_ij}, by one GEMM;
     * equals {@code n_s * gamma * X_t} for uniform source weights. Rows with zero mass are returned as NaN-free
     * zeros and reported by {@link #zeroMassRows}.
     */
    public static DenseMatrix map(DenseMatrix plan, DenseMatrix xt) {
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(xt, "xt");
        if (plan.cols() != xt.rows()) {
            throw new IllegalArgumentException("plan has " + plan.cols() + " target columns but xt has " + xt.rows()
                    + " rows");
        }
        int ns = plan.rows();
        DenseMatrix images = LinAlg.multiply(plan, xt);
        double[] mass = rowMasses(plan);
        double[] scale = new double[ns];
        for (int i = 0; i < ns; i++) {
            scale[i] = hasMass(mass[i]) ? 1.0 / mass[i] : 0.0;
        }
        double[] d = images.data();
        for (int j = 0; j < images.cols(); j++) {
            int off = j * ns;
            for (int i = 0; i < ns; i++) {
                d[off + i] *= scale[i];
            }
        }
        return images;
    }

    /** Indices (ascending) of the plan rows whose total mass is zero (or not a positive finite number). */
    public static int[] zeroMassRows(DenseMatrix plan) {
        Objects.requireNonNull(plan, "plan");
        double[] mass = rowMasses(plan);
        int[] idx = new int[mass.length];
        int k = 0;
        for (int i = 0; i < mass.length; i++) {
            if (!hasMass(mass[i])) {
                idx[k++] = i;
            }
        }
        return Arrays.copyOf(idx, k);
    }

    private static boolean hasMass(double s) {
        return s > 0 && s < Double.POSITIVE_INFINITY;
    }

    private static double[] rowMasses(DenseMatrix plan) {
        double[] ones = new double[plan.cols()];
        Arrays.fill(ones, 1.0);
        return plan.cols() == 0 ? new double[plan.rows()] : LinAlg.multiply(plan, ones);
    }
}
