package org.privadapt.privacy.noise;

import java.math.BigInteger;
import java.util.Arrays;

/**
 * Poisson sampling of n records at rate q, exactly, from a fraction of a word of random bits per record: every record
 * joins the batch independently with probability exactly q (the double's value), as n calls of
 * {@link RandomBits#nextBernoulli} would decide, but reading eight bits per record where those read 63.
 *
 * <p>Why it is exact. A record joins iff a uniform U in [0, 1) is below q. Write q's binary expansion in bytes
 * {@code q = 0.q_1 q_2 ... q_m} (base 256; a double's expansion ends, m at most 135) and read U a byte at a time from
 * independent uniform bytes {@code u_1, u_2, ...}: U &lt; q iff at the first index where they differ u_j &lt; q_j, and
 * U &gt;= q if they agree on all m bytes (U's remaining bytes are then at least q's, which are zero). Each record's
 * bytes are disjoint bytes of the stream, so the records' decisions are independent, and each is decided by its first
 * byte unless that byte equals {@code q_1} (probability 1/256), when further bytes are read. This is
 * {@link RandomBits#nextBernoulli}'s comparison with 8-bit digits instead of 63-bit ones; the decisions have the same
 * distribution, not the same values for the same bits.
 *
 * <p>Cost: about one byte of the keystream and one comparison per record (n/8 words), against one word per record for
 * per-record coins; for n = 10^6 about 10^6 byte comparisons a step, where DP-SGD's batch is a few hundred records.
 */
public final class PoissonSampling {
    private PoissonSampling() {
    }

    /**
     * The records {@code 0 <= i < n} that join, increasing.
     *
     * @throws IllegalArgumentException if n is negative or q is NaN or outside [0, 1]
     */
    public static int[] sample(RandomBits bits, int n, double q) {
        int[] trivial = trivial(n, q);
        if (trivial != null) {
            return trivial;
        }
        int[] digits = digits(q);
        int first = digits[0];
        Bytes stream = new Bytes(bits);
        int[] out = new int[(int) Math.min(n, 2 * Math.ceil(q * n) + 16)];
        int size = 0;
        for (int i = 0; i < n; i++) {
            int u = stream.next();
            boolean joins;
            if (u != first) {
                joins = u < first;
            } else {
                joins = refine(stream, digits);
            }
            if (joins) {
                if (size == out.length) {
                    out = Arrays.copyOf(out, out.length * 2);
                }
                out[size++] = i;
            }
        }
        return Arrays.copyOf(out, size);
    }

    /**
     * Poisson sampling by geometric gaps: O(q n) draws instead of n. The gaps between members are exact geometric
     * variates ({@link ExactGeometric}) of rate {@link #gapRate}(q), so every record joins independently with probability
     * {@code 1 - exp(-gapRate(q))}, which is at most q and below it by about 1e-16 relative (the rate is rounded down to a
     * double below {@code -ln(1 - q)}). A privacy accountant told q is therefore conservative: the subsampled Gaussian's
     * epsilon grows with the sampling rate, and the rate used is at most the rate accounted. The records that join,
     * increasing.
     *
     * @throws IllegalArgumentException if n is negative or q is NaN or outside [0, 1]
     */
    public static int[] sampleByGaps(RandomBits bits, int n, double q) {
        int[] trivial = trivial(n, q);
        if (trivial != null) {
            return trivial;
        }
        ExactGeometric.Rate rate = ExactGeometric.rate(gapRate(q));
        BigInteger left = BigInteger.valueOf(n);
        int[] out = new int[(int) Math.min(n, 2 * Math.ceil(q * n) + 16)];
        int size = 0;
        long at = -1; // the last member's index
        while (true) {
            BigInteger gap = ExactGeometric.sample(bits, rate); // records skipped before the next member
            if (gap.compareTo(left) >= 0) {
                break;
            }
            at += gap.longValue() + 1;
            if (at >= n) {
                break;
            }
            if (size == out.length) {
                out = Arrays.copyOf(out, out.length * 2);
            }
            out[size++] = (int) at;
            left = BigInteger.valueOf(n - 1 - at);
        }
        return Arrays.copyOf(out, size);
    }

    /**
     * The gaps' geometric rate for a sampling rate q in (0, 1): a double gamma with {@code gamma < -ln(1 - q)}, so that
     * {@code 1 - exp(-gamma) < q} (log1p is within one ulp of the exact value and semi-monotone; two steps down make the
     * bound strict), and at least 2^-1022.
     */
    public static double gapRate(double q) {
        if (!(q > 0.0 && q < 1.0)) {
            throw new IllegalArgumentException("the gaps' rate needs q in (0, 1), got " + q);
        }
        double gamma = Math.nextDown(Math.nextDown(-Math.log1p(-q)));
        if (!(gamma >= Double.MIN_NORMAL)) {
            throw new IllegalArgumentException("q = " + q + " is too small for the gaps' rate");
        }
        return gamma;
    }

    /**
     * The batch when no draw is needed (no rows, q 0: none; q 1: all), else null; refuses a negative n and a q that is
     * NaN or outside [0, 1].
     */
    private static int[] trivial(int n, double q) {
        if (n < 0) {
            throw new IllegalArgumentException("n must be >= 0, got " + n);
        }
        if (!(q >= 0.0 && q <= 1.0)) {
            throw new IllegalArgumentException("probability must be in [0, 1], got " + q);
        }
        if (q == 0.0 || n == 0) {
            return new int[0];
        }
        if (q == 1.0) {
            int[] all = new int[n];
            Arrays.setAll(all, i -> i);
            return all;
        }
        return null;
    }

    /** The decision once the first byte ties: compare the next bytes with q's next digits (U >= q if all tie). */
    private static boolean refine(Bytes stream, int[] digits) {
        for (int j = 1; j < digits.length; j++) {
            int u = stream.next();
            if (u != digits[j]) {
                return u < digits[j];
            }
        }
        return false;
    }

    /**
     * q's binary expansion in base-256 digits, most significant first, up to its last non-zero digit (q in (0, 1)):
     * each digit is the integer part of the remainder scaled by 256, exact in floating point (scaling by a power of two
     * and taking the fractional part of a double are exact).
     */
    static int[] digits(double q) {
        int[] d = new int[140];
        int m = 0;
        double rest = q;
        while (rest > 0.0) {
            double scaled = rest * 256.0;
            double whole = Math.floor(scaled);
            d[m++] = (int) whole;
            rest = scaled - whole;
        }
        return Arrays.copyOf(d, m);
    }

    /** Uniform bytes read from the words of a bit stream, least significant byte first. */
    private static final class Bytes {
        private final RandomBits bits;
        private final long[] words = new long[512];
        private int word = words.length;
        private int byteInWord = 8;

        Bytes(RandomBits bits) {
            this.bits = bits;
        }

        int next() {
            if (byteInWord == 8) {
                if (++word >= words.length) {
                    bits.nextLongs(words, 0, words.length);
                    word = 0;
                }
                byteInWord = 0;
            }
            return (int) (words[word] >>> (8 * byteInWord++)) & 0xff;
        }
    }
}
