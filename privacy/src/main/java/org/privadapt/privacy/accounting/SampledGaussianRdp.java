package org.privadapt.privacy.accounting;

/**
 * RDP of the Poisson-subsampled Gaussian mechanism (Mironov, Talwar, Zhang, "Rényi Differential Privacy of the
 * Sampled Gaussian Mechanism", 2019, Section 3.3): sampling probability q, noise multiplier s, order alpha > 1,
 * {@code RDP(alpha) = log(A_alpha) / (alpha - 1)} with
 * {@code A_alpha = E_{z ~ N(0, s^2)} [((1 - q) + q exp((2z - 1) / (2 s^2)))^alpha]}.
 *
 * <ul>
 *   <li>Integer alpha: the binomial expansion
 *       {@code A = sum_{i=0..alpha} C(alpha,i) (1-q)^{alpha-i} q^i exp((i^2 - i) / (2 s^2))}, exactly, in log space.</li>
 *   <li>Fractional alpha: the paper's two-sided series. With {@code z0 = s^2 log(1/q - 1) + 1/2} splitting the
 *       integral where the mixture's two terms cross,
 *       {@code A = sum_i C(alpha,i) q^i (1-q)^{alpha-i} e^{(i^2-i)/(2s^2)} erfc((i - z0)/(sqrt2 s))/2
 *              + sum_i C(alpha,i) q^{alpha-i} (1-q)^i e^{((alpha-i)^2-(alpha-i))/(2s^2)} erfc((z0-(alpha-i))/(sqrt2 s))/2}.
 *       The generalised binomial coefficients C(alpha, i) change sign for i > alpha; the terms are summed with
 *       their signs (positive and negative parts kept apart in log space and subtracted once at the end), which
 *       is exact rather than the upper bound a sum of absolute values gives. Beyond i > alpha the signs alternate
 *       and the magnitudes decrease, so stopping once a term is below e^-30 of |A - 1| bounds the truncation error
 *       by that term (alternating series) at about 1e-13 relative on the RDP (A itself is often close to 1). The decay can be only polynomial (when
 *       q is large the exponential factors cancel and the terms fall like i^-(alpha+2)), so up to 10^6 terms are
 *       allowed.</li>
 * </ul>
 * Edge cases: q = 0 gives 0; s = 0 gives +infinity; q = 1 gives the plain Gaussian {@code alpha / (2 s^2)}.
 */
public final class SampledGaussianRdp {
    /** Beyond this many terms the series is abandoned (the accountant then bounds the order by the next integer one). */
    private static final int MAX_TERMS = 100_000;

    private SampledGaussianRdp() {
    }

    public static double rdp(double q, double s, double alpha) {
        if (!(q >= 0 && q <= 1)) {
            throw new IllegalArgumentException("sampling probability must be in [0, 1], got " + q);
        }
        if (!(alpha > 1)) {
            throw new IllegalArgumentException("RDP order must be > 1, got " + alpha);
        }
        if (q == 0) {
            return 0.0;
        }
        if (s == 0) {
            return Double.POSITIVE_INFINITY;
        }
        if (q == 1) {
            return alpha / (2 * s * s);
        }
        if (Double.isInfinite(alpha)) {
            return Double.POSITIVE_INFINITY;
        }
        double logA = alpha == Math.rint(alpha) ? logAInteger(q, s, (long) alpha) : logAFractional(q, s, alpha);
        return logA / (alpha - 1);
    }

    /** {@code log A_alpha} for integer alpha: log-sum-exp of the binomial expansion. */
    static double logAInteger(double q, double s, long alpha) {
        double logQ = Math.log(q);
        double log1mQ = Math.log1p(-q);
        double logA = Double.NEGATIVE_INFINITY;
        double logBinom = 0.0; // log C(alpha, 0)
        for (long i = 0; i <= alpha; i++) {
            if (i > 0) {
                logBinom += Math.log((double) (alpha - i + 1)) - Math.log((double) i);
            }
            double term = logBinom + i * logQ + (alpha - i) * log1mQ + ((double) i * i - i) / (2 * s * s);
            logA = LogMath.logAdd(logA, term);
        }
        return logA;
    }

    /** {@code log A_alpha} for fractional alpha: the signed two-sided series. */
    static double logAFractional(double q, double s, double alpha) {
        double logQ = Math.log(q);
        double log1mQ = Math.log1p(-q);
        double z0 = s * s * Math.log(1 / q - 1) + 0.5;
        double sqrt2s = Math.sqrt(2.0) * s;
        double logPos = Double.NEGATIVE_INFINITY;
        double logNeg = Double.NEGATIVE_INFINITY;
        double logAbsBinom = 0.0; // log |C(alpha, 0)|
        int sign = 1;
        double previousMax = Double.POSITIVE_INFINITY;
        for (int i = 0; i < MAX_TERMS; i++) {
            if (i > 0) {
                double factor = (alpha - (i - 1)) / i; // C(alpha,i) = C(alpha,i-1) (alpha-i+1)/i
                if (factor < 0) {
                    sign = -sign;
                }
                logAbsBinom += Math.log(Math.abs(factor));
            }
            double j = alpha - i;
            double t0 = logAbsBinom + i * logQ + j * log1mQ + ((double) i * i - i) / (2 * s * s)
                    + Math.log(0.5) + LogMath.logErfc((i - z0) / sqrt2s);
            double t1 = logAbsBinom + j * logQ + i * log1mQ + (j * j - j) / (2 * s * s)
                    + Math.log(0.5) + LogMath.logErfc((z0 - j) / sqrt2s);
            double termLog = LogMath.logAdd(t0, t1);
            if (sign > 0) {
                logPos = LogMath.logAdd(logPos, termLog);
            } else {
                logNeg = LogMath.logAdd(logNeg, termLog);
            }
            double thisMax = Math.max(t0, t1);
            // Beyond alpha the signs alternate and the magnitudes decrease, so the error of stopping is at most the
            // first omitted term. The RDP is log(A)/(alpha-1) with A often close to 1, so the term must be small
            // relative to A - 1 (not to A): e^-30 of |A - 1|, about 1e-13 relative on the RDP.
            double ref;
            if (logNeg < logPos) {
                double logA = LogMath.logSub(logPos, logNeg);
                ref = logA > 1 ? logA : Math.log(Math.abs(Math.expm1(logA)) + 1e-300);
            } else {
                ref = Math.max(logPos, logNeg);
            }
            if (i > alpha + 1 && thisMax < ref - 30 && thisMax <= previousMax) {
                if (logNeg >= logPos) {
                    throw new ArithmeticException("RDP series for q=" + q + ", s=" + s + ", alpha=" + alpha
                            + " lost all precision (negative part >= positive part)");
                }
                return LogMath.logSub(logPos, logNeg);
            }
            previousMax = thisMax;
        }
        throw new ArithmeticException("RDP series for q=" + q + ", s=" + s + ", alpha=" + alpha + " did not converge in "
                + MAX_TERMS + " terms");
    }
}
