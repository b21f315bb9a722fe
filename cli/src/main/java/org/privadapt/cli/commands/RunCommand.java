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
import org.privadapt.methods.prima.PrimaMethod;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code privadapt run}: one method on one source/target pair, in one process. */
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
            return runOnSpark();
        }
        if (!classes.isEmpty()) {
            throw new UsageException("--classes applies with --engine spark (in process: --source-public classes)");
        }
        engine.refuseSpark("run");
        MethodConfig config = methodOptions.config(Map.of());
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

    /**
     * {@code --engine spark}: dp-source-only (the source's class-statistics model, ncm or lda, evaluated on the target's
     * rows), or PRIMA/PRISA (and the PRIMA ablations) with the source's learner ncm or lda, both parties' rows on Spark: the target's release ({@code SparkPrima.release}), the source's model ({@code SparkPrimaTrain.train},
     * from the release's artifact as shipped) and the target's evaluation of the model it received (a count on Spark),
     * with the same sessions, seeds and ledgers as in process, both parties staged and committed together (neither
     * ledger is written unless both plans fit). One run; no refinement (it needs the target's rows in one place).
     */
    private Integer runOnSpark() throws Exception {
        if (methodOptions.runs != 1) {
            throw new UsageException("--engine spark runs once (--runs 1)");
        }
        if (targetEval != null) {
            throw new UsageException("--engine spark evaluates on TARGET's labelled rows; --target-eval applies in process");
        }
        if (BASELINES_ON_SPARK.containsKey(method)) {
            return runBaselineOnSpark();
        }
        if (org.privadapt.methods.bassily.BassilyMethods.ON_A_SAMPLE.contains(method)) {
            return runSupervisedOnSpark();
        }
        boolean dpSourceOnly = "dp-source-only".equals(method);
        if (!dpSourceOnly && !(Runs.method(method) instanceof PrimaMethod)) {
            engine.refuseSpark("run --method " + method);
        }
        AdaptationMethod m = dpSourceOnly ? Runs.method(method) : TargetCommand.primaMethod(method);
        MethodConfig config = methodOptions.config(Map.of());
        methodOptions.checkNames(List.of(m), java.util.Set.of());
        if (dpSourceOnly && org.privadapt.methods.core.PrivateLearners.selects(config)) {
            throw new UsageException("--engine spark: learner=select runs in process");
        }
        String refine = config.params().getOrDefault("refine", "none");
        if (!refine.equals("none")) {
            throw new UsageException("--engine spark: refine=" + refine + " needs the target's rows in one place; run it in process");
        }
        privacy.validate(true);
        output.requireWritable(null);
        SourceCommand.Train.checkClasses(classes, true, data);
        int d = engine.featureColumns().size();
        DefaultPreprocessing.Choice preDefault = preprocess == null ? DefaultPreprocessing.forPrivate(d) : null;
        Preprocessing steps = Runs.preprocessing(preprocess != null ? preprocess : preDefault.spec());
        if (!steps.dataDependentSteps().isEmpty()) {
            throw new UsageException("preprocessing step(s) " + steps.dataDependentSteps() + " would be fitted on a party's private "
                    + "rows outside the privacy accounting; use row-local steps (l1, l2, clip=B, scale=K, minmax=LO:HI, none)");
        }
        String pre = steps.spec();
        org.privadapt.methods.prima.PrimaConfig cfg = null;
        if (!dpSourceOnly) {
            try {
                cfg = ((PrimaMethod) m).config(config, pre);
            } catch (IllegalArgumentException e) {
                throw new UsageException(m.name() + ": " + e.getMessage(), e);
            }
        }
        org.privadapt.cli.engine.RowEngine eng = org.privadapt.cli.engine.EngineOptions.sparkEngine(
                spec.root().commandLine().getParseResult().originalArgs());
        String srcSpec = org.privadapt.cli.engine.EngineOptions.sparkData(source);
        String tgtSpec = org.privadapt.cli.engine.EngineOptions.sparkData(target);
        String runId = "run-" + config.seed();
        try (org.privadapt.cli.engine.RowEngine.PartyRows tgt = eng.open(new org.privadapt.cli.engine.RowEngine.Request(tgtSpec,
                engine.featureColumns(), data.labelColumn(), pre, engine.master()));
             org.privadapt.cli.engine.RowEngine.PartyRows src = eng.open(new org.privadapt.cli.engine.RowEngine.Request(srcSpec,
                     engine.featureColumns(), data.labelColumn(), pre, engine.master()))) {
            DeltaPolicy.check("source", privacy.delta(), (int) Math.min(Integer.MAX_VALUE, src.size()), privacy.allowLargeDelta,
                    spec.commandLine().getErr());
            DeltaPolicy.check("target", privacy.delta(), (int) Math.min(Integer.MAX_VALUE, tgt.size()), privacy.allowLargeDelta,
                    spec.commandLine().getErr());
            org.privadapt.methods.core.PrivacyContext ctx = privacy.context(0, sourceLedger, targetLedger, sourceBudget, targetBudget);
            org.privadapt.data.PublicFacts declared = privacy.declared("source")
                    .declaring(new org.privadapt.data.PublicFacts(null, "declared by the user (--classes)", null, false));
            ctx.target().stage();
            ctx.source().stage();
            org.privadapt.methods.prima.SourceModel model = null;
            org.privadapt.models.nn.Network network = null;
            String learner;
            boolean committed = false;
            try {
                if (dpSourceOnly) {
                    // as DpSourceOnlyMethod: the learner by the rule on public quantities, one charge, the model from the
                    // class statistics summed on Spark; the target spends nothing
                    org.privadapt.privacy.PrivacySession s = ctx.source();
                    double eps = s.target().epsilon();
                    boolean sizePublic = declared.sizePublic() || s.relation() == org.privadapt.privacy.NeighbouringRelation.REPLACE_ONE;
                    org.privadapt.methods.core.PrivateLearners.Kind kind = org.privadapt.methods.core.PrivateLearners.kind(config, d,
                            classes.size(), eps, sizePublic);
                    boolean gradient = kind == org.privadapt.methods.core.PrivateLearners.Kind.DP_SGD
                            || kind == org.privadapt.methods.core.PrivateLearners.Kind.DP_GD;
                    if (kind != org.privadapt.methods.core.PrivateLearners.Kind.NCM && kind != org.privadapt.methods.core.PrivateLearners.Kind.LDA
                            && !gradient) {
                        throw new UsageException(m.name() + ": learner " + kind.label() + ": on Spark the source trains ncm, lda (class "
                                + "statistics), dp-sgd or dp-gd (clipped sums per step); give --param learner=ncm, lda, dp-sgd or dp-gd");
                    }
                    if (gradient && !sizePublic) {
                        throw new UsageException(m.name() + ": the source's " + kind.label() + " model reveals n (its sampling rate and "
                                + "normaliser): declare it public with --source-public size, or use --relation replace");
                    }
                    org.privadapt.methods.core.PrivateLearners.Plan plan = org.privadapt.methods.core.PrivateLearners.plan(
                            org.privadapt.methods.core.PrivateLearners.resolved(config, kind), (int) Math.min(Integer.MAX_VALUE, src.size()), d,
                            classes.size(), eps, s.target().delta(), s.relation(), null, 1);
                    s.charge("source model (" + kind.label() + ")", kind.label(), plan.event(), plan.describe());
                    network = gradient ? src.gradientModel(plan, classes, s.noise()) : src.classStatisticsModel(plan, classes, s.noise());
                    learner = kind.label();
                } else {
                    org.privadapt.methods.prima.TargetRelease release = tgt.targetRelease(cfg, pre, m.name(), runId, ctx.target());
                    org.privadapt.methods.prima.TargetRelease received = org.privadapt.methods.prima.TargetRelease.fromArtifact(
                            org.privadapt.methods.artifacts.Artifact.parse("release", release.toArtifact().toBytes(), "release"), "release");
                    try {
                        model = src.sourceModel(received, config, classes, declared, ctx.source());
                    } catch (IllegalArgumentException e) {
                        throw new UsageException(m.name() + ": " + e.getMessage(), e);
                    }
                    learner = model.privacy().path("training").path("learner").asText("");
                }
                org.privadapt.privacy.PrivacySession.commitStaged(ctx.target(), ctx.source());
                committed = true;
            } finally {
                if (!committed) {
                    ctx.target().abortStaged();
                    ctx.source().abortStaged();
                }
            }
            long[] correct = dpSourceOnly ? tgt.correct(network) : tgt.correct(model, runId);
            double accuracy = (double) correct[0] / correct[1];
            Map<String, Object> summary = new LinkedHashMap<>();
            summary.put("command", "run");
            summary.put("engine", "spark");
            summary.put("method", m.name());
            summary.put("learner", learner);
            summary.put("source_rows", src.size());
            summary.put("target_rows", tgt.size());
            summary.put("dimension", d);
            summary.put("preprocess", pre);
            summary.put("accuracy", accuracy);
            Map<String, Object> spent = new LinkedHashMap<>();
            for (org.privadapt.privacy.PrivacySession s : List.of(ctx.source(), ctx.target())) {
                spent.put(s.party(), Map.of("epsilon", s.spent().epsilon(), "delta", s.spent().delta(), "private", s.isPrivate()));
            }
            summary.put("privacy", spent);
            PrintWriter out = spec.commandLine().getOut();
            if (output.json) {
                out.println(Json.write(summary));
            } else {
                out.printf(Locale.ROOT, "task:          %s -> %s (%s, on Spark)%n", source, target, m.name());
                out.printf(Locale.ROOT, "source:        %d x %d, %d classes (given)%n", src.size(), d, classes.size());
                out.printf(Locale.ROOT, "target:        %d x %d%n", tgt.size(), d);
                out.printf(Locale.ROOT, "preprocessing: %s (row-local, on the executors)%n", pre);
                out.printf(Locale.ROOT, "accuracy:      %.2f %% on the target (%d of %d rows)%n", 100 * accuracy, correct[0], correct[1]);
                for (org.privadapt.privacy.PrivacySession s : List.of(ctx.source(), ctx.target())) {
                    out.printf(Locale.ROOT, "privacy:       %s spent epsilon %s, delta %s%s%n", s.party(), Runs.formatNumber(s.spent().epsilon()),
                            Runs.formatNumber(s.spent().delta()), s.isPrivate() ? "" : " -- seeded noise: NOT differentially private");
                }
            }
        }
        if (preDefault != null && !output.json) {
            spec.commandLine().getErr().println("privadapt: preprocessing " + preDefault.spec() + " (default for "
                    + preDefault.reason() + "; --preprocess to change)");
        }
        return ExitCodes.OK;
    }

    /**
     * {@code --engine spark} for paper 003's private regression methods (dp-target-only, pcnvxadap-stats): the public
     * source brought into this JVM, the target's labelled pool on Spark, split by the protocol as in process (by the
     * rows' positions), its public parts (test, validation) brought here, its private training part summed where it is
     * ({@code SparkSupervised}); the settings chosen on public rows, the target's one charge and its noise on this JVM.
     * The target's test rows score the model here, as in process.
     */
    private Integer runSupervisedOnSpark() throws Exception {
        AdaptationMethod m = Runs.method(method);
        MethodConfig config = methodOptions.config(Map.of());
        methodOptions.checkNames(List.of(m), java.util.Set.of());
        if (!classes.isEmpty()) {
            throw new UsageException("--classes: " + method + " on Spark is paper 003's regression (real-valued targets); it has no class set");
        }
        privacy.validate(true);
        output.requireWritable(null);
        Preprocessing steps = Runs.preprocessing(preprocess != null ? preprocess : "none");
        if (!steps.dataDependentSteps().isEmpty()) {
            throw new UsageException("preprocessing step(s) " + steps.dataDependentSteps() + " would be fitted on a party's private "
                    + "rows outside the privacy accounting; use row-local steps (l1, l2, clip=B, scale=K, minmax=LO:HI, none)");
        }
        String pre = steps.spec();
        int d = engine.featureColumns().size();
        org.privadapt.cli.engine.RowEngine eng = org.privadapt.cli.engine.EngineOptions.sparkEngine(
                spec.root().commandLine().getParseResult().originalArgs());
        String srcSpec = org.privadapt.cli.engine.EngineOptions.sparkData(source);
        String tgtSpec = org.privadapt.cli.engine.EngineOptions.sparkData(target);
        try (org.privadapt.cli.engine.RowEngine.PartyRows tgt = eng.open(new org.privadapt.cli.engine.RowEngine.Request(tgtSpec,
                engine.featureColumns(), data.labelColumn(), pre, engine.master()));
             org.privadapt.cli.engine.RowEngine.PartyRows src = eng.open(new org.privadapt.cli.engine.RowEngine.Request(srcSpec,
                     engine.featureColumns(), data.labelColumn(), pre, engine.master()))) {
            Dataset sourceRows = src.publicRegressionRows(Runs.shortName(source));
            org.privadapt.cli.engine.RowEngine.Supervised drawn;
            try {
                drawn = tgt.supervised(sourceRows, config);
            } catch (IllegalArgumentException e) {
                throw new UsageException(m.name() + ": " + e.getMessage(), e);
            }
            DeltaPolicy.check("target", privacy.delta(), (int) Math.min(Integer.MAX_VALUE, tgt.size()), privacy.allowLargeDelta,
                    spec.commandLine().getErr());
            org.privadapt.methods.core.PrivacyContext ctx = privacy.context(0, sourceLedger, targetLedger, sourceBudget, targetBudget);
            org.privadapt.methods.core.AdaptationOutcome o;
            try {
                o = org.privadapt.methods.bassily.BassilyMethods.runOnSample(m.name(), drawn.protocol(), drawn.sample(), config,
                        ctx.target());
            } catch (IllegalArgumentException e) {
                throw new UsageException(m.name() + ": " + e.getMessage(), e);
            }
            org.privadapt.privacy.PrivacySession t = ctx.target();
            Map<String, Object> summary = new LinkedHashMap<>();
            summary.put("command", "run");
            summary.put("engine", "spark");
            summary.put("method", m.name());
            summary.put("source_rows", sourceRows.size());
            summary.put("target_rows", tgt.size());
            summary.put("target_train_rows", drawn.protocol().n());
            summary.put("target_test_rows", drawn.protocol().xTest().rows());
            summary.put("dimension", d);
            summary.put("preprocess", pre);
            summary.put("mse", o.mse());
            summary.put("diagnostics", o.diagnostics());
            summary.put("privacy", Map.of("target", Map.of("epsilon", t.spent().epsilon(), "delta", t.spent().delta(), "private",
                    t.isPrivate()), "source", "public (paper 003: not protected)"));
            PrintWriter out = spec.commandLine().getOut();
            if (output.json) {
                out.println(Json.write(summary));
            } else {
                out.printf(Locale.ROOT, "task:          %s -> %s (%s, target's pool on Spark)%n", source, target, m.name());
                out.printf(Locale.ROOT, "source:        %d x %d, public%n", sourceRows.size(), d);
                out.printf(Locale.ROOT, "target:        %d x %d: %d private training rows, %d test rows%n", tgt.size(), d,
                        drawn.protocol().n(), drawn.protocol().xTest().rows());
                out.printf(Locale.ROOT, "mse:           %s on the target's test rows%n", Runs.formatNumber(o.mse()));
                out.printf(Locale.ROOT, "privacy:       target spent epsilon %s, delta %s%s%n", Runs.formatNumber(t.spent().epsilon()),
                        Runs.formatNumber(t.spent().delta()), t.isPrivate() ? "" : " -- seeded noise: NOT differentially private");
            }
        }
        return ExitCodes.OK;
    }

    /** The non-private baselines {@code --engine spark} runs, and the parameters each takes there. */
    static final Map<String, java.util.Set<String>> BASELINES_ON_SPARK = Map.of("source-only", java.util.Set.of(),
            "coral", java.util.Set.of("lambda"), "sa", java.util.Set.of("k"));

    /**
     * {@code --engine spark} for the non-private baselines (source-only, CORAL, SA) with their logistic regression:
     * each domain's mean and covariance summed on Spark, CORAL's or SA's map on this JVM (the in-process code), the
     * classifier fitted by L-BFGS with each objective an aggregate over the source's rows mapped where they are, and
     * the target's evaluation counted on Spark. <b>Not private</b>: nothing is charged, no noise is drawn; the moments
     * and the model are those the in-process run computes, up to rounding.
     */
    private Integer runBaselineOnSpark() throws Exception {
        AdaptationMethod m = Runs.method(method);
        MethodConfig config = methodOptions.config(Map.of());
        methodOptions.checkNames(List.of(m), java.util.Set.of());
        java.util.Set<String> allowed = BASELINES_ON_SPARK.get(method);
        for (String p : config.params().keySet()) {
            if (!allowed.contains(p)) {
                throw new UsageException("--engine spark: " + method + " takes " + (allowed.isEmpty() ? "no --param"
                        : "--param " + String.join(", ", allowed)) + " on Spark; --param " + p + " runs in process");
            }
        }
        if (!"lr".equals(config.classifier())) {
            throw new UsageException("--engine spark: the baselines train --classifier lr (each L-BFGS step a sum over rows); "
                    + "--classifier " + config.classifier() + " runs in process");
        }
        privacy.validate(false);
        output.requireWritable(null);
        SourceCommand.Train.checkClasses(classes, true, data);
        int d = engine.featureColumns().size();
        Preprocessing steps = Runs.preprocessing(preprocess != null ? preprocess : "l2");
        if (!steps.dataDependentSteps().isEmpty()) {
            throw new UsageException("--engine spark: preprocessing step(s) " + steps.dataDependentSteps() + " are fitted on all of "
                    + "a party's rows; on Spark use row-local steps (l1, l2, clip=B, scale=K, minmax=LO:HI, none)");
        }
        String pre = steps.spec();
        double lambda = config.param("lambda", 1.0);
        if (!(lambda > 0) || Double.isInfinite(lambda)) {
            throw new UsageException("coral: lambda must be a finite number > 0 (the ridge added to both covariances), got " + lambda);
        }
        int k = Math.min(d, config.intParam("k", 100));
        if (k < 1) {
            throw new UsageException("sa: k must be at least 1, got " + k);
        }
        org.privadapt.cli.engine.RowEngine eng = org.privadapt.cli.engine.EngineOptions.sparkEngine(
                spec.root().commandLine().getParseResult().originalArgs());
        String srcSpec = org.privadapt.cli.engine.EngineOptions.sparkData(source);
        String tgtSpec = org.privadapt.cli.engine.EngineOptions.sparkData(target);
        long[] correct;
        long sourceRows;
        long targetRows;
        try (org.privadapt.cli.engine.RowEngine.PartyRows tgt = eng.open(new org.privadapt.cli.engine.RowEngine.Request(tgtSpec,
                engine.featureColumns(), data.labelColumn(), pre, engine.master()));
             org.privadapt.cli.engine.RowEngine.PartyRows src = eng.open(new org.privadapt.cli.engine.RowEngine.Request(srcSpec,
                     engine.featureColumns(), data.labelColumn(), pre, engine.master()))) {
            sourceRows = src.size();
            targetRows = tgt.size();
            org.privadapt.math.DenseMatrix sourceMap = null;
            org.privadapt.math.DenseMatrix targetMap = null;
            if (!method.equals("source-only")) {
                org.privadapt.math.DenseMatrix cs = src.moments().covariance();
                org.privadapt.math.DenseMatrix ct = tgt.moments().covariance();
                if (method.equals("coral")) {
                    sourceMap = org.privadapt.methods.coral.Coral.alignmentMap(cs, ct, lambda);
                } else {
                    targetMap = org.privadapt.math.LinAlg.leadingEigenvectors(ct, k);
                    sourceMap = org.privadapt.methods.sa.SubspaceAlignment.sourceMap(
                            org.privadapt.math.LinAlg.leadingEigenvectors(cs, k), targetMap);
                }
            }
            org.privadapt.models.LogisticRegression model = src.logisticRegression(sourceMap, classes, config.l2(), 500);
            correct = tgt.correct(model, targetMap);
        }
        double accuracy = (double) correct[0] / correct[1];
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("command", "run");
        summary.put("engine", "spark");
        summary.put("method", m.name());
        summary.put("classifier", "lr");
        summary.put("source_rows", sourceRows);
        summary.put("target_rows", targetRows);
        summary.put("dimension", d);
        summary.put("preprocess", pre);
        if (method.equals("coral")) {
            summary.put("lambda", lambda);
        } else if (method.equals("sa")) {
            summary.put("k", k);
        }
        summary.put("accuracy", accuracy);
        summary.put("privacy", Map.of("source", Map.of("private", false), "target", Map.of("private", false)));
        PrintWriter out = spec.commandLine().getOut();
        if (output.json) {
            out.println(Json.write(summary));
        } else {
            out.printf(Locale.ROOT, "task:          %s -> %s (%s, on Spark)%n", source, target, m.name());
            out.printf(Locale.ROOT, "source:        %d x %d, %d classes (given)%n", sourceRows, d, classes.size());
            out.printf(Locale.ROOT, "target:        %d x %d%n", targetRows, d);
            out.printf(Locale.ROOT, "preprocessing: %s (row-local, on the executors)%n", pre);
            out.printf(Locale.ROOT, "accuracy:      %.2f %% on the target (%d of %d rows)%n", 100 * accuracy, correct[0], correct[1]);
            out.printf(Locale.ROOT, "privacy:       none -- %s is a non-private baseline (exact moments and model)%n", m.name());
        }
        if (preprocess == null && !output.json) {
            spec.commandLine().getErr().println("privadapt: preprocessing l2 (default on Spark for the non-private baselines: "
                    + "row-local; in process the default is chosen by the kind of data; --preprocess to change)");
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
