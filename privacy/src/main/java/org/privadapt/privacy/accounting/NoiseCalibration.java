package org.privadapt.privacy.accounting;

import org.privadapt.privacy.events.DpEvent;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.events.PoissonSampledEvent;
import org.privadapt.privacy.events.SelfComposedEvent;

/**
 * The smallest noise multiplier that reaches a target (epsilon, delta) for DP-SGD-like training: {@code steps}
 * repetitions of the Poisson-subsampled Gaussian mechanism with sampling probability q. Epsilon falls as the noise
 * multiplier grows, so the answer is bracketed and bisected; the upper end of the final bracket is returned, so
 * the calibrated multiplier never overshoots the target (its epsilon is at most the target), and it is within a
 * relative 1e-9 of the smallest such multiplier.
 */
public final class NoiseCalibration {
    private NoiseCalibration() {
    }

    /** The event whose epsilon is calibrated. */
    public static DpEvent dpSgdEvent(double noiseMultiplier, double samplingProbability, long steps) {
        return new SelfComposedEvent(new PoissonSampledEvent(samplingProbability, new GaussianEvent(noiseMultiplier)), steps);
    }

    /**
     * @throws IllegalArgumentException for invalid targets, or when even a noise multiplier of 10^6 does not reach
     *                                  the target
     */
    public static double noiseMultiplier(PrivacyAccountant accountant, double targetEpsilon, double delta,
                                         double samplingProbability, long steps) {
        if (steps < 1) {
            throw new IllegalArgumentException("steps must be >= 1, got " + steps);
        }
        return smallest(s -> dpSgdEvent(s, samplingProbability, steps), accountant, targetEpsilon, delta,
                "q=" + samplingProbability + " and " + steps + " steps");
    }

    /**
     * The smallest noise multiplier s for which {@code family.apply(s)} (an event whose epsilon falls as s grows,
     * e.g. a fixed prior release composed with s-noised training) has epsilon at most the target; the upper end of
     * the final bisection bracket, so it never overshoots.
     */
    public static double smallest(java.util.function.DoubleFunction<DpEvent> family, PrivacyAccountant accountant,
                                  double targetEpsilon, double delta, String what) {
        if (!(targetEpsilon > 0) || Double.isInfinite(targetEpsilon)) {
            throw new IllegalArgumentException("target epsilon must be a positive number, got " + targetEpsilon);
        }
        RdpAccountant.checkDelta(delta);
        double hi = 1.0;
        while (accountant.epsilon(family.apply(hi), delta) > targetEpsilon) {
            hi *= 2;
            if (hi > 1e6) {
                throw new IllegalArgumentException("no noise multiplier up to 1e6 reaches epsilon " + targetEpsilon
                        + " at delta " + delta + " for " + what);
            }
        }
        double lo = hi / 2;
        while (lo > 1e-9 && accountant.epsilon(family.apply(lo), delta) <= targetEpsilon) {
            hi = lo;
            lo /= 2;
        }
        for (int it = 0; it < 200 && (hi - lo) > 1e-9 * hi; it++) {
            double mid = 0.5 * (lo + hi);
            if (accountant.epsilon(family.apply(mid), delta) <= targetEpsilon) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }
}
