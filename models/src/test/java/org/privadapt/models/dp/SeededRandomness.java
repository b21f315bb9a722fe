package org.privadapt.models.dp;

import java.util.SplittableRandom;

/** Seeded randomness for tests (not private). */
final class SeededRandomness implements NoiseAndSampling {
    private final SplittableRandom rng;

    SeededRandomness(long seed) {
        this.rng = new SplittableRandom(seed);
    }

    @Override
    public boolean bernoulli(double p) {
        return rng.nextDouble() < p;
    }

    @Override
    public void addGaussian(double[] v, double sigma) {
        for (int i = 0; i < v.length; i++) {
            v[i] += sigma * Math.sqrt(-2 * Math.log(1 - rng.nextDouble())) * Math.cos(2 * Math.PI * rng.nextDouble());
        }
    }

    @Override
    public boolean isPrivate() {
        return false;
    }

    @Override
    public String description() {
        return "test SplittableRandom (NOT PRIVATE)";
    }
}
