package org.privadapt.privacy.accounting;

import java.util.Optional;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.events.DpEvent;

/**
 * The certificate a {@code PrivacySession} charges with ({@link Accountants#certify}: the best of the available
 * accountants, exact for Gaussian compositions) as a {@link PrivacyAccountant}, so that a calibration by
 * {@link NoiseCalibration#smallest} and the charge that follows agree. Its delta is the smallest any available
 * accountant certifies.
 */
public record CertifyingAccountant(NeighbouringRelation relation) implements PrivacyAccountant {
    @Override
    public String name() {
        return "certify";
    }

    @Override
    public Optional<String> unsupported(DpEvent event) {
        return Accountants.certify(relation, event, 1e-5) == null
                ? Optional.of("no available accountant supports " + event.describe()) : Optional.empty();
    }

    @Override
    public double epsilon(DpEvent event, double delta) {
        Accountants.Certified c = Accountants.certify(relation, event, delta);
        return c == null ? Double.POSITIVE_INFINITY : c.epsilon();
    }

    @Override
    public double delta(DpEvent event, double epsilon) {
        double best = 1.0;
        for (PrivacyAccountant a : Accountants.all(relation)) {
            if (a.unsupported(event).isEmpty()) {
                best = Math.min(best, a.delta(event, epsilon));
            }
        }
        return best;
    }
}
