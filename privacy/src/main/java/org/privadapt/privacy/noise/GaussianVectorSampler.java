package org.privadapt.privacy.noise;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

/**
 * Adds hardened Gaussian noise to large vectors (DP-SGD): each coordinate receives
 * {@code sigma * (Z1 + Z2 + Z3 + Z4) / 2} with Z1..Z4 independent standard normals from {@link Ziggurat}. The sum
 * has exactly the distribution N(0, sigma^2) in exact arithmetic; in floating point it is the construction of
 * Holohan and Braghin (2021, arXiv 2107.10138), also used by Opacus' {@code secure_mode}: the sum of several
 * floating-point normals has no holes or steps that reveal which normal sample was drawn, so the attack that
 * recovers the noise-free value from the low-order bits of a single floating-point Gaussian does not apply. This is
 * a hardening, not a proof: floating-point Gaussian noise has no formal DP guarantee. Use
 * {@link SecureGaussianSampler} where the proof matters more than speed.
 *
 * <p>The words are read from the bits in bulk, and only those the draws are certain to use, so every value is the
 * one that one {@code nextLong()} per word would give (a test holds the word-at-a-time sampler as its oracle).
 *
 * <p>Threads. With reproducible bits ({@link RandomBits#isSecure()} false), vectors longer than {@value #CHUNK}
 * coordinates are cut into chunks of {@value #CHUNK}; chunk c gets the c-th {@link RandomBits#split()} of this
 * sampler's bits (split in order, in the calling thread), and the chunks are filled by at most {@code parallelism}
 * threads (the caller and tasks in the common fork-join pool). The result depends only on the bits' state and the
 * vector length, never on the thread count or timing: with {@link SeededRandomBits} it is reproducible. Shorter
 * vectors use this sampler's bits directly. With secure bits nothing is reproducible anyway, so pieces of
 * {@value #SECURE_PIECE} coordinates go to whichever thread is free, each thread drawing from its own stream (the
 * caller from this sampler's bits, each helper from one split kept for the sampler's life).
 *
 * <p>Not thread-safe: the sampler draws from (and splits) its bits, which are confined to one thread.
 */
public final class GaussianVectorSampler {
    /** Coordinates per chunk (and per split stream). */
    public static final int CHUNK = 1 << 16;

    /** Coordinates per piece handed to a thread when the bits are secure (not reproducible: any split will do). */
    static final int SECURE_PIECE = 1 << 14;

    /**
     * Coordinates per piece of noise drawn ahead ({@link #drawAhead}): smaller than {@link #SECURE_PIECE}, since the
     * caller waits for the helper's last piece (about 0.1 ms at this size).
     */
    static final int AHEAD_PIECE = 1 << 13;

    /** The most shapes of vectors whose {@link #drawAhead} buffers a sampler keeps. */
    static final int AHEAD_SHAPES = 4;

    /** Coordinates per bulk read of words (4 words each: 32 KiB of buffer). */
    static final int BLOCK = 1 << 10;

    private final RandomBits bits;
    private final int parallelism;
    private final LongCursor direct = new LongCursor(0);
    /** Secure bits only: the helper threads' streams, split from {@link #bits} on first need and reused. */
    private RandomBits[] helperStreams = new RandomBits[0];
    /**
     * Secure bits only: {@link #drawAhead}'s helper stream (its own split, never one of {@link #helperStreams}: a draw
     * ahead may still be running while {@link #addNoise} hands those to the pool), its buffers (a set per shape, for
     * up to {@value #AHEAD_SHAPES} shapes, reused by later draws of that shape: DPDA alternates two) and its last draw.
     */
    private RandomBits aheadStream;
    private final List<double[][]> aheadBuffers = new ArrayList<>();
    private Ahead pending;

    /** A sampler using up to {@code Runtime.availableProcessors()} threads. */
    public GaussianVectorSampler(RandomBits bits) {
        this(bits, Runtime.getRuntime().availableProcessors());
    }

    /**
     * A sampler using up to {@code parallelism} threads.
     *
     * @throws IllegalArgumentException unless {@code 1 <= parallelism <= Runtime.availableProcessors()}
     */
    public GaussianVectorSampler(RandomBits bits, int parallelism) {
        if (bits == null) {
            throw new IllegalArgumentException("random bits must not be null");
        }
        int cores = Runtime.getRuntime().availableProcessors();
        if (parallelism < 1 || parallelism > cores) {
            throw new IllegalArgumentException("parallelism must be in [1, " + cores + "], got " + parallelism);
        }
        this.bits = bits;
        this.parallelism = parallelism;
    }

    /** The most threads a call to {@link #addNoise} uses. */
    public int parallelism() {
        return parallelism;
    }

    /** One hardened N(0, 1) draw: {@code (Z1 + Z2 + Z3 + Z4) / 2}. */
    public double nextStandard() {
        return hardened(bits);
    }

    /**
     * Adds {@code sigma (Z1 + Z2 + Z3 + Z4) / 2} to every coordinate of {@code v}, in place.
     *
     * @throws IllegalArgumentException if {@code v} is null or {@code sigma} is not finite and > 0
     */
    public void addNoise(double[] v, double sigma) {
        if (v == null) {
            throw new IllegalArgumentException("vector must not be null");
        }
        if (!(sigma > 0) || sigma == Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException("sigma must be finite and > 0, got " + sigma);
        }
        if (v.length == 0) {
            return; // nothing to draw (the secure path would otherwise ask for -1 helpers)
        }
        if (bits.isSecure()) {
            addSecure(v, sigma);
            return;
        }
        if (v.length <= CHUNK) {
            HardenedFill.fill(v, 0, v.length, bits, sigma);
            return;
        }
        int chunks = (v.length + CHUNK - 1) / CHUNK;
        RandomBits[] streams = new RandomBits[chunks];
        for (int c = 0; c < chunks; c++) {
            streams[c] = bits.split();
        }
        AtomicInteger next = new AtomicInteger();
        inParallel(Math.min(parallelism, chunks) - 1, worker -> {
            for (int c = next.getAndIncrement(); c < chunks; c = next.getAndIncrement()) {
                int from = c * CHUNK;
                HardenedFill.fill(v, from, Math.min(v.length, from + CHUNK), streams[c], sigma);
            }
        });
    }

    /**
     * Starts drawing {@code sigma (Z1 + Z2 + Z3 + Z4) / 2} for vectors of the given lengths on another core, so that
     * the caller can do other work meanwhile (DP-SGD: compute the step's clipped sum) and then add the noise with
     * {@link Ahead#addTo}, drawing the pieces the other core has not reached itself. A draw not yet added when the
     * next one starts is given up (its {@code addTo} then fails): a later draw of its shape reuses its buffers. The
     * noise is the same construction as {@link #addNoise} and independent of anything the caller computes in between, so adding it
     * later gives the same distribution; only secure bits allow this, because the words are then taken from two
     * streams in an order that depends on timing (with seeded bits the result would no longer be reproducible).
     *
     * @return null when the bits are not secure or the sampler has one thread: the caller then uses {@link #addNoise}
     * @throws IllegalArgumentException if a length is negative or {@code sigma} is not finite and > 0
     */
    public Ahead drawAhead(int[] lengths, double sigma) {
        if (!(sigma > 0) || sigma == Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException("sigma must be finite and > 0, got " + sigma);
        }
        for (int length : lengths) {
            if (length < 0) {
                throw new IllegalArgumentException("negative vector length " + length);
            }
        }
        if (!bits.isSecure() || parallelism < 2) {
            return null;
        }
        givePendingUp();
        double[][] buffers = null;
        for (int k = 0; k < aheadBuffers.size() && buffers == null; k++) {
            if (sameLengths(aheadBuffers.get(k), lengths)) {
                buffers = aheadBuffers.remove(k);
            }
        }
        if (buffers == null) {
            buffers = new double[lengths.length][];
            for (int a = 0; a < lengths.length; a++) {
                buffers[a] = new double[lengths[a]];
            }
        }
        aheadBuffers.add(0, buffers); // most recently used first; the least recently used shape is dropped
        if (aheadBuffers.size() > AHEAD_SHAPES) {
            aheadBuffers.remove(AHEAD_SHAPES);
        }
        if (aheadStream == null) {
            aheadStream = bits.split();
        }
        Ahead ahead = new Ahead(buffers, lengths.clone(), sigma, aheadStream);
        pending = ahead;
        ForkJoinPool.commonPool().execute(ahead.pieces::helperWork);
        return ahead;
    }

    /**
     * {@link #drawAhead} into the caller's own buffer: {@code sigma (Z1 + Z2 + Z3 + Z4) / 2} is written over
     * {@code buffer[0, count)} (the rest of it is left alone) on another core while the caller works, and
     * {@link Ahead#await} draws what is left and waits for the rest. For a caller that uses the noise piece by piece
     * (DP-SGD's deferred noise for the rows a sparse batch does not read): the buffer is the caller's, and so is the
     * duty to use each value once and to read none before {@code await} returns. A draw not yet awaited when the next
     * one starts is given up (its {@code await} then fails), and the buffer must not be read.
     *
     * @return null when the bits are not secure or the sampler has one thread, as for {@link #drawAhead}
     * @throws IllegalArgumentException if {@code count} is outside {@code [0, buffer.length]} or {@code sigma} is not
     * finite and > 0
     */
    public Ahead drawAheadInto(double[] buffer, int count, double sigma) {
        if (!(sigma > 0) || sigma == Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException("sigma must be finite and > 0, got " + sigma);
        }
        if (buffer == null || count < 0 || count > buffer.length) {
            throw new IllegalArgumentException("cannot draw " + count + " coordinates into a buffer of "
                    + (buffer == null ? "null" : buffer.length));
        }
        if (!bits.isSecure() || parallelism < 2) {
            return null;
        }
        givePendingUp();
        if (aheadStream == null) {
            aheadStream = bits.split();
        }
        Ahead ahead = new Ahead(new double[][] {buffer}, new int[] {count}, sigma, aheadStream);
        pending = ahead;
        ForkJoinPool.commonPool().execute(ahead.pieces::helperWork);
        return ahead;
    }

    /**
     * An earlier draw left unused (its caller failed, or moved on): its helper must be done with the buffers, and its
     * noise is never handed out, since the buffers may now belong to a new draw.
     */
    private void givePendingUp() {
        if (pending != null) {
            pending.complete();
            pending.used = true;
            pending = null;
        }
    }

    private static boolean sameLengths(double[][] buffers, int[] lengths) {
        if (buffers.length != lengths.length) {
            return false;
        }
        for (int a = 0; a < lengths.length; a++) {
            if (buffers[a].length != lengths[a]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Noise being drawn for vectors of fixed lengths, in pieces of {@value #AHEAD_PIECE} coordinates: a helper in
     * the common fork-join pool takes pieces from the start, and {@link #addTo} draws what is left in the calling
     * thread (from the sampler's own bits), waits for the helper's last piece and adds the noise. Each piece is
     * drawn once, by one thread, from that thread's stream. Not thread-safe apart from that hand-over; one use.
     * The pieces and their drawing are {@link AheadPieces}; this class hands the noise out, once.
     */
    public final class Ahead {
        private final AheadPieces pieces;
        private boolean used;

        private Ahead(double[][] buffers, int[] lengths, double sigma, RandomBits helperStream) {
            this.pieces = new AheadPieces(buffers, lengths, sigma, helperStream);
        }

        /**
         * For {@link #drawAheadInto}: draws the pieces left in the calling thread and waits for the helper's, after
         * which the buffer's first {@code count} coordinates hold the noise, once (a second call throws).
         *
         * @throws IllegalStateException if this noise was already awaited or added, or given up for a later draw, or
         * if drawing it failed
         */
        public void await() {
            checkUnused();
            finish();
        }

        private void checkUnused() {
            if (used) {
                throw new IllegalStateException("this noise was already added or given up for a later draw; draw fresh "
                        + "noise for every release");
            }
        }

        /** Completes the draw and marks it used (no longer this sampler's pending draw). */
        private void finish() {
            complete();
            used = true;
            if (pending == this) {
                pending = null;
            }
        }

        /** Draws the pieces left in the calling thread and waits for the helper's; throws if any piece failed. */
        private void complete() {
            pieces.complete(bits);
        }

        /**
         * Adds the noise to {@code targets} (one vector per length given to {@link #drawAhead}, in that order), in
         * place, once: the same noise is never handed out twice.
         *
         * @throws IllegalStateException if this noise was already added, or given up for a later draw
         * @throws IllegalArgumentException if the targets' lengths differ from those the noise was drawn for
         */
        public void addTo(double[][] targets) {
            addTo(targets, 1.0);
        }

        /**
         * {@link #addTo(double[][])} and then multiplies every target coordinate by {@code scale}, in one pass:
         * {@code t = (t + noise) * scale}, the same doubles as adding and then scaling.
         */
        public void addTo(double[][] targets, double scale) {
            checkUnused();
            double[][] buffers = pieces.buffers();
            int[] lengths = pieces.lengths();
            if (targets.length != buffers.length) {
                throw new IllegalArgumentException(targets.length + " vectors, noise was drawn for " + buffers.length);
            }
            for (int a = 0; a < targets.length; a++) {
                if (targets[a].length != lengths[a]) {
                    throw new IllegalArgumentException("vector " + a + " has length " + targets[a].length
                            + ", noise was drawn for " + lengths[a]);
                }
            }
            finish();
            for (int a = 0; a < targets.length; a++) {
                double[] t = targets[a];
                double[] n = buffers[a];
                if (scale == 1.0) {
                    for (int i = 0; i < t.length; i++) {
                        t[i] += n[i];
                    }
                } else {
                    for (int i = 0; i < t.length; i++) {
                        t[i] = (t[i] + n[i]) * scale;
                    }
                }
            }
        }
    }

    /**
     * Secure bits are not reproducible, so nothing ties a coordinate to a stream: the calling thread draws from
     * this sampler's bits, and each helper thread from its own stream, split once and kept for later calls (a split
     * costs a cipher and a key from the DRBG). Pieces of {@value #SECURE_PIECE} coordinates go to whichever thread
     * is free.
     */
    private void addSecure(double[] v, double sigma) {
        int pieces = (v.length + SECURE_PIECE - 1) / SECURE_PIECE;
        int helpers = Math.min(parallelism, pieces) - 1;
        if (helpers == 0) {
            HardenedFill.fill(v, 0, v.length, bits, sigma);
            return;
        }
        if (helperStreams.length < helpers) {
            RandomBits[] more = Arrays.copyOf(helperStreams, helpers);
            for (int h = helperStreams.length; h < helpers; h++) {
                more[h] = bits.split();
            }
            helperStreams = more;
        }
        RandomBits[] streams = helperStreams;
        AtomicInteger next = new AtomicInteger();
        inParallel(helpers, worker -> {
            RandomBits stream = worker == 0 ? bits : streams[worker - 1];
            for (int c = next.getAndIncrement(); c < pieces; c = next.getAndIncrement()) {
                int from = c * SECURE_PIECE;
                HardenedFill.fill(v, from, Math.min(v.length, from + SECURE_PIECE), stream, sigma);
            }
        });
    }

    /**
     * Runs {@code work} as worker 0 in the calling thread and as workers 1..helpers in the common fork-join pool,
     * and returns when all have finished. The pool's hand-over and {@code Future.get} order each helper's use of
     * its stream between the calling thread's uses of it.
     */
    private static void inParallel(int helpers, IntConsumer work) {
        List<Future<?>> tasks = new ArrayList<>(helpers);
        for (int h = 1; h <= helpers; h++) {
            int worker = h;
            tasks.add(ForkJoinPool.commonPool().submit(() -> work.accept(worker)));
        }
        work.accept(0);
        for (Future<?> task : tasks) {
            try {
                task.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while adding noise", e);
            } catch (ExecutionException e) {
                throw new IllegalStateException("noise worker failed", e.getCause());
            }
        }
    }

    private double hardened(RandomBits stream) {
        LongCursor c = direct.direct(stream);
        return 0.5 * (Ziggurat.next(c) + Ziggurat.next(c) + Ziggurat.next(c) + Ziggurat.next(c));
    }
}
