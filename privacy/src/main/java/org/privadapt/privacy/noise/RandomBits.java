package org.privadapt.privacy.noise;

import java.util.Objects;

/**
 * A stream of independent uniform random bits, the only source of randomness of the noise samplers.
 *
 * <p>Every method is derived from {@link #nextLong()}, which returns 64 independent uniform bits; the derived
 * methods are exact (unbiased) transformations of those bits, with no floating-point approximation except where
 * stated ({@link #nextDouble()} has 53-bit resolution by definition).
 *
 * <p><b>Thread confinement.</b> Implementations are stateful and <em>not</em> thread-safe: an instance must be
 * used by one thread at a time. To draw in another thread, call {@link #split()} in the owning thread and hand
 * the new, independent stream to the other thread.
 */
public interface RandomBits {
    /** 64 independent uniform bits. */
    long nextLong();

    /**
     * Fills {@code dst[off .. off+len)} with the next {@code len} words, exactly as {@code len} calls of
     * {@link #nextLong()} would, and leaves the stream in the same state. Implementations may read in bulk.
     *
     * @throws IndexOutOfBoundsException if the range is not inside {@code dst}
     */
    default void nextLongs(long[] dst, int off, int len) {
        Objects.checkFromIndexSize(off, len, dst.length);
        for (int i = off; i < off + len; i++) {
            dst[i] = nextLong();
        }
    }

    /**
     * A uniform double in [0, 1) with 53 random bits: {@code k * 2^-53} with {@code k} uniform on
     * {0, ..., 2^53 - 1}.
     */
    default double nextDouble() {
        return (nextLong() >>> 11) * 0x1.0p-53;
    }

    /**
     * A uniform integer in [0, bound), exactly unbiased (Lemire's multiply-and-reject on 32-bit draws).
     *
     * @throws IllegalArgumentException if {@code bound <= 0}
     */
    default int nextInt(int bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("bound must be > 0, got " + bound);
        }
        long product = (nextLong() >>> 32) * bound;
        long low = product & 0xffffffffL;
        if (low < bound) {
            long threshold = (0x1_0000_0000L - bound) % bound;
            while (low < threshold) {
                product = (nextLong() >>> 32) * bound;
                low = product & 0xffffffffL;
            }
        }
        return (int) (product >>> 32);
    }

    /**
     * A uniform long in [0, bound), exactly unbiased (rejection of the incomplete top interval of 63-bit draws).
     *
     * @throws IllegalArgumentException if {@code bound <= 0}
     */
    default long nextLong(long bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("bound must be > 0, got " + bound);
        }
        if ((bound & (bound - 1)) == 0) {
            return (nextLong() >>> 1) & (bound - 1);
        }
        long limit = Long.MAX_VALUE - (Long.MAX_VALUE % bound + 1) % bound; // largest multiple of bound, minus 1
        long draw = nextLong() >>> 1;
        while (draw > limit) {
            draw = nextLong() >>> 1;
        }
        return draw % bound;
    }

    /**
     * True with probability exactly {@code p} (the real number the double {@code p} denotes): the uniform draws are
     * compared with the binary expansion of {@code p}, 63 bits at a time, until they differ. Used for Poisson
     * sampling of records, where a biased coin would change the sampling rate the accountant assumes.
     *
     * @throws IllegalArgumentException if {@code p} is NaN or outside [0, 1]
     */
    default boolean nextBernoulli(double p) {
        if (!(p >= 0.0 && p <= 1.0)) {
            throw new IllegalArgumentException("probability must be in [0, 1], got " + p);
        }
        if (p == 1.0) {
            return true;
        }
        double rest = p;
        while (rest > 0.0) {
            double scaled = rest * 0x1.0p63; // exact: scaling by a power of two, result < 2^63
            double whole = Math.floor(scaled);
            long digits = (long) whole;
            long draw = nextLong() >>> 1;
            if (draw != digits) {
                return draw < digits;
            }
            rest = scaled - whole; // exact: the fractional part of a double is representable
        }
        return false;
    }

    /** True if the bits are unpredictable to an adversary (a cryptographically secure generator). */
    boolean isSecure();

    /** A stable, human-readable description of the generator; a non-secure generator's contains "NOT PRIVATE". */
    String name();

    /**
     * A new stream, independent of this one (and of any other split), for use by another thread. Calling it
     * advances or reseeds this stream's state as the implementation documents.
     */
    RandomBits split();
}
