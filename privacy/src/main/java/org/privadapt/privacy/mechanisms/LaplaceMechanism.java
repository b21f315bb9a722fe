package org.privadapt.privacy.mechanisms;

import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.events.LaplaceEvent;
import org.privadapt.privacy.noise.NoiseSource;
import org.privadapt.privacy.noise.SecureLaplaceSampler;

/**
 * The Laplace mechanism for a function with a stated L1 sensitivity Delta_1: release {@code f(D) + Lap(b)} per
 * coordinate with {@code b = Delta_1 / epsilon}; epsilon-DP (Dwork, McSherry, Nissim, Smith 2006).
 *
 * <p><b>Noise</b>: the exact two-sided geometric on a power-of-two grid ({@link SecureLaplaceSampler}), which
 * snaps each input to the grid g and uses scale {@code (Delta + g) / epsilon} per coordinate. For a k-coordinate
 * release the snapping can move the L1 difference of two neighbours by up to {@code k g}; the mechanism passes the
 * effective sensitivity {@code Delta_1 + k g} to the sampler so the guarantee holds for the whole vector.
 */
public final class LaplaceMechanism {
    private final double epsilon;
    private final double sensitivity;
    private final NeighbouringRelation relation;

    public LaplaceMechanism(double epsilon, double l1Sensitivity, NeighbouringRelation relation) {
        Sensitivities.positive(epsilon, "epsilon");
        Sensitivities.positive(l1Sensitivity, "L1 sensitivity");
        this.epsilon = epsilon;
        this.sensitivity = l1Sensitivity;
        this.relation = relation;
    }

    public double epsilon() {
        return epsilon;
    }

    public double sensitivity() {
        return sensitivity;
    }

    public NeighbouringRelation relation() {
        return relation;
    }

    /** Scale b per unit of the stated sensitivity, for the accountants: the release is exactly epsilon-DP. */
    public LaplaceEvent event() {
        return new LaplaceEvent(1.0 / epsilon);
    }

    /** The sensitivity handed to the sampler for a k-coordinate release: Delta_1 + k g, g the grid at that scale. */
    double effectiveSensitivity(int k) {
        double eff = sensitivity;
        for (int it = 0; it < 4; it++) {
            double next = sensitivity + k * SecureLaplaceSampler.granularity(eff, epsilon);
            if (next == eff) {
                break;
            }
            eff = next;
        }
        return eff;
    }

    public double releaseScalar(double value, NoiseSource noise) {
        return noise.laplace().addNoise(value, effectiveSensitivity(1), epsilon);
    }

    public double[] releaseVector(double[] values, NoiseSource noise) {
        double eff = effectiveSensitivity(values.length);
        double[] out = new double[values.length];
        SecureLaplaceSampler l = noise.laplace();
        for (int i = 0; i < values.length; i++) {
            out[i] = l.addNoise(values[i], eff, epsilon);
        }
        return out;
    }
}
