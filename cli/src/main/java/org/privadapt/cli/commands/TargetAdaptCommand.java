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
import org.privadapt.cli.Runs;
import org.privadapt.cli.UsageException;
import org.privadapt.cli.report.AtomicFiles;
import org.privadapt.cli.report.Json;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.Dataset;
import org.privadapt.methods.artifacts.Artifact;
import org.privadapt.methods.artifacts.ArtifactException;
import org.privadapt.methods.core.Classifiers;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.models.Metrics;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

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
public final class TargetAdaptCommand implements Callable<Integer> {
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

    @Mixin
    KeyOptions.Verify verify;

    @Override
    public Integer call() throws Exception {
        if (!classifier.equals("lr") && !classifier.equals("dnn")) {
            throw new UsageException("--classifier must be lr or dnn, got '" + classifier + "'");
        }
        PartyOptions.requireWritable(out, "--out");
        verify.load();
        String wanted = method == null ? null : switch (method) {
            case "dpot", "dpot-da" -> org.privadapt.methods.dpot.DpotRelease.METHOD;
            case "dp-uda-gmm" -> org.privadapt.methods.gmmuda.SourceReleaseArtifact.METHOD;
            default -> throw new UsageException("--method: the target adapts for dpot-da or dp-uda-gmm, got '" + method + "'");
        };
        Artifact art = verify.check(org.privadapt.cli.InputFiles.artifact(releaseFile, "release", "--release"), releaseFile);
        if (wanted != null && !wanted.equals(art.method())) {
            throw new ArtifactException(releaseFile + ": release of method '" + art.method() + "', not of " + method);
        }
        if (org.privadapt.methods.gmmuda.SourceReleaseArtifact.METHOD.equals(art.method())) {
            return adaptGmm(org.privadapt.methods.gmmuda.SourceReleaseArtifact.fromArtifact(art, releaseFile.toString()));
        }
        if (evalRef != null) {
            throw new UsageException("--eval is for --method dp-uda-gmm; dpot-da reports the accuracy on the labelled --data rows");
        }
        // dpot-da takes its settings from the release; the target's own refinement is the only --param it reads, with
        // encoder (how a --text-column is encoded: the release's own, else refused)
        String encoder = params.remove(DataSpecs.ENCODER_PARAM);
        org.privadapt.methods.core.MethodParameters.check("target adapt --method dpot-da",
                org.privadapt.methods.core.TargetRefinements.PARAMETERS, params);
        org.privadapt.methods.dpot.DpotRelease rel = org.privadapt.methods.dpot.DpotRelease.fromArtifact(art, releaseFile.toString());
        data.useTextEncoder(encoder, !json);
        Dataset rows = TargetCommand.prepare(data, dataRef, DataSpecs.Role.EVALUATION, rel.preprocessing(), "target");
        org.privadapt.cli.TextEncoderRecords.require(art, org.privadapt.data.text.TextEncoding.identity(rows), "release",
                releaseFile.toString());
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
        if (verify.fingerprint() != null) {
            summary.put("release_verified_by", verify.fingerprint());
        }
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
            String refineLine = org.privadapt.cli.Runs.refineLine(refineChoice);
            if (refineLine != null) {
                w.println("refine:      " + refineLine);
            }
            w.printf(Locale.ROOT, "source:      %s%n", rel.privacy().path("guarantee").asText());
            if (!releasePrivate) {
                w.println("warning:     the release was made with seeded noise: NOT differentially private");
            }
            if (verify.verified() != null) {
                w.println("release:     " + verify.verified());
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
        // --param encoder: how the target's rows are encoded; the release refuses another encoder than its own
        String encoder = params.remove(DataSpecs.ENCODER_PARAM);
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
        data.useTextEncoder(encoder, !json);
        Dataset rows = TargetCommand.prepare(data, dataRef, DataSpecs.Role.TARGET, rel.preprocessing(), "target");
        rel.requireEncoder(org.privadapt.data.text.TextEncoding.identity(rows), releaseFile.toString());
        checkDimension(rows, rel);
        Dataset eval;
        if (evalRef != null) {
            eval = TargetCommand.prepare(data, evalRef, DataSpecs.Role.EVALUATION, rel.preprocessing(), "target");
        } else if (data.registry().isRef(dataRef) && dataRef.indexOf(':') < 0) {
            eval = TargetCommand.prepare(data, dataRef, DataSpecs.Role.EVALUATION, rel.preprocessing(), "target");
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
        if (verify.fingerprint() != null) {
            summary.put("release_verified_by", verify.fingerprint());
        }
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
            if (verify.verified() != null) {
                w.println("release:     " + verify.verified());
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
