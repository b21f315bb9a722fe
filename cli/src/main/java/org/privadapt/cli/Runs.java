package org.privadapt.cli;

import java.nio.file.Path;
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
import org.privadapt.methods.core.AdaptationTask;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.Methods;
import org.privadapt.methods.core.PrivacyContext;

/**
 * Shared pieces of {@code run}, {@code bench} and {@code demo}: argument parsing, repetition, summaries.
 *
 * <p>This class holds the option helpers, number formatting and the public entry points; the repetitions of a cell
 * are {@link Repetitions}, the budget notes and per-domain totals {@link SpendReports}, and the lines printed about
 * a result {@link ResultLines} (all package-private).
 */
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
    public static Report.TaskResult repeat(AdaptationMethod method, AdaptationTask task, MethodConfig config, int runs,
                                           Map<String, String> sweep, String sourceName, String targetName, Progress progress,
                                           Contexts contexts, int jobs)
            throws DataException, org.privadapt.privacy.BudgetExceededException, org.privadapt.privacy.ledger.BudgetLedger.LedgerException {
        return Repetitions.repeat(method, task, config, runs, sweep, sourceName, targetName, progress, contexts, jobs);
    }

    /**
     * When a cell's runs will take long (issue 33: a README cell of 20 DNN runs took 24 minutes, and checkpoints are
     * per cell): after its first run, the estimate on standard error; null (nothing printed) when the rest takes under
     * a minute.
     */
    static String cellEstimate(String method, String task, int runs, int workers, double firstRunSeconds) {
        return Repetitions.cellEstimate(method, task, runs, workers, firstRunSeconds);
    }

    /**
     * One line saying what refine=auto chose in each run of a result (e.g. "auto chose centroids (runs 1-3)", or
     * "auto chose centre in 2 runs, centroids in 1"), or null when the result has no auto choice.
     */
    public static String refineSummary(Report.TaskResult r) {
        return ResultLines.refineSummary(r);
    }

    /**
     * The {@code refine:} line of the target's commands for a refinement's diagnostics: what a choosing mode (auto,
     * default) chose and why, or the named refinement; null when there is nothing to say.
     */
    public static String refineLine(Object diagnostics) {
        if (!(diagnostics instanceof Map<?, ?> d)) {
            return null;
        }
        String what = d.get("chosen") != null ? d.get("mode") + " chose " + d.get("chosen") + " (" + d.get("reason") + "; " : d.get("mode") + " (";
        return what + "on these rows only, nothing released)";
    }

    /** The degenerate-prediction warnings of a result, prefixed by its task and method, for standard error. */
    public static List<String> predictionWarnings(Report.TaskResult r) {
        return ResultLines.predictionWarnings(r);
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
        return SpendReports.unspentNotes(r);
    }

    /**
     * {@link #unspentNotes} over many results, one line per method and party: how many cells left budget unspent,
     * the range spent, and the first cell's reason.
     */
    public static List<String> unspentSummary(List<Report.TaskResult> results) {
        return SpendReports.unspentSummary(results);
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
        return SpendReports.domainTotals(results, relation, delta, splitOf);
    }

    /** Refuses, with one line, a multi-label task given to a method that does not support multi-label targets. */
    public static void requireMultiLabelSupport(AdaptationMethod method, AdaptationTask task, MethodConfig config) {
        if (AdaptationMethod.isMultiLabel(task) && !method.supportsMultiLabel(task, config)) {
            throw new UsageException(method.name() + ": the task's targets are multi-label, and this method does not support "
                    + "multi-label targets (paper 004's source-only, uda-with-source, uda-gmm and dp-uda-gmm do)");
        }
    }

    /**
     * Regression results with each run's MSE divided by target-only's on the same task, sweep value and run (paper 003's
     * normalisation; methods under its protocol draw the same split for the same seed, so the runs pair up). Results
     * without a matching target-only result are returned unchanged.
     */
    public static List<Report.TaskResult> withRelativeMse(List<Report.TaskResult> results) {
        return ResultLines.withRelativeMse(results);
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

    /**
     * One line per choice the method reports in its (public) diagnostics, from the first run, for the text output (the
     * JSON carries every run's diagnostics).
     */
    public static List<String> choiceLines(Report.TaskResult r) {
        return ResultLines.choiceLines(r);
    }

    /** A warning when a result's mean accuracy is at chance level on the task's evaluation rows, else null. */
    public static String chanceWarning(Report.TaskResult r, AdaptationTask task) {
        return ResultLines.chanceWarning(r, task);
    }

    public static String percent(Report.TaskResult r) {
        return ResultLines.percent(r);
    }

    public static String privacySummary(Report.TaskResult r) {
        return ResultLines.privacySummary(r);
    }
}
