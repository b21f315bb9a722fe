package org.privadapt.methods.core;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.nn.Network;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.accounting.CertifyingAccountant;
import org.privadapt.privacy.accounting.PrivacyAccountant;
import org.privadapt.privacy.accounting.TruncatedNegativeBinomial;
import org.privadapt.privacy.events.ComposedEvent;
import org.privadapt.privacy.events.DpEvent;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.events.RepeatAndSelectEvent;
import org.privadapt.privacy.events.WorstOfEvent;
import org.privadapt.privacy.mechanisms.GaussianCalibration;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * Private selection of the final learner and its key hyperparameters among a declared candidate set
 * (docs/privacy/selection.md), charged as one event. The records are split once, by an independent coin per record
 * drawn from the party's noise source, into a training part T (probability 1 - v) and a validation part V
 * (probability v, {@code selection-validation}, default 0.2). Each candidate is fitted on T by its private learner
 * ({@link PrivateLearners}), and its quality is the number of V's rows it classifies correctly plus Gaussian noise
 * (sensitivity 1 per candidate under both relations: the differing record, if in V, changes each count by at most 1).
 * A record falls in T or in V, never both, so what reads T and what reads V compose in parallel ({@link WorstOfEvent}).
 * Two strategies ({@code selection=all|repeat|auto}):
 * <ul>
 *   <li>{@code all}: every candidate is fitted once on T (their releases compose) and the vector of noisy counts on V
 *       (L2 sensitivity sqrt(m)) is released; the candidate with the largest noisy count wins. The event is
 *       {@code WorstOf(Composed(candidates), Gaussian(s_V))}.</li>
 *   <li>{@code repeat} (Papernot and Steinke 2022): K is drawn from the truncated negative binomial distribution
 *       ({@code selection-shape}, default 1: geometric; {@code selection-mean}, default 2m); K times a candidate is drawn
 *       uniformly, fitted on T and scored on V with its own noisy count; only the best run is output (its model,
 *       candidate and noisy count: not K, not the other runs, whose release would void the theorem). The event is
 *       {@code RepeatAndSelect(WorstOf(candidate_1, ..., candidate_m, Gaussian(s_V)), mean, shape)}.</li>
 *   <li>{@code auto}: the one whose calibration leaves each candidate the larger standalone epsilon (a computation on
 *       public quantities only, before any data is read).</li>
 * </ul>
 * Each candidate is calibrated to the same standalone (x, delta) (for DP-SGD on the planned size of T, public when n
 * is), with x the largest for which the whole event is certified within the budget by the ledger's own certificate.
 */
public final class PrivateSelection {
    private PrivateSelection() {
    }

    /** The {@code --param} names selection reads. */
    public static final Set<String> PARAMETERS = Set.of("learner-candidates", "selection", "selection-validation", "selection-mean",
            "selection-shape");

    /** The default validation share of the records (fixed before any measurement: the common 80/20 split). */
    public static final double DEFAULT_VALIDATION = 0.2;

    /** One candidate: a learner with its settings (the base configuration with overrides). */
    public record Candidate(String label, PrivateLearners.Kind kind, MethodConfig config) {
    }

    /**
     * The default candidates, declared before looking at any result of selection: where n is public, the two
     * learners the project's evidence shows each ahead on some data (class-sum NCM at small epsilon, DP-SGD where
     * classes are not well summarised by their means: docs/results/private-learners.md and issue 29's unseen data),
     * with their default settings.
     */
    public static final String DEFAULT_CANDIDATES = "ncm,dp-sgd";

    /** The candidates a configuration declares ({@code learner-candidates}, else {@link #DEFAULT_CANDIDATES}). */
    public static List<Candidate> candidates(MethodConfig c) {
        String spec = c.params().getOrDefault("learner-candidates", DEFAULT_CANDIDATES);
        MethodConfig base = c;
        for (String p : PARAMETERS) {
            base = without(base, p);
        }
        List<Candidate> out = new ArrayList<>();
        for (String item : spec.split(",")) {
            String s = item.trim();
            if (s.isEmpty()) {
                throw new IllegalArgumentException("learner-candidates: empty candidate in '" + spec + "'");
            }
            String[] parts = s.split(":");
            PrivateLearners.Kind kind = PrivateLearners.Kind.parse(parts[0].trim());
            if (kind == PrivateLearners.Kind.OBJECTIVE_PERTURBATION) {
                throw new IllegalArgumentException("learner-candidates: objective-perturbation has an (epsilon, delta) guarantee only, "
                        + "which the Renyi analysis of selection cannot take (docs/privacy/selection.md)");
            }
            MethodConfig cc = base.withParam("learner", kind.label());
            for (int i = 1; i < parts.length; i++) {
                String[] kv = parts[i].split("=", 2);
                if (kv.length != 2 || !PrivateLearners.ALL.contains(kv[0].trim()) || "learner".equals(kv[0].trim())) {
                    throw new IllegalArgumentException("learner-candidates: '" + parts[i] + "' in '" + s
                            + "' is not NAME=VALUE with a learner parameter (" + String.join(", ", new java.util.TreeSet<>(PrivateLearners.ALL))
                            + ")");
                }
                cc = cc.withParam(kv[0].trim(), kv[1].trim());
            }
            out.add(new Candidate(s, kind, cc));
        }
        if (out.size() < 2) {
            throw new IllegalArgumentException("learner-candidates: selection needs at least two candidates, got '" + spec + "'");
        }
        return out;
    }

    private static MethodConfig without(MethodConfig c, String name) {
        if (!c.params().containsKey(name)) {
            return c;
        }
        Map<String, String> p = new LinkedHashMap<>(c.params());
        p.remove(name);
        return new MethodConfig(c.classifier(), c.l2(), c.seed(), p);
    }

    /** Whether any candidate reveals n (so that n must be public). */
    public static boolean revealsSize(List<Candidate> cs) {
        return cs.stream().anyMatch(x -> x.kind().revealsSize());
    }

    /** The strategies. */
    public enum Strategy {
        ALL("all"), REPEAT("repeat");

        private final String label;

        Strategy(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /**
     * A planned selection: the candidates' plans at the common standalone epsilon {@code perCandidateEpsilon}, the
     * strategy, the validation share, the noise multiplier of the validation counts, the repetitions' distribution
     * (repeat only) and the event charged.
     */
    public record Plan(List<Candidate> candidates, List<PrivateLearners.Plan> plans, Strategy strategy, double validation,
                       double scoreNoiseMultiplier, double mean, double shape, double perCandidateEpsilon, DpEvent event,
                       NeighbouringRelation relation) {
        public Map<String, Object> describe() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("selection", strategy == Strategy.ALL
                    ? "all candidates fitted on the training split, best noisy validation count (one report)"
                    : "Papernot-Steinke repeat-and-select (random number of runs, best noisy validation count)");
            List<String> labels = new ArrayList<>();
            for (Candidate c : candidates) {
                labels.add(c.label());
            }
            m.put("candidates", labels);
            m.put("validation_share", validation);
            m.put("per_candidate_epsilon", perCandidateEpsilon);
            double sdPerCount = strategy == Strategy.ALL ? scoreNoiseMultiplier * Math.sqrt(candidates.size()) : scoreNoiseMultiplier;
            m.put("validation_count_noise_std", sdPerCount);
            if (strategy == Strategy.REPEAT) {
                m.put("repetitions_mean", mean);
                m.put("repetitions_shape", shape);
            }
            return m;
        }
    }

    /**
     * Plans a selection within (epsilon, delta) for a party with n records (n read only where a candidate reveals it,
     * which requires it public), d features, k classes.
     */
    public static Plan plan(MethodConfig c, int n, int d, int k, double epsilon, double delta, NeighbouringRelation relation) {
        List<Candidate> cands = candidates(c);
        double v = c.param("selection-validation", DEFAULT_VALIDATION);
        if (!(v >= 0 && v < 1)) {
            throw new IllegalArgumentException("selection-validation must be in [0, 1) (0: score on the training rows), got " + v);
        }
        int m = cands.size();
        double mean = c.param("selection-mean", 2.0 * m);
        double shape = c.param("selection-shape", 1.0);
        String which = c.params().getOrDefault("selection", "auto");
        if (!Set.of("auto", "all", "repeat").contains(which)) {
            throw new IllegalArgumentException("selection must be auto, all or repeat, got '" + which + "'");
        }
        if (!(mean >= 1) || Double.isInfinite(mean) || !(shape >= 0) || Double.isInfinite(shape)) {
            throw new IllegalArgumentException("selection-mean must be >= 1 and selection-shape >= 0 (finite), got " + mean + " and " + shape);
        }
        int nTrain = Math.max(1, (int) Math.floor((1 - v) * n)); // DP-SGD's planned size of T (n public there)
        Plan best = null;
        for (Strategy s : Strategy.values()) {
            if (!which.equals("auto") && !which.equals(s.label())) {
                continue;
            }
            Plan p = calibrate(cands, s, nTrain, d, k, epsilon, delta, relation, v, mean, shape);
            if (best == null || p.perCandidateEpsilon() > best.perCandidateEpsilon()) {
                best = p;
            }
        }
        return best;
    }

    private static Plan calibrate(List<Candidate> cands, Strategy s, int nTrain, int d, int k, double epsilon, double delta,
                                  NeighbouringRelation relation, double v, double mean, double shape) {
        PrivacyAccountant cert = new CertifyingAccountant(relation);
        // the RDP accountant bounds what the certificate certifies (the certificate is the best of the accountants),
        // and its curves are cheap and cached: bisect with it first, then with the certificate above that point
        PrivacyAccountant rdp = new org.privadapt.privacy.accounting.RdpAccountant(relation,
                org.privadapt.privacy.accounting.RdpAccountant.DEFAULT_ORDERS, w -> { });
        double eps = epsilon * (1 - 1e-9);
        // the validation counts of the all-candidates strategy: alone within the budget (they read V only)
        double allScoreSigma = v == 0 ? Double.NaN : GaussianCalibration.analyticSigma(eps, delta, 1.0);
        double[] bracket = {0, epsilon};
        // (for the all-candidates strategy with a split, the validation part is within the budget by construction
        // under the certificate: the first stage bisects on the candidates' composition alone)
        java.util.function.Function<Plan, DpEvent> first = p -> s == Strategy.ALL && v > 0 ? ((WorstOfEvent) p.event()).parts().get(0)
                : p.event();
        Plan found = bisect(bracket, 10, rdp, eps, delta, first,
                x -> at(cands, s, x, nTrain, d, k, delta, relation, v, mean, shape, allScoreSigma));
        if (found == null || found.perCandidateEpsilon() < epsilon) {
            double[] upper = found == null ? new double[] {0, epsilon}
                    : new double[] {found.perCandidateEpsilon(), Math.min(epsilon, 1.25 * found.perCandidateEpsilon())};
            Plan better = bisect(upper, found == null ? 10 : 4, cert, eps, delta, Plan::event,
                    x -> at(cands, s, x, nTrain, d, k, delta, relation, v, mean, shape, allScoreSigma));
            if (better != null) {
                found = better;
            }
        }
        if (found == null) {
            throw new IllegalArgumentException("private selection: no per-candidate budget fits (" + epsilon + ", " + delta + ")");
        }
        if (!(cert.epsilon(found.event(), delta) <= eps)) {
            throw new IllegalStateException("private selection: the calibrated event is not certified within the budget");
        }
        return found;
    }

    private static boolean certifies(Plan p, double eps, double delta) {
        return new CertifyingAccountant(p.relation()).epsilon(p.event(), delta) <= eps;
    }

    /** Bisects the per-candidate epsilon in {@code bracket} (updated in place); the plan at the largest fitting point. */
    private static Plan bisect(double[] bracket, int iterations, PrivacyAccountant acc, double eps, double delta,
                               java.util.function.Function<Plan, DpEvent> event, java.util.function.DoubleFunction<Plan> at) {
        Plan found = null;
        for (int it = 0; it <= iterations; it++) {
            double x = it == 0 ? bracket[1] : 0.5 * (bracket[0] + bracket[1]);
            if (!(x > 0)) {
                break;
            }
            Plan p = at.apply(x);
            boolean fits;
            try {
                fits = acc.epsilon(event.apply(p), delta) <= eps;
            } catch (RuntimeException e) {
                fits = false; // an accountant that cannot take the event certifies nothing
            }
            if (fits && (event.apply(p) == p.event() || acc instanceof CertifyingAccountant || certifies(p, eps, delta))) {
                bracket[0] = x;
                found = p;
                if (it == 0) {
                    break;
                }
            } else {
                bracket[1] = x;
            }
        }
        return found;
    }

    private static Plan at(List<Candidate> cands, Strategy s, double x, int nTrain, int d, int k, double delta,
                           NeighbouringRelation relation, double v, double mean, double shape, double allScoreSigma) {
        List<PrivateLearners.Plan> plans = new ArrayList<>();
        List<DpEvent> events = new ArrayList<>();
        for (Candidate c : cands) {
            PrivateLearners.Plan p = PrivateLearners.plan(c.config(), nTrain, d, k, x, delta, relation, null, 1);
            plans.add(p);
            events.add(p.event());
        }
        DpEvent event;
        double scoreSigma;
        if (v == 0) {
            // scored on the training rows: the counts compose with the models (sequentially); their noise is
            // TRAINING_SCORE_FACTOR times a Gaussian release's at the candidates' standalone epsilon
            scoreSigma = TRAINING_SCORE_FACTOR * GaussianCalibration.analyticSigma(x, delta, 1.0);
            if (s == Strategy.ALL) {
                List<DpEvent> all = new ArrayList<>(events);
                all.add(new GaussianEvent(scoreSigma));
                event = new ComposedEvent(all);
            } else {
                List<DpEvent> parts = new ArrayList<>();
                for (DpEvent e : events) {
                    parts.add(ComposedEvent.of(e, new GaussianEvent(scoreSigma)));
                }
                event = new RepeatAndSelectEvent(new WorstOfEvent(parts), mean, shape);
            }
        } else if (s == Strategy.ALL) {
            scoreSigma = allScoreSigma;
            event = WorstOfEvent.of(new ComposedEvent(events), new GaussianEvent(scoreSigma));
        } else {
            scoreSigma = GaussianCalibration.analyticSigma(x, delta, 1.0);
            List<DpEvent> parts = new ArrayList<>(events);
            parts.add(new GaussianEvent(scoreSigma));
            event = new RepeatAndSelectEvent(new WorstOfEvent(parts), mean, shape);
        }
        return new Plan(cands, plans, s, v, scoreSigma, mean, shape, x, event, relation);
    }

    /**
     * With {@code selection-validation=0} the counts are of the training rows themselves, composed with the models;
     * their noise multiplier is this factor times a lone Gaussian release's at the candidates' standalone epsilon, so
     * they take about 1/(1 + factor^2) of the zCDP budget per candidate (fixed before any measurement).
     */
    public static final double TRAINING_SCORE_FACTOR = 2.0;

    /** One fitted candidate: its index, model and noisy validation count. */
    public record Trial(int candidate, Network model, double noisyCount) {
    }

    /**
     * The outcome: the chosen model, which candidate, its noisy validation count, and the noisy counts of every
     * candidate (all-candidates strategy only; under repeat-and-select only the winner's may be released).
     * {@code exactCounts} (the noise-free counts) and {@code validationRows} (the split) are for the neighbouring-dataset
     * harness only: never released.
     */
    public record Outcome(Network model, Candidate chosen, double noisyCount, double[] releasedCounts, double[] exactCounts,
                          int[] validationRows) {
        public Map<String, Object> describe(Plan p) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("chosen", chosen.label());
            m.put("chosen_noisy_validation_count", noisyCount);
            if (releasedCounts != null) {
                Map<String, Object> all = new LinkedHashMap<>();
                for (int i = 0; i < releasedCounts.length; i++) {
                    all.put(p.candidates().get(i).label(), releasedCounts[i]);
                }
                m.put("noisy_validation_counts", all);
            }
            return m;
        }
    }

    /** Runs the planned selection (its event must already be charged). */
    public static Outcome run(Plan p, FeatureMatrix x, int[] y, List<String> classes, NoiseSource noise) {
        int n = x.rows();
        // the split: an independent coin per record, P[V] = v (never a function of the rows' order or values), from
        // its own stream, so that the learners' noise does not depend on how many coins were drawn
        NoiseSource coins = noise.split();
        List<Integer> train = new ArrayList<>();
        List<Integer> val = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (p.validation() == 0) {
                train.add(i);
                val.add(i); // scored on the training rows (composed in the plan's event)
            } else {
                (coins.bernoulli(p.validation()) ? val : train).add(i);
            }
        }
        int[] ti = train.stream().mapToInt(Integer::intValue).toArray();
        int[] vi = val.stream().mapToInt(Integer::intValue).toArray();
        FeatureMatrix xt = x.selectRows(ti);
        FeatureMatrix xv = x.selectRows(vi);
        int[] yt = pick(y, ti);
        int[] yv = pick(y, vi);
        int m = p.candidates().size();
        if (p.strategy() == Strategy.ALL) {
            Network[] models = new Network[m];
            double[] exact = new double[m];
            for (int c = 0; c < m; c++) {
                models[c] = PrivateLearners.train(p.plans().get(c), xt, yt, classes, noise);
                exact[c] = correct(models[c], xv, yv);
            }
            double sd = p.scoreNoiseMultiplier() * Math.sqrt(m); // the count vector's L2 sensitivity is sqrt(m)
            double[] noisy = new double[m];
            int best = 0;
            for (int c = 0; c < m; c++) {
                noisy[c] = noise.gaussian().addNoise(exact[c], sd);
                if (noisy[c] > noisy[best]) {
                    best = c;
                }
            }
            return new Outcome(models[best], p.candidates().get(best), noisy[best], noisy, exact, vi);
        }
        double gamma = TruncatedNegativeBinomial.gammaForMean(p.shape(), p.mean());
        long reps = TruncatedNegativeBinomial.sample(p.shape(), gamma, uniform(noise));
        Trial best = null;
        List<Double> exact = new ArrayList<>();
        for (long r = 0; r < reps; r++) {
            int c = noise.bits().nextInt(m);
            Network model = PrivateLearners.train(p.plans().get(c), xt, yt, classes, noise);
            double e = correct(model, xv, yv);
            exact.add(e);
            double noisy = noise.gaussian().addNoise(e, p.scoreNoiseMultiplier());
            if (best == null || noisy > best.noisyCount()) {
                best = new Trial(c, model, noisy);
            }
        }
        return new Outcome(best.model(), p.candidates().get(best.candidate()), best.noisyCount(), null,
                exact.stream().mapToDouble(Double::doubleValue).toArray(), vi);
    }

    static double uniform(NoiseSource noise) {
        return (noise.bits().nextLong() >>> 11) * 0x1.0p-53;
    }

    static int correct(Network model, FeatureMatrix x, int[] y) {
        if (x.rows() == 0) {
            return 0;
        }
        int[] pred = model.predict(x);
        int c = 0;
        for (int i = 0; i < y.length; i++) {
            if (pred[i] == y[i]) {
                c++;
            }
        }
        return c;
    }

    private static int[] pick(int[] y, int[] idx) {
        int[] out = new int[idx.length];
        for (int i = 0; i < idx.length; i++) {
            out[i] = y[idx[i]];
        }
        return out;
    }
}
