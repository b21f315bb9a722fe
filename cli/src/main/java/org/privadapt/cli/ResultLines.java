package org.privadapt.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.privadapt.cli.report.Report;
import org.privadapt.data.Dataset;
import org.privadapt.methods.core.AdaptationTask;

/**
 * The lines a command prints about one result: its score, its privacy, the choices the method reports, what
 * refine=auto chose, the chance and degenerate-prediction warnings; and the regression results' MSE relative to
 * target-only's. {@link Runs} keeps the public entry points and delegates here.
 */
final class ResultLines {
    private ResultLines() {
    }

    @SuppressWarnings("unchecked")
    static String refineSummary(Report.TaskResult r) {
        if (r.diagnostics() == null) {
            return null;
        }
        Map<String, Integer> chosen = new LinkedHashMap<>();
        String mode = "auto";
        for (Map<String, Object> d : r.diagnostics()) {
            if (d.get("refine") instanceof Map<?, ?> m && m.get("chosen") != null) {
                chosen.merge(String.valueOf(m.get("chosen")), 1, Integer::sum);
                mode = String.valueOf(m.get("mode"));
            }
        }
        if (chosen.isEmpty()) {
            return null;
        }
        String head = mode + " chose ";
        StringBuilder sb = new StringBuilder(head);
        chosen.forEach((k, v) -> sb.append(sb.length() > head.length() ? ", " : "").append(k)
                .append(r.runs() > 1 ? " in " + v + " of " + r.runs() + " runs" : ""));
        return sb.append("default".equals(mode)
                ? " (the default rule on the target's n/(K d), docs/results/defaults.md; nothing released)"
                : " (on the target's own unlabelled rows; nothing released; criteria in the JSON diagnostics)").toString();
    }

    static List<String> predictionWarnings(Report.TaskResult r) {
        List<String> out = new ArrayList<>();
        if (r.warnings() != null) {
            for (String w : r.warnings()) {
                out.add(r.task() + " " + r.method() + ": " + w);
            }
        }
        return out;
    }

    static List<Report.TaskResult> withRelativeMse(List<Report.TaskResult> results) {
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

    /**
     * The diagnostics keys that state a choice a method made (issue 29: what was chosen, among what, why, at what
     * cost); the refinement has its own line ({@link Runs#refineSummary}).
     */
    static final List<String> CHOICE_KEYS = List.of("learner", "learner_choice", "candidates", "chosen", "chosen_noisy_validation_count",
            "per_candidate_epsilon", "sigma", "sigma_choice");

    static List<String> choiceLines(Report.TaskResult r) {
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

    static String chanceWarning(Report.TaskResult r, AdaptationTask task) {
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

    static String percent(Report.TaskResult r) {
        if (r.isRegression()) {
            return "MSE " + (r.runs() > 1 ? String.format(Locale.ROOT, "%.6g +- %.3g", r.mseMean(), r.mseStd())
                    : String.format(Locale.ROOT, "%.6g", r.mseMean()));
        }
        String acc = r.runs() > 1 ? String.format(Locale.ROOT, "%.1f %% +- %.1f", 100 * r.accuracyMean(), 100 * r.accuracyStd())
                : String.format(Locale.ROOT, "%.1f %%", 100 * r.accuracyMean());
        if (r.balancedAccuracies() == null) {
            return acc;
        }
        // imbalanced evaluation rows (Metrics.imbalanced): accuracy alone mostly measures the majority class
        String auc = r.aucs() == null ? "" : r.runs() > 1 ? String.format(Locale.ROOT, "; AUC %.3f +- %.3f", r.aucMean(), r.aucStd())
                : String.format(Locale.ROOT, "; AUC %.3f", r.aucMean());
        return acc + (r.runs() > 1 ? String.format(Locale.ROOT, " (balanced accuracy %.1f %% +- %.1f%s)", 100 * r.balancedAccuracyMean(),
                100 * r.balancedAccuracyStd(), auc) : String.format(Locale.ROOT, " (balanced accuracy %.1f %%%s)", 100 * r.balancedAccuracyMean(), auc));
    }

    static String privacySummary(Report.TaskResult r) {
        StringBuilder sb = new StringBuilder();
        r.privacy().forEach((party, s) -> {
            sb.append(sb.length() == 0 ? "" : "; ").append(party).append(' ');
            if (!s.isPrivate() && Report.unprotected(s.epsilon())) {
                sb.append("not private (its data is read without protection)");
            } else if (!s.isPrivate()) {
                sb.append("(eps=" + Runs.formatNumber(((Number) s.epsilon()).doubleValue()) + ", delta=" + Runs.formatNumber(s.delta())
                        + ") nominal, NOT PRIVATE: seeded noise");
            } else if (((Number) s.epsilon()).doubleValue() == 0) {
                sb.append("nothing released"); // its rows are not read, or read only by itself (refine)
            } else {
                sb.append("(eps=" + Runs.formatNumber(((Number) s.epsilon()).doubleValue()) + ", delta=" + Runs.formatNumber(s.delta()) + ")");
            }
            if (s.runs() != null && s.epsilonPerRun() != null) {
                sb.append(" over " + s.runs() + " runs (eps=" + Runs.formatNumber(s.epsilonPerRun()) + " each)");
            }
        });
        return sb.toString();
    }
}
