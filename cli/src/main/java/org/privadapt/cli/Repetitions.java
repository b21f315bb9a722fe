package org.privadapt.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.privadapt.cli.report.Report;
import org.privadapt.data.DataException;
import org.privadapt.methods.core.AdaptationMethod;
import org.privadapt.methods.core.AdaptationOutcome;
import org.privadapt.methods.core.AdaptationTask;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.PrivacyContext;
import org.privadapt.privacy.PrivacyCost;

/**
 * The repetitions of one cell ({@link Runs#repeat}): each run with its own seed and privacy context, one at a time or
 * on a pool of workers (a deterministic method once, repeated), the time estimate after the first run, and the
 * cell's result: the scores' mean and spread, what each party spent over all runs composed, the public diagnostics
 * and the degenerate-prediction warning.
 */
final class Repetitions {
    private Repetitions() {
    }

    static Report.TaskResult repeat(AdaptationMethod method, AdaptationTask task, MethodConfig config, int runs,
                                    Map<String, String> sweep, String sourceName, String targetName, Progress progress,
                                    Runs.Contexts contexts, int jobs)
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
        // refinement (refine) is reported always (the target's choice on its own rows, for the target, releasing nothing),
        // and so are a multi-label run's scores on the evaluation rows (per_label, mean_f1), measured as its accuracy is
        if (!method.diagnosticsArePublic()) {
            diagnostics.replaceAll(m -> {
                java.util.TreeMap<String, Object> kept = new java.util.TreeMap<>();
                for (String key : List.of("refine", "per_label", "mean_f1")) {
                    if (m.containsKey(key)) {
                        kept.put(key, m.get(key));
                    }
                }
                return kept;
            });
        }
        boolean any = diagnostics.stream().anyMatch(m -> !m.isEmpty());
        if (regression) {
            return Report.TaskResult.regression(task.name(), sourceName, targetName, method.name(), sw, runs, Runs.mean(acc), Runs.std(acc),
                    acc, spend).withDiagnostics(any ? diagnostics : null);
        }
        return new Report.TaskResult(task.name(), sourceName, targetName, method.name(), sw, runs, Runs.mean(acc), Runs.std(acc), acc, spend)
                .withDiagnostics(any ? diagnostics : null).withWarnings(degenerateWarnings(outcomes, runs))
                .withBalancedAccuracies(balancedAccuracies(outcomes, task)).withAucs(aucs(outcomes, task));
    }

    /** The evaluation rows when they carry class labels, else null. */
    private static org.privadapt.data.Dataset classLabelled(org.privadapt.data.Dataset eval) {
        return eval != null && eval.hasLabels() && eval.labels().orElse(null) instanceof org.privadapt.data.ClassLabels ? eval : null;
    }

    /**
     * Each run's AUC (Metrics.auc: the model's probability of its second class as the score) on a two-class task whose
     * method gives scores for every evaluation row; null otherwise (the landmine and spam suites' usual metric).
     */
    static List<Double> aucs(Ran[] outcomes, AdaptationTask task) {
        return perRun(outcomes, task, (a, truth) -> {
            if (a.classNames().size() != 2 || a.scores().length != truth.size()) {
                return null;
            }
            double auc = org.privadapt.models.Metrics.auc(a.scores(), truth, 1);
            return Double.isNaN(auc) ? null : auc; // NaN: one class only among the evaluation rows
        });
    }

    /**
     * Each run's balanced accuracy (Metrics.balancedAccuracy, the mean per-class recall) when the evaluation rows are
     * imbalanced (Metrics.imbalanced: landmine's 6 % positives), where accuracy mostly measures the majority class;
     * null otherwise, or when the predictions cannot be matched to the evaluation labels.
     */
    static List<Double> balancedAccuracies(Ran[] outcomes, AdaptationTask task) {
        return perRun(outcomes, task, (a, truth) -> a.predictions().length != truth.size() || !org.privadapt.models.Metrics.imbalanced(truth)
                ? null : org.privadapt.models.Metrics.balancedAccuracy(a.predictions(), truth));
    }

    /**
     * A metric of every run against the evaluation rows' class labels (in the run's class order); null when the rows
     * carry no class labels, a run is not a classification, its classes do not cover the labels, or the metric gives
     * null for any run.
     */
    private static List<Double> perRun(Ran[] outcomes, AdaptationTask task,
                                       java.util.function.BiFunction<AdaptationOutcome, org.privadapt.data.ClassLabels, Double> metric) {
        org.privadapt.data.Dataset eval = classLabelled(task.evaluation());
        if (eval == null) {
            return null;
        }
        List<Double> out = new ArrayList<>();
        for (Ran o : outcomes) {
            AdaptationOutcome a = o.outcome();
            if (a.isRegression() || a.isMultiLabel()) {
                return null;
            }
            try {
                Double v = metric.apply(a, org.privadapt.methods.core.Classifiers.truthFor(a.classNames(), eval));
                if (v == null) {
                    return null;
                }
                out.add(v);
            } catch (DataException e) {
                return null; // classes the model does not know
            }
        }
        return out;
    }

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

    private static Ran runOnce(AdaptationMethod method, AdaptationTask task, MethodConfig config, int r, Runs.Contexts contexts)
            throws DataException, org.privadapt.privacy.BudgetExceededException, org.privadapt.privacy.ledger.BudgetLedger.LedgerException {
        Runs.requireMultiLabelSupport(method, task, config);
        try {
            PrivacyContext ctx = contexts.forRun(r);
            return new Ran(method.run(task, config.withSeed(config.seed() + r), ctx), ctx);
        } catch (IllegalArgumentException e) {
            throw new UsageException(method.name() + ": " + e.getMessage(), e);
        }
    }
}
