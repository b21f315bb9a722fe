package org.privadapt.cli.commands;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.privadapt.cli.DataSpecs;
import org.privadapt.cli.ExitCodes;
import org.privadapt.cli.MethodOptions;
import org.privadapt.cli.PartyOptions;
import org.privadapt.cli.Runs;
import org.privadapt.cli.UsageException;
import org.privadapt.cli.engine.EngineOptions;
import org.privadapt.cli.engine.RowEngine;
import org.privadapt.cli.report.AtomicFiles;
import org.privadapt.cli.report.Json;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.Dataset;
import org.privadapt.data.preprocess.Preprocessing;
import org.privadapt.methods.artifacts.Artifact;
import org.privadapt.methods.artifacts.ArtifactException;
import org.privadapt.methods.core.AdaptationMethod;
import org.privadapt.methods.core.Classifiers;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.prima.Prima;
import org.privadapt.methods.prima.PrimaConfig;
import org.privadapt.methods.prima.PrimaMethod;
import org.privadapt.methods.prima.SourceModel;
import org.privadapt.methods.prima.TargetRelease;
import org.privadapt.models.Metrics;
import org.privadapt.privacy.PrivacySession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code privadapt target ...}: the target institution's own steps of the two-party flow. */
@Command(name = "target", mixinStandardHelpOptions = true,
        description = {"The target institution's steps of the two-party flow, run on its own machine with its own data "
            + "(release: PRIMA/PRISA's DP statistics of its rows; predict: the source's model on its rows; adapt: "
            + "dpot-da on the source's DPOT release, dp-uda-gmm on the source's paper-004 release)."},
        subcommands = {TargetCommand.Release.class, TargetCommand.Predict.class, TargetCommand.Adapt.class})
public final class TargetCommand implements java.util.concurrent.Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        // a command group without a subcommand is a usage error: the usage goes to standard error, exit 2
        spec.commandLine().usage(spec.commandLine().getErr());
        return org.privadapt.cli.ExitCodes.USAGE;
    }

    /** Loads a party's data and applies row-local preprocessing (each row on its own: no privacy cost). */
    static Dataset prepare(DataSpecs data, String ref, DataSpecs.Role role, String preprocessing, String party) throws Exception {
        Preprocessing pre = Runs.preprocessing(preprocessing);
        if (!pre.dataDependentSteps().isEmpty()) {
            throw new UsageException("preprocessing step(s) " + pre.dataDependentSteps() + " would be fitted on the " + party
                    + "'s private rows outside the privacy accounting; use row-local steps (l1, l2, clip=B, scale=K, minmax=LO:HI, none)");
        }
        Dataset d = data.load(ref, role).requireNonEmpty().requireFinite();
        return pre.fitAndApply(d);
    }

    static PrimaMethod primaMethod(String name) {
        AdaptationMethod m;
        try {
            m = Runs.method(name);
        } catch (RuntimeException e) {
            m = null;
        }
        if (!(m instanceof PrimaMethod p)) {
            throw new UsageException("--method " + name + ": the two-party flow supports prima, prisa and the PRIMA ablations "
                    + "(prima-basic, prima-rse, prima-rse-fs, prima-basic-shrink)");
        }
        return p;
    }

    /** {@code privadapt target release}. */
    @Command(name = "release", mixinStandardHelpOptions = true,
            description = {"Target: read its rows, spend from its ledger, write the DP release artifact for the source "
                    + "(the partition into subspaces and the recovered subspace covariances; nothing else about the rows).",
                "Example: privadapt target release --method prima --data office-caltech10/amazon --preprocess l2,scale=28 "
                    + "--epsilon 2 --delta 1e-5 --ledger target.ledger --out release.json",
                "On Spark (docs/spark.md): spark-submit --class org.privadapt.cli.Main " + EngineOptions.SPARK_JAR + " target release "
                    + "--engine spark --method prima --data parquet:/lake/target --feature-columns f1,f2,f3 --epsilon 2 "
                    + "--ledger target.ledger --out release.json"})
    public static final class Release implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--method", required = true, paramLabel = "NAME", description = "prima, prisa, or a PRIMA ablation.")
        String method;

        @Option(names = "--data", required = true, paramLabel = "FILE", description = "The target's rows (a file or suite/domain; with "
                + "--engine spark parquet:PATH, csv:PATH or table:NAME); labels, if any, are not read.")
        String dataRef;

        @Option(names = "--out", required = true, paramLabel = "FILE", description = "Where to write the release artifact (atomically).")
        Path out;

        @Option(names = "--preprocess", paramLabel = "STEPS",
                description = "Row-local preprocessing, recorded in the release so the source and predict apply the same (default: the "
                        + "policy run uses for private methods, l2,scale=floor(sqrt d), printed).")
        String preprocess;

        @Option(names = "--param", paramLabel = "NAME=VALUE", description = "Method parameter (see docs/privacy/prima.md), repeatable.")
        Map<String, String> params = new LinkedHashMap<>();

        @Option(names = "--json", description = "Print a JSON summary on standard output.")
        boolean json;

        @Mixin
        PartyOptions party;

        @Mixin
        DataSpecs data;

        @Mixin
        EngineOptions engine;

        @Override
        public Integer call() throws Exception {
            party.validate();
            PartyOptions.requireWritable(out, "--out");
            PrimaMethod m = primaMethod(method);
            if (engine.spark()) {
                return releaseOnSpark(m);
            }
            if (engine.stream()) {
                return releaseStreamed(m);
            }
            org.privadapt.data.preprocess.DefaultPreprocessing.Choice preDefault = null;
            Dataset raw = null;
            if (preprocess == null) { // one policy with run: the default for private methods, from the public dimension
                raw = prepare(data, dataRef, DataSpecs.Role.TARGET, "none", "target");
                preDefault = org.privadapt.data.preprocess.DefaultPreprocessing.forPrivate(raw.dimension());
            }
            String pre = Runs.preprocessing(preprocess != null ? preprocess : preDefault.spec()).spec();
            PrimaConfig cfg = config(m, pre);
            Dataset target = (raw != null ? Runs.preprocessing(pre).fitAndApply(raw) : prepare(data, dataRef, DataSpecs.Role.TARGET, pre, "target"))
                    .withoutLabels().withPublicFacts(party.declared());
            org.privadapt.cli.DeltaPolicy.check("target", party.delta(), target.size(), party.allowLargeDelta, spec.commandLine().getErr());
            PrivacySession session = party.session("target");
            TargetRelease r = Prima.release(target, cfg, pre, m.name(), 1L, runId(party), session);
            r.toArtifact().write(out);
            report(m, r, session, target.size(), target.dimension());
            announceDefault(preDefault);
            return ExitCodes.OK;
        }

        /**
         * The default preprocessing, said once the release is written (on standard error, beside the summary): said
         * before, it made a refusal two lines (issue 33).
         */
        private void announceDefault(org.privadapt.data.preprocess.DefaultPreprocessing.Choice preDefault) {
            if (preDefault != null && !json) {
                spec.commandLine().getErr().println("privadapt: preprocessing " + preDefault.spec() + " (default for "
                        + preDefault.reason() + "; --preprocess to change)");
            }
        }

        /** The command's summary on standard output (the same for both engines). */
        private void report(PrimaMethod m, TargetRelease r, PrivacySession session, long rows, int dimension) {
            PrintWriter w = spec.commandLine().getOut();
            Map<String, Object> summary = new LinkedHashMap<>();
            summary.put("artifact", out.toString());
            summary.put("kind", "release");
            summary.put("method", m.name());
            summary.put("rows", rows);
            summary.put("dimension", dimension);
            summary.put("subspaces", r.partition().size());
            summary.put("largest_subspace", r.partition().largestBlock());
            summary.put("epsilon_spent", session.spent().epsilon());
            summary.put("delta", session.spent().delta());
            summary.put("private", session.isPrivate());
            summary.put("checksum", r.checksum());
            if (json) {
                w.println(Json.write(summary));
            } else {
                w.printf(Locale.ROOT, "release:   %s (%s, %d rows x %d features)%n", out, m.name(), rows, dimension);
                w.printf(Locale.ROOT, "subspaces: %d (largest %d features)%n", r.partition().size(), r.partition().largestBlock());
                w.printf(Locale.ROOT, "privacy:   target spent epsilon %s, delta %s%s%n", Runs.formatNumber(session.spent().epsilon()),
                        org.privadapt.cli.Runs.formatNumber(session.spent().delta()), session.isPrivate() ? "" : " -- seeded noise: NOT differentially private");
            }
        }

        /**
         * {@code --engine spark}: the same release from rows on Spark ({@code SparkPrima.release} via the spark-cli
         * module's engine): the same default preprocessing (from the named columns' number), the same checks before the
         * charge, the same plan, charge, noise and ledger, on this JVM (the driver), the same artifact.
         */
        private Integer releaseOnSpark(PrimaMethod m) throws Exception {
            String dataSpec = EngineOptions.sparkData(dataRef);
            RowEngine eng = EngineOptions.sparkEngine(spec.root().commandLine().getParseResult().originalArgs());
            int d = engine.featureColumns().size();
            org.privadapt.data.preprocess.DefaultPreprocessing.Choice preDefault = preprocess == null
                    ? org.privadapt.data.preprocess.DefaultPreprocessing.forPrivate(d) : null;
            org.privadapt.data.preprocess.Preprocessing steps = Runs.preprocessing(preprocess != null ? preprocess : preDefault.spec());
            if (!steps.dataDependentSteps().isEmpty()) {
                throw new UsageException("preprocessing step(s) " + steps.dataDependentSteps() + " would be fitted on the target"
                        + "'s private rows outside the privacy accounting; use row-local steps (l1, l2, clip=B, scale=K, minmax=LO:HI, none)");
            }
            String pre = steps.spec();
            PrimaConfig cfg = config(m, pre);
            try (RowEngine.PartyRows rows = eng.open(new RowEngine.Request(dataSpec, engine.featureColumns(), null, pre, engine.master()))) {
                org.privadapt.cli.DeltaPolicy.check("target", party.delta(), (int) Math.min(Integer.MAX_VALUE, rows.size()),
                        party.allowLargeDelta, spec.commandLine().getErr());
                PrivacySession session = party.session("target");
                TargetRelease r = rows.targetRelease(cfg, pre, m.name(), runId(party), session);
                r.toArtifact().write(out);
                report(m, r, session, rows.size(), rows.dimension());
            }
            announceDefault(preDefault);
            return ExitCodes.OK;
        }

        /**
         * {@code --engine stream}: the same release from a file read in blocks ({@link org.privadapt.data.io.RowChunks},
         * {@link org.privadapt.methods.stream.StreamedMoments}): the same default preprocessing (from the header's number of
         * features), the same checks of every row with the same messages, all before the charge (a first pass over the
         * whole file, which also sums the moments the release asks for first), the same plan, charge, noise, ledger and
         * artifact. Memory is one block and the moments, not the rows.
         */
        private Integer releaseStreamed(PrimaMethod m) throws Exception {
            org.privadapt.data.io.RowChunks rows = openStreamed(data, dataRef, DataSpecs.Role.TARGET);
            int chunk = engine.chunkRows(rows.dimension());
            org.privadapt.data.preprocess.DefaultPreprocessing.Choice preDefault = preprocess == null
                    ? org.privadapt.data.preprocess.DefaultPreprocessing.forPrivate(rows.dimension()) : null;
            Preprocessing steps = Runs.preprocessing(preprocess != null ? preprocess : preDefault.spec());
            if (!steps.dataDependentSteps().isEmpty()) {
                throw new UsageException("preprocessing step(s) " + steps.dataDependentSteps() + " would be fitted on the target"
                        + "'s private rows outside the privacy accounting; use row-local steps (l1, l2, clip=B, scale=K, minmax=LO:HI, none)");
            }
            String pre = steps.spec();
            PrimaConfig cfg = config(m, pre);
            org.privadapt.methods.stream.StreamedMoments source = new org.privadapt.methods.stream.StreamedMoments(rows, steps,
                    chunk, cfg);
            // the first pass: every row checked (the loader's refusals, exit 3) and the first moments summed, before the charge
            org.privadapt.data.io.RowChunks.Summary summary = source.prepare(1L);
            org.privadapt.cli.DeltaPolicy.check("target", party.delta(), (int) Math.min(Integer.MAX_VALUE, summary.rows()),
                    party.allowLargeDelta, spec.commandLine().getErr());
            PrivacySession session = party.session("target");
            Prima.NoisyMoments noisy;
            try {
                noisy = Prima.noisyMoments(source, cfg, m.name(), 1L, session);
            } catch (org.privadapt.methods.stream.StreamedMoments.StreamException e) {
                throw e.data(); // forward selection's second pass found the file changed: charged, nothing written
            }
            TargetRelease r = Prima.release(noisy, cfg, pre, m.name(), runId(party), session);
            r.toArtifact().write(out);
            report(m, r, session, summary.rows(), rows.dimension());
            announceDefault(preDefault);
            return ExitCodes.OK;
        }

        private PrimaConfig config(PrimaMethod m, String pre) {
            try {
                org.privadapt.methods.core.MethodParameters.check("target release", org.privadapt.methods.prima.PrimaConfig.PARAMETERS, params);
                return m.config(new MethodConfig("lr", 0.0, 1L, params), pre);
            } catch (IllegalArgumentException e) {
                throw new UsageException(m.name() + ": " + e.getMessage(), e);
            }
        }
    }

    /**
     * {@code --engine stream}'s file ({@code csv:PATH} or a plain path), opened in blocks with the role's file options:
     * Parquet and Spark tables, and benchmark references (loaded whole), are usage errors.
     */
    static org.privadapt.data.io.RowChunks openStreamed(DataSpecs data, String dataRef, DataSpecs.Role role)
            throws org.privadapt.data.DataException {
        String ref = dataRef.startsWith("csv:") ? dataRef.substring("csv:".length()) : dataRef;
        if (dataRef.startsWith("parquet:") || dataRef.startsWith("table:")) {
            throw new UsageException("--data " + dataRef + ": Parquet files and Spark tables are read with --engine spark "
                    + "(with --feature-columns; docs/spark.md)");
        }
        java.nio.file.Path file = java.nio.file.Path.of(ref);
        if (!java.nio.file.Files.exists(file) && data.registry().isRef(ref)) {
            throw new UsageException("--data " + dataRef + ": --engine stream reads a file (CSV, TSV or whitespace text); a "
                    + "benchmark reference is loaded whole (--engine inprocess)");
        }
        try {
            return org.privadapt.data.io.RowChunks.open(file, file.getFileName() == null ? ref : file.getFileName().toString(),
                    data.fileOptions(role, true));
        } catch (IllegalArgumentException e) {
            throw new UsageException("--engine stream: " + e.getMessage(), e);
        }
    }

    static String runId(PartyOptions p) {
        return p.seedOrNull() == null ? "run-" + java.util.UUID.randomUUID() : "run-seed-" + p.seedOrNull();
    }

    /** {@code privadapt target predict}. */
    @Command(name = "predict", mixinStandardHelpOptions = true,
            description = {"Target: apply the source's model artifact to its rows; write the predictions (CSV: row, class) "
                    + "and, when the rows are labelled, report the accuracy.",
                "Example: privadapt target predict --data office-caltech10/amazon --model model.json --out predictions.csv --json"})
    public static final class Predict implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--data", required = true, paramLabel = "FILE", description = "The target's rows (labels optional).")
        String dataRef;

        @Option(names = "--model", required = true, paramLabel = "FILE", description = "The model artifact written by 'source train'.")
        Path modelFile;

        @Option(names = "--release", paramLabel = "FILE", description = "The target's own release: checks that the model was trained on it.")
        Path releaseFile;

        @Option(names = "--out", required = true, paramLabel = "FILE", description = "Where to write the predictions (CSV, atomically).")
        Path out;

        @Option(names = "--json", description = "Print a JSON summary (with the accuracy when the data has labels) on standard output.")
        boolean json;

        @Option(names = "--refine", defaultValue = "none", paramLabel = "auto|none|centroids|self-training",
                description = "Refine the model on these rows before predicting (the target's own computation: nothing is "
                        + "released, the source's guarantee is unchanged; docs/privacy/private-learners.md); auto chooses among "
                        + "none, centroids and self-training on these rows by a fixed label-free rule. Default: ${DEFAULT-VALUE}.")
        String refine;

        @Mixin
        DataSpecs data;

        @Override
        public Integer call() throws Exception {
            PartyOptions.requireWritable(out, "--out");
            org.privadapt.methods.core.MethodConfig refineConfig = org.privadapt.methods.core.MethodConfig.defaults()
                    .withParam("refine", refine);
            if (!java.util.Set.of("auto", "none", "centroids", "self-training").contains(refine)) {
                throw new UsageException("--refine: '" + refine + "' is not one of auto, none, centroids, self-training (a PRIMA/PRISA "
                        + "model is not one linear map of the rows, so centre and im do not apply)");
            }
            SourceModel model = SourceModel.fromArtifact(org.privadapt.cli.InputFiles.artifact(modelFile, "model", "--model"),
                    modelFile.toString());
            if (releaseFile != null) {
                TargetRelease rel = TargetRelease.fromArtifact(org.privadapt.cli.InputFiles.artifact(releaseFile, "release", "--release"),
                        releaseFile.toString());
                if (!rel.checksum().equals(model.releaseChecksum())) {
                    throw new ArtifactException(modelFile + ": the model was trained on another release (its release checksum "
                            + abbreviate(model.releaseChecksum()) + " is not " + releaseFile + "'s " + abbreviate(rel.checksum()) + ")");
                }
            }
            Dataset rows = prepare(data, dataRef, DataSpecs.Role.PREDICTION, model.preprocessing(), "target");
            int[] pred = Prima.predict(model, rows);
            // degenerate predictions of the received model, and then of the refined one: read without labels
            List<String> predictionWarnings = new java.util.ArrayList<>();
            String received = Metrics.degenerateWarning(pred, model.classNames());
            if (received != null) {
                predictionWarnings.add("received model: " + received);
            }
            org.privadapt.methods.core.TargetRefinements.Refined refinement = org.privadapt.methods.core.TargetRefinements
                    .refinePredictions(refineConfig, pred, model.classNames(), rows.features());
            org.privadapt.models.Classifier refined = refinement.model();
            if (refined != null) {
                pred = refined.predict(rows.features());
                String after = Metrics.degenerateWarning(pred, model.classNames());
                if (after != null) {
                    predictionWarnings.add("refined model: " + after);
                }
            }
            List<String> names = model.classNames();
            StringBuilder csv = new StringBuilder("row,prediction\n");
            for (int i = 0; i < pred.length; i++) {
                csv.append(i).append(',').append(names.get(pred[i])).append('\n');
            }
            Double accuracy = null;
            String chance = null;
            if (rows.hasLabels() && rows.isClassification()) {
                ClassLabels truth = Classifiers.truthFor(names, rows);
                accuracy = Metrics.accuracy(pred, truth);
                chance = Metrics.chanceWarning(accuracy, truth);
            }
            AtomicFiles.write(out, csv.toString().getBytes(StandardCharsets.UTF_8));
            PrintWriter w = spec.commandLine().getOut();
            Map<String, Object> summary = new LinkedHashMap<>();
            summary.put("predictions", out.toString());
            summary.put("method", model.method());
            summary.put("rows", rows.size());
            summary.put("accuracy", accuracy);
            summary.put("model_private", model.privacy().path("private").asBoolean());
            summary.put("refine", refine);
            if (refinement.diagnostics().get("refine") instanceof Map<?, ?> choice) {
                summary.put("refine_choice", choice);
            }
            if (chance != null) {
                summary.put("warning", chance);
            }
            if (!predictionWarnings.isEmpty()) {
                summary.put("prediction_warnings", predictionWarnings);
            }
            for (String pw : predictionWarnings) {
                spec.commandLine().getErr().println("privadapt: warning: " + pw);
            }
            if (json) {
                w.println(Json.write(summary));
            } else {
                w.printf(Locale.ROOT, "predictions: %s (%d rows, %s)%n", out, rows.size(), model.method());
                if (accuracy != null) {
                    w.printf(Locale.ROOT, "accuracy:    %.2f %%%n", 100 * accuracy);
                }
                if (chance != null) {
                    w.println("warning:     " + chance);
                }
                if (refinement.diagnostics().get("refine") instanceof Map<?, ?> choice) {
                    w.println("refine:      auto chose " + choice.get("chosen") + " (" + choice.get("reason") + "; on these rows "
                            + "only, nothing released)");
                }
                if (!model.privacy().path("private").asBoolean()) {
                    w.println("warning:     the model was trained with seeded noise: NOT differentially private");
                }
            }
            return ExitCodes.OK;
        }

        private static String abbreviate(String s) {
            return s == null ? "none" : s.substring(0, Math.min(12, s.length()));
        }
    }

    /** {@code privadapt target adapt}: the target's whole part of dpot-da. */
    @Command(name = "adapt", mixinStandardHelpOptions = true,
            description = {"Target: read the source's DPOT release, transport the released rows onto its own (debiased cost, "
                    + "group-lasso OT, barycentric mapping), train its own classifier on them, write predictions for its rows "
                    + "and, when they are labelled, report the accuracy. Spends nothing: the target releases nothing.",
                "With a dp-uda-gmm release (paper 004): adapt the source's encoder to its rows against features sampled from "
                    + "the released mixture (adversarial loss, KD, IM), keep the classifier, write predictions (0/1 per label "
                    + "for multi-label tasks) and report the (mean per-label) accuracy on labelled evaluation rows.",
                "Example: privadapt target adapt --release dpot.json --data office-caltech10/caltech --out predictions.csv --json",
                "Example: privadapt target adapt --method dp-uda-gmm --release release.json --data iu-chest-xray-uda/impression "
                    + "--out predictions.csv"})
    public static final class Adapt implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--method", paramLabel = "dpot-da|dp-uda-gmm",
                description = "The adaptation: dpot-da (a DPOT release) or dp-uda-gmm (paper 004's release); default: the release's. "
                        + "A release of another method is refused.")
        String method;

        @Option(names = "--release", required = true, paramLabel = "FILE", description = "The source's release artifact (DPOT or dp-uda-gmm).")
        Path releaseFile;

        @Option(names = "--eval", paramLabel = "FILE", description = "dp-uda-gmm: labelled rows to report the accuracy on (default: "
                + "the --data domain's evaluation rows when they are labelled).")
        String evalRef;

        @Option(names = "--param", paramLabel = "NAME=VALUE", description = "dp-uda-gmm: adaptation setting (adversary, mode, "
                + "adapt-epochs, adapt-batch, adapt-lr, kd, temperature, im, diversity, disc-hidden); dpot-da: the target's own "
                + "refinement (refine, refine-centre, refine-iterations; docs/privacy/private-learners.md), repeatable.")
        Map<String, String> params = new LinkedHashMap<>();

        @Option(names = "--data", required = true, paramLabel = "FILE", description = "The target's rows (labels, if any, are used only for the reported accuracy, or for --param target-labels).")
        String dataRef;

        @Option(names = "--out", required = true, paramLabel = "FILE", description = "Where to write the predictions (CSV, atomically).")
        Path out;

        @Option(names = "--classifier", defaultValue = "lr", paramLabel = "lr|dnn", description = "The target's classifier (default: ${DEFAULT-VALUE}).")
        String classifier;

        @Option(names = "--l2", defaultValue = "1e-3", description = "L2 penalty of the classifier (default: ${DEFAULT-VALUE}).")
        double l2;

        @Option(names = "--seed", paramLabel = "N", description = "Seed of the target's own randomness (which rows meet each minibatch); as 'run --seed N'.")
        Long seed;

        @Option(names = "--json", description = "Print a JSON summary on standard output.")
        boolean json;

        @Mixin
        DataSpecs data;

        @Override
        public Integer call() throws Exception {
            if (!classifier.equals("lr") && !classifier.equals("dnn")) {
                throw new UsageException("--classifier must be lr or dnn, got '" + classifier + "'");
            }
            PartyOptions.requireWritable(out, "--out");
            String wanted = method == null ? null : switch (method) {
                case "dpot", "dpot-da" -> org.privadapt.methods.dpot.DpotRelease.METHOD;
                case "dp-uda-gmm" -> org.privadapt.methods.gmmuda.SourceReleaseArtifact.METHOD;
                default -> throw new UsageException("--method: the target adapts for dpot-da or dp-uda-gmm, got '" + method + "'");
            };
            Artifact art = org.privadapt.cli.InputFiles.artifact(releaseFile, "release", "--release");
            if (wanted != null && !wanted.equals(art.method())) {
                throw new ArtifactException(releaseFile + ": release of method '" + art.method() + "', not of " + method);
            }
            if (org.privadapt.methods.gmmuda.SourceReleaseArtifact.METHOD.equals(art.method())) {
                return adaptGmm(org.privadapt.methods.gmmuda.SourceReleaseArtifact.fromArtifact(art, releaseFile.toString()));
            }
            if (evalRef != null) {
                throw new UsageException("--eval is for --method dp-uda-gmm; dpot-da reports the accuracy on the labelled --data rows");
            }
            // dpot-da takes its settings from the release; the target's own refinement is the only --param it reads
            org.privadapt.methods.core.MethodParameters.check("target adapt --method dpot-da",
                    org.privadapt.methods.core.TargetRefinements.PARAMETERS, params);
            org.privadapt.methods.dpot.DpotRelease rel = org.privadapt.methods.dpot.DpotRelease.fromArtifact(art, releaseFile.toString());
            Dataset rows = prepare(data, dataRef, DataSpecs.Role.EVALUATION, rel.preprocessing(), "target");
            if (rows.dimension() != rel.inputDim()) {
                throw new org.privadapt.data.DataException(rows.firstFile(), null, "has " + rows.dimension()
                        + " features; the release " + releaseFile + " is for " + rel.inputDim());
            }
            Map<String, String> p = new LinkedHashMap<>();
            if (rel.config().targetLabelsPerClass() > 0) {
                p.put("target-labels", Integer.toString(rel.config().targetLabelsPerClass()));
            }
            p.putAll(params);
            MethodConfig mc = new MethodConfig(classifier, l2, 1L, p);
            try {
                org.privadapt.methods.core.TargetRefinements.mode(mc);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--param: " + e.getMessage());
            }
            Dataset evaluation = rows.hasLabels() ? rows : null;
            org.privadapt.methods.core.AdaptationTask task = new org.privadapt.methods.core.AdaptationTask("target adapt",
                    rows, rows.withoutLabels(), evaluation == null ? rows : evaluation, rel.preprocessing());
            org.privadapt.privacy.noise.NoiseSource own = org.privadapt.cli.PrivacyOptions.partyNoise(seed, 0, "target");
            List<String> names = rel.classNames();
            int[] pred;
            Double accuracy = null;
            Object refineChoice = null;
            if (evaluation != null && rows.isClassification()) {
                org.privadapt.methods.core.AdaptationOutcome o = org.privadapt.methods.dpot.DpotDaMethod.targetSide(rel, task, mc, own.bits());
                pred = o.predictions();
                accuracy = o.accuracy();
                names = o.classNames();
                refineChoice = o.diagnostics().get("refine");
            } else {
                org.privadapt.methods.dpot.Dpot.Transported tr = org.privadapt.methods.dpot.Dpot.adapt(rel, rows.features(), null, own.bits());
                org.privadapt.models.Classifier trained = Classifiers.train(mc, tr.features(), new ClassLabels(tr.labels(), rel.classNames()));
                // in the model's space (clipped rows at record level), as DpotDaMethod.targetSide predicts
                org.privadapt.math.FeatureMatrix own2 = org.privadapt.methods.dpot.Dpot.targetRows(rows.features(), rel.config());
                org.privadapt.methods.core.TargetRefinements.Refined refinement = org.privadapt.methods.core.TargetRefinements
                        .refine(mc, trained, own2);
                org.privadapt.models.Classifier model = refinement.model();
                pred = model.predict(own2);
                names = model.classNames();
                refineChoice = refinement.diagnostics().get("refine");
            }
            String degenerate = Metrics.degenerateWarning(pred, names); // read without labels
            StringBuilder csv = new StringBuilder("row,prediction\n");
            for (int i = 0; i < pred.length; i++) {
                csv.append(i).append(',').append(names.get(pred[i])).append('\n');
            }
            String chance = accuracy == null ? null : Metrics.chanceWarning(accuracy, Classifiers.truthFor(names, rows));
            double nts = rel.privacy().path("class_mean_noise_to_signal").asDouble(Double.NaN);
            if (chance != null && nts > 1) {
                chance += String.format(Locale.ROOT, "; the release's noise is %.1fx the signal of a class mean at this "
                        + "guarantee (docs/results/dpot.md)", nts);
            }
            AtomicFiles.write(out, csv.toString().getBytes(StandardCharsets.UTF_8));
            boolean releasePrivate = rel.privacy().path("private").asBoolean();
            PrintWriter w = spec.commandLine().getOut();
            Map<String, Object> summary = new LinkedHashMap<>();
            summary.put("predictions", out.toString());
            summary.put("method", "dpot-da");
            summary.put("rows", pred.length);
            summary.put("accuracy", accuracy);
            summary.put("release_level", rel.privacy().path("level").asText());
            summary.put("release_epsilon", rel.privacy().path("epsilon_spent").asDouble());
            summary.put("release_private", releasePrivate);
            if (refineChoice instanceof Map<?, ?> choice) {
                summary.put("refine_choice", choice);
            }
            if (chance != null) {
                summary.put("warning", chance);
            }
            if (degenerate != null) {
                summary.put("prediction_warnings", List.of(degenerate));
                spec.commandLine().getErr().println("privadapt: warning: " + degenerate);
            }
            if (json) {
                w.println(Json.write(summary));
            } else {
                w.printf(Locale.ROOT, "predictions: %s (%d rows, dpot-da, %s)%n", out, pred.length, classifier);
                if (accuracy != null) {
                    w.printf(Locale.ROOT, "accuracy:    %.2f %%%n", 100 * accuracy);
                }
                if (chance != null) {
                    w.println("warning:     " + chance);
                }
                if (refineChoice instanceof Map<?, ?> choice) {
                    w.println("refine:      auto chose " + choice.get("chosen") + " (" + choice.get("reason") + "; on these rows "
                            + "only, nothing released)");
                }
                w.printf(Locale.ROOT, "source:      %s%n", rel.privacy().path("guarantee").asText());
                if (!releasePrivate) {
                    w.println("warning:     the release was made with seeded noise: NOT differentially private");
                }
            }
            return ExitCodes.OK;
        }

        /**
         * Paper 004's target side: its rows (labels never read for the adaptation) and the release only; E_t from E_s
         * against features sampled from the released mixture, KD and IM; nothing is released, nothing spent.
         */
        private Integer adaptGmm(org.privadapt.methods.gmmuda.SourceReleaseArtifact rel) throws Exception {
            String m = org.privadapt.methods.gmmuda.SourceReleaseArtifact.METHOD;
            if (!classifier.equals("lr")) {
                throw new UsageException("--classifier: " + m + " adapts the source's encoder and keeps its classifier; drop --classifier");
            }
            for (String k : params.keySet()) {
                if (org.privadapt.methods.gmmuda.SourceReleaseArtifact.SOURCE_PARAMETERS.contains(k)) {
                    throw new UsageException("--param " + k + ": a setting of the source's release (fixed in " + releaseFile
                            + "), not of the target's adaptation");
                }
            }
            SourceCommand.checkParams("target adapt --method " + m, org.privadapt.methods.gmmuda.SourceReleaseArtifact.TARGET_PARAMETERS, params);
            Map<String, String> merged = new LinkedHashMap<>(rel.settings());
            merged.putAll(params);
            org.privadapt.methods.gmmuda.GmmUdaConfig cfg;
            try {
                cfg = org.privadapt.methods.gmmuda.GmmUdaConfig.from(new MethodConfig("lr", 0.0, seed != null ? seed : rel.seed(), merged));
            } catch (IllegalArgumentException e) {
                throw new UsageException("--param: " + e.getMessage(), e);
            }
            if (evalRef != null) {
                data.allowUnlabelledTarget(); // --eval must hold a named label column, --data may lack it
            }
            Dataset rows = prepare(data, dataRef, DataSpecs.Role.TARGET, rel.preprocessing(), "target");
            checkDimension(rows, rel);
            Dataset eval;
            if (evalRef != null) {
                eval = prepare(data, evalRef, DataSpecs.Role.EVALUATION, rel.preprocessing(), "target");
            } else if (data.registry().isRef(dataRef) && dataRef.indexOf(':') < 0) {
                eval = prepare(data, dataRef, DataSpecs.Role.EVALUATION, rel.preprocessing(), "target");
            } else {
                eval = rows;
            }
            checkDimension(eval, rel);
            if (!eval.hasLabels()) {
                eval = null;
            } else if (evalRef != null || eval != rows) {
                if (rel.multiLabel() != (eval.labels().orElseThrow() instanceof org.privadapt.data.MultiLabels)) {
                    throw new org.privadapt.data.DataException(eval.firstFile(), null, "its labels are " + (rel.multiLabel()
                            ? "classes" : "multi-label") + "; the release is for a " + (rel.multiLabel() ? "multi-label" : "class") + " task");
                }
            }
            org.privadapt.math.FeatureMatrix xt = org.privadapt.methods.gmmuda.GmmUdaMethod.rows(rows.withoutLabels().features(), cfg.rowNorm(true));
            org.privadapt.models.uda.AdaptedModel model = org.privadapt.methods.gmmuda.GmmUdaMethod.adapt(rel.release(), xt, cfg, rel.multiLabel());
            org.privadapt.math.DenseMatrix logits = model.logits(xt);
            List<String> names = rel.labels();
            StringBuilder csv = new StringBuilder("row");
            if (rel.multiLabel()) {
                names.forEach(n -> csv.append(',').append(csvField(n)));
            } else {
                csv.append(",prediction");
            }
            csv.append('\n');
            for (int i = 0; i < logits.rows(); i++) {
                csv.append(i);
                if (rel.multiLabel()) {
                    for (int k = 0; k < logits.cols(); k++) {
                        csv.append(',').append(logits.get(i, k) > 0 ? '1' : '0'); // sigmoid > 0.5
                    }
                } else {
                    int best = 0;
                    for (int k = 1; k < logits.cols(); k++) {
                        if (logits.get(i, k) > logits.get(i, best)) {
                            best = k;
                        }
                    }
                    csv.append(',').append(csvField(names.get(best)));
                }
                csv.append('\n');
            }
            org.privadapt.methods.core.AdaptationOutcome o = null;
            if (eval != null) {
                org.privadapt.math.DenseMatrix el = eval == rows ? logits
                        : model.logits(org.privadapt.methods.gmmuda.GmmUdaMethod.rows(eval.features(), cfg.rowNorm(true)));
                o = org.privadapt.methods.gmmuda.GmmUdaMethod.score(m, el, names, eval, rel.multiLabel(), Map.of(), Map.of());
            }
            String warning = null;
            if (rel.multiLabel() && allNonPositive(logits)) {
                warning = "the adapted model predicts no label for any row: its accuracy is that of always predicting "
                        + "'absent' (mean F1 0)";
            } else if (o != null && !rel.multiLabel()) {
                warning = Metrics.chanceWarning(o.accuracy(), Classifiers.truthFor(names, eval));
            }
            AtomicFiles.write(out, csv.toString().getBytes(StandardCharsets.UTF_8));
            PrintWriter w = spec.commandLine().getOut();
            Map<String, Object> summary = new LinkedHashMap<>();
            summary.put("predictions", out.toString());
            summary.put("method", m);
            summary.put("task", rel.multiLabel() ? "multi-label" : "classes");
            summary.put("rows", logits.rows());
            summary.put("evaluation_rows", eval == null ? null : eval.size());
            summary.put("accuracy", o == null ? null : o.accuracy());
            if (o != null && rel.multiLabel()) {
                summary.put("mean_f1", o.diagnostics().get("mean_f1"));
                summary.put("per_label", o.diagnostics().get("per_label"));
            }
            summary.put("target_epsilon_spent", 0.0);
            summary.put("release_epsilon", rel.privacy().path("epsilon_spent").asDouble());
            summary.put("release_delta", rel.privacy().path("delta").asDouble());
            summary.put("release_private", rel.isPrivate());
            summary.put("release_checksum", rel.checksum());
            if (warning != null) {
                summary.put("warning", warning);
            }
            if (json) {
                w.println(Json.write(summary));
            } else {
                w.printf(Locale.ROOT, "predictions: %s (%d rows, %s, %s)%n", out, logits.rows(), m,
                        rel.multiLabel() ? names.size() + " labels, 0/1 per label" : "classes");
                if (o != null) {
                    w.printf(Locale.ROOT, rel.multiLabel() ? "accuracy:    %.2f %% (mean per-label accuracy over %d labels; mean F1 %.3f)%n"
                            : "accuracy:    %.2f %%%n", 100 * o.accuracy(), names.size(),
                            rel.multiLabel() ? (Double) o.diagnostics().get("mean_f1") : 0.0);
                }
                if (warning != null) {
                    w.println("warning:     " + warning);
                }
                w.println("privacy:     the target spent nothing (it releases nothing; its labels are not read for the adaptation)");
                w.printf(Locale.ROOT, "source:      release spent epsilon %s, delta %s (%s)%n",
                        Runs.formatNumber(rel.privacy().path("epsilon_spent").asDouble()),
                        Runs.formatNumber(rel.privacy().path("delta").asDouble()), rel.privacy().path("relation").asText());
                if (!rel.isPrivate()) {
                    w.println("warning:     the release was made with seeded noise: NOT differentially private");
                }
            }
            return ExitCodes.OK;
        }

        private void checkDimension(Dataset d, org.privadapt.methods.gmmuda.SourceReleaseArtifact rel) throws org.privadapt.data.DataException {
            if (d.dimension() != rel.inputDim()) {
                throw new org.privadapt.data.DataException(d.firstFile(), null, "has " + d.dimension() + " features; the release "
                        + releaseFile + " is for " + rel.inputDim() + " (" + rel.preprocessing() + ", then unit rows)");
            }
        }

        private static boolean allNonPositive(org.privadapt.math.DenseMatrix logits) {
            for (double v : logits.data()) {
                if (v > 0) {
                    return false;
                }
            }
            return true;
        }

        private static String csvField(String v) {
            return v.contains(",") || v.contains("\"") ? "\"" + v.replace("\"", "\"\"") + "\"" : v;
        }
    }
}
