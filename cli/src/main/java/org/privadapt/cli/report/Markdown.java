package org.privadapt.cli.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** Markdown summaries of results: one row per task, one column per method, "mean ± std" in percent. */
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
        for (Map.Entry<String, Map<String, Report.TaskResult>> e : byTask.entrySet()) {
            sb.append("| ").append(e.getKey()).append(" |");
            for (String m : methods) {
                Report.TaskResult r = e.getValue().get(m);
                if (r == null) {
                    sb.append(" |");
                    continue;
                }
                means.computeIfAbsent(m, k -> new ArrayList<>()).add(r.accuracyMean());
                sb.append(' ').append(cell(r)).append(" |");
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
                sb.append(v.isEmpty() ? " |" : String.format(Locale.ROOT, " **%.1f** |", 100 * s / v.size()));
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    static String cell(Report.TaskResult r) {
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
