package org.privadapt.methods.core;

import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * Each party's privacy session for one run. Non-private methods ignore it; private methods charge every release to
 * the session of the party whose data the release reads, before drawing its noise.
 */
public record PrivacyContext(PrivacySession source, PrivacySession target) {

    /** Both parties with the same target (epsilon, delta), secure noise (split streams), no ledgers. */
    public static PrivacyContext secure(double epsilon, double delta) {
        NoiseSource n = NoiseSource.secure();
        return new PrivacyContext(
                new PrivacySession("source", new PrivacyBudget(epsilon, delta), NeighbouringRelation.ADD_OR_REMOVE_ONE, n, null),
                new PrivacySession("target", new PrivacyBudget(epsilon, delta), NeighbouringRelation.ADD_OR_REMOVE_ONE, n.split(), null));
    }

    /** As {@link #secure} but with seeded, NOT private noise (experiments and tests). */
    public static PrivacyContext seeded(double epsilon, double delta, long seed) {
        NoiseSource n = NoiseSource.seeded(seed);
        return new PrivacyContext(
                new PrivacySession("source", new PrivacyBudget(epsilon, delta), NeighbouringRelation.ADD_OR_REMOVE_ONE, n, null),
                new PrivacySession("target", new PrivacyBudget(epsilon, delta), NeighbouringRelation.ADD_OR_REMOVE_ONE, n.split(), null));
    }
}
