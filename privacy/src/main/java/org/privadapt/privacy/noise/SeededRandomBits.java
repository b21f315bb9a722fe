package org.privadapt.privacy.noise;

import java.util.Objects;
import java.util.SplittableRandom;

/**
 * Reproducible bits for experiments: {@link SplittableRandom} (SplitMix64) from a seed. <b>Not private</b>: anyone
 * who knows or guesses the seed can reproduce the noise and subtract it, so results produced with it carry no
 * differential-privacy guarantee; {@link #isSecure()} is false and {@link #name()} says "NOT PRIVATE".
 *
 * <p>The same seed gives the same sequence on every run and JVM. {@link #split()} is deterministic too: the n-th
 * split of a stream is a function of the seed and n. Not thread-safe (see {@link RandomBits}).
 */
public final class SeededRandomBits implements RandomBits {
    private final SplittableRandom random;
    private final long seed;
    private final int depth;

    /** The stream of the given seed. */
    public SeededRandomBits(long seed) {
        this(new SplittableRandom(seed), seed, 0);
    }

    private SeededRandomBits(SplittableRandom random, long seed, int depth) {
        this.random = random;
        this.seed = seed;
        this.depth = depth;
    }

    /** The seed of the root stream this one descends from. */
    public long seed() {
        return seed;
    }

    @Override
    public long nextLong() {
        return random.nextLong();
    }

    @Override
    public void nextLongs(long[] dst, int off, int len) {
        Objects.checkFromIndexSize(off, len, dst.length);
        for (int i = off; i < off + len; i++) {
            dst[i] = random.nextLong();
        }
    }

    @Override
    public boolean isSecure() {
        return false;
    }

    @Override
    public String name() {
        return "SplittableRandom(seed=" + seed + (depth == 0 ? "" : ", split depth " + depth) + ") NOT PRIVATE";
    }

    /** A deterministic child stream (the next split of this stream's {@link SplittableRandom}). */
    @Override
    public SeededRandomBits split() {
        return new SeededRandomBits(random.split(), seed, depth + 1);
    }
}
