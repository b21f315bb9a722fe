package org.privadapt.privacy.events;

/**
 * The Gaussian mechanism: for a function f with L2 sensitivity Delta (under the relation in force) it releases
 * {@code f(D) + N(0, sigma^2 I)}; {@code noiseMultiplier = sigma / Delta}. Its privacy is exactly that of
 * distinguishing N(0, s^2) from N(1, s^2) with s the noise multiplier.
 */
public record GaussianEvent(double noiseMultiplier) implements DpEvent {
    public GaussianEvent {
        if (!(noiseMultiplier >= 0) || Double.isNaN(noiseMultiplier)) {
            throw new IllegalArgumentException("noise multiplier must be >= 0, got " + noiseMultiplier);
        }
    }

    @Override
    public String describe() {
        return "Gaussian(sigma/Delta=" + noiseMultiplier + ")";
    }
}
