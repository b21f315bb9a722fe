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
import org.privadapt.cli.engine.EngineOptions;
import org.privadapt.cli.engine.RowEngine;
import org.privadapt.cli.report.Json;
import org.privadapt.data.Dataset;
import org.privadapt.data.preprocess.Preprocessing;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.prima.Prima;
import org.privadapt.methods.prima.PrimaConfig;
import org.privadapt.methods.prima.PrimaMethod;
import org.privadapt.methods.prima.TargetRelease;
import org.privadapt.privacy.PrivacySession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code privadapt target release}. */
@Command(name = "release", mixinStandardHelpOptions = true,
        description = {"Target: read its rows, spend from its ledger, write the DP release artifact for the source "
                + "(the partition into subspaces and the recovered subspace covariances; nothing else about the rows).",
            "Example: privadapt target release --method prima --data office-caltech10/amazon --preprocess l2,scale=28 "
                + "--epsilon 2 --delta 1e-5 --ledger target.ledger --out release.json",
            "On Spark (docs/spark.md): spark-submit --class org.privadapt.cli.Main " + EngineOptions.SPARK_JAR + " target release "
                + "--engine spark --method prima --data parquet:/lake/target --feature-columns f1,f2,f3 --epsilon 2 "
                + "--ledger target.ledger --out release.json"})
public final class TargetReleaseCommand implements Callable<Integer> {
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

    @Mixin
    KeyOptions.Sign sign;

    /** The artifact as written (signed with --sign-key): its checksum is the one reported. */
    private org.privadapt.methods.artifacts.Artifact written;

    @Override
    public Integer call() throws Exception {
        party.validate();
        sign.load(spec.commandLine().getErr());
        PartyOptions.requireWritable(out, "--out");
        PrimaMethod m = TargetCommand.primaMethod(method);
        // --param encoder: how a --text-column is encoded; recorded in the release for the source's rows to match
        String encoder = params.remove(org.privadapt.cli.DataSpecs.ENCODER_PARAM);
        if (engine.spark()) {
            org.privadapt.cli.TextEncoderRecords.refuseOutOfProcess(encoder, "--engine spark");
            return releaseOnSpark(m);
        }
        if (engine.stream()) {
            org.privadapt.cli.TextEncoderRecords.refuseOutOfProcess(encoder, "--engine stream");
            return releaseStreamed(m);
        }
        data.useTextEncoder(encoder, !json);
        org.privadapt.data.preprocess.DefaultPreprocessing.Choice preDefault = null;
        Dataset raw = null;
        if (preprocess == null) { // one policy with run: the default for private methods, from the public dimension
            raw = TargetCommand.prepare(data, dataRef, DataSpecs.Role.TARGET, "none", "target");
            preDefault = org.privadapt.data.preprocess.DefaultPreprocessing.forPrivate(raw.dimension());
        }
        String pre = Runs.preprocessing(preprocess != null ? preprocess : preDefault.spec()).spec();
        PrimaConfig cfg = config(m, pre);
        Dataset target = (raw != null ? Runs.preprocessing(pre).fitAndApply(raw) : TargetCommand.prepare(data, dataRef, DataSpecs.Role.TARGET, pre, "target"))
                .withoutLabels().withPublicFacts(party.declared());
        org.privadapt.cli.DeltaPolicy.check("target", party.delta(), target.size(), party.allowLargeDelta, spec.commandLine().getErr());
        PrivacySession session = party.session("target");
        TargetRelease r = Prima.release(target, cfg, pre, m.name(), 1L, TargetCommand.runId(party), session);
        textEncoder = org.privadapt.data.text.TextEncoding.identity(target);
        write(r);
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

    /** The encoder of the target's text column (the bag of words, or none, unless --param encoder names one). */
    private org.privadapt.data.text.TextEncoding.Identity textEncoder = org.privadapt.data.text.TextEncoding.Identity.BOW;

    /** Writes the release artifact, signed when --sign-key is given. */
    private void write(TargetRelease r) throws java.io.IOException {
        written = sign.sign(org.privadapt.cli.TextEncoderRecords.record(r.toArtifact(), textEncoder));
        written.write(out);
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
        summary.put("checksum", written.checksum());
        if (sign.fingerprint() != null) {
            summary.put("signed_by", sign.fingerprint());
        }
        if (json) {
            w.println(Json.write(summary));
        } else {
            w.printf(Locale.ROOT, "release:   %s (%s, %d rows x %d features)%n", out, m.name(), rows, dimension);
            w.printf(Locale.ROOT, "subspaces: %d (largest %d features)%n", r.partition().size(), r.partition().largestBlock());
            w.printf(Locale.ROOT, "privacy:   target spent epsilon %s, delta %s%s%n", Runs.formatNumber(session.spent().epsilon()),
                    org.privadapt.cli.Runs.formatNumber(session.spent().delta()), session.isPrivate() ? "" : " -- seeded noise: NOT differentially private");
            if (sign.signed() != null) {
                w.println("signed:    " + sign.signed());
            }
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
        int d = engine.dimension(eng, dataSpec);
        org.privadapt.data.preprocess.DefaultPreprocessing.Choice preDefault = preprocess == null
                ? org.privadapt.data.preprocess.DefaultPreprocessing.forPrivate(d) : null;
        org.privadapt.data.preprocess.Preprocessing steps = Runs.preprocessing(preprocess != null ? preprocess : preDefault.spec());
        if (!steps.dataDependentSteps().isEmpty()) {
            throw new UsageException("preprocessing step(s) " + steps.dataDependentSteps() + " would be fitted on the target"
                    + "'s private rows outside the privacy accounting; use row-local steps (l1, l2, clip=B, scale=K, minmax=LO:HI, none)");
        }
        String pre = steps.spec();
        PrimaConfig cfg = config(m, pre);
        // before any row is read: the ledger verified (opening the session) and the release's plan against its budget
        PrivacySession session = party.session("target");
        org.privadapt.cli.LedgerPrecheck.check(session, party.ledgerFile(), Prima.targetPlan(cfg, m.name(), d, session));
        try (RowEngine.PartyRows rows = eng.open(engine.request(dataSpec, null, pre))) {
            org.privadapt.cli.DeltaPolicy.check("target", party.delta(), (int) Math.min(Integer.MAX_VALUE, rows.size()),
                    party.allowLargeDelta, spec.commandLine().getErr());
            TargetRelease r = rows.targetRelease(cfg, pre, m.name(), TargetCommand.runId(party), session);
            write(r);
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
        org.privadapt.data.io.RowChunks rows = TargetCommand.openStreamed(data, dataRef, DataSpecs.Role.TARGET);
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
        TargetRelease r = Prima.release(noisy, cfg, pre, m.name(), TargetCommand.runId(party), session);
        write(r);
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
