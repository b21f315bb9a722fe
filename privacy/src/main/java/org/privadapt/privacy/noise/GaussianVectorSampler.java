package org.privadapt.privacy.noise;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

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
 * <p>Vectors longer than {@value #CHUNK} coordinates are cut into chunks of {@value #CHUNK}; chunk c gets the c-th
 * {@link RandomBits#split()} of this sampler's bits (split in order, in the calling thread), and the chunks are
 * filled by at most {@code parallelism} threads (the caller and tasks in the common fork-join pool). The result
 * depends only on the bits' state and the vector length, never on the thread count or timing: with
 * {@link SeededRandomBits} it is reproducible. Shorter vectors use this sampler's bits directly.
 *
 * <p>Not thread-safe: the sampler draws from (and splits) its bits, which are confined to one thread.
 */
public final class GaussianVectorSampler {
    /** Coordinates per chunk (and per split stream). */
    public static final int CHUNK = 1 << 16;

    private final RandomBits bits;
    private final int parallelism;

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
        if (v.length <= CHUNK) {
            fill(v, 0, v.length, bits, sigma);
            return;
        }
        int chunks = (v.length + CHUNK - 1) / CHUNK;
        RandomBits[] streams = new RandomBits[chunks];
        for (int c = 0; c < chunks; c++) {
            streams[c] = bits.split();
        }
        AtomicInteger next = new AtomicInteger();
        Runnable worker = () -> {
            for (int c = next.getAndIncrement(); c < chunks; c = next.getAndIncrement()) {
                int from = c * CHUNK;
                fill(v, from, Math.min(v.length, from + CHUNK), streams[c], sigma);
            }
        };
        int helpers = Math.min(parallelism, chunks) - 1;
        List<Future<?>> tasks = new ArrayList<>(helpers);
        for (int h = 0; h < helpers; h++) {
            tasks.add(ForkJoinPool.commonPool().submit(worker));
        }
        worker.run();
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

    private static void fill(double[] v, int from, int to, RandomBits stream, double sigma) {
        double half = 0.5 * sigma;
        for (int i = from; i < to; i++) {
            v[i] += half * (Ziggurat.next(stream) + Ziggurat.next(stream) + Ziggurat.next(stream)
                    + Ziggurat.next(stream));
        }
    }

    private static double hardened(RandomBits stream) {
        return 0.5 * (Ziggurat.next(stream) + Ziggurat.next(stream) + Ziggurat.next(stream) + Ziggurat.next(stream));
    }
}
