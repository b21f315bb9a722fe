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
import org.privadapt.cli.PartyOptions;
import org.privadapt.cli.UsageException;
import org.privadapt.cli.report.AtomicFiles;
import org.privadapt.cli.report.Json;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.Dataset;
import org.privadapt.methods.artifacts.ArtifactException;
import org.privadapt.methods.core.Classifiers;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.prima.Prima;
import org.privadapt.methods.prima.SourceModel;
import org.privadapt.methods.prima.TargetRelease;
import org.privadapt.models.Metrics;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code privadapt target predict}. */
@Command(name = "predict", mixinStandardHelpOptions = true,
        description = {"Target: apply the source's model artifact to its rows; write the predictions (CSV: row, class) "
                + "and, when the rows are labelled, report the accuracy.",
            "Example: privadapt target predict --data office-caltech10/amazon --model model.json --out predictions.csv --json"})
public final class TargetPredictCommand implements Callable<Integer> {
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

    @Option(names = "--param", paramLabel = "encoder=NAME",
            description = "encoder=bow|minilm: how --text-column is encoded; the model's own (it records a pretrained one), else refused.")
    Map<String, String> params = new LinkedHashMap<>();

    @Option(names = "--refine", defaultValue = "none", paramLabel = "auto|none|centroids|self-training|map-prototypes",
            description = "Refine the model on these rows before predicting (the target's own computation: nothing is "
                    + "released, the source's guarantee is unchanged; docs/privacy/private-learners.md); auto chooses among "
                    + "none, centroids and self-training on these rows by a fixed label-free rule; map-prototypes moves the "
                    + "predicted classes' means only as far as these rows' evidence outweighs the received labelling "
                    + "(docs/privacy/target-refinements.md). Default: ${DEFAULT-VALUE}.")
    String refine;

    @Mixin
    DataSpecs data;

    @Mixin
    KeyOptions.Verify verify;

    @Mixin
    org.privadapt.cli.engine.EngineOptions engine;

    @Override
    public Integer call() throws Exception {
        PartyOptions.requireWritable(out, "--out");
        verify.load();
        org.privadapt.methods.core.MethodConfig refineConfig = org.privadapt.methods.core.MethodConfig.defaults()
                .withParam("refine", refine);
        if (!java.util.Set.of("default", "auto", "none", "centroids", "self-training", "map-prototypes").contains(refine)) {
            throw new UsageException("--refine: '" + refine + "' is not one of default, auto, none, centroids, self-training, map-prototypes (a "
                    + "PRIMA/PRISA model is not one linear map of the rows and gives no probabilities, so centre, im, prior-em and "
                    + "lame do not apply)");
        }
        String encoder = params.remove(DataSpecs.ENCODER_PARAM);
        if (!params.isEmpty()) {
            throw new UsageException("--param " + params.keySet().iterator().next() + ": target predict takes encoder=NAME only "
                    + "(the model fixes everything else)");
        }
        org.privadapt.methods.artifacts.Artifact art = verify.check(org.privadapt.cli.InputFiles.artifact(modelFile, "model",
                "--model"), modelFile);
        SourceModel model = SourceModel.fromArtifact(art, modelFile.toString());
        if (releaseFile != null) {
            TargetRelease rel = TargetRelease.fromArtifact(org.privadapt.cli.InputFiles.artifact(releaseFile, "release", "--release"),
                    releaseFile.toString());
            if (!rel.checksum().equals(model.releaseChecksum())) {
                throw new ArtifactException(modelFile + ": the model was trained on another release (its release checksum "
                        + abbreviate(model.releaseChecksum()) + " is not " + releaseFile + "'s " + abbreviate(rel.checksum()) + ")");
            }
        }
        boolean refines = !refine.equals("none") && !refine.equals("default");
        if (model.multiLabel() && (engine.stream() || engine.spark() || refines)) {
            throw new UsageException(modelFile + ": a multi-label model (one binary model per label) is applied in process and "
                    + "as it is: " + (refines ? "--refine " + refine : "--engine " + (engine.stream() ? "stream" : "spark"))
                    + " does not apply");
        }
        if (engine.stream() || engine.spark()) {
            org.privadapt.cli.TextEncoderRecords.refuseOutOfProcess(encoder, engine.stream() ? "--engine stream" : "--engine spark");
            org.privadapt.cli.TextEncoderRecords.require(art, org.privadapt.data.text.TextEncoding.Identity.BOW, "model", modelFile.toString());
            return engine.stream() ? predictStreamed(model) : predictOnSpark(model);
        }
        data.useTextEncoder(encoder, !json);
        Dataset rows = TargetCommand.prepare(data, dataRef, DataSpecs.Role.PREDICTION, model.preprocessing(), "target");
        org.privadapt.cli.TextEncoderRecords.require(art, org.privadapt.data.text.TextEncoding.identity(rows), "model", modelFile.toString());
        if (model.multiLabel()) {
            return predictLabels(model, rows);
        }
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
        if (verify.fingerprint() != null) {
            summary.put("model_verified_by", verify.fingerprint());
        }
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
            String refineLine = org.privadapt.cli.Runs.refineLine(refinement.diagnostics().get("refine"));
            if (refineLine != null) {
                w.println("refine:      " + refineLine);
            }
            modelNotes(w, model);
        }
        return ExitCodes.OK;
    }

    /**
     * A multi-label model's predictions: per row the labels predicted present, separated by ';' (empty: none), and,
     * when the rows carry the same labels, the mean per-label accuracy.
     */
    private Integer predictLabels(SourceModel model, Dataset rows) throws Exception {
        int[][] pred = Prima.predictLabels(model, rows);
        List<String> names = model.classNames();
        StringBuilder csv = new StringBuilder("row,labels\n");
        for (int i = 0; i < pred.length; i++) {
            StringBuilder present = new StringBuilder();
            for (int l = 0; l < names.size(); l++) {
                if (pred[i][l] == 1) {
                    present.append(present.length() == 0 ? "" : ";").append(names.get(l));
                }
            }
            csv.append(i).append(',').append(csvField(present.toString())).append('\n');
        }
        Double accuracy = null;
        if (rows.labels().orElse(null) instanceof org.privadapt.data.MultiLabels truth && truth.names().equals(names)) {
            accuracy = org.privadapt.models.MultiLabelMetrics.evaluate(truth, pred).meanAccuracy();
        }
        AtomicFiles.write(out, csv.toString().getBytes(StandardCharsets.UTF_8));
        PrintWriter w = spec.commandLine().getOut();
        if (json) {
            Map<String, Object> summary = new LinkedHashMap<>();
            summary.put("predictions", out.toString());
            summary.put("method", model.method());
            summary.put("rows", rows.size());
            summary.put("labels", names);
            summary.put("mean_label_accuracy", accuracy);
            summary.put("model_private", model.privacy().path("private").asBoolean());
            if (verify.fingerprint() != null) {
                summary.put("model_verified_by", verify.fingerprint());
            }
            w.println(Json.write(summary));
        } else {
            w.printf(Locale.ROOT, "predictions: %s (%d rows, %s, %d labels)%n", out, rows.size(), model.method(), names.size());
            if (accuracy != null) {
                w.printf(Locale.ROOT, "accuracy:    %.2f %% (mean per label)%n", 100 * accuracy);
            }
            modelNotes(w, model);
        }
        return ExitCodes.OK;
    }

    /** A CSV field, quoted (RFC 4180) when it holds a comma, a quote or a line break. */
    static String csvField(String v) {
        return v.matches("(?s).*[\",\r\n].*") ? '"' + v.replace("\"", "\"\"") + '"' : v;
    }

    /** The text output's last lines: seeded noise (NOT private) and the verified signer, when either applies. */
    private void modelNotes(PrintWriter w, SourceModel model) {
        if (!model.privacy().path("private").asBoolean()) {
            w.println("warning:     the model was trained with seeded noise: NOT differentially private");
        }
        if (verify.verified() != null) {
            w.println("model:       " + verify.verified());
        }
    }

    /**
     * {@code --engine spark} (issue 45 item 4): the received model applied where the target's rows are
     * ({@code SparkPredictions}: the model's preprocessing row-local on the executors, blocks of rows predicted there),
     * the predictions and labels brought here in the table's order and written as in process. Refinement reads the
     * rows in one place: refused (exit 2), as on Spark's run.
     */
    private Integer predictOnSpark(SourceModel model) throws Exception {
        if (!refine.equals("none")) {
            throw new UsageException("--engine spark: --refine " + refine + " needs the target's rows in one place; run it in process");
        }
        String dataSpec = org.privadapt.cli.engine.EngineOptions.sparkData(dataRef);
        org.privadapt.cli.engine.RowEngine eng = org.privadapt.cli.engine.EngineOptions.sparkEngine(
                spec.root().commandLine().getParseResult().originalArgs());
        if (engine.dimension(eng, dataSpec) != model.dimension()) {
            throw new UsageException("--engine spark: the data have " + engine.dimension(eng, dataSpec) + " features; the model is for "
                    + model.dimension());
        }
        int[] pred;
        String[] labels;
        try (org.privadapt.cli.engine.RowEngine.PartyRows rows = eng.open(engine.request(dataSpec, data.labelColumn(), model.preprocessing()))) {
            org.privadapt.cli.engine.RowEngine.Predictions p = rows.predict(model);
            pred = p.classes();
            labels = p.labels();
        }
        return written(model, pred, labels);
    }

    /**
     * {@code --engine stream}: the file read in blocks ({@link org.privadapt.data.io.RowChunks}: every row checked as the
     * whole-file loader checks it, the model's row-local preprocessing per block), each block predicted as it comes;
     * memory one block and the n predictions (the output's size). The labels, when the file has them, are named as the
     * loader names them. {@code --refine} reads all rows at once: refused.
     */
    private Integer predictStreamed(SourceModel model) throws Exception {
        if (!refine.equals("none")) {
            throw new UsageException("--engine stream: --refine " + refine + " needs the target's rows in one place; run it in process");
        }
        org.privadapt.data.io.RowChunks chunks = TargetCommand.openStreamed(data, dataRef, DataSpecs.Role.PREDICTION);
        if (chunks.dimension() != model.dimension()) {
            throw new org.privadapt.data.DataException(chunks.file(), null, "has " + chunks.dimension() + " features; the model is for "
                    + model.dimension());
        }
        org.privadapt.data.preprocess.Preprocessing steps = org.privadapt.cli.Runs.preprocessing(model.preprocessing());
        if (!steps.dataDependentSteps().isEmpty()) {
            throw new UsageException("--engine stream: the model's preprocessing " + steps.dataDependentSteps() + " is fitted on "
                    + "all rows; run it in process");
        }
        java.io.ByteArrayOutputStream predicted = new java.io.ByteArrayOutputStream();
        List<String> labels = new java.util.ArrayList<>();
        java.io.DataOutputStream sink = new java.io.DataOutputStream(predicted);
        chunks.scan(engine.chunkRows(chunks.dimension()), steps, chunk -> {
            try {
                for (int p : model.predict(chunk.features())) {
                    sink.writeInt(p);
                }
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            if (chunk.labels() != null) {
                for (String l : chunk.labels()) {
                    labels.add(org.privadapt.data.io.RowChunks.className(l));
                }
            }
        }, null);
        java.nio.IntBuffer ints = java.nio.ByteBuffer.wrap(predicted.toByteArray()).asIntBuffer();
        int[] pred = new int[ints.remaining()];
        ints.get(pred);
        return written(model, pred, chunks.labelled() && !labels.isEmpty() ? labels.toArray(new String[0]) : null);
    }

    /** Writes the predictions, the accuracy (labels given) and the summary as the in-process command does (refine none). */
    private Integer written(SourceModel model, int[] pred, String[] labels) throws Exception {
        List<String> names = model.classNames();
        List<String> predictionWarnings = new java.util.ArrayList<>();
        String received = Metrics.degenerateWarning(pred, names);
        if (received != null) {
            predictionWarnings.add("received model: " + received);
        }
        StringBuilder csv = new StringBuilder("row,prediction\n");
        for (int i = 0; i < pred.length; i++) {
            csv.append(i).append(',').append(names.get(pred[i])).append('\n');
        }
        Double accuracy = null;
        String chance = null;
        if (labels != null) {
            ClassLabels truth;
            try {
                truth = ClassLabels.fromStrings(java.util.Arrays.asList(labels)).recodeTo(names);
            } catch (IllegalArgumentException e) {
                throw new org.privadapt.data.DataException(dataRef, null, "target " + e.getMessage() + " (the source's classes)");
            }
            accuracy = Metrics.accuracy(pred, truth);
            chance = Metrics.chanceWarning(accuracy, truth);
        }
        AtomicFiles.write(out, csv.toString().getBytes(StandardCharsets.UTF_8));
        for (String pw : predictionWarnings) {
            spec.commandLine().getErr().println("privadapt: warning: " + pw);
        }
        PrintWriter w = spec.commandLine().getOut();
        if (json) {
            Map<String, Object> summary = new LinkedHashMap<>();
            summary.put("predictions", out.toString());
            summary.put("method", model.method());
            summary.put("rows", pred.length);
            summary.put("accuracy", accuracy);
            summary.put("model_private", model.privacy().path("private").asBoolean());
            summary.put("refine", refine);
            if (verify.fingerprint() != null) {
                summary.put("model_verified_by", verify.fingerprint());
            }
            if (chance != null) {
                summary.put("warning", chance);
            }
            if (!predictionWarnings.isEmpty()) {
                summary.put("prediction_warnings", predictionWarnings);
            }
            w.println(Json.write(summary));
        } else {
            w.printf(Locale.ROOT, "predictions: %s (%d rows, %s)%n", out, pred.length, model.method());
            if (accuracy != null) {
                w.printf(Locale.ROOT, "accuracy:    %.2f %%%n", 100 * accuracy);
            }
            if (chance != null) {
                w.println("warning:     " + chance);
            }
            modelNotes(w, model);
        }
        return ExitCodes.OK;
    }

    private static String abbreviate(String s) {
        return s == null ? "none" : s.substring(0, Math.min(12, s.length()));
    }
}
