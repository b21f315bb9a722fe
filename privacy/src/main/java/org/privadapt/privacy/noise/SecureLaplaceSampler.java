package org.privadapt.privacy.noise;

import java.math.BigInteger;

/**
 * Laplace-like noise that cannot be undone by looking at floating-point bits (Mironov 2012): the output is always
 * on the grid {@code g Z} and is an exact integer sample, not a transformed uniform double.
 *
 * <p>For {@code addNoise(x, Delta, epsilon)}:
 * <ol>
 *   <li>{@code g = granularity(Delta, epsilon)}, the smallest power of two {@code >= (Delta / epsilon) / 2^40};</li>
 *   <li>{@code x} is snapped to {@code r = round(x / g)} (nearest integer, ties to even);</li>
 *   <li>{@code K} is drawn from the two-sided geometric (discrete Laplace) distribution
 *       {@code P(K = k) = (1 - e^-lambda) / (1 + e^-lambda) * exp(-lambda |k|)} on the integers, with
 *       {@code lambda = g epsilon / (Delta + g)} rounded down by a relative 2^-50;</li>
 *   <li>the result is {@code (r + K) g}, with the integer sum rounded once to the nearest double.</li>
 * </ol>
 * Snapping moves neighbouring inputs at most {@code Delta / g + 1} grid steps apart, and {@code lambda} makes that
 * cost at most {@code epsilon}: the mechanism is epsilon-DP, with the exception of the truncation below.
 *
 * <p>{@code K} is sampled exactly, from uniform integers only, by Canonne, Kamath and Steinke's (2020) discrete
 * Laplace algorithm with {@code lambda = s / t} the exact rational value of the double ({@code t} a power of two).
 * Samples with {@code |K| >= 2^53} are redrawn; since {@code lambda >= 2^-41}, that tail has probability below
 * {@code exp(-2^12)}, which adds a delta below 10^-1700. {@code epsilon} must therefore be at least 2^-40.
 *
 * <p>Uses the given {@link RandomBits}: secure only if they are, and confined to their thread.
 */
public final class SecureLaplaceSampler {
    /** The grid has about 2^40 points per noise scale {@code Delta / epsilon}. */
    public static final double GRANULARITY_PARAM = 0x1.0p40;
    /** The smallest epsilon accepted (2^-40, about 9.1e-13). */
    public static final double MIN_EPSILON = 0x1.0p-40;

    private static final int MAX_SAMPLE_BITS = 53;

    private final RandomBits bits;

    public SecureLaplaceSampler(RandomBits bits) {
        if (bits == null) {
            throw new IllegalArgumentException("random bits must not be null");
        }
        this.bits = bits;
    }

    /**
     * The grid spacing used for these parameters: the smallest power of two {@code >= (l1Sensitivity / epsilon) /
     * 2^40}. Outputs of {@link #addNoise} are integer multiples of it.
     *
     * @throws IllegalArgumentException for a non-positive or non-finite sensitivity, epsilon below 2^-40 or not
     *     finite, or a ratio whose granularity would leave [2^-960, 2^960]
     */
    public static double granularity(double l1Sensitivity, double epsilon) {
        if (!(l1Sensitivity > 0) || l1Sensitivity == Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException("l1Sensitivity must be finite and > 0, got " + l1Sensitivity);
        }
        if (!(epsilon > 0) || epsilon == Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException("epsilon must be finite and > 0, got " + epsilon);
        }
        if (epsilon < MIN_EPSILON) {
            throw new IllegalArgumentException("epsilon must be >= 2^-40 (about 9.1e-13), got " + epsilon);
        }
        double scale = (l1Sensitivity / epsilon) / GRANULARITY_PARAM;
        if (!(scale >= Lattice.MIN_GRANULARITY / 2) || scale > Lattice.MAX_GRANULARITY) {
            throw new IllegalArgumentException("l1Sensitivity/epsilon = " + l1Sensitivity / epsilon
                    + " is outside the supported range [2^-920, 2^1000]");
        }
        return Lattice.checkedGranularity(Lattice.ceilPowerOfTwo(scale), "l1Sensitivity/epsilon");
    }

    /**
     * {@code x} snapped to the grid plus two-sided geometric noise as described in the class comment; epsilon-DP
     * for inputs whose L1 distance between neighbours is at most {@code l1Sensitivity}.
     *
     * @throws IllegalArgumentException if {@code x} is NaN or infinite, or for parameters {@link #granularity}
     *     rejects
     */
    public double addNoise(double x, double l1Sensitivity, double epsilon) {
        if (!Double.isFinite(x)) {
            throw new IllegalArgumentException("x must be finite, got " + x);
        }
        double g = granularity(l1Sensitivity, epsilon);
        long k = sampleTwoSidedGeometric(lambda(l1Sensitivity, epsilon, g));
        return Lattice.shiftedPoint(Lattice.roundedQuotient(x, g), k, g);
    }

    /** The geometric rate used: {@code g epsilon / (Delta + g)}, rounded down so the privacy cost is &lt;= epsilon. */
    static double lambda(double l1Sensitivity, double epsilon, double g) {
        return (g * epsilon / (l1Sensitivity + g)) * (1.0 - 0x1.0p-50);
    }

    /**
     * An exact sample of {@code P(K = k) proportional to exp(-lambda |k|)} on the integers, conditioned on
     * {@code |K| < 2^53}; {@code lambda} must be a positive normal double.
     */
    long sampleTwoSidedGeometric(double lambda) {
        ExactGeometric.Rate rate = ExactGeometric.rate(lambda); // lambda = s / t exactly, t = 2^shift
        while (true) {
            // Canonne-Kamath-Steinke Algorithm 2: X = U + t V is geometric with rate 1/t, then Y = floor(X / s)
            BigInteger y = ExactGeometric.attempt(bits, rate);
            if (y == null) {
                continue;
            }
            boolean negative = bits.nextLong() < 0;
            if ((negative && y.signum() == 0) || y.bitLength() > MAX_SAMPLE_BITS) {
                continue;
            }
            return negative ? -y.longValueExact() : y.longValueExact();
        }
    }
}
