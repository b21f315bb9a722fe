package org.privadapt.privacy.noise;

/**
 * A stream's 64-bit words read ahead in bulk, consumed in their order: {@link #next()} returns the buffered words
 * first and then continues with the stream itself. The buffer is only ever filled with words the caller is certain to
 * consume (see {@link GaussianVectorSampler}), so the sequence of words used, and the stream's state afterwards, are
 * exactly those of calling {@link RandomBits#nextLong()} once per word: bulk reading changes the speed, never a value.
 *
 * <p>Not thread-safe; confined to the thread that owns its stream.
 */
final class LongCursor {
    private final long[] buffer;
    private int position;
    private int limit;
    private RandomBits stream;

    /** A cursor that can hold up to {@code capacity} words ahead. */
    LongCursor(int capacity) {
        this.buffer = new long[capacity];
    }

    /** Reads exactly {@code words} words of {@code stream} ahead (at most the capacity) and continues with it. */
    LongCursor fill(RandomBits stream, int words) {
        stream.nextLongs(buffer, 0, words);
        this.stream = stream;
        this.position = 0;
        this.limit = words;
        return this;
    }

    /** Reads nothing ahead: every word comes from {@code stream} as it is needed. */
    LongCursor direct(RandomBits stream) {
        this.stream = stream;
        this.position = 0;
        this.limit = 0;
        return this;
    }

    /** The next word of the sequence. */
    long next() {
        return position < limit ? buffer[position++] : stream.nextLong();
    }

    /** A 53-bit uniform double in [0, 1), as {@link RandomBits#nextDouble()} makes it from one word. */
    double nextDouble() {
        return (next() >>> 11) * 0x1.0p-53;
    }

    /** Whether words read ahead remain unused (they must not, when the caller hands the stream on). */
    boolean hasBuffered() {
        return position < limit;
    }
}
