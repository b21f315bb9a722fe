package org.privadapt.methods.prima;

import org.privadapt.math.DenseMatrix;
import org.privadapt.math.LinAlg;

/**
 * Positive semi-definite recovery by shrinking (paper 000, §4.3; Higham, Strabić, Šego 2016): for a noisy symmetric
 * C and a PSD target S, {@code Omega(alpha) = alpha S + (1 - alpha) C}; {@code f(alpha) = lambda_min(Omega(alpha))} is
 * concave with {@code f(1) = lambda_min(S) >= 0}, so the smallest alpha in [0, 1] with {@code f(alpha) >= 0} is found
 * by bisection (to 1e-10; the upper end of the bracket is returned, so the result is PSD). Pure post-processing of
 * its input.
 *
 * <p>The default target is {@code (tr(C)/p) I}, which by Cauchy-Schwarz has Frobenius norm at most C's, as the paper
 * requires (when tr(C) <= 0 a small positive multiple of I is used). Paper 000's Theorem 2 claims the shrunk matrix
 * is then always closer to the true covariance than the noisy one; that is false in general (see
 * docs/privacy/prima.md for a counterexample, also a test), so shrinking is kept as the paper's recovery step, not as
 * a guaranteed improvement.
 */
public final class PsdShrinking {
    private PsdShrinking() {
    }

    /** The result: the shrinkage weight and the PSD matrix. */
    public record Result(double alpha, DenseMatrix matrix) {
    }

    public static DenseMatrix defaultTarget(DenseMatrix c) {
        int p = c.rows();
        double mu = c.trace() / p;
        if (!(mu > 0)) {
            mu = 1e-6 * Math.max(c.frobeniusNorm() / Math.sqrt(p), 1e-300);
        }
        return DenseMatrix.identity(p).scale(mu);
    }

    /** {@code diag(max(C_jj, 0))}, or the default target when no diagonal entry is positive. */
    public static DenseMatrix diagonalTarget(DenseMatrix c) {
        int p = c.rows();
        DenseMatrix t = DenseMatrix.zeros(p, p);
        boolean any = false;
        for (int j = 0; j < p; j++) {
            double v = Math.max(c.get(j, j), 0.0);
            any |= v > 0;
            t.set(j, j, v);
        }
        return any ? t : defaultTarget(c);
    }

    public static Result shrink(DenseMatrix c) {
        return shrink(c, defaultTarget(c));
    }

    public static Result shrink(DenseMatrix c, DenseMatrix target) {
        if (LinAlg.smallestEigenvalue(c) >= 0) {
            return new Result(0.0, c.copy());
        }
        if (LinAlg.smallestEigenvalue(target) < 0) {
            throw new IllegalArgumentException("shrinkage target is not positive semi-definite");
        }
        double lo = 0.0;
        double hi = 1.0;
        while (hi - lo > 1e-10) {
            double mid = 0.5 * (lo + hi);
            if (LinAlg.smallestEigenvalue(combine(mid, target, c)) >= 0) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return new Result(hi, combine(hi, target, c));
    }

    static DenseMatrix combine(double alpha, DenseMatrix target, DenseMatrix c) {
        DenseMatrix out = c.scale(1 - alpha);
        out.addScaledInPlace(alpha, target);
        out.symmetrizeInPlace();
        return out;
    }

    /** Eigenvalue flooring: {@code V max(w, floor) V^T}, the recovery used by the variants without shrinking. */
    public static DenseMatrix floorEigenvalues(DenseMatrix c, double floor) {
        return LinAlg.eigh(c).apply(w -> Math.max(w, floor));
    }
}
