package org.privadapt.privacy.accounting;

import ch.obermuhlner.math.big.BigDecimalMath;
import java.math.BigDecimal;
import java.math.MathContext;

/**
 * Multi-precision reference values, computed independently of the production code (different formulas, 50-80
 * significant digits with big-math): the RDP moment {@code A_alpha} of the sampled Gaussian mechanism as the
 * defining integral, and the standard normal CDF as a power series.
 */
final class MpOracle {
    static final MathContext MC = new MathContext(50);

    private MpOracle() {
    }

    /**
     * {@code A_alpha = integral phi_s(z) ((1-q) + q exp((2z-1)/(2 s^2)))^alpha dz} by the trapezoidal rule with step
     * s/16 on [-45 s, alpha + 45 s] (the integrand is smooth and negligible, below e^-1000 relative, outside; the
     * trapezoidal rule converges geometrically for such integrands, with error far below 1e-30 at this step).
     */
    static BigDecimal sampledGaussianA(double qd, double sd, double alphad) {
        BigDecimal q = new BigDecimal(qd);
        BigDecimal s = new BigDecimal(sd);
        BigDecimal alpha = new BigDecimal(alphad);
        BigDecimal oneMinusQ = BigDecimal.ONE.subtract(q, MC);
        BigDecimal twoS2 = s.multiply(s, MC).multiply(BigDecimal.valueOf(2), MC);
        BigDecimal norm = BigDecimal.ONE.divide(s.multiply(BigDecimalMath.sqrt(BigDecimalMath.pi(MC).multiply(BigDecimal.valueOf(2), MC), MC), MC), MC);
        double lo = -45 * sd;
        double hi = Math.max(alphad, 1) + 45 * sd;
        BigDecimal h = s.divide(BigDecimal.valueOf(16), MC);
        int n = (int) Math.ceil((hi - lo) / (sd / 16));
        BigDecimal sum = BigDecimal.ZERO;
        BigDecimal z = new BigDecimal(lo);
        for (int k = 0; k <= n; k++) {
            BigDecimal gauss = BigDecimalMath.exp(z.multiply(z, MC).negate().divide(twoS2, MC), MC);
            BigDecimal shifted = BigDecimalMath.exp(z.multiply(BigDecimal.valueOf(2), MC).subtract(BigDecimal.ONE).divide(twoS2, MC), MC);
            BigDecimal mix = oneMinusQ.add(q.multiply(shifted, MC), MC);
            BigDecimal f = gauss.multiply(BigDecimalMath.pow(mix, alpha, MC), MC);
            sum = sum.add(k == 0 || k == n ? f.divide(BigDecimal.valueOf(2), MC) : f, MC);
            z = z.add(h, MC);
        }
        return sum.multiply(h, MC).multiply(norm, MC);
    }

    /** RDP of the sampled Gaussian mechanism from the integral: {@code log(A) / (alpha - 1)}. */
    static double sampledGaussianRdp(double q, double s, double alpha) {
        BigDecimal a = sampledGaussianA(q, s, alpha);
        return BigDecimalMath.log(a, MC).divide(new BigDecimal(alpha - 1), MC).doubleValue();
    }

    /** Standard normal CDF from the power series of erf, at 80 digits (for |x| <= 8). */
    static BigDecimal phi(BigDecimal x) {
        MathContext mc = new MathContext(80);
        BigDecimal u = x.divide(BigDecimalMath.sqrt(BigDecimal.valueOf(2), mc), mc);
        BigDecimal u2 = u.multiply(u, mc);
        BigDecimal term = u; // u^(2n+1) (-1)^n / n!
        BigDecimal sum = BigDecimal.ZERO;
        for (int n = 0; n < 2000; n++) {
            BigDecimal add = term.divide(BigDecimal.valueOf(2L * n + 1), mc);
            sum = sum.add(add, mc);
            if (add.abs().compareTo(new BigDecimal("1e-78")) < 0 && n > 10) {
                break;
            }
            term = term.multiply(u2, mc).negate().divide(BigDecimal.valueOf(n + 1), mc);
        }
        BigDecimal erf = sum.multiply(BigDecimal.valueOf(2), mc).divide(BigDecimalMath.sqrt(BigDecimalMath.pi(mc), mc), mc);
        return BigDecimal.ONE.add(erf, mc).divide(BigDecimal.valueOf(2), mc);
    }

    /** Exact delta of the Gaussian mechanism (Balle-Wang Thm 8) in multi-precision. */
    static double gaussianDelta(double sigma, double epsilon, double sensitivity) {
        MathContext mc = new MathContext(80);
        BigDecimal a = new BigDecimal(sensitivity).divide(new BigDecimal(2 * sigma), mc);
        BigDecimal b = new BigDecimal(epsilon).multiply(new BigDecimal(sigma), mc).divide(new BigDecimal(sensitivity), mc);
        BigDecimal first = phi(a.subtract(b, mc));
        BigDecimal second = BigDecimalMath.exp(new BigDecimal(epsilon), mc).multiply(phi(a.negate().subtract(b, mc)), mc);
        return first.subtract(second, mc).doubleValue();
    }
}
