package org.privadapt.models.dp;

import java.util.SplittableRandom;

/**
 * Seeded randomness for what protects nobody: batch sampling of public or non-private data (DANN's source batches,
 * DPDA's public source). It draws no noise ({@link #addGaussian} refuses), so it can never stand in for a private
 * party's randomness, and, unlike a seeded {@link org.privadapt.privacy.noise.NoiseSource}, it does not mark the run
 * as not private.
 */
public final class PublicRandomness implements NoiseAndSampling {
    private final SplittableRandom rng;

    public PublicRandomness(long seed) {
        this.rng = new SplittableRandom(seed);
    }

    @Override
    public boolean bernoulli(double p) {
        return rng.nextDouble() < p;
    }

    @Override
    public void addGaussian(double[] v, double sigma) {
        throw new IllegalStateException("public randomness draws no DP noise: a private party's steps need its own noise source");
    }

    @Override
    public boolean isPrivate() {
        return false;
    }

    @Override
    public String description() {
        return "seeded sampling of public data (no noise)";
    }
}
