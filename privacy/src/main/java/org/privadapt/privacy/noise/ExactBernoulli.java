package org.privadapt.privacy.noise;

import java.math.BigInteger;

/**
 * Coins with exactly specified probabilities, built from uniform integers only (no floating point): p = a/b for
 * integers, and p = exp(-a/b) by the method of Canonne, Kamath and Steinke (2020, Algorithm 1), which accepts
 * with probability {@code exp(-gamma)} by running Bernoulli(gamma/K) trials for K = 1, 2, ... and returning the
 * parity of the number of trials made.
 */
final class ExactBernoulli {
    private ExactBernoulli() {
    }

    /** A uniform integer in [0, bound), bound > 0: draws of bitLength(bound - 1) bits, rejecting those >= bound. */
    static BigInteger uniformBelow(RandomBits bits, BigInteger bound) {
        if (bound.bitLength() <= 62) {
            return BigInteger.valueOf(bits.nextLong(bound.longValue()));
        }
        int length = bound.subtract(BigInteger.ONE).bitLength();
        while (true) {
            BigInteger draw = uniformBits(bits, length);
            if (draw.compareTo(bound) < 0) {
                return draw;
            }
        }
    }

    /** A uniform integer in [0, 2^length). */
    static BigInteger uniformBits(RandomBits bits, int length) {
        if (length <= 63) {
            return BigInteger.valueOf(length == 0 ? 0 : bits.nextLong() >>> (64 - length));
        }
        byte[] bytes = new byte[(length + 7) / 8];
        for (int i = 0; i < bytes.length; i += 8) {
            long word = bits.nextLong();
            for (int b = 0; b < 8 && i + b < bytes.length; b++) {
                bytes[i + b] = (byte) (word >>> (8 * b));
            }
        }
        int excess = bytes.length * 8 - length;
        bytes[0] &= (byte) (0xff >>> excess);
        return new BigInteger(1, bytes);
    }

    /** True with probability {@code numerator / denominator}, for 0 &lt;= numerator &lt;= denominator. */
    static boolean ratio(RandomBits bits, BigInteger numerator, BigInteger denominator) {
        return uniformBelow(bits, denominator).compareTo(numerator) < 0;
    }

    /** True with probability 1/k, k >= 1. */
    static boolean oneIn(RandomBits bits, long k) {
        return k == 1 || bits.nextLong(k) == 0;
    }

    /** True with probability exp(-1). */
    static boolean expMinusOne(RandomBits bits) {
        long k = 1;
        while (oneIn(bits, k)) {
            k++;
        }
        return (k & 1) == 1; // as in expMinusFraction with gamma = 1
    }

    /** True with probability exp(-numerator / denominator), for numerator >= 0, denominator > 0. */
    static boolean expMinus(RandomBits bits, BigInteger numerator, BigInteger denominator) {
        BigInteger[] split = numerator.divideAndRemainder(denominator);
        for (BigInteger i = BigInteger.ZERO; i.compareTo(split[0]) < 0; i = i.add(BigInteger.ONE)) {
            if (!expMinusOne(bits)) {
                return false;
            }
        }
        return expMinusFraction(bits, split[1], denominator);
    }

    /** True with probability exp(-numerator / denominator), for 0 &lt;= numerator &lt; denominator. */
    static boolean expMinusFraction(RandomBits bits, BigInteger numerator, BigInteger denominator) {
        if (numerator.signum() == 0) {
            return true;
        }
        long k = 1;
        // a Bernoulli(gamma / k) trial is an independent Bernoulli(1/k) and Bernoulli(gamma)
        while (oneIn(bits, k) && ratio(bits, numerator, denominator)) {
            k++;
        }
        return (k & 1) == 1;
    }
}
