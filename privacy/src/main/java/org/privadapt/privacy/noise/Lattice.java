package org.privadapt.privacy.noise;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Arithmetic on the grid {@code g Z} (g a power of two) shared by the scalar samplers. Every operation is exact
 * or a single correctly rounded step, so outputs are deterministic functions of exact lattice points.
 */
final class Lattice {
    /** Smallest granularity accepted: keeps every product with epsilon or a sample in the normal range. */
    static final double MIN_GRANULARITY = 0x1.0p-960;
    /** Largest granularity accepted: keeps {@code K g} finite for every sample magnitude below 2^62. */
    static final double MAX_GRANULARITY = 0x1.0p960;

    private static final double TWO_POW_52 = 0x1.0p52;
    private static final double TWO_POW_62 = 0x1.0p62;

    private Lattice() {
    }

    /**
     * The smallest power of two {@code >= x}, for a finite {@code x >= Double.MIN_NORMAL}; the result is an exact
     * power of two.
     */
    static double ceilPowerOfTwo(double x) {
        if (!(x >= Double.MIN_NORMAL) || x == Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException("value must be finite and >= 2^-1022, got " + x);
        }
        int exponent = Math.getExponent(x);
        boolean isPowerOfTwo = (Double.doubleToRawLongBits(x) & 0x000f_ffff_ffff_ffffL) == 0L;
        return isPowerOfTwo ? x : Math.scalb(1.0, exponent + 1);
    }

    /** Checks that {@code g} is a power of two inside [{@link #MIN_GRANULARITY}, {@link #MAX_GRANULARITY}]. */
    static double checkedGranularity(double g, String what) {
        if (!(g >= MIN_GRANULARITY && g <= MAX_GRANULARITY)) {
            throw new IllegalArgumentException(what + " gives granularity " + g + ", outside [2^-960, 2^960]");
        }
        return g;
    }

    /**
     * {@code x / g} rounded to the nearest integer (ties to even), as an integer-valued double. Exact: for
     * {@code |x| >= 2^52 g} the quotient is already an integer; otherwise {@code x / g} is computed exactly (a
     * power-of-two scaling; an underflow only happens for |x / g| far below 1/2, where the answer is 0).
     */
    static double roundedQuotient(double x, double g) {
        if (Math.abs(x) >= TWO_POW_52 * g) {
            return x / g;
        }
        return Math.rint(x / g);
    }

    /**
     * {@code (r + k) g} with one rounding: the integer sum {@code r + k} is formed exactly and then rounded to the
     * nearest double (ties to even) before the exact scaling by {@code g}. {@code r} is an integer-valued double.
     * Rounding the sample {@code k} on its own first (as {@code r * g + k * g} would for |k| > 2^53) gives
     * neighbouring grid points unequal shares of the noise (5:3 for ties-to-even in [2^54, 2^55)), which leaks.
     */
    static double shiftedPoint(double r, long k, double g) {
        if (Math.abs(r) < TWO_POW_62 && Math.abs(k) < (1L << 62)) {
            return (double) ((long) r + k) * g;
        }
        BigInteger sum = new BigDecimal(r).toBigIntegerExact().add(BigInteger.valueOf(k));
        return sum.doubleValue() * g;
    }
}
