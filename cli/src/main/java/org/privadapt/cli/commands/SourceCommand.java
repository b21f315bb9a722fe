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
import org.privadapt.methods.prima.Prima;
import org.privadapt.methods.prima.SourceModel;
import org.privadapt.methods.prima.TargetRelease;
import org.privadapt.privacy.PrivacySession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code privadapt source ...}: the source institution's own steps of the two-party flow. */
@Command(name = "source", mixinStandardHelpOptions = true,
        description = {"The source institution's steps of the two-party flow, run on its own machine with its own data "
            + "(train: PRIMA/PRISA's DP model from the target's release; release: DPOT's DP release of its rows, or dp-uda-gmm's DP model and feature mixture for paper 004)."},
        subcommands = {SourceCommand.Train.class, SourceReleaseCommand.class})
public final class SourceCommand implements java.util.concurrent.Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        // a command group without a subcommand is a usage error: the usage goes to standard error, exit 2
        spec.commandLine().usage(spec.commandLine().getErr());
        return org.privadapt.cli.ExitCodes.USAGE;
    }

    /** {@code privadapt source train}. */
    @Command(name = "train", mixinStandardHelpOptions = true,
            description = {"Source: read its labelled rows and the target's release, spend from its ledger (its own DP "
                    + "subspace moments, then the private learner: learner=auto by default, dp-sgd, dp-gd, ncm, lda, output-perturbation, objective-perturbation, adassp), write the model artifact for the target.",
                "Example: privadapt source train --data office-caltech10/caltech --release release.json --classifier lr "
                    + "--epsilon 2 --delta 1e-5 --ledger source.ledger --out model.json"})
    public static final class Train implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--data", required = true, paramLabel = "FILE", description = "The source's labelled rows (a file or suite/domain).")
        String dataRef;

        @Option(names = "--release", required = true, paramLabel = "FILE", description = "The target's release artifact.")
        Path releaseFile;

        @Option(names = "--out", required = true, paramLabel = "FILE", description = "Where to write the model artifact (atomically).")
        Path out;

        @Option(names = "--classifier", defaultValue = "lr", paramLabel = "lr|dnn",
                description = "Network of the gradient learners (dp-sgd, dp-gd): lr (multinomial logistic regression) or dnn (default: ${DEFAULT-VALUE}).")
        String classifier;

        @Option(names = "--param", paramLabel = "NAME=VALUE", description = "Learner parameter (learner, learner-row-bound, learner-lambda, lda-shrinkage, epochs, batch, lr, clip, ...; docs/privacy/private-learners.md), repeatable.")
        Map<String, String> params = new LinkedHashMap<>();

        @Option(names = "--classes", split = ",", paramLabel = "NAME",
                description = "The class set, in this order, declared public (never read from the rows): a row whose label is "
                        + "not among them is refused before anything is charged. Required with --engine spark; in process it "
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

        @Mixin
        KeyOptions.Verify verify;

        /** The public facts: the declared ones, and the class set when {@code --classes} gives it. */
        private org.privadapt.data.PublicFacts declared() {
            return declared(party, classes);
        }

        static org.privadapt.data.PublicFacts declared(PartyOptions party, java.util.List<String> classes) {
            org.privadapt.data.PublicFacts d = party.declared();
            return classes.isEmpty() ? d : d.declaring(new org.privadapt.data.PublicFacts(null, "declared by the user (--classes)", null, false));
        }

        /** {@code --classes}: no empty or repeated class; required with --engine spark, with the label column. */
        static void checkClasses(java.util.List<String> classes, boolean onSpark, DataSpecs data) {
            if (classes.stream().anyMatch(String::isBlank) || classes.stream().distinct().count() != classes.size()) {
                throw new UsageException("--classes: empty or repeated class in " + classes);
            }
            if (onSpark && classes.isEmpty()) {
                throw new UsageException("--engine spark: name the class set (--classes a,b,c): it is public and never read from the rows");
            }
            if (onSpark && data.labelColumn() == null) {
                throw new UsageException("--engine spark: name the label column (--label-column COL)");
            }
        }

        /** The rows' labels coded by their position in {@code classes} (unchanged when none are given). */
        static Dataset recoded(Dataset source, java.util.List<String> classes) throws org.privadapt.data.DataException {
            if (classes.isEmpty()) {
                return source;
            }
            try {
                return source.withLabels(source.classLabels().recodeTo(classes), "--classes");
            } catch (IllegalArgumentException e) {
                throw new org.privadapt.data.DataException(source.firstFile(), null, "a row's label is outside --classes: " + e.getMessage());
            }
        }

        @Override
        public Integer call() throws Exception {
            party.validate();
            sign.load(spec.commandLine().getErr());
            verify.load();
            boolean onSpark = engine.spark();
            boolean streamed = engine.stream();
            if (!classifier.equals("lr") && !classifier.equals("dnn")) {
                throw new UsageException("--classifier must be lr or dnn, got '" + classifier + "'");
            }
            checkClasses(classes, onSpark, data);
            if (streamed && classes.isEmpty()) {
                throw new UsageException("--engine stream: name the class set (--classes a,b,c): it is public and never read from the rows");
            }
            PartyOptions.requireWritable(out, "--out");
            org.privadapt.methods.artifacts.Artifact art = verify.check(org.privadapt.cli.InputFiles.artifact(releaseFile,
                    "release", "--release"), releaseFile);
            TargetRelease release = TargetRelease.fromArtifact(art, releaseFile.toString());
            // --param encoder: how a --text-column is encoded; the target's release says which encoder its rows had
            String encoder = params.remove(DataSpecs.ENCODER_PARAM);
            checkParams("source train", org.privadapt.methods.core.PrivateLearners.ALL, params);
            MethodConfig mc = new MethodConfig(classifier, 0.0, 1L, params);
            if (onSpark || streamed) {
                String how = onSpark ? "--engine spark" : "--engine stream";
                org.privadapt.cli.TextEncoderRecords.refuseOutOfProcess(encoder, how);
                org.privadapt.cli.TextEncoderRecords.require(art, org.privadapt.data.text.TextEncoding.Identity.BOW, "release",
                        releaseFile.toString());
                return onSpark ? trainOnSpark(release, mc) : trainStreamed(release, mc);
            }
            data.useTextEncoder(encoder, !json);
            Dataset source = TargetCommand.prepare(data, dataRef, DataSpecs.Role.SOURCE, release.preprocessing(), "source")
                    .withPublicFacts(declared());
            org.privadapt.cli.TextEncoderRecords.require(art, org.privadapt.data.text.TextEncoding.identity(source), "release",
                    releaseFile.toString());
            source = recoded(source, classes);
            org.privadapt.cli.DeltaPolicy.check("source", party.delta(), source.size(), party.allowLargeDelta, spec.commandLine().getErr());
            if (source.dimension() != release.dimension()) {
                throw new org.privadapt.data.DataException(source.firstFile(), null, "has " + source.dimension()
                        + " features; the release " + releaseFile + " is for " + release.dimension());
            }
            if (!(source.labels().orElse(null) instanceof org.privadapt.data.MultiLabels)) {
                source.classLabels(); // class labels, or multi-label targets (one binary model per label, issue 47)
            }
            PrivacySession session = party.session("source");
            SourceModel model;
            try {
                model = Prima.train(source, release, mc, session);
            } catch (IllegalArgumentException e) {
                throw new UsageException(release.method() + ": " + e.getMessage(), e);
            }
            sign.sign(org.privadapt.cli.TextEncoderRecords.record(model.toArtifact(TargetCommand.runId(party)), source)).write(out);
            report(release, model, session, source.size());
            return ExitCodes.OK;
        }

        /**
         * {@code --engine spark}: the same model from labelled rows on Spark ({@code SparkPrimaTrain.train} via the
         * spark-cli module's engine, learner ncm, lda, dp-sgd or dp-gd): the release's preprocessing on the executors, the same checks
         * before the charge (the rows, the labels against {@code --classes}, the learner), the same plan, charge, noise
         * and ledger on this JVM, the same artifact.
         */
        private Integer trainOnSpark(TargetRelease release, MethodConfig mc) throws Exception {
            String dataSpec = org.privadapt.cli.engine.EngineOptions.sparkData(dataRef);
            org.privadapt.cli.engine.RowEngine eng = org.privadapt.cli.engine.EngineOptions.sparkEngine(
                    spec.root().commandLine().getParseResult().originalArgs());
            int d = engine.dimension(eng, dataSpec);
            if (d != release.dimension()) {
                throw new UsageException((engine.featuresColumn() != null ? "--features-column holds " + d + " features"
                        : "--feature-columns names " + d + " columns") + "; the release " + releaseFile + " is for "
                        + release.dimension() + " features");
            }
            // before any row is read: the ledger verified (opening the session), a spent one refused (the plan needs the rows)
            PrivacySession session = party.session("source");
            org.privadapt.cli.LedgerPrecheck.check(session, party.ledgerFile(), null);
            try (org.privadapt.cli.engine.RowEngine.PartyRows rows = eng.open(engine.request(dataSpec, data.labelColumn(), release.preprocessing()))) {
                org.privadapt.cli.DeltaPolicy.check("source", party.delta(), (int) Math.min(Integer.MAX_VALUE, rows.size()),
                        party.allowLargeDelta, spec.commandLine().getErr());
                SourceModel model;
                try {
                    model = rows.sourceModel(release, mc, classes, declared(), session);
                } catch (IllegalArgumentException e) {
                    throw new UsageException(release.method() + ": " + e.getMessage(), e);
                }
                sign.sign(model.toArtifact(TargetCommand.runId(party))).write(out);
                report(release, model, session, rows.size());
            }
            return ExitCodes.OK;
        }

        /**
         * {@code --engine stream}: the same model from a file read in blocks ({@code StreamedPrimaTrain}, learner ncm or
         * lda): every row checked before the charge (the loader's messages), the same plan, charge, noise, ledger and
         * artifact; memory one block and the statistics. Two passes over the file; the second refuses a changed file.
         */
        private Integer trainStreamed(TargetRelease release, MethodConfig mc) throws Exception {
            org.privadapt.data.preprocess.Preprocessing steps = Runs.preprocessing(release.preprocessing());
            if (!steps.dataDependentSteps().isEmpty()) {
                throw new UsageException("the release's preprocessing " + steps.dataDependentSteps() + " is fitted on the rows; "
                        + "--engine stream takes row-local steps only");
            }
            org.privadapt.data.io.RowChunks rows = TargetCommand.openStreamed(data, dataRef, DataSpecs.Role.SOURCE);
            int chunk = engine.chunkRows(rows.dimension());
            PrivacySession session = party.session("source");
            org.privadapt.methods.stream.StreamedPrimaTrain.Trained trained;
            try {
                trained = org.privadapt.methods.stream.StreamedPrimaTrain.train(rows, steps, chunk, release, mc, classes,
                        declared(), session, n -> org.privadapt.cli.DeltaPolicy.check("source", party.delta(),
                                (int) Math.min(Integer.MAX_VALUE, n), party.allowLargeDelta, spec.commandLine().getErr()));
            } catch (IllegalArgumentException e) {
                throw new UsageException(release.method() + ": " + e.getMessage(), e);
            }
            sign.sign(trained.model().toArtifact(TargetCommand.runId(party))).write(out);
            report(release, trained.model(), session, trained.rows());
            return ExitCodes.OK;
        }

        /** The command's summary on standard output (the same for both engines). */
        private void report(TargetRelease release, SourceModel model, PrivacySession session, long rows) {
            PrintWriter w = spec.commandLine().getOut();
            Map<String, Object> summary = new LinkedHashMap<>();
            summary.put("artifact", out.toString());
            summary.put("kind", "model");
            summary.put("method", release.method());
            summary.put("classifier", classifier);
            // the learner that actually ran (learner=auto may pick ncm for --classifier lr): issue 33
            String learner = model.privacy().path("training").path("learner").asText(classifier);
            summary.put("learner", learner);
            summary.put("rows", rows);
            summary.put("classes", model.classNames().size());
            summary.put("epsilon_spent", session.spent().epsilon());
            summary.put("delta", session.spent().delta());
            summary.put("private", session.isPrivate());
            if (sign.fingerprint() != null) {
                summary.put("signed_by", sign.fingerprint());
            }
            if (verify.fingerprint() != null) {
                summary.put("release_verified_by", verify.fingerprint());
            }
            if (json) {
                w.println(Json.write(summary));
            } else {
                w.printf(Locale.ROOT, "model:   %s (%s, learner %s%s, %d source rows, %d %s)%n", out, release.method(), learner,
                        learner.equals(classifier) ? "" : " for --classifier " + classifier, rows, model.classNames().size(),
                        model.multiLabel() ? "labels, one binary model each" : "classes");
                w.printf(Locale.ROOT, "privacy: source spent epsilon %s, delta %s%s%n", org.privadapt.cli.Runs.formatNumber(session.spent().epsilon()),
                        org.privadapt.cli.Runs.formatNumber(session.spent().delta()), session.isPrivate() ? "" : " -- seeded noise: NOT differentially private");
                if (sign.signed() != null) {
                    w.println("signed:  " + sign.signed());
                }
                if (verify.verified() != null) {
                    w.println("release: " + verify.verified());
                }
            }
        }
    }

    static void checkParams(String what, java.util.Set<String> valid, Map<String, String> params) {
        try {
            org.privadapt.methods.core.MethodParameters.check(what, valid, params);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--param: " + e.getMessage(), e);
        }
    }
}
