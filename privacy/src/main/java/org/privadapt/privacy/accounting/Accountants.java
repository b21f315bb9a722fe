package org.privadapt.privacy.accounting;

import java.util.ArrayList;
import java.util.List;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.events.DpEvent;

/** The accountants available, by name, and the combined certificate the ledger uses. */
public final class Accountants {
    private Accountants() {
    }

    /** An epsilon certified at a delta, and the accountant that certified it. */
    public record Certified(double epsilon, String accountant) {
    }

    /** The accountant named {@code rdp} or {@code pld} for a relation. */
    public static PrivacyAccountant byName(String name, NeighbouringRelation relation) {
        switch (name) {
            case "rdp":
                return new RdpAccountant(relation);
            case "pld":
                return new org.privadapt.privacy.accounting.pld.PldAccountant(relation);
            default:
                throw new IllegalArgumentException("unknown accountant '" + name + "' (available: " + names() + ")");
        }
    }

    public static List<String> names() {
        return List.of("rdp", "pld");
    }

    /** Every available accountant for the relation. */
    public static List<PrivacyAccountant> all(NeighbouringRelation relation) {
        List<PrivacyAccountant> out = new ArrayList<>();
        for (String n : names()) {
            out.add(byName(n, relation));
        }
        return out;
    }

    /**
     * The smallest epsilon any available accountant certifies for {@code event} at {@code delta}: each is an upper
     * bound, so their minimum is one. The event is first rewritten into an equivalent cheaper one
     * ({@link EventSimplifier}). Null when no accountant supports the event.
     */
    public static Certified certify(NeighbouringRelation relation, DpEvent original, double delta) {
        DpEvent event = EventSimplifier.simplify(original);
        // a pure function of immutable value objects: repeated runs of one method certify the same events
        CertifyKey key = new CertifyKey(relation, event, delta);
        synchronized (CACHE) {
            if (CACHE.containsKey(key)) {
                return CACHE.get(key);
            }
        }
        Certified c = certifySimplified(relation, event, delta);
        synchronized (CACHE) {
            CACHE.put(key, c);
        }
        return c;
    }

    private record CertifyKey(NeighbouringRelation relation, DpEvent event, double delta) {
    }

    private static final java.util.Map<CertifyKey, Certified> CACHE = new java.util.LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(java.util.Map.Entry<CertifyKey, Certified> eldest) {
            return size() > 256;
        }
    };

    private static Certified certifySimplified(NeighbouringRelation relation, DpEvent event, double delta) {
        if (event instanceof org.privadapt.privacy.events.GaussianEvent g) {
            // a single Gaussian mechanism (any composition of Gaussians reduces to one): its exact privacy profile
            return new Certified(GaussianProfile.epsilon(g.noiseMultiplier(), delta), "analytic-gaussian");
        }
        Certified best = null;
        for (PrivacyAccountant a : all(relation)) {
            if (a.unsupported(event).isPresent()) {
                continue;
            }
            double eps;
            try {
                eps = a.epsilon(event, delta);
            } catch (ArithmeticException | IllegalStateException | IllegalArgumentException e) {
                continue; // e.g. a PLD wider than its memory limit: the other accountants still certify
            }
            if (best == null || eps < best.epsilon()) {
                best = new Certified(eps, a.name());
            }
        }
        return best;
    }
}
