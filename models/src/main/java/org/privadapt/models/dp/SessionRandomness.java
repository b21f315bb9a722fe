package org.privadapt.models.dp;

import org.privadapt.privacy.noise.GaussianVectorSampler;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * DP-SGD's randomness from a {@link NoiseSource}: Poisson sampling with its exact Bernoulli draws and the
 * hardened Gaussian vector sampler for the gradient noise.
 */
public final class SessionRandomness implements NoiseAndSampling {
    private final NoiseSource source;

    public SessionRandomness(NoiseSource source) {
        this.source = source;
    }

    @Override
    public boolean bernoulli(double p) {
        return source.bernoulli(p);
    }

    @Override
    public void addGaussian(double[] v, double sigma) {
        source.vectors().addNoise(v, sigma);
    }

    @Override
    public GaussianVectorSampler.Ahead gaussianAhead(int[] lengths, double sigma) {
        return source.vectors().drawAhead(lengths, sigma);
    }

    @Override
    public GaussianVectorSampler.Ahead gaussianAheadInto(double[] buffer, int count, double sigma) {
        return source.vectors().drawAheadInto(buffer, count, sigma);
    }

    @Override
    public boolean isPrivate() {
        return source.isPrivate();
    }

    @Override
    public String description() {
        return source.samplerDescription();
    }
}
