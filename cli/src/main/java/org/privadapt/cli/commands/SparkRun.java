package org.privadapt.cli.commands;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.privadapt.cli.DataSpecs;
import org.privadapt.cli.DeltaPolicy;
import org.privadapt.cli.ExitCodes;
import org.privadapt.cli.MethodOptions;
import org.privadapt.cli.OutputOptions;
import org.privadapt.cli.PrivacyOptions;
import org.privadapt.cli.Runs;
import org.privadapt.cli.UsageException;
import org.privadapt.cli.report.Json;
import org.privadapt.data.preprocess.DefaultPreprocessing;
import org.privadapt.data.preprocess.Preprocessing;
import org.privadapt.methods.core.AdaptationMethod;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.prima.PrimaMethod;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code privadapt run --engine spark} for PRIMA/PRISA (and the PRIMA ablations) and dp-source-only, both parties'
 * rows on Spark, both parties staged and committed together; the other methods Spark runs go to
 * {@link SparkBaselineRuns}. Runs with the options {@link RunCommand} parsed.
 */
final class SparkRun {
    private final RunCommand command;
    private final CommandSpec spec;
    private final String method;
    private final String source;
    private final String target;
    private final String targetEval;
    private final String preprocess;
    private final java.nio.file.Path sourceLedger;
    private final java.nio.file.Path targetLedger;
    private final Double sourceBudget;
    private final Double targetBudget;
    private final List<String> classes;
    private final PrivacyOptions privacy;
    private final MethodOptions methodOptions;
    private final DataSpecs data;
    private final org.privadapt.cli.engine.EngineOptions engine;
    private final OutputOptions output;

    SparkRun(RunCommand c) {
        this.command = c;
        this.spec = c.spec;
        this.method = c.method;
        this.source = c.source;
        this.target = c.target;
        this.targetEval = c.targetEval;
        this.preprocess = c.preprocess;
        this.sourceLedger = c.sourceLedger;
        this.targetLedger = c.targetLedger;
        this.sourceBudget = c.sourceBudget;
        this.targetBudget = c.targetBudget;
        this.classes = c.classes;
        this.privacy = c.privacy;
        this.methodOptions = c.methodOptions;
        this.data = c.data;
        this.engine = c.engine;
        this.output = c.output;
    }

    /**
     * {@code --engine spark}: dp-source-only (the source's class-statistics model, ncm or lda, evaluated on the target's
     * rows), or PRIMA/PRISA (and the PRIMA ablations) with the source's learner ncm or lda, both parties' rows on Spark: the target's release ({@code SparkPrima.release}), the source's model ({@code SparkPrimaTrain.train},
     * from the release's artifact as shipped) and the target's evaluation of the model it received (a count on Spark),
     * with the same sessions, seeds and ledgers as in process, both parties staged and committed together (neither
     * ledger is written unless both plans fit). One run; no refinement (it needs the target's rows in one place).
     */
    Integer run() throws Exception {
        if (methodOptions.runs != 1) {
            throw new UsageException("--engine spark runs once (--runs 1)");
        }
        if (targetEval != null) {
            throw new UsageException("--engine spark evaluates on TARGET's labelled rows; --target-eval applies in process");
        }
        if (SparkBaselineRuns.BASELINES_ON_SPARK.containsKey(method)) {
            return new SparkBaselineRuns(command).baseline();
        }
        if (org.privadapt.methods.bassily.BassilyMethods.ON_A_SAMPLE.contains(method)) {
            return new SparkBaselineRuns(command).supervised();
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
        // dp-source-only refines from sums over the target's rows where they are (its default: DefaultRefinement's rule)
        String refine = config.params().getOrDefault("refine", dpSourceOnly ? "default" : "none");
        if (dpSourceOnly) {
            config = org.privadapt.methods.core.TargetRefinements.orDefault(config);
            try {
                org.privadapt.methods.core.AggregatedRefinements.check(config, "--engine spark");
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage(), e);
            }
        } else if (!refine.equals("none")) {
            throw new UsageException("--engine spark: refine=" + refine + " needs the target's rows in one place; run it in process");
        }
        privacy.validate(true);
        output.requireWritable(null);
        SourceCommand.Train.checkClasses(classes, true, data);
        org.privadapt.cli.engine.RowEngine eng = org.privadapt.cli.engine.EngineOptions.sparkEngine(
                spec.root().commandLine().getParseResult().originalArgs());
        String srcSpec = org.privadapt.cli.engine.EngineOptions.sparkData(source);
        String tgtSpec = org.privadapt.cli.engine.EngineOptions.sparkData(target);
        int d = engine.dimension(eng, tgtSpec);
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
        String runId = "run-" + config.seed();
        // before any row is read: both ledgers verified (opening the sessions), the target's release plan checked against
        // its ledger, a spent source ledger refused (its plan needs the rows)
        org.privadapt.methods.core.PrivacyContext ctx = privacy.context(0, sourceLedger, targetLedger, sourceBudget, targetBudget);
        if (!dpSourceOnly) {
            org.privadapt.cli.LedgerPrecheck.check(ctx.target(), targetLedger,
                    org.privadapt.methods.prima.Prima.targetPlan(cfg, m.name(), d, ctx.target()));
        }
        org.privadapt.cli.LedgerPrecheck.check(ctx.source(), sourceLedger, null);
        try (org.privadapt.cli.engine.RowEngine.PartyRows tgt = eng.open(engine.request(tgtSpec, data.labelColumn(), pre));
             org.privadapt.cli.engine.RowEngine.PartyRows src = eng.open(engine.request(srcSpec, data.labelColumn(), pre))) {
            tgt.check(); // both parties' rows refused here if they are bad, before anything is charged
            src.check();
            DeltaPolicy.check("source", privacy.delta(), (int) Math.min(Integer.MAX_VALUE, src.size()), privacy.allowLargeDelta,
                    spec.commandLine().getErr());
            DeltaPolicy.check("target", privacy.delta(), (int) Math.min(Integer.MAX_VALUE, tgt.size()), privacy.allowLargeDelta,
                    spec.commandLine().getErr());
            org.privadapt.data.PublicFacts declared = privacy.declared("source")
                    .declaring(new org.privadapt.data.PublicFacts(null, "declared by the user (--classes)", null, false));
            ctx.target().stage();
            ctx.source().stage();
            org.privadapt.methods.prima.SourceModel model = null;
            org.privadapt.models.nn.Network network = null;
            String learner;
            Map<String, Object> diagnostics = new LinkedHashMap<>(); // as the in-process method reports them
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
                            && kind != org.privadapt.methods.core.PrivateLearners.Kind.ADASSP && !gradient) {
                        throw new UsageException(m.name() + ": learner " + kind.label() + ": on Spark the source trains ncm, lda, adassp "
                                + "(class statistics and moments), dp-sgd or dp-gd (clipped sums per step); give --param learner=ncm, lda, "
                                + "adassp, dp-sgd or dp-gd");
                    }
                    if (gradient && !sizePublic) {
                        throw new UsageException(m.name() + ": the source's " + kind.label() + " model reveals n (its sampling rate and "
                                + "normaliser): declare it public with --source-public size, or use --relation replace");
                    }
                    org.privadapt.methods.core.PrivateLearners.Plan plan = org.privadapt.methods.core.PrivateLearners.plan(
                            org.privadapt.methods.core.PrivateLearners.resolved(config, kind), (int) Math.min(Integer.MAX_VALUE, src.size()), d,
                            classes.size(), eps, s.target().delta(), s.relation(), null, 1);
                    s.charge("source model (" + kind.label() + ")", kind.label(), plan.event(), plan.describe());
                    diagnostics.putAll(plan.describe());
                    diagnostics.put("learner_choice", org.privadapt.methods.core.PrivateLearners.choiceReason(config, kind, eps, sizePublic));
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
            String refineLine = null;
            if (dpSourceOnly) {
                // the target's refinement, as in process, from sums of statistics over its rows on the executors
                org.privadapt.methods.core.TargetRefinements.Refined r = org.privadapt.methods.core.AggregatedRefinements.refine(
                        config, network, tgt.size(), tgt::sum);
                network = (org.privadapt.models.nn.Network) r.model();
                diagnostics.putAll(r.diagnostics());
                refineLine = org.privadapt.cli.Runs.refineLine(r.diagnostics().get("refine"));
            }
            long[] correct = dpSourceOnly ? tgt.correct(network) : tgt.correct(model, runId);
            double accuracy = (double) correct[0] / correct[1];
            Map<String, org.privadapt.cli.report.Report.PartySpend> spent = new LinkedHashMap<>();
            spent.put("source", SparkRunReport.spend(ctx.source()));
            spent.put("target", SparkRunReport.spend(ctx.target()));
            Map<String, Object> cfgJson = SparkRunReport.config(m.name(), pre, preDefault == null ? null : preDefault.reason(),
                    methodOptions.describe(), engine.master(), privacy.delta(), privacy.seeded());
            cfgJson.put("learner", learner);
            List<org.privadapt.cli.report.Report.DatasetInfo> datasets = List.of(
                    SparkRunReport.dataset("source", srcSpec, src.size(), engine.featureNames(d), data.labelColumn(),
                            classes.size() + " classes (given)", pre),
                    SparkRunReport.dataset("target", tgtSpec, tgt.size(), engine.featureNames(d), data.labelColumn(), "none", pre));
            org.privadapt.cli.report.Report report = SparkRunReport.classification(source, target, m.name(), accuracy, diagnostics, spent,
                    cfgJson, datasets);
            output.write(report, org.privadapt.cli.report.Markdown.resultsTable("privadapt run: " + m.name(), List.of(report.results().get(0))),
                    null, null);
            PrintWriter out = spec.commandLine().getOut();
            if (output.json) {
                out.println(Json.write(report));
            } else {
                out.printf(Locale.ROOT, "task:          %s -> %s (%s, on Spark)%n", source, target, m.name());
                out.printf(Locale.ROOT, "source:        %d x %d, %d classes (given)%n", src.size(), d, classes.size());
                out.printf(Locale.ROOT, "target:        %d x %d%n", tgt.size(), d);
                out.printf(Locale.ROOT, "preprocessing: %s (row-local, on the executors)%n", pre);
                if (refineLine != null) {
                    out.println("refine:        " + refineLine);
                }
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
}
