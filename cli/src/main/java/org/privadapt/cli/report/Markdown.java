package org.privadapt.cli.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Markdown summaries of results: one row per task, one column per method, "mean ± std" (accuracy in percent, or
 * mean squared error for regression, then a second table of MSE relative to target-only when the results carry it).
 */
public final class Markdown {
    private Markdown() {
    }

    public static String resultsTable(String title, List<Report.TaskResult> results) {
        Set<String> methods = new LinkedHashSet<>();
        Map<String, Map<String, Report.TaskResult>> byTask = new LinkedHashMap<>();
        for (Report.TaskResult r : results) {
            String m = r.method() + sweepLabel(r);
            methods.add(m);
            byTask.computeIfAbsent(r.task(), k -> new LinkedHashMap<>()).put(m, r);
        }
        StringBuilder sb = new StringBuilder();
        if (title != null) {
            sb.append("### ").append(title).append("\n\n");
        }
        sb.append("| task |");
        for (String m : methods) {
            sb.append(' ').append(m).append(" |");
        }
        sb.append("\n|---|");
        sb.append("---:|".repeat(methods.size()));
        sb.append('\n');
        Map<String, List<Double>> means = new LinkedHashMap<>();
        List<String> warnings = new ArrayList<>();
        for (Map.Entry<String, Map<String, Report.TaskResult>> e : byTask.entrySet()) {
            sb.append("| ").append(e.getKey()).append(" |");
            for (String m : methods) {
                Report.TaskResult r = e.getValue().get(m);
                if (r == null) {
                    sb.append(" |");
                    continue;
                }
                means.computeIfAbsent(m, k -> new ArrayList<>()).add(r.scoreMean());
                Double f1 = meanDiagnostic(r, "mean_f1");
                // multi-label (issue 33): the mean per-label accuracy rewards answering "absent"; F1 beside it
                sb.append(' ').append(cell(r)).append(f1 == null ? "" : String.format(Locale.ROOT, " (F1 %.1f)", 100 * f1))
                        .append(balancedCell(r)).append(" |");
                int never = labelsNeverFound(r);
                if (never > 0) {
                    warnings.add(String.format(Locale.ROOT, "%s on %s: positive-class F1 0 on %d of %d labels in every run (never found; "
                            + "the mean per-label accuracy hides it)", m, e.getKey(), never, labelCount(r)));
                }
            }
            sb.append('\n');
        }
        if (byTask.size() > 1) {
            sb.append("| **average** |");
            for (String m : methods) {
                List<Double> v = means.getOrDefault(m, List.of());
                double s = 0;
                for (double x : v) {
                    s += x;
                }
                boolean mse = results.stream().anyMatch(Report.TaskResult::isRegression);
                sb.append(v.isEmpty() ? " |" : mse ? " **" + significant(s / v.size()) + "** |"
                        : String.format(Locale.ROOT, " **%.1f**%s |", 100 * s / v.size(), balancedAverage(byTask, m)));
            }
            sb.append('\n');
        }
        if (results.stream().anyMatch(r -> r.balancedAccuracies() != null)) {
            sb.append("\nbal. = balanced accuracy (mean per-class recall, %), given where the evaluation rows are imbalanced (the "
                    + "rarest class under a quarter of the most frequent): there accuracy mostly measures the majority class; AUC "
                    + "beside it where the method scores the rows (the JSON has every two-class result's aucs)\n");
        }
        for (String w : warnings) {
            sb.append("\nWarning: ").append(w).append('\n');
        }
        return sb.toString();
    }

    /** The mean over runs of a numeric diagnostic, or null when no run carries it. */
    static Double meanDiagnostic(Report.TaskResult r, String key) {
        if (r.diagnostics() == null) {
            return null;
        }
        double s = 0;
        int n = 0;
        for (Map<String, Object> d : r.diagnostics()) {
            if (d != null && d.get(key) instanceof Number x) {
                s += x.doubleValue();
                n++;
            }
        }
        return n == 0 ? null : s / n;
    }

    /** The number of labels whose positive-class F1 is 0 in every run (multi-label results; 0 otherwise). */
    static int labelsNeverFound(Report.TaskResult r) {
        int labels = labelCount(r);
        if (labels == 0) {
            return 0;
        }
        int never = 0;
        for (int l = 0; l < labels; l++) {
            boolean found = false;
            for (Map<String, Object> d : r.diagnostics()) {
                if (d != null && d.get("per_label") instanceof List<?> list && list.size() == labels
                        && ((Map<?, ?>) list.get(l)).get("f1") instanceof Number f && f.doubleValue() > 0) {
                    found = true;
                }
            }
            never += found ? 0 : 1;
        }
        return never;
    }

    static int labelCount(Report.TaskResult r) {
        if (r.diagnostics() == null || r.diagnostics().isEmpty() || r.diagnostics().get(0) == null) {
            return 0;
        }
        return r.diagnostics().get(0).get("per_label") instanceof List<?> list ? list.size() : 0;
    }

    /**
     * For regression results that carry {@code relative_mse}: a table of MSE relative to target-only (per-run ratios on
     * the same splits, mean ± std; below 1 means the method beat training on the target alone); else "".
     */
    public static String relativeTable(String title, List<Report.TaskResult> results) {
        List<Report.TaskResult> rel = results.stream().filter(r -> r.relativeMse() != null).toList();
        if (rel.isEmpty()) {
            return "";
        }
        Set<String> methods = new LinkedHashSet<>();
        Map<String, Map<String, Report.TaskResult>> byTask = new LinkedHashMap<>();
        for (Report.TaskResult r : rel) {
            String m = r.method() + sweepLabel(r);
            methods.add(m);
            byTask.computeIfAbsent(r.task(), k -> new LinkedHashMap<>()).put(m, r);
        }
        StringBuilder sb = new StringBuilder();
        if (title != null) {
            sb.append("### ").append(title).append("\n\n");
        }
        sb.append("| task |");
        methods.forEach(m -> sb.append(' ').append(m).append(" |"));
        sb.append("\n|---|").append("---:|".repeat(methods.size())).append('\n');
        for (Map.Entry<String, Map<String, Report.TaskResult>> e : byTask.entrySet()) {
            sb.append("| ").append(e.getKey()).append(" |");
            for (String m : methods) {
                Report.TaskResult r = e.getValue().get(m);
                sb.append(r == null ? " |" : r.runs() > 1
                        ? String.format(Locale.ROOT, " %.3f ± %.3f |", r.relativeMseMean(), r.relativeMseStd())
                        : String.format(Locale.ROOT, " %.3f |", r.relativeMseMean()));
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /** Four significant digits, plain notation where it reads well. */
    /**
     * Multi-label results (paper 004): for each task, one row per label, per method the mean over runs of the label's
     * accuracy (the paper's P = R = F1 cells) and positive-class F1, "acc / F1" in percent; empty when no result
     * carries per-label scores.
     */
    public static String perLabelTable(String title, List<Report.TaskResult> results) {
        StringBuilder sb = new StringBuilder();
        Map<String, List<Report.TaskResult>> byTask = new LinkedHashMap<>();
        for (Report.TaskResult r : results) {
            if (r.diagnostics() != null && !r.diagnostics().isEmpty() && r.diagnostics().get(0).get("per_label") instanceof List) {
                byTask.computeIfAbsent(r.task(), k -> new ArrayList<>()).add(r);
            }
        }
        for (Map.Entry<String, List<Report.TaskResult>> e : byTask.entrySet()) {
            sb.append("### ").append(title).append(": ").append(e.getKey()).append(", per label: accuracy / positive-class F1 (%)\n\n");
            sb.append("| label |");
            for (Report.TaskResult r : e.getValue()) {
                sb.append(' ').append(r.method()).append(sweepLabel(r)).append(" |");
            }
            sb.append("\n|---|").append("---:|".repeat(e.getValue().size())).append('\n');
            List<String> labels = new ArrayList<>();
            for (Object o : (List<?>) e.getValue().get(0).diagnostics().get(0).get("per_label")) {
                labels.add(String.valueOf(((Map<?, ?>) o).get("label")));
            }
            for (int l = 0; l < labels.size(); l++) {
                sb.append("| ").append(labels.get(l)).append(" |");
                for (Report.TaskResult r : e.getValue()) {
                    double acc = 0;
                    double f1 = 0;
                    int n = 0;
                    for (Map<String, Object> d : r.diagnostics()) {
                        Object per = d.get("per_label");
                        if (per instanceof List<?> list && list.size() == labels.size()) {
                            Map<?, ?> m = (Map<?, ?>) list.get(l);
                            acc += ((Number) m.get("accuracy")).doubleValue();
                            f1 += ((Number) m.get("f1")).doubleValue();
                            n++;
                        }
                    }
                    sb.append(n == 0 ? " |" : String.format(Locale.ROOT, " %.1f / %.1f |", 100 * acc / n, 100 * f1 / n));
                }
                sb.append('\n');
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    static String significant(double v) {
        if (v == 0 || !Double.isFinite(v)) {
            return String.valueOf(v);
        }
        double a = Math.abs(v);
        if (a >= 1e-3 && a < 1e5) {
            int digits = Math.max(0, 3 - (int) Math.floor(Math.log10(a)));
            return String.format(Locale.ROOT, "%." + digits + "f", v);
        }
        return String.format(Locale.ROOT, "%.3e", v);
    }

    /** " (bal. x)" beside an accuracy on imbalanced evaluation rows, else nothing. */
    static String balancedCell(Report.TaskResult r) {
        if (r.balancedAccuracies() == null) {
            return "";
        }
        String bal = r.runs() > 1 ? String.format(Locale.ROOT, " (bal. %.1f ± %.1f", 100 * r.balancedAccuracyMean(), 100 * r.balancedAccuracyStd())
                : String.format(Locale.ROOT, " (bal. %.1f", 100 * r.balancedAccuracyMean());
        return bal + (r.aucs() == null ? "" : String.format(Locale.ROOT, "; AUC %.3f", r.aucMean())) + ")";
    }

    /** The method's average balanced accuracy when each of its tasks has one, else nothing. */
    private static String balancedAverage(Map<String, Map<String, Report.TaskResult>> byTask, String method) {
        double s = 0;
        int n = 0;
        for (Map<String, Report.TaskResult> row : byTask.values()) {
            Report.TaskResult r = row.get(method);
            if (r == null) {
                continue;
            }
            if (r.balancedAccuracies() == null) {
                return "";
            }
            s += r.balancedAccuracyMean();
            n++;
        }
        return n == 0 ? "" : String.format(Locale.ROOT, " (bal. **%.1f**)", 100 * s / n);
    }

    static String cell(Report.TaskResult r) {
        if (r.isRegression()) {
            return r.runs() > 1 ? significant(r.mseMean()) + " ± " + significant(r.mseStd()) : significant(r.mseMean());
        }
        return r.runs() > 1 ? String.format(Locale.ROOT, "%.1f ± %.1f", 100 * r.accuracyMean(), 100 * r.accuracyStd())
                : String.format(Locale.ROOT, "%.1f", 100 * r.accuracyMean());
    }

    static String sweepLabel(Report.TaskResult r) {
        if (r.sweep() == null || r.sweep().isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder(" (");
        r.sweep().forEach((k, v) -> sb.append(sb.length() > 2 ? ", " : "").append(k).append('=').append(v));
        return sb.append(')').toString();
    }
}
