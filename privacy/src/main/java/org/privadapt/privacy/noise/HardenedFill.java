package org.privadapt.privacy.noise;

/**
 * The kernels that draw hardened Gaussian noise into a range of a vector for {@link GaussianVectorSampler}: each
 * coordinate gets {@code sigma (Z1 + Z2 + Z3 + Z4) / 2} from {@link Ziggurat}, with the words read in bulk
 * ({@link #fill}) or, for AES keystream, where the cipher wrote them ({@link #fillInPlace}). Either way the values,
 * and the words used, equal one {@code nextLong()} per word. Which thread fills which range, and from which stream,
 * is the sampler's business; these only fill.
 */
final class HardenedFill {
    private HardenedFill() {
    }

    /**
     * Fills {@code v[from, to)} from {@code stream}. The words are read {@value GaussianVectorSampler#BLOCK}
     * coordinates at a time, and only as many as the block is certain to use (4 per coordinate: rejections take
     * more, from the buffer first and then from the stream), so the words used are exactly those of one
     * {@code nextLong()} per draw.
     */
    static void fill(double[] v, int from, int to, RandomBits stream, double sigma) {
        if (stream instanceof SecureRandomBits secure) {
            fillInPlace(v, from, to, secure, sigma, false);
            return;
        }
        double half = 0.5 * sigma;
        LongCursor cursor = new LongCursor(4 * Math.min(GaussianVectorSampler.BLOCK, to - from));
        for (int start = from; start < to; start += GaussianVectorSampler.BLOCK) {
            int end = Math.min(to, start + GaussianVectorSampler.BLOCK);
            cursor.fill(stream, 4 * (end - start));
            for (int i = start; i < end; i++) {
                v[i] += half * (Ziggurat.next(cursor) + Ziggurat.next(cursor) + Ziggurat.next(cursor)
                        + Ziggurat.next(cursor));
            }
        }
    }

    /**
     * {@link #fill} from AES keystream read where the cipher wrote it (no copy, the read position in a local): a
     * coordinate whose four words all fall in their rectangles (94 %) is computed here, exactly as
     * {@link Ziggurat#next(LongCursor)} computes each draw; any other, and any whose four words straddle the end of a
     * request, is drawn by {@link Ziggurat#next(LongCursor)} from the same position. So every value, and the words
     * used, equal one {@code nextLong()} per word, as in {@link #fill}. With {@code overwrite} the noise is written
     * over {@code v[from, to)} as if it were added to zeros (0.0 + x, as before: the same doubles).
     */
    static void fillInPlace(double[] v, int from, int to, SecureRandomBits s, double sigma, boolean overwrite) {
        double half = 0.5 * sigma;
        LongCursor slow = new LongCursor(0);
        long[] inside = Ziggurat.INSIDE;
        double[] width = Ziggurat.W;
        byte[] ks = s.keystream();
        int last = s.byteLimit() - 4 * Long.BYTES; // the last offset where a coordinate's four words fit
        int i = from;
        while (i < to) {
            s.ensureWords();
            int p = s.bytePosition();
            for (; i < to && p <= last; i++) {
                long u0 = SecureRandomBits.wordAt(ks, p);
                long u1 = SecureRandomBits.wordAt(ks, p + 8);
                long u2 = SecureRandomBits.wordAt(ks, p + 16);
                long u3 = SecureRandomBits.wordAt(ks, p + 24);
                int l0 = (int) u0 & 0xff;
                int l1 = (int) u1 & 0xff;
                int l2 = (int) u2 & 0xff;
                int l3 = (int) u3 & 0xff;
                long m0 = u0 >>> 11;
                long m1 = u1 >>> 11;
                long m2 = u2 >>> 11;
                long m3 = u3 >>> 11;
                if ((m0 - inside[l0] & m1 - inside[l1] & m2 - inside[l2] & m3 - inside[l3]) < 0) { // all four inside
                    v[i] = (overwrite ? 0.0 : v[i]) + half * (signed(m0 * width[l0], u0) + signed(m1 * width[l1], u1) + signed(m2 * width[l2], u2)
                            + signed(m3 * width[l3], u3));
                    p += 4 * Long.BYTES;
                } else {
                    s.consumeTo(p);
                    v[i] = (overwrite ? 0.0 : v[i]) + half * standardInPlace(s, ks, slow);
                    p = s.bytePosition(); // a request may have ended and the next begun (the same buffer)
                }
            }
            if (i < to) { // fewer than four words left in this request
                s.consumeTo(p);
                v[i] = (overwrite ? 0.0 : v[i]) + half * standardInPlace(s, ks, slow);
                i++;
            } else {
                s.consumeTo(p);
            }
        }
    }

    /**
     * {@code Z1 + Z2 + Z3 + Z4} from {@code s}'s next words, one draw at a time: a draw whose word falls in its
     * rectangle is computed in place, any other by {@link Ziggurat#next(LongCursor)} from that word on (which takes
     * its further words with {@code nextLong()}, starting a new request when one ends).
     */
    private static double standardInPlace(SecureRandomBits s, byte[] ks, LongCursor slow) {
        double sum = 0;
        for (int k = 0; k < 4; k++) {
            s.ensureWords();
            int p = s.bytePosition();
            long u = SecureRandomBits.wordAt(ks, p);
            int layer = (int) u & 0xff;
            long m = u >>> 11;
            double z;
            if (m < Ziggurat.INSIDE[layer]) {
                z = signed(m * Ziggurat.W[layer], u);
                s.consumeTo(p + Long.BYTES);
            } else {
                z = Ziggurat.next(slow.direct(s)); // reads the word u again, then what it needs after it
            }
            sum = k == 0 ? z : sum + z; // ((Z1 + Z2) + Z3) + Z4, as the reference adds them
        }
        return sum;
    }

    /** {@code x} with bit 8 of the word {@code u} as its sign, as {@link Ziggurat#next(LongCursor)} applies it. */
    private static double signed(double x, long u) {
        return Double.longBitsToDouble(Double.doubleToRawLongBits(x) ^ ((u & 0x100) << 55));
    }
}
