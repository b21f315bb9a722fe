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

    /**
     * The sum of the deltas of the bare (eps, delta) guarantees ({@code ApproximateDpEvent}) in an event, counted with
     * their multiplicity: a composition of them certifies nothing at a smaller delta.
     */
    public static double bareDelta(DpEvent event) {
        if (event instanceof org.privadapt.privacy.events.ApproximateDpEvent a) {
            return a.delta();
        }
        if (event instanceof org.privadapt.privacy.events.SelfComposedEvent s) {
            return s.count() * bareDelta(s.event());
        }
        if (event instanceof org.privadapt.privacy.events.ComposedEvent c) {
            double t = 0;
            for (DpEvent e : c.events()) {
                t += bareDelta(e);
            }
            return t;
        }
        return 0;
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
        if (event instanceof org.privadapt.privacy.events.WorstOfEvent w) {
            // the loss of one part only (a mixture over data-independent choices): the worst part's certificate
            // (the hockey-stick divergence is jointly convex), unless the RDP accountant's pointwise maximum is better
            Certified worst = null;
            for (DpEvent part : w.parts()) {
                Certified c = certify(relation, part, delta);
                if (c == null) {
                    worst = null;
                    break;
                }
                if (worst == null || c.epsilon() > worst.epsilon()) {
                    worst = new Certified(c.epsilon(), "worst-of(" + c.accountant() + ")");
                }
            }
            Certified rdp = null;
            RdpAccountant r = new RdpAccountant(relation);
            if (r.unsupported(event).isEmpty()) {
                rdp = new Certified(r.epsilon(event, delta), "rdp");
            }
            if (worst == null) {
                return rdp;
            }
            return rdp != null && rdp.epsilon() < worst.epsilon() ? rdp : worst;
        }
        if (event instanceof org.privadapt.privacy.events.ApproximateDpEvent a && delta >= a.delta()) {
            // one (eps, delta) guarantee asked at a delta it covers: its own epsilon, exactly
            return new Certified(a.epsilon(), "approximate-dp");
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
        if (best == null) {
            best = basicComposition(relation, event, delta);
        }
        return best;
    }

    /**
     * When no accountant analyses the whole event because it mixes bare (eps, delta) guarantees with a release only
     * some accountant handles (e.g. DP-SGD under replace-one, which the PLD accountant refuses, with objective
     * perturbation, which the RDP accountant refuses): basic composition, which holds for any (eps, delta)
     * guarantees. The bare parts add their eps and deltas; the rest is certified at the delta they leave.
     */
    private static Certified basicComposition(NeighbouringRelation relation, DpEvent event, double delta) {
        double bareDelta = bareDelta(event);
        if (bareDelta <= 0 || !(bareDelta < delta)) {
            return null;
        }
        double[] bareEps = {0};
        List<DpEvent> rest = new ArrayList<>();
        split(event, 1, bareEps, rest);
        if (rest.isEmpty()) {
            return null; // only bare guarantees: the PLD accountant analyses those
        }
        DpEvent restEvent = rest.size() == 1 ? rest.get(0) : new org.privadapt.privacy.events.ComposedEvent(rest);
        Certified r = certify(relation, restEvent, delta - bareDelta);
        return r == null ? null : new Certified(r.epsilon() + bareEps[0], "basic-composition(" + r.accountant() + ", approximate-dp)");
    }

    private static void split(DpEvent e, long times, double[] bareEps, List<DpEvent> rest) {
        if (e instanceof org.privadapt.privacy.events.ApproximateDpEvent a) {
            bareEps[0] += times * a.epsilon();
        } else if (e instanceof org.privadapt.privacy.events.SelfComposedEvent s) {
            if (bareDelta(s.event()) > 0) {
                split(s.event(), Math.multiplyExact(times, s.count()), bareEps, rest);
            } else {
                rest.add(times == 1 ? s : new org.privadapt.privacy.events.SelfComposedEvent(s, times));
            }
        } else if (e instanceof org.privadapt.privacy.events.ComposedEvent c) {
            for (DpEvent x : c.events()) {
                split(x, times, bareEps, rest);
            }
        } else {
            rest.add(times == 1 ? e : new org.privadapt.privacy.events.SelfComposedEvent(e, times));
        }
    }
}
