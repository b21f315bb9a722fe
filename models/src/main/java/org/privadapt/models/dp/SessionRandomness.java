package org.privadapt.models.dp;

import org.privadapt.privacy.noise.NoiseSource;

/**
 * DP-SGD's randomness from a {@link NoiseSource}: Poisson sampling with its exact Bernoulli draws and the
 * hardened Gaussian vector sampler for the gradient noise.
 */
public final class SessionRandomness implements NoiseAndSampling {
    private final NoiseSource source;
    /** Secure sources only: the noise being drawn ahead for the next addGaussian calls ({@link #prefetchGaussian}). */
    private Ahead ahead;
    /** The background draws' own source (a split of {@link #source}) and thread, made on first use. */
    private NoiseSource background;
    private java.util.concurrent.ThreadPoolExecutor thread;

    private final boolean drawAhead;

    public SessionRandomness(NoiseSource source) {
        this(source, source.isPrivate());
    }

    /** For tests: {@code drawAhead} makes a seeded source draw ahead too (reproducibly, from its first split). */
    SessionRandomness(NoiseSource source, boolean drawAhead) {
        this.source = source;
        this.drawAhead = drawAhead;
    }

    @Override
    public boolean bernoulli(double p) {
        return source.bernoulli(p);
    }

    @Override
    public void addGaussian(double[] v, double sigma) {
        Ahead a = ahead;
        if (a != null && a.next < a.lengths.length && a.lengths[a.next] == v.length && sigma > 0
                && sigma != Double.POSITIVE_INFINITY) {
            double[] w = a.await();
            int off = a.offset;
            for (int i = 0; i < v.length; i++) {
                v[i] += sigma * w[off + i]; // w = (Z1+Z2+Z3+Z4)/2 exactly, so this is the sampler's (sigma/2)(Z1+...+Z4)
            }
            a.offset += v.length;
            a.next++;
            if (a.next == a.lengths.length) {
                ahead = null; // used once, then dropped
            }
            return;
        }
        ahead = null; // not the calls announced: what was drawn ahead is discarded, never used later
        source.vectors().addNoise(v, sigma);
    }

    /**
     * With a secure source, draws the announced noise ahead on one background thread from a split of the source (its
     * own AES stream): hardened standard normals {@code (Z1+Z2+Z3+Z4)/2} (the sampler's construction with sigma 1,
     * exact: halving is exact), scaled when asked for. With a seeded source nothing is drawn ahead: its draws stay in
     * the one reproducible order.
     */
    @Override
    public void prefetchGaussian(int[] lengths) {
        ahead = null;
        if (!drawAhead || lengths.length == 0) {
            return;
        }
        if (background == null) {
            background = source.split();
            thread = new java.util.concurrent.ThreadPoolExecutor(0, 1, 1, java.util.concurrent.TimeUnit.SECONDS,
                    new java.util.concurrent.LinkedBlockingQueue<>(), r -> {
                        Thread t = new Thread(r, "privadapt-noise-ahead");
                        t.setDaemon(true);
                        return t;
                    });
        }
        long total = 0;
        for (int n : lengths) {
            total += n;
        }
        if (total > Integer.MAX_VALUE - 8) {
            return;
        }
        int size = (int) total;
        NoiseSource bg = background;
        ahead = new Ahead(lengths.clone(), thread.submit(() -> {
            double[] w = new double[size];
            new org.privadapt.privacy.noise.GaussianVectorSampler(bg.bits(), 1).addNoise(w, 1.0);
            return w;
        }));
    }

    @Override
    public boolean isPrivate() {
        return source.isPrivate();
    }

    @Override
    public String description() {
        return source.samplerDescription();
    }

    /** Noise drawn ahead for arrays of the given lengths, consumed in order. */
    private static final class Ahead {
        final int[] lengths;
        final java.util.concurrent.Future<double[]> draws;
        int next;
        int offset;

        Ahead(int[] lengths, java.util.concurrent.Future<double[]> draws) {
            this.lengths = lengths;
            this.draws = draws;
        }

        double[] await() {
            try {
                return draws.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while drawing noise", e);
            } catch (java.util.concurrent.ExecutionException e) {
                throw new IllegalStateException("drawing noise ahead failed", e.getCause());
            }
        }
    }
}
