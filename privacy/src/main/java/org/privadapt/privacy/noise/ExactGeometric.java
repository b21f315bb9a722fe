package org.privadapt.privacy.noise;

import java.math.BigInteger;

/**
 * Exact geometric variates of rate lambda (a positive double, so a dyadic rational s / 2^shift): Y with
 * {@code P(Y >= y) = exp(-lambda y)}, by Canonne, Kamath and Steinke (2020, Algorithm 2): U uniform on
 * {@code [0, 2^shift)} kept with probability {@code exp(-U / 2^shift)}, V the number of Bernoulli(exp(-1)) successes
 * before a failure, {@code X = U + 2^shift V} is geometric with rate {@code 2^-shift}, and {@code Y = floor(X / s)}. Only
 * uniform integers and exact coins, no floating point. The two-sided geometric of {@link SecureLaplaceSampler} and the
 * gaps of {@link PoissonSampling#sampleByGaps} draw from it.
 */
final class ExactGeometric {
    /** lambda as s / 2^shift. */
    record Rate(BigInteger s, BigInteger t, int shift) {
    }

    private ExactGeometric() {
    }

    /** {@code lambda} as an exact dyadic rational (a positive normal double). */
    static Rate rate(double lambda) {
        if (!(lambda >= Double.MIN_NORMAL) || lambda == Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException("lambda must be finite and >= 2^-1022, got " + lambda);
        }
        long mantissa = (Double.doubleToRawLongBits(lambda) & 0x000f_ffff_ffff_ffffL) | (1L << 52);
        int exponent = Math.getExponent(lambda) - 52;
        int zeros = Long.numberOfTrailingZeros(mantissa);
        mantissa >>>= zeros;
        exponent += zeros;
        BigInteger s = BigInteger.valueOf(mantissa).shiftLeft(Math.max(exponent, 0));
        int shift = Math.max(-exponent, 0);
        return new Rate(s, BigInteger.ONE.shiftLeft(shift), shift);
    }

    /**
     * One attempt of the algorithm: Y, or null when U was rejected (probability about 1 - (1 - 1/e)); a caller repeats
     * until it gets a value. The draws are U's bits, the coins for {@code exp(-U/t)}, then V's coins.
     */
    static BigInteger attempt(RandomBits bits, Rate r) {
        BigInteger u = ExactBernoulli.uniformBits(bits, r.shift());
        if (!ExactBernoulli.expMinusFraction(bits, u, r.t())) {
            return null;
        }
        long v = 0;
        while (ExactBernoulli.expMinusOne(bits)) {
            v++;
        }
        return u.add(BigInteger.valueOf(v).shiftLeft(r.shift())).divide(r.s());
    }

    /** A geometric variate of rate r (attempts repeated until one is kept). */
    static BigInteger sample(RandomBits bits, Rate r) {
        while (true) {
            BigInteger y = attempt(bits, r);
            if (y != null) {
                return y;
            }
        }
    }
}
