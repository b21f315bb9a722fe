package org.privadapt.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.privadapt.cli.report.Report;
import org.privadapt.cli.report.Stats;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.DataException;
import org.privadapt.data.Dataset;
import org.privadapt.data.preprocess.Preprocessing;
import org.privadapt.methods.core.AdaptationMethod;
import org.privadapt.methods.core.AdaptationOutcome;
import org.privadapt.methods.core.AdaptationTask;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.Methods;
import org.privadapt.methods.core.PrivacyContext;
import org.privadapt.privacy.PrivacyCost;

/** Shared pieces of {@code run}, {@code bench} and {@code demo}: argument parsing, repetition, summaries. */
public final class Runs {
    private Runs() {
    }

    public static AdaptationMethod method(String name) {
        try {
            return Methods.get(name);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage(), e);
        }
    }

    public static Preprocessing preprocessing(String spec) {
        try {
            return Preprocessing.parse(spec);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--preprocess: " + e.getMessage(), e);
        }
    }

    /** Supplies a fresh privacy context for each repetition. */
    @FunctionalInterface
    public interface Contexts {
        PrivacyContext forRun(int run) throws org.privadapt.privacy.ledger.BudgetLedger.LedgerException;
    }

    /** Runs {@code method} {@code runs} times with seeds seed, seed+1, ... and summarises (one run at a time). */
    public static Report.TaskResult repeat(AdaptationMethod method, AdaptationTask task, MethodConfig config, int runs,
                                           Map<String, String> sweep, String sourceName, String targetName, Progress progress,
                                           Contexts contexts)
            throws DataException, org.privadapt.privacy.BudgetExceededException, org.privadapt.privacy.ledger.BudgetLedger.LedgerException {
        return repeat(method, task, config, runs, sweep, sourceName, targetName, progress, contexts, 1);
    }

    /**
     * As above with up to {@code jobs} repetitions at once. Every repetition has its own seed and privacy context,
     * so the results are the same whatever {@code jobs} is (only the order in which they finish differs); callers
     * with budget ledgers must use one job, so that the ledger's entries keep the runs' order.
     */
    /**
     * When a cell's runs will take long (issue 33: a README cell of 20 DNN runs took 24 minutes, and checkpoints are
     * per cell): after its first run, the estimate on standard error; null (nothing printed) when the rest takes under
     * a minute.
     */
    static String cellEstimate(String method, String task, int runs, int workers, double firstRunSeconds) {
        if (runs < 2) {
            return null;
        }
        double rest = firstRunSeconds * Math.ceil((runs - 1) / (double) Math.max(1, workers));
        if (rest < 60) {
            return null;
        }
        return String.format(java.util.Locale.ROOT, "privadapt: %s on %s: the first of %d runs took %.0f s; the cell should take "
                + "about %.0f min more (a bench checkpoint is written per finished cell)", method, task, runs, firstRunSeconds, rest / 60);
    }

    private static void announceCell(String method, String task, int runs, int workers, double seconds) {
        String m = cellEstimate(method, task, runs, workers, seconds);
        if (m != null) {
            System.err.println(m);
        }
    }

    public static Report.TaskResult repeat(AdaptationMethod method, AdaptationTask task, MethodConfig config, int runs,
                                           Map<String, String> sweep, String sourceName, String targetName, Progress progress,
                                           Contexts contexts, int jobs)
            throws DataException, org.privadapt.privacy.BudgetExceededException, org.privadapt.privacy.ledger.BudgetLedger.LedgerException {
        Ran[] outcomes = new Ran[runs];
        if (runs > 1 && method.deterministic(task, config)) {
            // the outcome depends on neither seed nor noise (AdaptationMethod.deterministic): run once, repeat it
            java.util.Arrays.fill(outcomes, runOnce(method, task, config, 0, contexts));
            if (progress != null) {
                for (int r = 0; r < runs; r++) {
                    progress.step();
                }
            }
        } else if (jobs <= 1 || runs == 1) {
            for (int r = 0; r < runs; r++) {
                long t0 = System.nanoTime();
                outcomes[r] = runOnce(method, task, config, r, contexts);
                if (r == 0) {
                    announceCell(method.name(), task.name(), runs, 1, (System.nanoTime() - t0) / 1e9);
                }
                if (progress != null) {
                    progress.step();
                }
            }
        } else {
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(Math.min(jobs, runs));
            try {
                List<java.util.concurrent.Future<Ran>> futures = new ArrayList<>();
                java.util.concurrent.atomic.AtomicBoolean announced = new java.util.concurrent.atomic.AtomicBoolean();
                int workers = Math.min(jobs, runs);
                for (int r = 0; r < runs; r++) {
                    final int run = r;
                    futures.add(pool.submit(() -> {
                        long t0 = System.nanoTime();
                        Ran o = runOnce(method, task, config, run, contexts);
                        if (announced.compareAndSet(false, true)) {
                            announceCell(method.name(), task.name(), runs, workers, (System.nanoTime() - t0) / 1e9);
                        }
                        if (progress != null) {
                            synchronized (progress) {
                                progress.step();
                            }
                        }
                        return o;
                    }));
                }
                for (int r = 0; r < runs; r++) {
                    try {
                        outcomes[r] = futures.get(r).get();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("interrupted", e);
                    } catch (java.util.concurrent.ExecutionException e) {
                        Throwable c = e.getCause();
                        if (c instanceof DataException de) {
                            throw de;
                        }
                        if (c instanceof org.privadapt.privacy.BudgetExceededException be) {
                            throw be;
                        }
                        if (c instanceof org.privadapt.privacy.ledger.BudgetLedger.LedgerException le) {
                            throw le;
                        }
                        if (c instanceof RuntimeException re) {
                            throw re;
                        }
                        throw new IllegalStateException(c);
                    }
                }
            } finally {
                pool.shutdownNow();
            }
        }
        List<Double> acc = new ArrayList<>();
        boolean regression = outcomes[0].outcome().isRegression();
        for (Ran o : outcomes) {
            if (o.outcome().isRegression() != regression) {
                throw new IllegalStateException(method.name() + " gave regression and classification outcomes in one cell");
            }
            acc.add(o.outcome().score());
        }
        Map<String, Report.PartySpend> spend = new LinkedHashMap<>();
        for (String party : List.of("source", "target")) {
            spend.put(party, composedSpend(party, outcomes));
        }
        Map<String, String> sw = sweep == null || sweep.isEmpty() ? null : sweep;
        List<Map<String, Object>> diagnostics = new ArrayList<>();
        for (Ran o : outcomes) {
            diagnostics.add(new java.util.TreeMap<>(o.outcome().diagnostics()));
        }
        // a private method's diagnostics are reported only when it vouches that they are DP or public; the target's own
        // refinement (refine) is reported always: the target's choice on its own rows, for the target, releasing nothing
        if (!method.diagnosticsArePublic()) {
            diagnostics.replaceAll(m -> m.containsKey("refine") ? new java.util.TreeMap<>(Map.of("refine", m.get("refine")))
                    : new java.util.TreeMap<>());
        }
        boolean any = diagnostics.stream().anyMatch(m -> !m.isEmpty());
        if (regression) {
            return Report.TaskResult.regression(task.name(), sourceName, targetName, method.name(), sw, runs, mean(acc), std(acc),
                    acc, spend).withDiagnostics(any ? diagnostics : null);
        }
        return new Report.TaskResult(task.name(), sourceName, targetName, method.name(), sw, runs, mean(acc), std(acc), acc, spend)
                .withDiagnostics(any ? diagnostics : null).withWarnings(degenerateWarnings(outcomes, runs));
    }

    /**
     * The degenerate-prediction warning (Metrics.degenerateWarning: one class for almost every evaluation row) of a
     * cell's runs, read from the predictions alone (no label): one line naming how many runs it concerns.
     */
    private static List<String> degenerateWarnings(Ran[] outcomes, int runs) {
        String first = null;
        int count = 0;
        for (Ran o : outcomes) {
            AdaptationOutcome out = o.outcome();
            if (out.isRegression() || out.isMultiLabel()) {
                continue;
            }
            String w = org.privadapt.models.Metrics.degenerateWarning(out.predictions(), out.classNames());
            if (w != null) {
                count++;
                first = first == null ? w : first;
            }
        }
        if (first == null) {
            return List.of();
        }
        return List.of(runs > 1 ? first + String.format(Locale.ROOT, " (in %d of %d runs; the first shown)", count, runs) : first);
    }

    /**
     * One line saying what refine=auto chose in each run of a result (e.g. "auto chose centroids (runs 1-3)", or
     * "auto chose centre in 2 runs, centroids in 1"), or null when the result has no auto choice.
     */
    @SuppressWarnings("unchecked")
    public static String refineSummary(Report.TaskResult r) {
        if (r.diagnostics() == null) {
            return null;
        }
        Map<String, Integer> chosen = new LinkedHashMap<>();
        for (Map<String, Object> d : r.diagnostics()) {
            if (d.get("refine") instanceof Map<?, ?> m && m.get("chosen") != null) {
                chosen.merge(String.valueOf(m.get("chosen")), 1, Integer::sum);
            }
        }
        if (chosen.isEmpty()) {
            return null;
        }
        StringBuilder sb = new StringBuilder("auto chose ");
        chosen.forEach((k, v) -> sb.append(sb.length() > 11 ? ", " : "").append(k).append(r.runs() > 1 ? " in " + v + " of " + r.runs() + " runs" : ""));
        return sb.append(" (on the target's own unlabelled rows; nothing released; criteria in the JSON diagnostics)").toString();
    }

    /** The degenerate-prediction warnings of a result, prefixed by its task and method, for standard error. */
    public static List<String> predictionWarnings(Report.TaskResult r) {
        List<String> out = new ArrayList<>();
        if (r.warnings() != null) {
            for (String w : r.warnings()) {
                out.add(r.task() + " " + r.method() + ": " + w);
            }
        }
        return out;
    }

    /** One repetition's outcome and the sessions it charged. */
    private record Ran(AdaptationOutcome outcome, PrivacyContext context) {
    }

    /**
     * What a party spent over all repetitions of a cell: the reported mean depends on every run, so the runs'
     * releases compose (sequentially, on the same records). The total is certified from every event charged, as a
     * ledger that recorded the runs would certify it; the first run's cost is kept as {@code epsilon_per_run}. A run
     * that was not private makes the total not private; seeded noise marks it NOT PRIVATE.
     */
    static Report.PartySpend composedSpend(String party, Ran[] runs) {
        PrivacyCost first = runs[0].outcome().privacy().getOrDefault(party, PrivacyCost.NONE);
        List<org.privadapt.privacy.events.DpEvent> events = new ArrayList<>();
        boolean seeded = false;
        org.privadapt.privacy.NeighbouringRelation relation = null;
        double delta = 0;
        Double requested = null;
        java.util.IdentityHashMap<PrivacyContext, Boolean> seen = new java.util.IdentityHashMap<>();
        for (Ran r : runs) {
            PrivacyCost c = r.outcome().privacy().getOrDefault(party, PrivacyCost.NONE);
            if (!Double.isFinite(c.epsilon())) {
                return Report.PartySpend.of(c, runs.length);
            }
            seeded |= c.seededNoise();
            if (r.context() == null || seen.put(r.context(), Boolean.TRUE) != null) {
                continue; // a deterministic method's single run, repeated: no release at all
            }
            org.privadapt.privacy.PrivacySession s = "source".equals(party) ? r.context().source() : r.context().target();
            events.addAll(s.events());
            relation = s.relation();
            delta = s.target().delta();
            requested = s.target().epsilon();
        }
        if (events.isEmpty()) {
            return Report.PartySpend.of(first, runs.length, first);
        }
        return composedSpend(first, runs.length, seeded, relation, delta, events).withRequested(requested);
    }

    private static Report.PartySpend composedSpend(PrivacyCost first, int runs, boolean seeded,
                                                   org.privadapt.privacy.NeighbouringRelation relation, double delta,
                                                   List<org.privadapt.privacy.events.DpEvent> events) {
        org.privadapt.privacy.events.DpEvent composed = new org.privadapt.privacy.events.ComposedEvent(events);
        com.fasterxml.jackson.databind.JsonNode json = org.privadapt.privacy.events.EventJson.write(composed);
        if (runs == 1) {
            return Report.PartySpend.of(first, 1, first).withEvents(json);
        }
        org.privadapt.privacy.accounting.Accountants.Certified c = org.privadapt.privacy.accounting.Accountants.certify(relation,
                composed, delta);
        PrivacyCost total = new PrivacyCost(c == null ? Double.POSITIVE_INFINITY : Math.min(c.epsilon(), Double.MAX_VALUE), delta);
        return Report.PartySpend.of(seeded ? total.withSeededNoise() : total, runs, first).withEvents(json);
    }

    /** A party that spent less than this fraction of the epsilon its run was given is reported as leaving budget unspent. */
    public static final double UNSPENT_BELOW = 0.99;

    /**
     * One line per party of a result that released something (epsilon above 0) but spent less than
     * {@link #UNSPENT_BELOW} of the epsilon each run was given, with the method's reason when its diagnostics state
     * one ({@code budget_unspent}); empty otherwise. Any method: the budget is a cap, and a method that does not
     * calibrate to it (a fixed noise, a fixed number of steps) spends less than the user may think.
     */
    public static List<String> unspentNotes(Report.TaskResult r) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, Report.PartySpend> e : r.privacy().entrySet()) {
            Report.PartySpend s = e.getValue();
            Double spent = s.perRunEpsilon();
            Double asked = s.epsilonRequested();
            if (spent == null || asked == null || !(spent > 0) || !(spent < UNSPENT_BELOW * asked)) {
                continue;
            }
            String why = null;
            if (r.diagnostics() != null && !r.diagnostics().isEmpty() && r.diagnostics().get(0).get("budget_unspent") != null) {
                why = r.diagnostics().get(0).get("budget_unspent").toString();
            }
            out.add(r.method() + " on " + r.task() + (r.sweep() == null ? "" : " " + r.sweep()) + ": " + e.getKey() + " spent eps "
                    + formatNumber(spent) + " of " + formatNumber(asked) + (r.runs() > 1 ? " per run" : "") + " ("
                    + Math.round(100 * spent / asked) + " %)" + (why == null ? "" : "; " + why));
        }
        return out;
    }

    /**
     * {@link #unspentNotes} over many results, one line per method and party: how many cells left budget unspent,
     * the range spent, and the first cell's reason.
     */
    public static List<String> unspentSummary(List<Report.TaskResult> results) {
        Map<String, double[]> range = new LinkedHashMap<>(); // min spent, max spent, cells, asked
        Map<String, String> reason = new LinkedHashMap<>();
        Map<String, Integer> cells = new LinkedHashMap<>();
        for (Report.TaskResult r : results) {
            for (Map.Entry<String, Report.PartySpend> e : r.privacy().entrySet()) {
                String key = r.method() + "\u0000" + e.getKey();
                cells.merge(key, 1, Integer::sum);
                Report.PartySpend s = e.getValue();
                Double spent = s.perRunEpsilon();
                Double asked = s.epsilonRequested();
                if (spent == null || asked == null || !(spent > 0) || !(spent < UNSPENT_BELOW * asked)) {
                    continue;
                }
                double[] g = range.computeIfAbsent(key, k -> new double[] {Double.POSITIVE_INFINITY, 0, 0});
                g[0] = Math.min(g[0], spent / asked);
                g[1] = Math.max(g[1], spent / asked);
                g[2]++;
                if (!reason.containsKey(key) && r.diagnostics() != null && !r.diagnostics().isEmpty()
                        && r.diagnostics().get(0).get("budget_unspent") != null) {
                    String why = r.diagnostics().get(0).get("budget_unspent").toString();
                    reason.put(key, why.substring(why.indexOf(": ") + 2));
                }
            }
        }
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, double[]> e : range.entrySet()) {
            String[] mp = e.getKey().split("\u0000");
            double[] g = e.getValue();
            String pct = Math.round(100 * g[0]) == Math.round(100 * g[1]) ? Math.round(100 * g[0]) + " %"
                    : Math.round(100 * g[0]) + "-" + Math.round(100 * g[1]) + " %";
            out.add("budget left unspent: " + mp[0] + "'s " + mp[1] + " spent " + pct + " of its epsilon per run in " + (int) g[2]
                    + " of " + cells.get(e.getKey()) + " cells" + (reason.containsKey(e.getKey()) ? " (" + reason.get(e.getKey()) + ")" : ""));
        }
        return out;
    }

    /**
     * Per party and domain, the composition of every cell that read it privately (a bench's sweep values, methods and
     * tasks all release about the same records), certified at {@code delta} under {@code relation}; a domain read
     * without privacy in every cell is reported as not private. As {@link #domainTotals(List,
     * org.privadapt.privacy.NeighbouringRelation, double, Map)} with each party's rows taken to be distinct.
     */
    public static List<Report.DomainTotal> domainTotals(List<Report.TaskResult> results,
                                                        org.privadapt.privacy.NeighbouringRelation relation, double delta) {
        return domainTotals(results, relation, delta, null);
    }

    /**
     * The bench's totals over the rows actually read: {@code splitOf} gives the split each role reads (a suite's
     * training split for the source, its adaptation split for the target; null for the whole domain), and a domain's
     * split read by both roles (a task C->A and a task A->C of one suite, each reading A's training rows) is one set of
     * records: every cell that read it privately composes, whichever role it played (the party is then written
     * {@code source+target}). A domain also read without privacy by some cells (a baseline in the same bench) gets the
     * private cells' composed total and a note that it is not protected in this bench. {@code splitOf} null: roles
     * apart.
     */
    public static List<Report.DomainTotal> domainTotals(List<Report.TaskResult> results,
                                                        org.privadapt.privacy.NeighbouringRelation relation, double delta,
                                                        Map<String, String> splitOf) {
        Map<String, List<org.privadapt.privacy.events.DpEvent>> events = new LinkedHashMap<>();
        Map<String, Integer> cells = new LinkedHashMap<>();
        Map<String, Integer> openCells = new LinkedHashMap<>();
        Map<String, Boolean> seeded = new LinkedHashMap<>();
        Map<String, java.util.LinkedHashSet<String>> roles = new LinkedHashMap<>();
        Map<String, String> domainOf = new LinkedHashMap<>();
        for (Report.TaskResult r : results) {
            for (String party : List.of("source", "target")) {
                Report.PartySpend s = r.privacy().get(party);
                if (s == null) {
                    continue;
                }
                String domain = "source".equals(party) ? r.source() : r.target();
                String key = splitOf == null ? party + "/" + domain : java.util.Objects.toString(splitOf.get(party), "all") + "/" + domain;
                boolean notPrivate = Report.unprotected(s.epsilon());
                if (!notPrivate && s.events() == null) {
                    continue; // nothing read (epsilon 0)
                }
                roles.computeIfAbsent(key, k -> new java.util.LinkedHashSet<>()).add(party);
                domainOf.put(key, domain);
                if (notPrivate) {
                    openCells.merge(key, 1, Integer::sum);
                    continue;
                }
                cells.merge(key, 1, Integer::sum);
                seeded.merge(key, !s.isPrivate(), Boolean::logicalOr);
                events.computeIfAbsent(key, k -> new ArrayList<>()).add(org.privadapt.privacy.events.EventJson.read(s.events()));
            }
        }
        List<Report.DomainTotal> out = new ArrayList<>();
        for (String key : roles.keySet()) {
            String party = String.join("+", roles.get(key));
            String domain = domainOf.get(key);
            int open = openCells.getOrDefault(key, 0);
            if (!cells.containsKey(key)) {
                out.add(new Report.DomainTotal(party, domain, false, null, null, open, "data read without differential privacy"));
                continue;
            }
            org.privadapt.privacy.events.ComposedEvent all = new org.privadapt.privacy.events.ComposedEvent(events.get(key));
            org.privadapt.privacy.accounting.Accountants.Certified c = org.privadapt.privacy.accounting.Accountants.certify(relation,
                    all, delta);
            double eps = c == null ? Double.POSITIVE_INFINITY : c.epsilon();
            double at = delta;
            String widened = null;
            double bare = org.privadapt.privacy.accounting.Accountants.bareDelta(all);
            if (!Double.isFinite(eps) && bare > 0 && delta + bare < 0.5) {
                // bare (eps, delta) guarantees (objective perturbation) add their deltas: several of them certify
                // nothing at one release's delta, so the total is stated at delta plus their sum, never hidden
                at = delta + bare;
                c = org.privadapt.privacy.accounting.Accountants.certify(relation, all, at);
                eps = c == null ? Double.POSITIVE_INFINITY : c.epsilon();
                widened = "stated at delta plus the releases' own deltas, which (eps, delta) guarantees add";
            }
            boolean s = seeded.get(key);
            String note = s ? "seeded noise (--seed): NOT PRIVATE"
                    : !Double.isFinite(eps) ? "no finite epsilon: the accountant cannot compose these cells" : widened;
            if (open > 0) {
                String also = "also read without privacy by " + open + " cell" + (open == 1 ? "" : "s")
                        + " (non-private methods): not protected in this bench";
                note = note == null ? also : note + "; " + also;
            }
            out.add(new Report.DomainTotal(party, domain, open == 0 && !s && Double.isFinite(eps), Double.isFinite(eps) ? eps : "infinity",
                    at, cells.get(key), note));
        }
        return out;
    }

    /** Refuses, with one line, a multi-label task given to a method that does not support multi-label targets. */
    public static void requireMultiLabelSupport(AdaptationMethod method, AdaptationTask task, MethodConfig config) {
        if (AdaptationMethod.isMultiLabel(task) && !method.supportsMultiLabel(task, config)) {
            throw new UsageException(method.name() + ": the task's targets are multi-label, and this method does not support "
                    + "multi-label targets (paper 004's source-only, uda-with-source, uda-gmm and dp-uda-gmm do)");
        }
    }

    private static Ran runOnce(AdaptationMethod method, AdaptationTask task, MethodConfig config, int r, Contexts contexts)
            throws DataException, org.privadapt.privacy.BudgetExceededException, org.privadapt.privacy.ledger.BudgetLedger.LedgerException {
        requireMultiLabelSupport(method, task, config);
        try {
            PrivacyContext ctx = contexts.forRun(r);
            return new Ran(method.run(task, config.withSeed(config.seed() + r), ctx), ctx);
        } catch (IllegalArgumentException e) {
            throw new UsageException(method.name() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Regression results with each run's MSE divided by target-only's on the same task, sweep value and run (paper 003's
     * normalisation; methods under its protocol draw the same split for the same seed, so the runs pair up). Results
     * without a matching target-only result are returned unchanged.
     */
    public static List<Report.TaskResult> withRelativeMse(List<Report.TaskResult> results) {
        List<Report.TaskResult> out = new ArrayList<>(results.size());
        for (Report.TaskResult r : results) {
            Report.TaskResult base = null;
            if (r.isRegression() && !"target-only".equals(r.method())) {
                for (Report.TaskResult b : results) {
                    if ("target-only".equals(b.method()) && b.isRegression() && b.task().equals(r.task()) && b.runs() == r.runs()
                            && sameSweepIgnoring(b.sweep(), r.sweep())) {
                        base = b;
                        break;
                    }
                }
            }
            if (base == null) {
                out.add(r);
                continue;
            }
            List<Double> rel = new ArrayList<>();
            for (int i = 0; i < r.runs(); i++) {
                rel.add(r.mses().get(i) / base.mses().get(i));
            }
            out.add(r.withRelativeMse(rel));
        }
        return out;
    }

    /** Equal sweeps, or target-only's sweep value is irrelevant (epsilon does not change a non-private baseline). */
    private static boolean sameSweepIgnoring(Map<String, String> base, Map<String, String> r) {
        if (base == null || r == null) {
            return base == r || base == null;
        }
        for (Map.Entry<String, String> e : base.entrySet()) {
            if (!e.getKey().equals("epsilon") && !e.getValue().equals(r.get(e.getKey()))) {
                return false;
            }
        }
        return true;
    }

    /** The arithmetic mean; NaN for no values ({@link Stats#mean}). */
    public static double mean(List<Double> v) {
        return Stats.mean(v);
    }

    /** Sample standard deviation (n - 1); 0 for a single run ({@link Stats#std}). */
    public static double std(List<Double> v) {
        return Stats.std(v);
    }

    public static String shortName(String spec) {
        if (spec.contains("/") && !spec.startsWith("/") && !spec.startsWith(".")) {
            Path p = Path.of(spec);
            if (p.getNameCount() == 2 && !p.toFile().exists()) {
                return spec; // a benchmark reference
            }
        }
        Path f = Path.of(spec).getFileName();
        return f == null ? spec : f.toString();
    }

    public static String labelSummary(Dataset d) {
        return d.labels().map(l -> l instanceof ClassLabels c ? c.numClasses() + " classes"
                : l instanceof org.privadapt.data.MultiLabels m ? m.numLabels() + " binary labels (multi-label)" : "real-valued targets")
                .orElse("unlabelled");
    }

    /**
     * A number for people: at most 4 significant digits, no trailing zeros, no binary rounding noise
     * ({@code 9.999999990000001E-10} prints as {@code 1e-9}, 2.0 as {@code 2}, 0.30000000000000004 as {@code 0.3}).
     */
    public static String formatNumber(double v) {
        return format(v, 4);
    }

    /** As {@link #formatNumber} with 10 significant digits (accountant outputs compared against other libraries). */
    public static String formatPrecise(double v) {
        return format(v, 10);
    }

    private static String format(double v, int digits) {
        if (Double.isNaN(v)) {
            return "NaN";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "infinity" : "-infinity";
        }
        if (v == 0) {
            return "0";
        }
        java.math.BigDecimal b = new java.math.BigDecimal(v).round(new java.math.MathContext(digits)).stripTrailingZeros();
        double a = Math.abs(b.doubleValue());
        if (a >= 1e-4 && a < 1e7) {
            return b.toPlainString();
        }
        String[] me = String.format(Locale.ROOT, "%." + (digits - 1) + "e", b.doubleValue()).split("e");
        String mant = me[0].contains(".") ? me[0].replaceAll("0+$", "").replaceAll("\\.$", "") : me[0];
        return mant + "e" + Integer.parseInt(me[1]);
    }

    /** The diagnostics keys that state a choice a method made (issue 29: what was chosen, among what, why, at what cost); the refinement has its own line ({@link #refineSummary}). */
    static final List<String> CHOICE_KEYS = List.of("learner", "learner_choice", "candidates", "chosen", "chosen_noisy_validation_count",
            "per_candidate_epsilon", "sigma", "sigma_choice");

    /**
     * One line per choice the method reports in its (public) diagnostics, from the first run, for the text output (the
     * JSON carries every run's diagnostics).
     */
    public static List<String> choiceLines(Report.TaskResult r) {
        List<String> out = new ArrayList<>();
        if (r.diagnostics() == null || r.diagnostics().isEmpty()) {
            return out;
        }
        Map<String, Object> d = r.diagnostics().get(0);
        for (String k : CHOICE_KEYS) {
            if (d.containsKey(k)) {
                out.add(k + ": " + d.get(k));
            }
        }
        return out;
    }

    /** A warning when a result's mean accuracy is at chance level on the task's evaluation rows, else null. */
    public static String chanceWarning(Report.TaskResult r, AdaptationTask task) {
        Dataset eval = task.evaluation();
        if (eval == null || !eval.hasLabels() || !eval.isClassification() || r.isRegression() || !Double.isFinite(r.accuracyMean())) {
            return null;
        }
        try {
            return org.privadapt.models.Metrics.chanceWarning(r.accuracyMean(), eval.classLabels());
        } catch (org.privadapt.data.DataException e) {
            return null;
        }
    }

    public static String percent(Report.TaskResult r) {
        if (r.isRegression()) {
            return "MSE " + (r.runs() > 1 ? String.format(Locale.ROOT, "%.6g +- %.3g", r.mseMean(), r.mseStd())
                    : String.format(Locale.ROOT, "%.6g", r.mseMean()));
        }
        return r.runs() > 1 ? String.format(Locale.ROOT, "%.1f %% +- %.1f", 100 * r.accuracyMean(), 100 * r.accuracyStd())
                : String.format(Locale.ROOT, "%.1f %%", 100 * r.accuracyMean());
    }

    public static String privacySummary(Report.TaskResult r) {
        StringBuilder sb = new StringBuilder();
        r.privacy().forEach((party, s) -> {
            sb.append(sb.length() == 0 ? "" : "; ").append(party).append(' ');
            if (!s.isPrivate() && Report.unprotected(s.epsilon())) {
                sb.append("not private (its data is read without protection)");
            } else if (!s.isPrivate()) {
                sb.append("(eps=" + formatNumber(((Number) s.epsilon()).doubleValue()) + ", delta=" + formatNumber(s.delta())
                        + ") nominal, NOT PRIVATE: seeded noise");
            } else if (((Number) s.epsilon()).doubleValue() == 0) {
                sb.append("nothing released"); // its rows are not read, or read only by itself (refine)
            } else {
                sb.append("(eps=" + formatNumber(((Number) s.epsilon()).doubleValue()) + ", delta=" + formatNumber(s.delta()) + ")");
            }
            if (s.runs() != null && s.epsilonPerRun() != null) {
                sb.append(" over " + s.runs() + " runs (eps=" + formatNumber(s.epsilonPerRun()) + " each)");
            }
        });
        return sb.toString();
    }
}
