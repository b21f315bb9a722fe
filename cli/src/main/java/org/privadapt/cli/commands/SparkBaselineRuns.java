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
import org.privadapt.data.Dataset;
import org.privadapt.data.preprocess.Preprocessing;
import org.privadapt.methods.core.AdaptationMethod;
import org.privadapt.methods.core.MethodConfig;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code privadapt run --engine spark} for the methods that are not PRIMA's or dp-source-only: the non-private
 * baselines (source-only, CORAL, SA) with their logistic regression, and paper 003's private regression methods on
 * the target's pool. Runs with the options {@link RunCommand} parsed.
 */
final class SparkBaselineRuns {
    private final CommandSpec spec;
    private final String method;
    private final String source;
    private final String target;
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

    SparkBaselineRuns(RunCommand c) {
        this.spec = c.spec;
        this.method = c.method;
        this.source = c.source;
        this.target = c.target;
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
    Integer baseline() throws Exception {
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
        org.privadapt.cli.engine.RowEngine eng = org.privadapt.cli.engine.EngineOptions.sparkEngine(
                spec.root().commandLine().getParseResult().originalArgs());
        String srcSpec = org.privadapt.cli.engine.EngineOptions.sparkData(source);
        String tgtSpec = org.privadapt.cli.engine.EngineOptions.sparkData(target);
        int d = engine.dimension(eng, tgtSpec);
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
        long[] correct;
        long sourceRows;
        long targetRows;
        try (org.privadapt.cli.engine.RowEngine.PartyRows tgt = eng.open(engine.request(tgtSpec, data.labelColumn(), pre));
             org.privadapt.cli.engine.RowEngine.PartyRows src = eng.open(engine.request(srcSpec, data.labelColumn(), pre))) {
            tgt.check(); // both parties' rows refused here if they are bad, before anything is charged
            src.check();
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
        Map<String, Object> cfgJson = SparkRunReport.config(m.name(), pre, preprocess == null ? "row-local default on Spark" : null,
                methodOptions.describe(), engine.master(), null, null);
        Map<String, Object> diagnostics = new LinkedHashMap<>(); // as in process
        if (method.equals("coral")) {
            diagnostics.put("lambda", lambda);
        } else if (method.equals("sa")) {
            diagnostics.put("k", k);
        }
        Map<String, org.privadapt.cli.report.Report.PartySpend> spent = new LinkedHashMap<>();
        spent.put("source", SparkRunReport.notPrivate());
        // as in process: source-only reads the target's rows for evaluation only; CORAL and SA read their moments
        spent.put("target", method.equals("source-only") ? SparkRunReport.nothing() : SparkRunReport.notPrivate());
        List<org.privadapt.cli.report.Report.DatasetInfo> datasets = List.of(
                SparkRunReport.dataset("source", srcSpec, sourceRows, engine.featureNames(d), data.labelColumn(),
                        classes.size() + " classes (given)", pre),
                SparkRunReport.dataset("target", tgtSpec, targetRows, engine.featureNames(d), data.labelColumn(), "none", pre));
        org.privadapt.cli.report.Report report = SparkRunReport.classification(source, target, m.name(), accuracy, diagnostics, spent, cfgJson,
                datasets);
        output.write(report, org.privadapt.cli.report.Markdown.resultsTable("privadapt run: " + m.name(), List.of(report.results().get(0))),
                null, null);
        PrintWriter out = spec.commandLine().getOut();
        if (output.json) {
            out.println(Json.write(report));
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

    /**
     * {@code --engine spark} for paper 003's private regression methods (dp-target-only, pcnvxadap-stats): the public
     * source brought into this JVM, the target's labelled pool on Spark, split by the protocol as in process (by the
     * rows' positions), its public parts (test, validation) brought here, its private training part summed where it is
     * ({@code SparkSupervised}); the settings chosen on public rows, the target's one charge and its noise on this JVM.
     * The target's test rows score the model here, as in process.
     */
    Integer supervised() throws Exception {
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
        org.privadapt.cli.engine.RowEngine eng = org.privadapt.cli.engine.EngineOptions.sparkEngine(
                spec.root().commandLine().getParseResult().originalArgs());
        String srcSpec = org.privadapt.cli.engine.EngineOptions.sparkData(source);
        String tgtSpec = org.privadapt.cli.engine.EngineOptions.sparkData(target);
        int d = engine.dimension(eng, tgtSpec);
        try (org.privadapt.cli.engine.RowEngine.PartyRows tgt = eng.open(engine.request(tgtSpec, data.labelColumn(), pre));
             org.privadapt.cli.engine.RowEngine.PartyRows src = eng.open(engine.request(srcSpec, data.labelColumn(), pre))) {
            tgt.check(); // both parties' rows refused here if they are bad, before anything is charged
            src.check();
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
            Map<String, Object> cfgJson = SparkRunReport.config(m.name(), pre, preprocess == null ? "none (paper 003 scales with the "
                    + "source's constants)" : null, methodOptions.describe(), engine.master(), privacy.delta(), privacy.seeded());
            Map<String, org.privadapt.cli.report.Report.PartySpend> spent = new LinkedHashMap<>();
            // as in process: the public source's block as the method states it (not protected when its rows are used)
            org.privadapt.privacy.PrivacyCost sourceCost = o.privacy().getOrDefault("source", org.privadapt.privacy.PrivacyCost.NONE);
            spent.put("source", org.privadapt.cli.report.Report.PartySpend.of(sourceCost, 1, sourceCost));
            spent.put("target", SparkRunReport.spend(t));
            List<org.privadapt.cli.report.Report.DatasetInfo> datasets = List.of(
                    SparkRunReport.dataset("source", srcSpec, sourceRows.size(), engine.featureNames(d), data.labelColumn(),
                            "real-valued", pre),
                    SparkRunReport.dataset("target", tgtSpec, tgt.size(), engine.featureNames(d), data.labelColumn(), "real-valued", pre));
            org.privadapt.cli.report.Report report = SparkRunReport.regression(source, target, m.name(), o.mse(), o.diagnostics(), spent,
                    cfgJson, datasets);
            output.write(report, org.privadapt.cli.report.Markdown.resultsTable("privadapt run: " + m.name(), List.of(report.results().get(0))),
                    null, null);
            PrintWriter out = spec.commandLine().getOut();
            if (output.json) {
                out.println(Json.write(report));
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
}
