package org.privadapt.cli.commands;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.privadapt.cli.DataSpecs;
import org.privadapt.cli.ExitCodes;
import org.privadapt.cli.MethodOptions;
import org.privadapt.cli.OutputOptions;
import org.privadapt.cli.PrivacyOptions;
import org.privadapt.cli.Progress;
import org.privadapt.cli.Runs;
import org.privadapt.cli.UsageException;
import org.privadapt.cli.Version;
import org.privadapt.cli.report.BenchCheckpoint;
import org.privadapt.cli.report.Json;
import org.privadapt.cli.report.Markdown;
import org.privadapt.cli.report.Plots;
import org.privadapt.cli.report.Report;
import org.privadapt.data.DataException;
import org.privadapt.data.Dataset;
import org.privadapt.data.preprocess.DefaultPreprocessing;
import org.privadapt.data.preprocess.Preprocessing;
import org.privadapt.data.registry.BenchmarkRegistry;
import org.privadapt.data.registry.Suite;
import org.privadapt.math.LinAlg;
import org.privadapt.methods.core.AdaptationMethod;
import org.privadapt.methods.core.AdaptationTask;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.TaskPreparation;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code privadapt bench SUITE} on a benchmark suite: methods x tasks x repetitions (x a parameter or epsilon sweep),
 * each cell checkpointed when asked and reused from the checkpoint, then the results table, JSON, Markdown, plot and
 * the privacy totals. Runs with the options {@link BenchCommand} parsed; the other benches are their own classes.
 */
final class SuiteBench {
    private final CommandSpec spec;
    private final String suiteName;
    private final List<String> methods;
    private final List<String> tasks;
    private final String preprocess;
    private final int jobs;
    private final String sweep;
    private final Path plot;
    private final Path checkpoint;
    private final MethodOptions methodOptions;
    private final PrivacyOptions privacy;
    private final DataSpecs data;
    private final OutputOptions output;

    SuiteBench(BenchCommand b) {
        this.spec = b.spec;
        this.suiteName = b.suiteName;
        this.methods = b.methods;
        this.tasks = b.tasks;
        this.preprocess = b.preprocess;
        this.jobs = b.jobs;
        this.sweep = b.sweep;
        this.plot = b.plot;
        this.checkpoint = b.checkpoint;
        this.methodOptions = b.methodOptions;
        this.privacy = b.privacy;
        this.data = b.data;
        this.output = b.output;
    }

    Integer run() throws Exception {
        methodOptions.config(Map.of()); // validates
        if (jobs < 1) {
            throw new UsageException("--jobs must be at least 1, got " + jobs);
        }
        int runs = methodOptions.runs;
        BenchmarkRegistry reg = data.registry();
        if (reg.suites().stream().noneMatch(x -> x.name().equals(suiteName))) {
            // a name that is not one of the choices is a usage error (exit 2), as an unknown method is
            throw new UsageException("unknown suite '" + suiteName + "'; suites: " + String.join(", ",
                    reg.suites().stream().map(Suite::name).toList()) + "; or linalg, accounting, noise, dpsgd, "
                    + "dpot-wasserstein, sinkhorn, scale");
        }
        Suite suite = reg.suite(suiteName);
        List<AdaptationMethod> ms = new ArrayList<>();
        for (String m : methods) {
            ms.add(Runs.method(m.trim()));
        }
        methodOptions.checkNames(ms, sweep != null && sweep.indexOf('=') > 0 ? java.util.Set.of(sweep.substring(0, sweep.indexOf('=')))
                : java.util.Set.of());
        boolean anyPrivate = ms.stream().anyMatch(AdaptationMethod::isPrivate);
        privacy.validate(anyPrivate, true);
        output.requireWritable(plot);
        List<Double> epsSweep = privacy.epsilonValues().size() > 1 ? privacy.epsilonValues() : null;
        if (epsSweep != null && sweep != null) {
            throw new UsageException("sweep either --epsilon (a list) or --sweep, not both");
        }
        List<String[]> pairs = resolveTasks(suite);
        if (pairs.isEmpty()) {
            // e.g. a suite with one domain (iu-chest-xray): nothing to adapt between, so nothing to bench
            throw new UsageException("suite '" + suite.name() + "' has no source -> target task (domains: "
                    + suite.domains().stream().map(Suite.Domain::name).toList() + "); suites with tasks: " + String.join(", ",
                    reg.suites().stream().filter(x -> !x.taskPairs().isEmpty()).map(Suite::name).toList())
                    + "; or give its domains with --tasks SOURCE:TARGET, or run it with `run --source ... --target ...`");
        }
        if (data.textColumn() != null) {
            throw new UsageException("--text-column " + data.textColumn() + ": bench runs a benchmark suite (a text suite's "
                    + "texts are encoded by --param encoder alone); a CSV file's text column is read by run and the two-party commands");
        }
        data.useTextEncoder(methodOptions.params.get(DataSpecs.ENCODER_PARAM), !output.json);
        if (!reg.textEncoding().identity().equals(org.privadapt.data.text.TextEncoding.Identity.BOW)
                && !org.privadapt.data.text.TextEncoding.identity(reg.load(suite.name(), pairs.get(0)[0], suite.trainSplit()))
                .equals(reg.textEncoding().identity())) {
            throw new UsageException("--param encoder=" + reg.textEncoding().name() + ": only a text suite's texts are encoded "
                    + "(iu-chest-xray-uda); suite '" + suite.name() + "' is not one: drop the parameter");
        }
        DefaultPreprocessing.Choice preDefault = preprocess != null ? null
                : DefaultPreprocessing.choose(methodOptions.withTask(reg.load(suite.name(), pairs.get(0)[0], suite.trainSplit())), anyPrivate,
                        methodOptions.params.containsKey("target-train"));
        Preprocessing pre = Runs.preprocessing(preprocess != null ? preprocess : preDefault.spec());
        if (preDefault != null && !output.json) {
            spec.commandLine().getErr().println("privadapt: preprocessing " + preDefault.spec() + " (default for "
                    + preDefault.reason() + "; --preprocess to change)");
        }
        java.util.Set<String> protectedParties = new java.util.TreeSet<>();
        ms.forEach(m -> protectedParties.addAll(m.protectedParties()));
        String sweepName = null;
        List<String> sweepValues = List.of("");
        if (epsSweep != null) {
            sweepName = "epsilon";
            sweepValues = epsSweep.stream().map(String::valueOf).toList();
        } else if (sweep != null) {
            int eq = sweep.indexOf('=');
            if (eq <= 0 || eq == sweep.length() - 1) {
                throw new UsageException("--sweep must look like NAME=V1,V2,..., got '" + sweep + "'");
            }
            sweepName = sweep.substring(0, eq);
            sweepValues = List.of(sweep.substring(eq + 1).split(","));
        }
        Map<String, Object> cfg = new LinkedHashMap<>();
        cfg.put("suite", suite.name());
        cfg.put("methods", methods);
        cfg.put("tasks", pairs.stream().map(t -> t[0] + "->" + t[1]).toList());
        cfg.put("preprocess", pre.spec());
        if (preDefault != null) {
            cfg.put("preprocess_default", preDefault.reason());
        }
        cfg.putAll(methodOptions.describe());
        if (anyPrivate || !privacy.epsilonValues().isEmpty() || privacy.seeded()) {
            // also when only non-private methods run with privacy flags given: a checkpoint shared with private
            // methods compares these settings
            cfg.putAll(privacy.describe(epsSweep != null));
        }
        if (sweepName != null) {
            cfg.put("sweep", sweepName + "=" + String.join(",", sweepValues));
        }
        // methods deterministic by their configuration; one found to depend on the seed on some task (paper 004's network
        // under source-only, say) is taken out of the note when it runs each repetition there
        List<String> deterministic = new ArrayList<>(deterministicCandidates(ms));
        List<String> notes = deterministicNote(deterministic, runs);
        boolean paper004Pipeline = false; // a task run by paper 004's encoder and classifier, not --classifier
        BenchCheckpoint saved = null;
        if (checkpoint != null) {
            try {
                saved = BenchCheckpoint.open(checkpoint, cfg);
            } catch (BenchCheckpoint.CheckpointException e) {
                throw new UsageException("--checkpoint " + e.getMessage(), e);
            }
            if (saved.size() > 0) {
                spec.commandLine().getErr().printf(Locale.ROOT, "privadapt: resuming from the checkpoint %s: %d finished cell%s "
                        + "(task x method x swept value) reused%n", checkpoint, saved.size(), saved.size() == 1 ? "" : "s");
            }
        }
        List<Report.TaskResult> results = new ArrayList<>();
        Map<String, Report.DatasetInfo> datasets = new LinkedHashMap<>();
        // a method that does not take the swept parameter (source-only in a lambda sweep, a non-private method in an
        // epsilon sweep) runs once per task, untagged: the plot draws it as a flat reference line
        String swept = sweepName;
        java.util.function.Predicate<AdaptationMethod> takesSweep = m -> swept == null
                || (epsSweep != null ? m.isPrivate() : m.parameters().contains(swept));
        long cellsPerTask = 0;
        for (AdaptationMethod m : ms) {
            cellsPerTask += takesSweep.test(m) ? sweepValues.size() : 1;
        }
        long total = (long) pairs.size() * cellsPerTask * runs;
        int reused = 0;
        try (Progress progress = Progress.start(suite.name(), total, !output.json)) {
            for (String[] pair : pairs) {
                Dataset src = methodOptions.withTask(reg.load(suite.name(), pair[0], suite.trainSplit()))
                        .withPublicFacts(privacy.declared("source"));
                Dataset tgt = methodOptions.withTask(reg.load(suite.name(), pair[1], suite.adaptSplit()))
                        .withPublicFacts(privacy.declared("target"));
                Dataset eval = methodOptions.withTask(reg.load(suite.name(), pair[1], suite.evalSplit()));
                String taskName = shortOf(suite, pair[0]) + "->" + shortOf(suite, pair[1]);
                for (Report.DatasetInfo info : List.of(Report.DatasetInfo.of("source", src), Report.DatasetInfo.of("target", tgt),
                        Report.DatasetInfo.of("target-eval", eval))) {
                    if (saved != null) {
                        try {
                            saved.checkDataset(info);
                        } catch (BenchCheckpoint.CheckpointException e) {
                            throw new UsageException("--checkpoint " + e.getMessage(), e);
                        }
                    }
                    datasets.putIfAbsent(info.domain(), info);
                }
                AdaptationTask task = null;
                for (String value : sweepValues) {
                    Map<String, String> sw = sweepName == null ? Map.of() : Map.of(sweepName, value.trim());
                    MethodConfig config = methodOptions.config(epsSweep != null ? Map.of() : sw);
                    if (epsSweep != null) {
                        privacy.useEpsilon(Double.parseDouble(value));
                    }
                    for (AdaptationMethod m : ms) {
                        boolean swept1 = takesSweep.test(m);
                        if (!swept1 && !value.equals(sweepValues.get(0))) {
                            continue; // run once, at the first value, as a reference
                        }
                        Map<String, String> cellSweep = swept1 ? sw : Map.of();
                        java.util.Optional<Report.TaskResult> done = saved == null ? java.util.Optional.empty()
                                : saved.find(taskName, m.name(), cellSweep);
                        if (done.isPresent()) {
                            results.add(done.get());
                            reused++;
                            for (int r = 0; r < runs; r++) {
                                progress.step();
                            }
                            continue;
                        }
                        if (task == null) {
                            try {
                                task = TaskPreparation.prepare(taskName, src, tgt, eval, pre, protectedParties);
                            } catch (IllegalArgumentException e) {
                                throw new UsageException(e.getMessage(), e);
                            }
                            if (anyPrivate) {
                                for (String party : protectedParties) {
                                    org.privadapt.cli.DeltaPolicy.check(party, privacy.delta(), "source".equals(party)
                                            ? task.source().size() : task.target().size(), privacy.allowLargeDelta, spec.commandLine().getErr());
                                }
                            }
                        }
                        progress.message(taskName + " " + m.name());
                        results.add(Runs.repeat(m, task, config, runs, cellSweep, pair[0], pair[1], progress,
                                run -> privacy.context(run, null, null, null, null), jobs));
                        paper004Pipeline |= org.privadapt.methods.gmmuda.GmmUdaMethod.handles(task, config)
                                && !(m instanceof org.privadapt.methods.prima.PrimaMethod); // PRIMA's own label models
                        if (!m.deterministic(task, config) && deterministic.remove(m.name())) {
                            notes = deterministicNote(deterministic, runs);
                        }
                        for (String w : Runs.predictionWarnings(results.get(results.size() - 1))) {
                            spec.commandLine().getErr().println("privadapt: warning: " + w); // also in the JSON result
                        }
                        if (saved != null) {
                            List<String> partial = new ArrayList<>(notes);
                            partial.add("checkpoint: " + results.size() + " of " + pairs.size() * cellsPerTask
                                    + " cells finished");
                            try {
                                saved.save(report(cfg, datasets, results, partial));
                            } catch (java.io.IOException e) {
                                throw new UsageException("--checkpoint: cannot write " + checkpoint + ": " + e.getMessage(), e);
                            }
                        }
                    }
                }
            }
        }
        if (reused > 0) {
            spec.commandLine().getErr().printf(Locale.ROOT, "privadapt: %d of %d cells reused from the checkpoint %s%n",
                    reused, results.size(), checkpoint);
        }
        results = Runs.withRelativeMse(results);
        notes = new ArrayList<>(notes);
        notes.addAll(Runs.unspentSummary(results));
        Report report = report(cfg, datasets, results, notes);
        if (anyPrivate) {
            Map<String, String> splitOf = new java.util.HashMap<>(); // the rows each role reads: a domain's split
            splitOf.put("source", suite.trainSplit());
            splitOf.put("target", suite.adaptSplit());
            List<Report.DomainTotal> totals = Runs.domainTotals(results, privacy.relationValue(), privacy.delta(), splitOf);
            report = new Report(report.tool(), report.version(), report.command(), report.created(), report.environment(),
                    report.config(), report.datasets(), report.results(), totals, report.warnings());
        }
        if (saved != null) {
            saved.save(report);
        }
        boolean regression = results.stream().anyMatch(Report.TaskResult::isRegression);
        String over = runs > 1 ? ", mean ± std over " + runs + " runs" : "";
        String title = suite.name() + (regression ? ": target test MSE" : ": target accuracy (%)") + over;
        String rel = Markdown.relativeTable(suite.name() + ": test MSE relative to target-only (same split per run)" + over, results);
        String perLabel = Markdown.perLabelTable(suite.name(), results);
        String md = Markdown.resultsTable(title, results) + (rel.isEmpty() ? "" : "\n" + rel) + (perLabel.isEmpty() ? "" : "\n" + perLabel) + notes.stream().map(n -> "\n" + n + "\n").reduce("", String::concat)
                + BenchSummaries.perMethodText(results) + BenchSummaries.totalsText(report.privacyTotals());
        String plotTitle = suite.name() + (pairs.size() == 1
                ? " " + shortOf(suite, pairs.get(0)[0]) + "->" + shortOf(suite, pairs.get(0)[1])
                : sweepName != null ? " (mean over " + pairs.size() + " tasks)" : " (" + pairs.size() + " tasks and their average)")
                + (runs > 1 ? ", error bars: sd over " + runs + " runs" : "");
        byte[] png = plot == null ? null : sweepName != null
                ? Plots.sweepPng(plotTitle, sweepName, results) : Plots.barsPng(plotTitle, results);
        output.write(report, md, plot, png);
        PrintWriter out = spec.commandLine().getOut();
        if (output.json) {
            out.println(Json.write(report));
        } else {
            out.print(md);
            out.printf(Locale.ROOT, "%npreprocessing: %s (each party fitted on its own data); %s%n", pre.spec(), paper004Pipeline
                    ? "model: paper 004's encoder and classifier (--param hidden, epochs, ...; docs/privacy/gmm-uda.md), not --classifier"
                    : "classifier " + methodOptions.classifier + " (l2=" + methodOptions.l2 + ")");
            if (anyPrivate) {
                out.println("which method, learner and refinement the evidence supports for which data (n per class, d, K, "
                        + "epsilon, who is protected): docs/choosing-a-method.md");
            }
        }
        return ExitCodes.OK;
    }

    private static Report report(Map<String, Object> cfg, Map<String, Report.DatasetInfo> datasets,
                                 List<Report.TaskResult> results, List<String> notes) {
        return new Report("privadapt", Version.get(), "bench", Instant.now().toString(),
                Report.Environment.current(LinAlg.backend().description()), cfg, new ArrayList<>(datasets.values()),
                List.copyOf(results), List.copyOf(notes));
    }

    /** Says which methods were run once per task (their repetitions are identical by construction). */
    private List<String> deterministicCandidates(List<AdaptationMethod> ms) {
        MethodConfig c = methodOptions.config(Map.of());
        return ms.stream().filter(m -> m.deterministic(c) && !c.params().containsKey("target-train"))
                .map(AdaptationMethod::name).toList();
    }

    /** The note for the methods run once per task and repeated (deterministic on every task they ran on). */
    private static List<String> deterministicNote(List<String> names, int runs) {
        if (runs < 2 || names.isEmpty()) {
            return List.of();
        }
        return List.of(String.join(", ", names) + ": deterministic with this classifier (no seed or noise read); run once per "
                + "task and the outcome repeated " + runs + " times");
    }

    private List<String[]> resolveTasks(Suite suite) throws DataException {
        if (tasks == null || tasks.isEmpty()) {
            return suite.taskPairs();
        }
        List<String[]> out = new ArrayList<>();
        for (String t : tasks) {
            String[] p = t.contains("->") ? t.split("->") : t.split(":");
            if (p.length != 2) {
                throw new UsageException("--tasks entries must look like SOURCE:TARGET, got '" + t
                        + "' (an unquoted -> is a shell redirection)");
            }
            String s = suite.domain(p[0].trim()).map(Suite.Domain::name).orElse(null);
            String g = suite.domain(p[1].trim()).map(Suite.Domain::name).orElse(null);
            if (s == null || g == null) {
                throw new UsageException("--tasks: unknown domain in '" + t + "'; domains of " + suite.name() + ": "
                        + suite.domains().stream().map(d -> d.name() + " (" + d.shortName() + ")").toList());
            }
            out.add(new String[] {s, g});
        }
        return out;
    }

    private static String shortOf(Suite s, String domain) {
        return s.domain(domain).map(Suite.Domain::shortName).orElse(domain);
    }
}
