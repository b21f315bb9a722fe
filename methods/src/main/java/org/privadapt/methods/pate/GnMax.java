package org.privadapt.methods.pate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.accounting.Accountants;
import org.privadapt.privacy.accounting.NoiseCalibration;
import org.privadapt.privacy.events.ComposedEvent;
import org.privadapt.privacy.events.DpEvent;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.events.SelfComposedEvent;
import org.privadapt.privacy.mechanisms.GaussianMechanism;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * The GNMax aggregator of PATE (Papernot et al., ICLR 2018, "Scalable private learning with PATE"): a query's label
 * is {@code argmax_c (n_c + N(0, sigma^2))} with {@code n_c} the number of teachers voting for class c. Only the
 * data-independent analysis is implemented (see docs/privacy/pate.md):
 * <ul>
 *   <li><b>Sensitivity.</b> Under add/remove one source record, exactly one teacher's partition changes
 *       ({@link TeacherPartition}), so on every query at most one vote moves: from one class to another (the
 *       histogram changes by {@code -e_a + e_b}, L2 norm sqrt(2)) or from abstention to a class (norm 1). Hence
 *       {@code Delta = sqrt(2)}. Under replace-one two partitions can change and two votes move, possibly both from
 *       the same class a to the same class b: the histogram changes by {@code -2 e_a + 2 e_b}, so
 *       {@code Delta = 2 sqrt(2)} (it was 2 until issue 14's harness found the case).</li>
 *   <li><b>Mechanism.</b> Each query adds Gaussian noise of standard deviation sigma to every coordinate of the vote
 *       histogram (the Gaussian mechanism, noise multiplier {@code sigma / Delta}); the argmax is post-processing.
 *       For add/remove this is the paper's bound: GNMax is {@code (lambda, lambda / sigma^2)}-RDP (its
 *       Proposition 8), the RDP of the Gaussian mechanism of multiplier {@code sigma / sqrt(2)}.</li>
 *   <li><b>Composition.</b> Q queries are {@code SelfComposed(Gaussian(sigma / Delta), Q)}, which the accountants
 *       reduce exactly to one Gaussian of multiplier {@code sigma / (Delta sqrt(Q))}.</li>
 * </ul>
 * The noise multiplier is the smallest for which the session's earlier charges composed with the Q queries stay
 * within the session's target (epsilon, delta), found by {@link NoiseCalibration#smallest} against the same
 * certificate the session charges with ({@link Accountants#certify}), so the run spends its target to within the
 * bisection's tolerance. Everything the plan needs (teachers, queries, classes, budget) is public.
 */
public final class GnMax {
    private GnMax() {
    }

    /**
     * The L2 sensitivity of one query's vote histogram under {@code r}: sqrt(2) for add/remove (one vote moves),
     * 2 sqrt(2) for replace-one (two votes move, in the worst case both from class a to class b).
     */
    public static double sensitivity(NeighbouringRelation r) {
        return r == NeighbouringRelation.ADD_OR_REMOVE_ONE ? Math.sqrt(2.0) : 2 * Math.sqrt(2.0);
    }

    /**
     * A planned set of GNMax answers.
     *
     * @param mechanism the Gaussian mechanism every query uses (sigma, sensitivity, relation)
     * @param event     the event charged: {@code SelfComposed(mechanism.event(), queries)}
     */
    public record Plan(int teachers, int queries, int classes, GaussianMechanism mechanism, DpEvent event,
                       double epsilon, double delta) {
        public double sigma() {
            return mechanism.sigma();
        }

        public double noiseMultiplier() {
            return mechanism.event().noiseMultiplier();
        }

        public Map<String, Object> describe() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("teachers", teachers);
            m.put("queries", queries);
            m.put("classes", classes);
            m.put("sensitivity", mechanism.sensitivity());
            m.put("sigma", mechanism.sigma());
            m.put("noise_multiplier", noiseMultiplier());
            m.put("analysis", "data-independent: " + queries + " Gaussian mechanisms on the vote histogram");
            return m;
        }
    }

    /**
     * The plan that spends what remains of {@code session}'s target on {@code queries} queries of a
     * {@code classes}-class histogram of {@code teachers} votes. Draws nothing and charges nothing.
     *
     * @throws IllegalArgumentException for invalid sizes, or when no noise up to a multiplier of 10^6 fits
     */
    public static Plan plan(int teachers, int queries, int classes, PrivacySession session) {
        if (teachers < 1) {
            throw new IllegalArgumentException("teachers must be >= 1, got " + teachers);
        }
        if (queries < 1) {
            throw new IllegalArgumentException("queries must be >= 1, got " + queries);
        }
        if (classes < 2) {
            throw new IllegalArgumentException("GNMax needs at least 2 classes, got " + classes);
        }
        NeighbouringRelation rel = session.relation();
        double eps = session.target().epsilon();
        double delta = session.target().delta();
        List<DpEvent> prior = session.events();
        java.util.function.DoubleFunction<DpEvent> family = s -> {
            DpEvent q = queriesEvent(new GaussianEvent(s), queries);
            if (prior.isEmpty()) {
                return q;
            }
            List<DpEvent> all = new ArrayList<>(prior);
            all.add(q);
            return new ComposedEvent(all);
        };
        double s = NoiseCalibration.smallest(family, new org.privadapt.privacy.accounting.CertifyingAccountant(rel), eps, delta,
                queries + " GNMax queries");
        // the mechanism's event carries the grid's (negligible) addition to the sensitivity, so its multiplier is
        // at least s: the charged event is no more expensive than the calibrated one
        GaussianMechanism m = GaussianMechanism.forNoiseMultiplier(s, sensitivity(rel), rel, classes);
        return new Plan(teachers, queries, classes, m, queriesEvent(m.event(), queries), eps, delta);
    }

    /**
     * The number of queries of the {@code queries=auto} rule: the largest Q (between 1 and {@code maxQueries}) whose
     * GNMax noise, with the session's remaining budget spread over Q queries, is at most {@code ratio * teachers}
     * votes. Q Gaussian queries of multiplier s compose to one of multiplier {@code s / sqrt(Q)}, so with
     * {@code sigma_1} the noise of a single query that spends the whole budget, {@code sigma_Q = sigma_1 sqrt(Q)} and
     * {@code Q = floor((ratio T / sigma_1)^2)}. Reads only public quantities; draws and charges nothing.
     */
    public static int autoQueries(int teachers, int classes, int maxQueries, double ratio, PrivacySession session) {
        if (!(ratio > 0) || Double.isInfinite(ratio)) {
            throw new IllegalArgumentException("the noise-to-teachers ratio must be a positive number, got " + ratio);
        }
        double sigma1 = plan(teachers, 1, classes, session).sigma();
        double q = Math.floor(Math.pow(ratio * teachers / sigma1, 2));
        return (int) Math.max(1, Math.min(maxQueries, q));
    }

    static DpEvent queriesEvent(GaussianEvent perQuery, int queries) {
        return new SelfComposedEvent(perQuery, queries);
    }

    /** The vote histogram of one query: {@code votes[t]} is teacher t's class, or -1 if it abstains. */
    public static int[] histogram(int[] votes, int classes) {
        int[] h = new int[classes];
        for (int v : votes) {
            if (v >= 0) {
                h[v]++;
            }
        }
        return h;
    }

    /**
     * The noisy argmax of one histogram with the plan's mechanism, noise from {@code noise} (the session's, after
     * the plan was charged). Ties (of probability zero unless sigma is tiny) go to the lowest class index.
     */
    public static int noisyArgmax(int[] histogram, Plan plan, NoiseSource noise) {
        double[] h = new double[histogram.length];
        for (int c = 0; c < h.length; c++) {
            h[c] = histogram[c];
        }
        return argmax(plan.mechanism().releaseVector(h, noise));
    }

    static int argmax(double[] v) {
        int best = 0;
        for (int c = 1; c < v.length; c++) {
            if (v[c] > v[best]) {
                best = c;
            }
        }
        return best;
    }
}
