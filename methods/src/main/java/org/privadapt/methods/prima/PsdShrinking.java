package org.privadapt.methods.prima;

import org.privadapt.math.DenseMatrix;
import org.privadapt.math.LinAlg;

/**
 * Positive semi-definite recovery by shrinking (paper 000, §4.3; Higham, Strabić, Šego 2016): for a noisy symmetric
 * C and a PSD target S, {@code Omega(alpha) = alpha S + (1 - alpha) C}; {@code f(alpha) = lambda_min(Omega(alpha))} is
 * concave with {@code f(1) = lambda_min(S) >= 0}, so the smallest alpha in [0, 1] with {@code f(alpha) >= 0} is found
 * by bisection (to 1e-10; the upper end of the bracket is returned, so the result is PSD), or in closed form when
 * the target is a positive diagonal matrix (one eigenvalue problem; see {@code shrinkToDiagonal}). Pure post-processing of
 * its input.
 *
 * <p>The default target is {@code (tr(C)/p) I}, which by Cauchy-Schwarz has Frobenius norm at most C's, as the paper
 * requires (when tr(C) &lt;= 0 a small positive multiple of I is used). Paper 000's Theorem 2 claims the shrunk matrix
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
        if (forcedToTarget(c, target)) {
            // no alpha < 1 can help (see forcedToTarget): the bisection below would end at alpha = 1 after ~34
            // eigenvalue problems; this is its answer without them
            return new Result(1.0, combine(1.0, target, c));
        }
        double[] diag = positiveDiagonal(target);
        if (diag != null) {
            Result r = shrinkToDiagonal(c, target, diag);
            if (r != null) {
                return r;
            }
        } else if (LinAlg.smallestEigenvalue(target) < 0) {
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

    /**
     * The bisection's answer in closed form when the target is a positive diagonal D (both targets here are):
     * {@code alpha D + (1 - alpha) C = (1 - alpha)(C + t D)} with {@code t = alpha / (1 - alpha)}, which is PSD iff
     * {@code t >= -lambda_min(D^-1/2 C D^-1/2)}; so one eigenvalue instead of ~34. The smallest t is nudged up
     * (by relative steps 1e-12, 2e-12, 4e-12, ...) until the result checks PSD in floating point; the first passing
     * nudge is found by galloping and bisection (null if none of 40 passes: the caller bisects).
     */
    private static Result shrinkToDiagonal(DenseMatrix c, DenseMatrix target, double[] diag) {
        int p = c.rows();
        double[] inv = new double[p];
        for (int i = 0; i < p; i++) {
            inv[i] = 1.0 / Math.sqrt(diag[i]);
        }
        DenseMatrix s = DenseMatrix.zeros(p, p);
        for (int j = 0; j < p; j++) {
            for (int i = 0; i < p; i++) {
                s.set(i, j, c.get(i, j) * inv[i] * inv[j]);
            }
        }
        double t0 = Math.max(0.0, -LinAlg.smallestEigenvalue(s.symmetrized()));
        double[] ts = new double[NUDGES];
        ts[0] = t0;
        for (int k = 1; k < NUDGES; k++) {
            ts[k] = ts[k - 1] * (1 + 1e-12 * (1L << (k - 1))) + Double.MIN_NORMAL;
        }
        // the first nudge whose result checks PSD: galloping, then bisection (PSD-ness grows with t), so about
        // 2 log2(k) eigenvalue problems instead of k; only a nudge that passed the check is ever returned
        DenseMatrix[] outs = new DenseMatrix[NUDGES];
        if (passes(0, ts, target, c, outs)) {
            return result(0, ts, outs);
        }
        int fail = 0;
        int pass = -1;
        for (int probe = 1; probe < NUDGES; probe = Math.min(2 * probe + 1, NUDGES - 1)) {
            if (passes(probe, ts, target, c, outs)) {
                pass = probe;
                break;
            }
            fail = probe;
            if (probe == NUDGES - 1) {
                break;
            }
        }
        if (pass < 0) {
            return null;
        }
        while (pass - fail > 1) {
            int mid = (fail + pass) >>> 1;
            if (passes(mid, ts, target, c, outs)) {
                pass = mid;
            } else {
                fail = mid;
            }
        }
        return result(pass, ts, outs);
    }

    /** Nudges of t tried by {@code shrinkToDiagonal}: t_k = t_(k-1) (1 + 1e-12 2^(k-1)) + MIN_NORMAL. */
    private static final int NUDGES = 40;

    private static boolean passes(int k, double[] ts, DenseMatrix target, DenseMatrix c, DenseMatrix[] outs) {
        double alpha = ts[k] / (1 + ts[k]);
        DenseMatrix out = combine(alpha, target, c);
        if (LinAlg.smallestEigenvalue(out) >= 0) {
            outs[k] = out;
            return true;
        }
        return false;
    }

    private static Result result(int k, double[] ts, DenseMatrix[] outs) {
        return new Result(ts[k] / (1 + ts[k]), outs[k]);
    }

    /**
     * Whether the target is a non-negative diagonal and some j has {@code T_jj = 0 > C_jj}: then
     * {@code Omega(alpha)_jj = (1 - alpha) C_jj < 0} for every alpha &lt; 1, so no alpha &lt; 1 gives a PSD matrix and the
     * smallest admissible alpha is 1 (the target itself). With the diagonal target {@code diag(max(C_jj, 0))} this
     * happens as soon as one noisy variance is negative.
     */
    static boolean forcedToTarget(DenseMatrix c, DenseMatrix target) {
        int p = c.rows();
        boolean forced = false;
        for (int j = 0; j < p; j++) {
            for (int i = 0; i < p; i++) {
                double v = target.get(i, j);
                if (i != j && v != 0) {
                    return false;
                }
            }
            if (!(target.get(j, j) >= 0)) {
                return false; // not a PSD diagonal: left to the checks of the general path
            }
            forced |= target.get(j, j) == 0 && c.get(j, j) < 0;
        }
        return forced;
    }

    /** The diagonal of a diagonal matrix with positive entries, else null. */
    private static double[] positiveDiagonal(DenseMatrix t) {
        int p = t.rows();
        double[] d = new double[p];
        for (int j = 0; j < p; j++) {
            for (int i = 0; i < p; i++) {
                double v = t.get(i, j);
                if (i == j) {
                    if (!(v > 0)) {
                        return null;
                    }
                    d[i] = v;
                } else if (v != 0) {
                    return null;
                }
            }
        }
        return d;
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
