package org.privadapt.cli.commands;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.privadapt.cli.DataSpecs;
import org.privadapt.cli.ExitCodes;
import org.privadapt.cli.PartyOptions;
import org.privadapt.cli.Runs;
import org.privadapt.cli.UsageException;
import org.privadapt.cli.report.Json;
import org.privadapt.data.Dataset;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.privacy.PrivacySession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code privadapt source release --method dpot|dp-uda-gmm}. */
@Command(name = "release", mixinStandardHelpOptions = true,
        description = {"Source: release its labelled rows for DPOT (paper 002): the JL matrix M, the rows X M ordered by label "
                + "plus Gaussian noise, and noisy label counts; spends from its ledger. DP under replace-one neighbours "
                + "(the row count reveals n_s): pass --relation replace.",
            "Or, with --method dp-uda-gmm (paper 004), release a DP-SGD encoder + classifier and a DP-EM Gaussian mixture "
                + "of the encoder's features of its rows (classes or multi-label), charged as one plan; n, the label set "
                + "and the layout must be public; add/remove neighbours.",
            "Example: privadapt source release --method dpot --data office-caltech10/amazon --epsilon 8 --delta 8.7e-4 "
                + "--relation replace --ledger source.ledger --out dpot.json",
            "Example: privadapt source release --method dp-uda-gmm --data iu-chest-xray-uda/findings --epsilon 5 "
                + "--delta 1e-5 --ledger source.ledger --out release.json"})
public final class SourceReleaseCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--method", required = true, paramLabel = "dpot|dp-uda-gmm", description = "The release to make: dpot (paper 002) or dp-uda-gmm (paper 004: DP encoder + classifier + DP mixture of its features; docs/privacy/gmm-uda.md).")
    String method;

    @Option(names = "--data", required = true, paramLabel = "FILE", description = "The source's labelled rows (a file or suite/domain).")
    String dataRef;

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "Where to write the release artifact (atomically).")
    Path out;

    @Option(names = "--preprocess", paramLabel = "STEPS", defaultValue = "l2",
            description = "Row-local preprocessing, which the target must apply too (default: ${DEFAULT-VALUE}).")
    String preprocess;

    @Option(names = "--param", paramLabel = "NAME=VALUE", description = "DPOT parameter (level, dim, clip, noise-ratio, mode, batch, batches, ...; docs/privacy/dpot.md) or dp-uda-gmm source setting (hidden, epochs, batch, lr, clip, components, covariance, em-iterations, feature-clip, em-share, ...), repeatable.")
    Map<String, String> params = new LinkedHashMap<>();

    @Option(names = "--classes", split = ",", paramLabel = "NAME",
            description = "dpot: the class set, in this order, declared public (never read from the rows): a row whose label "
                    + "is not among them is refused before anything is charged. Required with --engine spark; in process it "
                    + "declares the classes public as --public classes does, with the set and its order given.")
    java.util.List<String> classes = java.util.List.of();

    @Option(names = "--json", description = "Print a JSON summary on standard output.")
    boolean json;

    @Mixin
    PartyOptions party;

    @Mixin
    DataSpecs data;

    @Mixin
    org.privadapt.cli.engine.EngineOptions engine;

    @Mixin
    KeyOptions.Sign sign;

    @Override
    public Integer call() throws Exception {
        party.validate();
        sign.load(spec.commandLine().getErr());
        boolean onSpark = engine.spark();
        boolean gmm = method.equals(org.privadapt.methods.gmmuda.SourceReleaseArtifact.METHOD);
        if (engine.stream() || (onSpark && !method.equals("dpot") && !method.equals("dpot-da") && !gmm)) {
            engine.refuseSpark("source release --method " + method);
        }
        if (gmm) {
            if (!classes.isEmpty() && !onSpark) {
                throw new UsageException("--classes applies to --method dpot (dp-uda-gmm's class set is declared with --public classes)");
            }
            return releaseGmm();
        }
        if (!method.equals("dpot") && !method.equals("dpot-da")) {
            throw new UsageException("--method: the source releases for dpot or dp-uda-gmm, got '" + method + "'");
        }
        SourceCommand.Train.checkClasses(classes, onSpark, data);
        PartyOptions.requireWritable(out, "--out");
        // --param encoder: how a --text-column is encoded; recorded in the release for the target's rows to match
        String encoder = params.remove(DataSpecs.ENCODER_PARAM);
        org.privadapt.data.text.TextEncoding.Identity textEncoder = org.privadapt.data.text.TextEncoding.Identity.BOW;
        org.privadapt.methods.dpot.DpotConfig cfg;
        try {
            org.privadapt.methods.core.MethodParameters.check("source release --method dpot",
                    org.privadapt.methods.dpot.DpotConfig.PARAMETERS, params);
            cfg = org.privadapt.methods.dpot.DpotConfig.from(new MethodConfig("lr", 1e-3, 1L, params));
        } catch (IllegalArgumentException e) {
            throw new UsageException("--param: " + e.getMessage(), e);
        }
        org.privadapt.methods.dpot.DpotRelease r;
        PrivacySession session;
        if (onSpark) {
            org.privadapt.cli.TextEncoderRecords.refuseOutOfProcess(encoder, "--engine spark");
            String pre = Runs.preprocessing(preprocess).spec();
            try (org.privadapt.cli.engine.RowEngine.PartyRows rows = openOnSpark(pre)) {
                session = party.session("source");
                try {
                    r = rows.dpotRelease(classes, cfg, session, TargetCommand.runId(party), pre);
                } catch (IllegalArgumentException e) {
                    throw new UsageException("dpot: " + e.getMessage(), e);
                }
            }
        } else {
            data.useTextEncoder(encoder, !json);
            Dataset source = TargetCommand.prepare(data, dataRef, DataSpecs.Role.SOURCE, preprocess, "source")
                    .withPublicFacts(SourceCommand.Train.declared(party, classes));
            textEncoder = org.privadapt.data.text.TextEncoding.identity(source);
            source = SourceCommand.Train.recoded(source, classes);
            org.privadapt.cli.DeltaPolicy.check("source", party.delta(), source.size(), party.allowLargeDelta, spec.commandLine().getErr());
            org.privadapt.data.ClassLabels y = source.classLabels();
            session = party.session("source");
            try {
                org.privadapt.methods.dpot.Dpot.requirePublicFacts(source, session);
                r = org.privadapt.methods.dpot.Dpot.release(source.features(), y.codes(), y.names(), cfg, session,
                        TargetCommand.runId(party), Runs.preprocessing(preprocess).spec());
            } catch (IllegalArgumentException e) {
                throw new UsageException("dpot: " + e.getMessage(), e);
            }
        }
        sign.sign(org.privadapt.cli.TextEncoderRecords.record(r.toArtifact(), textEncoder)).write(out);
        PrintWriter w = spec.commandLine().getOut();
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("artifact", out.toString());
        summary.put("kind", "release");
        summary.put("method", "dpot");
        summary.put("rows", r.releasedRows());
        summary.put("batches", r.batches().size());
        summary.put("projection", r.inputDim() + "x" + r.outputDim());
        summary.put("level", r.privacy().path("level").asText());
        summary.put("row_noise_std", r.rowNoiseStd());
        summary.put("epsilon_spent", session.spent().epsilon());
        summary.put("delta", session.spent().delta());
        summary.put("private", session.isPrivate());
        if (sign.fingerprint() != null) {
            summary.put("signed_by", sign.fingerprint());
        }
        double nts = r.privacy().path("class_mean_noise_to_signal").asDouble(Double.NaN);
        String noiseWarning = null;
        if (Double.isFinite(nts)) {
            summary.put("class_mean_noise_to_signal", nts);
            if (nts > 1) {
                noiseWarning = String.format(Locale.ROOT, "the noise on a class's mean is %.1fx its largest possible "
                        + "signal: at this epsilon and guarantee the target will likely be left at chance level (record "
                        + "level at epsilon 8 on Office-Caltech10: 10 %%); raise epsilon, or read docs/privacy/dpot.md on "
                        + "the weaker attribute-level guarantee (--param level=attribute)", nts);
                summary.put("warning", noiseWarning);
            }
        }
        if (json) {
            w.println(Json.write(summary));
        } else {
            w.printf(Locale.ROOT, "release: %s (dpot, %d rows in %d batch(es), projection %d x %d, %s level)%n", out,
                    r.releasedRows(), r.batches().size(), r.inputDim(), r.outputDim(), r.privacy().path("level").asText());
            if (Double.isFinite(nts)) {
                w.printf(Locale.ROOT, "signal:  noise-to-signal of a class mean %.3g (above 1: little survives)%n", nts);
            }
            if (noiseWarning != null) {
                w.println("warning: " + noiseWarning);
            }
            w.printf(Locale.ROOT, "privacy: source spent epsilon %s, delta %s (%s)%s%n",
                    org.privadapt.cli.Runs.formatNumber(session.spent().epsilon()),
                    org.privadapt.cli.Runs.formatNumber(session.spent().delta()), session.relation().description(),
                    session.isPrivate() ? "" : " -- seeded noise: NOT differentially private");
            if (sign.signed() != null) {
                w.println("signed:  " + sign.signed());
            }
        }
        return ExitCodes.OK;
    }

    /**
     * The source's rows on Spark ({@code --data} with {@code --engine spark}), opened and checked, the delta policy
     * applied to their number (private, used here only), before anything is charged.
     */
    private org.privadapt.cli.engine.RowEngine.PartyRows openOnSpark(String pre) throws org.privadapt.data.DataException,
            org.privadapt.privacy.BudgetExceededException, org.privadapt.privacy.ledger.BudgetLedger.LedgerException {
        org.privadapt.cli.engine.RowEngine eng = org.privadapt.cli.engine.EngineOptions.sparkEngine(
                spec.root().commandLine().getParseResult().originalArgs());
        // before any row is read: the ledger verified (opening a session draws nothing), a spent one refused
        org.privadapt.cli.LedgerPrecheck.check(party.session("source"), party.ledgerFile(), null);
        org.privadapt.cli.engine.RowEngine.PartyRows rows = eng.open(engine.request(org.privadapt.cli.engine.EngineOptions.sparkData(dataRef), data.labelColumn(), pre));
        try {
            org.privadapt.cli.DeltaPolicy.check("source", party.delta(), (int) Math.min(Integer.MAX_VALUE, rows.size()),
                    party.allowLargeDelta, spec.commandLine().getErr());
        } catch (RuntimeException e) {
            rows.close();
            throw e;
        }
        return rows;
    }

    /**
     * Paper 004's source release: DP-SGD encoder + classifier, then DP-EM mixture of its features, charged as one
     * plan to the source's session (and ledger) before any noise is drawn; the artifact is written only after.
     */
    private Integer releaseGmm() throws Exception {
        final String m = org.privadapt.methods.gmmuda.SourceReleaseArtifact.METHOD;
        PartyOptions.requireWritable(out, "--out");
        for (String k : params.keySet()) {
            if (org.privadapt.methods.gmmuda.SourceReleaseArtifact.TARGET_PARAMETERS.contains(k)) {
                throw new UsageException("--param " + k + ": a setting of the target's adaptation; give it to 'target adapt "
                        + "--method " + m + " --param " + k + "=...'");
            }
        }
        SourceCommand.checkParams("source release --method " + m, org.privadapt.methods.gmmuda.SourceReleaseArtifact.SOURCE_PARAMETERS, params);
        org.privadapt.methods.gmmuda.GmmUdaConfig cfg;
        try {
            cfg = org.privadapt.methods.gmmuda.GmmUdaConfig.from(new MethodConfig("lr", 0.0, 1L, params));
        } catch (IllegalArgumentException e) {
            throw new UsageException("--param: " + e.getMessage(), e);
        }
        String pre = Runs.preprocessing(preprocess).spec();
        org.privadapt.data.text.TextEncoding.Identity textEncoder = org.privadapt.data.text.TextEncoding.Identity.BOW;
        if (engine.spark() && params.containsKey(DataSpecs.ENCODER_PARAM)
                && !org.privadapt.data.text.TextEncoders.BOW.equals(org.privadapt.data.text.TextEncoders.normalise(params.get(DataSpecs.ENCODER_PARAM)))) {
            throw new UsageException("--param encoder: the text encoders run in process; with --engine spark the release "
                    + "reads the named feature columns as they are");
        }
        PrivacySession session;
        org.privadapt.methods.gmmuda.SourceRelease r;
        boolean multi;
        java.util.List<String> names;
        long rows;
        int dimension;
        if (engine.spark()) {
            // the class set given (--classes, public) and n declared public: what requireForDpSgdModel asks in process;
            // the layout is the named columns (given, public)
            SourceCommand.Train.checkClasses(classes, true, data);
            if (!party.declared().sizePublic()) {
                throw new UsageException(m + ": the source's DP-SGD encoder and classifier reveal n (its sampling rate): declare "
                        + "it public with --public size");
            }
            try (org.privadapt.cli.engine.RowEngine.PartyRows onSpark = openOnSpark(pre)) {
                session = party.session("source");
                try {
                    r = onSpark.gmmUdaRelease(classes, cfg, session);
                } catch (IllegalArgumentException e) {
                    throw new UsageException(e.getMessage().startsWith(m) ? e.getMessage() : m + ": " + e.getMessage(), e);
                }
                rows = onSpark.size();
                dimension = onSpark.dimension();
            }
            multi = false;
            names = java.util.List.copyOf(classes);
        } else {
            data.useTextEncoder(params.get(DataSpecs.ENCODER_PARAM), !json);
            Dataset source = TargetCommand.prepare(data, dataRef, DataSpecs.Role.SOURCE, pre, "source").withPublicFacts(party.declared());
            textEncoder = org.privadapt.data.text.TextEncoding.identity(source);
            org.privadapt.cli.DeltaPolicy.check("source", party.delta(), source.size(), party.allowLargeDelta, spec.commandLine().getErr());
            org.privadapt.data.Labels y = source.labels().orElseThrow(() -> new org.privadapt.data.DataException(source.firstFile(), null,
                    "has no labels; the source's encoder and classifier need labelled rows"));
            multi = y instanceof org.privadapt.data.MultiLabels;
            names = multi ? ((org.privadapt.data.MultiLabels) y).names() : source.classLabels().names();
            session = party.session("source");
            try {
                org.privadapt.methods.core.Disclosures.requireForDpSgdModel(source, session, m + ": the source's DP-SGD encoder and classifier");
                r = org.privadapt.methods.gmmuda.SourceRelease.trainPrivate(org.privadapt.methods.gmmuda.GmmUdaMethod.rows(source.features(), cfg.rowNorm(true)),
                        multi ? y : source.classLabels(), cfg, session);
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage().startsWith(m) ? e.getMessage() : m + ": " + e.getMessage(), e);
            }
            rows = source.size();
            dimension = source.dimension();
        }
        org.privadapt.methods.gmmuda.SourceReleaseArtifact a = org.privadapt.methods.gmmuda.SourceReleaseArtifact.of(r, names, multi,
                dimension, pre, textEncoder, params, 1L, session, TargetCommand.runId(party));
        org.privadapt.methods.artifacts.Artifact written = sign.sign(a.toArtifact());
        written.write(out);
        PrintWriter w = spec.commandLine().getOut();
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("artifact", out.toString());
        summary.put("kind", "release");
        summary.put("method", m);
        summary.put("rows", rows);
        summary.put("task", multi ? "multi-label" : "classes");
        summary.put("labels", names.size());
        summary.put("input_dim", dimension);
        summary.put("text_encoder", textEncoder.name());
        summary.put("text_encoder_sha256", textEncoder.hash());
        summary.put("components", r.mixture().components());
        summary.put("epsilon_spent", session.spent().epsilon());
        summary.put("delta", session.spent().delta());
        summary.put("relation", session.relation().id());
        summary.put("private", session.isPrivate());
        summary.put("checksum", written.checksum());
        if (sign.fingerprint() != null) {
            summary.put("signed_by", sign.fingerprint());
        }
        if (json) {
            w.println(Json.write(summary));
        } else {
            w.printf(Locale.ROOT, "release: %s (%s, %d source rows x %d features, %d %s; %s; mixture K %d %s)%n", out, m,
                    rows, dimension, names.size(), multi ? "labels (multi-label)" : "classes",
                    r.parameters().get("source_model"), r.mixture().components(),
                    r.mixture().covarianceType().name().toLowerCase(Locale.ROOT));
            if (!textEncoder.equals(org.privadapt.data.text.TextEncoding.Identity.BOW)) {
                w.printf(Locale.ROOT, "text encoder: %s (public, frozen; the target must encode its rows with the same)%n",
                        textEncoder.describe());
            }
            w.printf(Locale.ROOT, "privacy: source spent epsilon %s, delta %s (%s)%s%n",
                    org.privadapt.cli.Runs.formatNumber(session.spent().epsilon()),
                    org.privadapt.cli.Runs.formatNumber(session.spent().delta()), session.relation().description(),
                    session.isPrivate() ? "" : " -- seeded noise: NOT differentially private");
            if (sign.signed() != null) {
                w.println("signed:  " + sign.signed());
            }
        }
        return ExitCodes.OK;
    }
}
