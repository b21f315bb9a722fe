package org.privadapt.cli.commands;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.privadapt.cli.Runs;
import org.privadapt.cli.Version;
import org.privadapt.cli.report.Report;
import org.privadapt.data.Provenance;
import org.privadapt.math.LinAlg;
import org.privadapt.privacy.PrivacyCost;
import org.privadapt.privacy.PrivacySession;

/**
 * The {@code run --json} report of a run on Spark (issue 45 item 4): the in-process {@link Report} schema (tool,
 * environment, config, datasets, {@code results} with one task result, warnings) and the same privacy block per party
 * (the spend, the composed DP events, the epsilon requested), so that a script reads one schema for every engine. What
 * differs is said in it: {@code config.engine} is {@code spark}, a dataset's {@code files} entry names the data as
 * given ({@code parquet:PATH}, ...) with its format and columns, without a hash (a lake is not hashed file by file).
 */
final class SparkRunReport {
    private SparkRunReport() {
    }

    /** The config block: the method, the preprocessing, the method options, the engine and the privacy settings. */
    static Map<String, Object> config(String method, String pre, String preDefaultReason, Map<String, Object> methodOptions,
                                      String master, Double delta, Boolean seeded) {
        Map<String, Object> cfg = new LinkedHashMap<>();
        cfg.put("method", method);
        cfg.put("preprocess", pre);
        if (preDefaultReason != null) {
            cfg.put("preprocess_default", preDefaultReason);
        }
        cfg.putAll(methodOptions);
        cfg.put("engine", "spark");
        if (master != null) {
            cfg.put("spark_master", master);
        }
        if (delta != null) {
            cfg.put("delta", delta);
            cfg.put("seeded_noise", seeded);
        }
        return cfg;
    }

    /** One party's data on Spark: the spec as given, the columns (public: named), the rows as counted. */
    static Report.DatasetInfo dataset(String role, String spec, long rows, List<String> featureColumns, String labelColumn,
                                      String labels, String pre) {
        int colon = spec.indexOf(':');
        String detail = (labelColumn != null ? "label column '" + labelColumn + "', " : "") + featureColumns.size() + " feature columns";
        List<String> steps = new ArrayList<>();
        steps.add("preprocessing " + pre + " (row-local, on the executors)");
        return new Report.DatasetInfo(role, Runs.shortName(spec.substring(colon + 1)), (int) Math.min(Integer.MAX_VALUE, rows),
                featureColumns.size(), labels, List.of(new Provenance.SourceFile(spec, null, spec.substring(0, colon) + " (Spark)", detail)),
                steps);
    }

    /**
     * A party's spend as the in-process run reports one run's ({@code Repetitions.composedSpend}): the cost, the
     * composed events charged and the epsilon requested; nothing charged: the in-process "spent nothing" block.
     */
    static Report.PartySpend spend(PrivacySession s) {
        List<org.privadapt.privacy.events.DpEvent> events = s.events();
        if (events.isEmpty()) {
            return nothing();
        }
        com.fasterxml.jackson.databind.JsonNode json = org.privadapt.privacy.events.EventJson.write(
                new org.privadapt.privacy.events.ComposedEvent(events));
        return Report.PartySpend.of(s.spent(), 1, s.spent()).withEvents(json).withRequested(s.target().epsilon());
    }

    /** A party that spent nothing: the in-process block (private, epsilon 0). */
    static Report.PartySpend nothing() {
        return Report.PartySpend.of(PrivacyCost.NONE, 1, PrivacyCost.NONE);
    }

    /** A non-private party (the baselines' source): the in-process block of data read without differential privacy. */
    static Report.PartySpend notPrivate() {
        return Report.PartySpend.of(new PrivacyCost(Double.POSITIVE_INFINITY, 0.0), 1);
    }

    /** The report of one classification run. */
    static Report classification(String source, String target, String method, double accuracy, Map<String, Object> diagnostics,
                                 Map<String, Report.PartySpend> privacy, Map<String, Object> config, List<Report.DatasetInfo> datasets) {
        Report.TaskResult r = new Report.TaskResult(task(source, target), source, target, method, null, 1, accuracy, 0.0,
                List.of(accuracy), privacy);
        if (diagnostics != null && !diagnostics.isEmpty()) {
            r = r.withDiagnostics(List.of(new java.util.TreeMap<>(diagnostics)));
        }
        return report(config, datasets, r);
    }

    /** The report of one regression run (paper 003's methods): the MSE and the run's diagnostics. */
    static Report regression(String source, String target, String method, double mse, Map<String, Object> diagnostics,
                             Map<String, Report.PartySpend> privacy, Map<String, Object> config, List<Report.DatasetInfo> datasets) {
        Report.TaskResult r = Report.TaskResult.regression(task(source, target), source, target, method, null, 1, mse, 0.0,
                List.of(mse), privacy);
        if (diagnostics != null && !diagnostics.isEmpty()) {
            r = r.withDiagnostics(List.of(new java.util.TreeMap<>(diagnostics)));
        }
        return report(config, datasets, r);
    }

    private static String task(String source, String target) {
        return Runs.shortName(source.substring(source.indexOf(':') + 1)) + " -> " + Runs.shortName(target.substring(target.indexOf(':') + 1));
    }

    private static Report report(Map<String, Object> config, List<Report.DatasetInfo> datasets, Report.TaskResult r) {
        return new Report("privadapt", Version.get(), "run", Instant.now().toString(),
                Report.Environment.current(LinAlg.backend().description()), config, datasets, List.of(r), List.of());
    }
}
