package org.privadapt.privacy.events;

/**
 * The Laplace mechanism: for a function f with L1 sensitivity Delta it releases {@code f(D) + Lap(b)^k};
 * {@code noiseMultiplier = b / Delta}, so the release is (1 / noiseMultiplier)-DP.
 */
public record LaplaceEvent(double noiseMultiplier) implements DpEvent {
    public LaplaceEvent {
        if (!(noiseMultiplier >= 0) || Double.isNaN(noiseMultiplier)) {
            throw new IllegalArgumentException("noise multiplier must be >= 0, got " + noiseMultiplier);
        }
    }

    /** The pure epsilon of the release. */
    public double epsilon() {
        return noiseMultiplier == 0 ? Double.POSITIVE_INFINITY : 1.0 / noiseMultiplier;
    }

    @Override
    public String describe() {
        return "Laplace(b/Delta=" + noiseMultiplier + ")";
    }
}
