package org.privadapt.models.dp;

import org.privadapt.privacy.noise.GaussianVectorSampler;

/**
 * The randomness DP-SGD needs: independent Bernoulli draws for Poisson sampling of records, and Gaussian noise
 * for the clipped gradient sum. Both must come from a cryptographically secure source for the guarantee to hold
 * (an adversary who can predict the sample loses the amplification); a seeded source is for experiments and is
 * reported as not private.
 */
public interface NoiseAndSampling {
    /** True with probability p, independently of every other draw. */
    boolean bernoulli(double p);

    /**
     * A Poisson batch of the records {@code 0 .. n-1}, each joining independently with probability q, increasing. By
     * default one {@link #bernoulli} draw per record in record order (the draws every trainer made before this method
     * existed, so seeded runs keep their batches).
     */
    default int[] poissonBatch(int n, double q) {
        int[] idx = new int[16];
        int size = 0;
        for (int i = 0; i < n; i++) {
            if (bernoulli(q)) {
                if (size == idx.length) {
                    idx = java.util.Arrays.copyOf(idx, idx.length * 2);
                }
                idx[size++] = i;
            }
        }
        return java.util.Arrays.copyOf(idx, size);
    }

    /**
     * True when the batches come from a stream of their own, independent of the noise's, so that a trainer may draw
     * several steps' batches ahead without changing any draw ({@link PoissonBatches}); false by default (one stream,
     * batches and noise interleaved step by step).
     */
    default boolean samplingSeparate() {
        return false;
    }

    /** Adds independent N(0, sigma^2) noise to every element of v, in place. */
    void addGaussian(double[] v, double sigma);

    /** False when the randomness is seeded (experiments): results are then not differentially private. */
    boolean isPrivate();

    /** Which generator and samplers are in use (recorded in the ledger). */
    String description();

    /**
     * Starts drawing the Gaussian noise for vectors of these lengths ahead, on another core, while the caller computes
     * what it will be added to ({@link GaussianVectorSampler#drawAhead}); null when the noise must be drawn in order
     * (reproducible bits) or there is no other core, and then the caller uses {@link #addGaussian}.
     */
    default GaussianVectorSampler.Ahead gaussianAhead(int[] lengths, double sigma) {
        return null;
    }

    /**
     * Starts drawing N(0, sigma^2) hardened noise over {@code buffer[0, count)} ahead, on another core
     * ({@link GaussianVectorSampler#drawAheadInto}), for a caller that uses it piece by piece; null as for
     * {@link #gaussianAhead}.
     */
    default GaussianVectorSampler.Ahead gaussianAheadInto(double[] buffer, int count, double sigma) {
        return null;
    }
}
