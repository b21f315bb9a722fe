package org.privadapt.cli.commands;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.privadapt.cli.DataSpecs;
import org.privadapt.cli.ExitCodes;
import org.privadapt.cli.MethodOptions;
import org.privadapt.cli.OutputOptions;
import org.privadapt.cli.DeltaPolicy;
import org.privadapt.cli.PrivacyOptions;
import org.privadapt.cli.Progress;
import org.privadapt.cli.UsageException;
import org.privadapt.cli.Runs;
import org.privadapt.cli.Version;
import org.privadapt.cli.report.Json;
import org.privadapt.cli.report.Markdown;
import org.privadapt.cli.report.Report;
import org.privadapt.data.Dataset;
import org.privadapt.data.preprocess.DefaultPreprocessing;
import org.privadapt.data.preprocess.Preprocessing;
import org.privadapt.math.LinAlg;
import org.privadapt.methods.core.AdaptationMethod;
import org.privadapt.methods.core.AdaptationTask;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.Methods;
import org.privadapt.methods.core.TaskPreparation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code privadapt run}: one method on one source/target pair, in one process.
 *
 * <p>This class holds the options and the in-process run; {@code --engine spark} runs are {@link SparkRun}
 * (PRIMA/PRISA and dp-source-only) and {@link SparkBaselineRuns} (the non-private baselines and paper 003's
 * regression methods).
 */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Run one adaptation method on a source and a target domain in one process.",
            "SOURCE and TARGET are files (.mat, .svmlight, .csv, .tsv, whitespace text) or benchmark references "
                + "suite/domain[:split], e.g. office-caltech10/amazon."})
public final class RunCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--method", required = true, paramLabel = "NAME", description = "Adaptation method: ${COMPLETION-CANDIDATES}.",
            completionCandidates = MethodNames.class)
    String method;

    @Option(names = "--source", required = true, paramLabel = "SOURCE", description = "Labelled source data.")
    String source;

    @Option(names = "--target", required = true, paramLabel = "TARGET",
            description = "Target data used for adaptation (its labels, if any, are not read by the method).")
    String target;

    @Option(names = "--target-eval", paramLabel = "FILE",
            description = "Labelled target rows to measure accuracy on (default: TARGET itself, or the suite's test split).")
    String targetEval;

    @Option(names = "--preprocess", paramLabel = "STEPS",
            description = "Preprocessing steps, each fitted on its own party's data: l1, l2, center, zscore, minmax, "
                    + "minmax=LO:HI, clip=BOUND, scale=K (rows times K), none. Default: private methods l2,scale=K with "
                    + "K = floor(sqrt(d)) (row-local); otherwise by the kind of data: l1,zscore for count histograms, "
                    + "none for sparse counts, zscore for tabular or dense real features. The choice is printed.")
    String preprocess;

    @Option(names = "--source-ledger", paramLabel = "FILE", description = "The source's budget ledger (created if absent).")
    java.nio.file.Path sourceLedger;

    @Option(names = "--target-ledger", paramLabel = "FILE", description = "The target's budget ledger (created if absent).")
    java.nio.file.Path targetLedger;

    @Option(names = "--source-budget", paramLabel = "E", description = "Total epsilon of a new source ledger (default: the run's); an existing ledger keeps its stored budget.")
    Double sourceBudget;

    @Option(names = "--target-budget", paramLabel = "E", description = "Total epsilon of a new target ledger (default: the run's); an existing ledger keeps its stored budget.")
    Double targetBudget;

    @Option(names = "--classes", split = ",", paramLabel = "NAME",
            description = "--engine spark: the class set, in this order, declared public (never read from the rows); a row "
                    + "whose label is not among them is refused before anything is charged.")
    List<String> classes = List.of();

    @Mixin
    PrivacyOptions privacy;

    @Mixin
    MethodOptions methodOptions;

    @Mixin
    DataSpecs data;

    @Mixin
    org.privadapt.cli.engine.EngineOptions engine;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() throws Exception {
        if (engine.spark()) {
            if (!org.privadapt.data.text.TextEncoders.BOW.equals(org.privadapt.data.text.TextEncoders.normalise(
                    methodOptions.params.get(DataSpecs.ENCODER_PARAM)))) {
                throw new UsageException("--param encoder: the text encoders run in process; with --engine spark the rows' "
                        + "named feature columns are read as they are");
            }
            return new SparkRun(this).run();
        }
        if (!classes.isEmpty()) {
            throw new UsageException("--classes applies with --engine spark (in process: --source-public classes)");
        }
        engine.refuseSpark("run");
        MethodConfig config = methodOptions.config(Map.of());
        data.useTextEncoder(methodOptions.params.get(DataSpecs.ENCODER_PARAM), !output.json);
        int runs = methodOptions.runs;
        AdaptationMethod m = Runs.method(method);
        methodOptions.checkNames(List.of(m), java.util.Set.of());
        privacy.validate(m.isPrivate());
        output.requireWritable(null);
        Dataset src = methodOptions.withTask(data.load(source, DataSpecs.Role.SOURCE)).withPublicFacts(privacy.declared("source"));
        DefaultPreprocessing.Choice preDefault = preprocess != null ? null : DefaultPreprocessing.choose(src, m.isPrivate(),
                methodOptions.params.containsKey("target-train"));
        Preprocessing pre = Runs.preprocessing(preprocess != null ? preprocess : preDefault.spec());
        // the source (loaded above) must hold a named label column; the target may lack it (read unlabelled)
        Dataset tgt = methodOptions.withTask(data.allowUnlabelledTarget().load(target, DataSpecs.Role.TARGET)).withPublicFacts(privacy.declared("target"));
        Dataset eval = targetEval != null ? methodOptions.withTask(data.load(targetEval, DataSpecs.Role.EVALUATION))
                : (data.registry().isRef(target) && target.indexOf(':') < 0
                        ? methodOptions.withTask(data.load(target, DataSpecs.Role.EVALUATION)) : tgt);
        String taskName = Runs.shortName(source) + " -> " + Runs.shortName(target);
        AdaptationTask task;
        try {
            task = TaskPreparation.prepare(taskName, src, tgt, eval, pre, m.protectedParties());
        } catch (IllegalArgumentException e) {
            throw new UsageException(m.name() + ": " + e.getMessage(), e);
        }
        Runs.requireMultiLabelSupport(m, task, config);
        if (m.isPrivate()) {
            for (String party : m.protectedParties()) {
                DeltaPolicy.check(party, privacy.delta(), "source".equals(party) ? task.source().size() : task.target().size(),
                        privacy.allowLargeDelta, spec.commandLine().getErr());
            }
        }
        Report.TaskResult result;
        try (Progress progress = Progress.start(m.name() + " " + taskName, runs, !output.json)) {
            result = Runs.repeat(m, task, config, runs, null, source, target, progress,
                    run -> privacy.context(run, sourceLedger, targetLedger, sourceBudget, targetBudget));
        }

        List<Report.DatasetInfo> datasets = new ArrayList<>();
        datasets.add(Report.DatasetInfo.of("source", task.source()));
        datasets.add(Report.DatasetInfo.of("target", task.target()));
        if (eval != tgt) {
            datasets.add(Report.DatasetInfo.of("target-eval", task.evaluation()));
        }
        Map<String, Object> cfg = new LinkedHashMap<>();
        cfg.put("method", m.name());
        cfg.put("preprocess", pre.spec());
        if (preDefault != null) {
            cfg.put("preprocess_default", preDefault.reason());
        }
        cfg.putAll(methodOptions.describe());
        if (m.isPrivate()) {
            cfg.put("delta", privacy.delta());
            cfg.put("seeded_noise", privacy.seeded());
        }
        String chance = Runs.chanceWarning(result, task);
        List<String> unspent = Runs.unspentNotes(result);
        List<String> warnings = new ArrayList<>();
        if (chance != null) {
            warnings.add(chance);
        }
        unspent.forEach(n -> warnings.add("budget left unspent: " + n));
        if (result.warnings() != null) {
            warnings.addAll(result.warnings()); // degenerate predictions: read without labels
        }
        if (preDefault != null && !output.json) { // said once the run succeeded: before, it made a refusal two lines
            spec.commandLine().getErr().println("privadapt: preprocessing " + preDefault.spec() + " (default for "
                    + preDefault.reason() + "; --preprocess to change)");
        }
        for (String w : result.warnings() == null ? List.<String>of() : result.warnings()) {
            spec.commandLine().getErr().println("privadapt: warning: " + w);
        }
        Report report = new Report("privadapt", Version.get(), "run", Instant.now().toString(),
                Report.Environment.current(LinAlg.backend().description()), cfg, datasets, List.of(result), warnings);
        String md = Markdown.resultsTable("privadapt run: " + m.name(), List.of(result));
        output.write(report, md, null, null);

        PrintWriter out = spec.commandLine().getOut();
        if (output.json) {
            out.println(Json.write(report));
        } else {
            out.printf(Locale.ROOT, "task:          %s (%s)%n", taskName, m.name());
            out.printf(Locale.ROOT, "source:        %s, %d x %d, %s%n", src.firstFile(), src.size(), src.dimension(), Runs.labelSummary(src));
            out.printf(Locale.ROOT, "target:        %s, %d x %d%n", tgt.firstFile(), tgt.size(), tgt.dimension());
            if (eval != tgt) {
                out.printf(Locale.ROOT, "target eval:   %s, %d rows%n", eval.firstFile(), eval.size());
            }
            out.printf(Locale.ROOT, "preprocessing: %s (each party fitted on its own data)%n", pre.spec());
            out.printf(Locale.ROOT, "%s %s on the target%s%n", result.isRegression() ? "error:        " : "accuracy:     ", Runs.percent(result),
                    runs > 1 ? " (" + runs + " runs)" : "");
            out.printf(Locale.ROOT, "privacy:       %s%n", Runs.privacySummary(result));
            for (String c : Runs.choiceLines(result)) {
                out.printf(Locale.ROOT, "choice:        %s%n", c);
            }
            if (chance != null) {
                out.printf(Locale.ROOT, "warning:       %s%n", chance);
            }
            for (String n : unspent) {
                out.printf(Locale.ROOT, "note:          budget left unspent: %s%n", n);
            }
            String refine = Runs.refineSummary(result);
            if (refine != null) {
                out.printf(Locale.ROOT, "refine:        %s%n", refine);
            }
        }
        return ExitCodes.OK;
    }

    /** Method names for help text. */
    static final class MethodNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return Methods.all().stream().map(AdaptationMethod::name).iterator();
        }
    }
}
