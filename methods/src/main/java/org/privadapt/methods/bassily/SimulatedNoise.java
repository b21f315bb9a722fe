package org.privadapt.methods.bassily;

import org.privadapt.models.dp.NoiseAndSampling;

/**
 * Gaussian noise for simulations on public rows (hyperparameter selection): seeded, not a DP release, and never
 * used on private data.
 */
final class SimulatedNoise implements NoiseAndSampling {
    private final java.util.SplittableRandom rng;

    SimulatedNoise(long seed) {
        this.rng = new java.util.SplittableRandom(seed);
    }

    @Override
    public boolean bernoulli(double p) {
        return rng.nextDouble() < p;
    }

    @Override
    public void addGaussian(double[] v, double sigma) {
        for (int i = 0; i < v.length; i++) {
            v[i] += sigma * rng.nextGaussian();
        }
    }

    @Override
    public boolean isPrivate() {
        return false;
    }

    @Override
    public String description() {
        return "simulation on public rows (seeded SplittableRandom)";
    }
}
