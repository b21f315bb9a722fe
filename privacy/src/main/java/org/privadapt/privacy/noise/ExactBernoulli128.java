package org.privadapt.privacy.noise;

/**
 * The coins of {@link ExactBernoulli} for rationals whose numerator and denominator fit in 128 unsigned bits, in
 * two-word ({@code hi}, {@code lo}) integer arithmetic instead of {@link java.math.BigInteger}.
 *
 * <p>Every method makes the same decisions from the same random bits, drawn in the same order, as its
 * {@code ExactBernoulli} counterpart: it is the same function of the bit stream, only without allocation. (Seeded
 * results therefore do not change; ExactBernoulli128Test checks the equivalence against the BigInteger code on
 * random inputs, including the number of bits consumed.) The exponent of {@link SecureGaussianSampler} has a
 * numerator below 2^124 and a denominator {@code 2 s^2 <= 2^113}, well inside this range.
 */
final class ExactBernoulli128 {
    private ExactBernoulli128() {
    }

    /**
     * True with probability {@code exp(-(nHi:nLo) / (dHi:dLo))}, for a numerator {@code >= 0} and a denominator
     * {@code > 0}, both unsigned 128-bit; as {@link ExactBernoulli#expMinus}.
     */
    static boolean expMinus(RandomBits bits, long nHi, long nLo, long dHi, long dLo) {
        if (dHi == 0 && dLo == 0) {
            throw new IllegalArgumentException("denominator must be > 0");
        }
        // quotient q = floor(N / D) and remainder r = N - q D: estimate in floating point, then correct exactly
        long q = (long) Math.floor(toDouble(nHi, nLo) / toDouble(dHi, dLo));
        q = Math.max(q - 1, 0);
        long[] qd = multiplySmall(dHi, dLo, q);
        if (qd == null || compare(qd[0], qd[1], nHi, nLo) > 0) {
            q = 0;
            qd = new long[] {0, 0};
        }
        long rHi = nHi - qd[0] - (Long.compareUnsigned(nLo, qd[1]) < 0 ? 1 : 0);
        long rLo = nLo - qd[1];
        while (compare(rHi, rLo, dHi, dLo) >= 0) {
            long borrow = Long.compareUnsigned(rLo, dLo) < 0 ? 1 : 0;
            rLo -= dLo;
            rHi = rHi - dHi - borrow;
            q++;
        }
        for (long i = 0; i < q; i++) {
            if (!ExactBernoulli.expMinusOne(bits)) {
                return false;
            }
        }
        return expMinusFraction(bits, rHi, rLo, dHi, dLo);
    }

    /** True with probability {@code exp(-r / D)} for {@code 0 <= r < D}; as {@link ExactBernoulli#expMinusFraction}. */
    static boolean expMinusFraction(RandomBits bits, long rHi, long rLo, long dHi, long dLo) {
        if (rHi == 0 && rLo == 0) {
            return true;
        }
        long k = 1;
        while (ExactBernoulli.oneIn(bits, k) && ratio(bits, rHi, rLo, dHi, dLo)) {
            k++;
        }
        return (k & 1) == 1;
    }

    /** True with probability {@code r / D}, for {@code 0 <= r <= D}, D > 0; as {@link ExactBernoulli#ratio}. */
    static boolean ratio(RandomBits bits, long rHi, long rLo, long dHi, long dLo) {
        if (dHi == 0 && bitLength(0, dLo) <= 62) {
            return Long.compareUnsigned(bits.nextLong(dLo), rLo) < 0; // r <= D < 2^62, so rHi == 0
        }
        // bitLength(D - 1)
        long mHi = dHi - (dLo == 0 ? 1 : 0);
        long mLo = dLo - 1;
        int length = bitLength(mHi, mLo);
        long[] draw = new long[2];
        while (true) {
            uniformBits(bits, length, draw);
            if (compare(draw[0], draw[1], dHi, dLo) < 0) {
                return compare(draw[0], draw[1], rHi, rLo) < 0;
            }
        }
    }

    /**
     * A uniform integer in [0, 2^length), length &lt;= 128, into {@code out = {hi, lo}}: the same bits as
     * {@link ExactBernoulli#uniformBits} (little-endian bytes of successive words, read as a big-endian number).
     */
    static void uniformBits(RandomBits bits, int length, long[] out) {
        if (length > 128) {
            throw new IllegalArgumentException("length " + length + " > 128");
        }
        if (length <= 63) {
            out[0] = 0;
            out[1] = length == 0 ? 0 : bits.nextLong() >>> (64 - length);
            return;
        }
        // bytes b_0 b_1 ... are the words' bytes, least significant first; the number is b_0 b_1 ... big-endian,
        // i.e. the byte-reversed first word followed by the leading r bytes of the byte-reversed second word
        int bytes = (length + 7) / 8;
        long first = Long.reverseBytes(bits.nextLong());
        long hi;
        long lo;
        if (bytes == 8) {
            hi = 0;
            lo = first;
        } else {
            long second = Long.reverseBytes(bits.nextLong());
            int r = 8 * (bytes - 8);
            if (r == 64) {
                hi = first;
                lo = second;
            } else {
                hi = first >>> (64 - r);
                lo = (first << r) | (second >>> (64 - r));
            }
        }
        // keep the low 'length' bits (the BigInteger code masks the leading byte's excess bits)
        if (length < 128 && length > 64) {
            hi &= -1L >>> (128 - length);
        }
        out[0] = hi;
        out[1] = lo;
    }

    /** Unsigned comparison of two 128-bit integers. */
    static int compare(long aHi, long aLo, long bHi, long bLo) {
        int c = Long.compareUnsigned(aHi, bHi);
        return c != 0 ? c : Long.compareUnsigned(aLo, bLo);
    }

    /** Bit length of an unsigned 128-bit integer. */
    static int bitLength(long hi, long lo) {
        return hi != 0 ? 128 - Long.numberOfLeadingZeros(hi) : 64 - Long.numberOfLeadingZeros(lo);
    }

    /** {@code (hi:lo) * m} for {@code m >= 0}, or null if it does not fit in 128 unsigned bits. */
    static long[] multiplySmall(long hi, long lo, long m) {
        if (m < 0) {
            throw new IllegalArgumentException("negative multiplier");
        }
        long lowHigh = unsignedMultiplyHigh(lo, m);
        long hiLow = hi * m;
        if (unsignedMultiplyHigh(hi, m) != 0) {
            return null;
        }
        long newHi = hiLow + lowHigh;
        if (Long.compareUnsigned(newHi, hiLow) < 0) {
            return null;
        }
        return new long[] {newHi, lo * m};
    }

    /** The high word of the unsigned 128-bit product of two unsigned 64-bit words. */
    static long unsignedMultiplyHigh(long a, long b) {
        return Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
    }

    private static double toDouble(long hi, long lo) {
        return unsignedToDouble(hi) * 0x1.0p64 + unsignedToDouble(lo);
    }

    private static double unsignedToDouble(long v) {
        double d = (double) (v >>> 1) * 2.0;
        return d + (v & 1);
    }
}
