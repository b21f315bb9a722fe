package org.privadapt.privacy.noise;

/**
 * Gaussian-like noise on a fine power-of-two grid, sampled exactly from integers (no floating-point Gaussian, so no
 * floating-point attack in the style of Mironov 2012 / Jin et al. 2022).
 *
 * <p>For {@code addNoise(x, sigma)}:
 * <ol>
 *   <li>{@code g = granularity(sigma)}, the smallest power of two {@code >= 2 sigma / 2^57}, so that
 *       {@code sqrtN = 2 sigma / g} is an integer in (2^56, 2^57] and {@code s = sigma / g = sqrtN / 2} an integer
 *       in (2^55, 2^56];</li>
 *   <li>{@code x} is snapped to {@code r = round(x / g)} (nearest integer, ties to even);</li>
 *   <li>{@code K} is drawn exactly from the discrete Gaussian {@code P(K = k) proportional to exp(-k^2 / (2 s^2))}
 *       on the integers, which is the Gaussian shape of the symmetric binomial {@code Binomial(n, 1/2) - n/2} with
 *       {@code n = sqrtN^2 = 4 s^2} (same variance {@code s^2}; total-variation distance O(1/n), below 2^-100),
 *       conditioned on {@code |K| <= 33 m} (see below);</li>
 *   <li>the result is {@code (r + K) g}, with the integer sum rounded once to the nearest double.</li>
 * </ol>
 * The noise {@code K g} has standard deviation {@code sigma} (the discrete Gaussian's variance differs from
 * {@code s^2} by a relative {@code exp(-2 pi^2 s^2)}, i.e. not at all in double precision).
 *
 * <p>Sampling follows the rejection scheme of Bringmann, Kuhn, Panagiotou, Peter and Thomas (ICALP 2014), as
 * Google's differential-privacy library does, with the acceptance test made exact: a proposal is a block index
 * {@code k} (geometric, {@code P(k) = (1 - e^-1) e^-k}, from exact Bernoulli(e^-1) coins), an offset uniform in
 * [0, m) with {@code m = ceil(sqrt(2) s)}, and a sign; it is accepted with probability
 * {@code exp(-(j^2 - 2 k s^2) / (2 s^2))}, an exact coin for a rational exponent (Canonne, Kamath, Steinke 2020),
 * computed in two-word integer arithmetic ({@link ExactBernoulli128}, the same function of the bits as the
 * BigInteger coins of {@link ExactBernoulli}).
 * About 56 % of proposals are accepted. Blocks beyond {@code k = 32} are rejected outright; the target mass
 * there is below {@code exp(-1000)}.
 *
 * <p>Uses the given {@link RandomBits}: secure only if they are, and confined to their thread.
 */
public final class SecureGaussianSampler {
    /** {@code 2 sigma / g} lies in (2^56, 2^57]. */
    public static final double BINOMIAL_BOUND = 0x1.0p57;

    static final int MAX_BLOCK = 32;

    private final RandomBits bits;
    private long cachedS;
    private long cachedTwoS2Hi;
    private long cachedTwoS2Lo;
    private long cachedM;

    public SecureGaussianSampler(RandomBits bits) {
        if (bits == null) {
            throw new IllegalArgumentException("random bits must not be null");
        }
        this.bits = bits;
    }

    /**
     * The grid spacing used for this sigma: the smallest power of two {@code >= 2 sigma / 2^57}. Outputs of
     * {@link #addNoise} are integer multiples of it.
     *
     * @throws IllegalArgumentException if sigma is not finite and > 0, or so extreme that the granularity would
     *     leave [2^-960, 2^960]
     */
    public static double granularity(double sigma) {
        if (!(sigma > 0) || sigma == Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException("sigma must be finite and > 0, got " + sigma);
        }
        double scale = 2.0 * sigma / BINOMIAL_BOUND;
        if (!(scale >= Lattice.MIN_GRANULARITY / 2) || scale > Lattice.MAX_GRANULARITY) {
            throw new IllegalArgumentException("sigma = " + sigma + " is outside the supported range [2^-905, 2^1016]");
        }
        return Lattice.checkedGranularity(Lattice.ceilPowerOfTwo(scale), "sigma");
    }

    /**
     * {@code x} snapped to the grid plus discrete Gaussian noise of standard deviation {@code sigma}, as described
     * in the class comment.
     *
     * @throws IllegalArgumentException if {@code x} is NaN or infinite, or for a sigma {@link #granularity}
     *     rejects
     */
    public double addNoise(double x, double sigma) {
        if (!Double.isFinite(x)) {
            throw new IllegalArgumentException("x must be finite, got " + x);
        }
        double g = granularity(sigma);
        long s = (long) (sigma / g); // exact: an integer-valued double in (2^55, 2^56]
        long k = sampleDiscreteGaussian(s);
        return Lattice.shiftedPoint(Lattice.roundedQuotient(x, g), k, g);
    }

    /**
     * An exact sample of {@code P(K = k) proportional to exp(-k^2 / (2 s^2))} on the integers, conditioned on
     * {@code |K| <= 33 m} with {@code m = blockWidth(s)}; {@code 1 <= s <= 2^56}.
     */
    long sampleDiscreteGaussian(long s) {
        if (s < 1 || s > (1L << 56)) {
            throw new IllegalArgumentException("s must be in [1, 2^56], got " + s);
        }
        if (s != cachedS) {
            cachedS = s;
            long hi = Math.multiplyHigh(s, s); // s^2 < 2^113 as an unsigned 128-bit (hi, lo)
            long lo = s * s;
            cachedTwoS2Hi = (hi << 1) | (lo >>> 63);
            cachedTwoS2Lo = lo << 1;
            cachedM = blockWidth(s);
        }
        long dHi = cachedTwoS2Hi;
        long dLo = cachedTwoS2Lo;
        long m = cachedM;
        while (true) {
            int k = 0;
            while (k <= MAX_BLOCK && ExactBernoulli.expMinusOne(bits)) {
                k++;
            }
            if (k > MAX_BLOCK) {
                continue;
            }
            long i = k * m + bits.nextLong(m);
            long j = bits.nextLong() < 0 ? -(i + 1) : i;
            // |j| >= k m, so j^2 >= k^2 m^2 >= 2 k s^2 (k >= 1): the exponent below is >= 0
            // exponent numerator j^2 - 2 k s^2 in exact 128-bit arithmetic (|j| < 2^62, so j^2 < 2^124)
            long jjHi = Math.multiplyHigh(j, j);
            long jjLo = j * j;
            long[] kd = ExactBernoulli128.multiplySmall(dHi, dLo, k);
            long nHi = jjHi - kd[0] - (Long.compareUnsigned(jjLo, kd[1]) < 0 ? 1 : 0);
            long nLo = jjLo - kd[1];
            if (ExactBernoulli128.expMinus(bits, nHi, nLo, dHi, dLo)) {
                return j;
            }
        }
    }

    /** The smallest m with {@code m^2 >= 2 s^2}, i.e. ceil(sqrt(2) s), checked in exact 128-bit arithmetic. */
    static long blockWidth(long s) {
        long m = (long) (Math.sqrt(2.0) * s);
        while (!coversTwoSSquared(m, s)) {
            m++;
        }
        while (m > 1 && coversTwoSSquared(m - 1, s)) {
            m--;
        }
        return m;
    }

    /** Whether m^2 >= 2 s^2, for 0 &lt; m &lt; 2^62 and 0 &lt; s &lt;= 2^56. */
    private static boolean coversTwoSSquared(long m, long s) {
        long twoS = 2 * s;
        long high = Math.multiplyHigh(m, m);
        long targetHigh = Math.multiplyHigh(twoS, s);
        return high != targetHigh ? high > targetHigh : Long.compareUnsigned(m * m, twoS * s) >= 0;
    }
}
