package org.privadapt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.cli.report.Json;
import org.privadapt.data.synthetic.SyntheticShift;

/** The two-party flow (target release, source train, target predict) against 'run', and its refusals. */
class TwoPartyCliTest {
    @TempDir
    Path dir;

    Path src;
    Path tgt;

    void data() throws Exception {
        var p = SyntheticShift.generate(new SyntheticShift.Config(5, 3, 200, 150, 4.0, 3.0, 1.0), 3);
        PrivateRunTest h = new PrivateRunTest();
        h.dir = dir;
        src = h.writeCsv("src.csv", p.source());
        tgt = h.writeCsv("tgt.csv", p.target());
    }

    /** The command with its default options, each overridden by {@code extra} (pairs of option and value). */
    static CliHarness.Result command(List<String> command, String[] defaults, String... extra) {
        java.util.LinkedHashMap<String, String> opts = new java.util.LinkedHashMap<>();
        for (int i = 0; i < defaults.length; i += 2) {
            opts.put(defaults[i], defaults[i + 1]);
        }
        for (int i = 0; i < extra.length; i += 2) {
            opts.put(extra[i], extra[i + 1]);
        }
        List<String> a = new ArrayList<>(command);
        opts.forEach((k, v) -> {
            a.add(k);
            a.add(v);
        });
        return CliHarness.run(a.toArray(String[]::new));
    }

    CliHarness.Result release(String... extra) {
        return command(List.of("target", "release"), new String[] {"--method", "prima", "--data", tgt.toString(),
            "--preprocess", "clip=10", "--epsilon", "2", "--ledger", dir.resolve("t.ledger").toString(),
            "--out", dir.resolve("release.json").toString(), "--seed", "21"}, extra);
    }

    CliHarness.Result train(Path release, String... extra) {
        return command(List.of("source", "train"), new String[] {"--data", src.toString(), "--release", release.toString(),
            "--classifier", "lr", "--epsilon", "2", "--public", "size,classes", "--ledger", dir.resolve("s.ledger").toString(),
            "--out", dir.resolve("model.json").toString(), "--seed", "21"}, extra);
    }

    /**
     * Issue 33: an output that is a device or a FIFO is refused before anything is read, spent or written (the rename
     * into place would replace the device node, and opening a FIFO would block until a reader came).
     */
    @Test
    void specialFilesAreRefusedAsOutputsBeforeAnythingIsSpent() throws Exception {
        data();
        Path devNull = Path.of("/dev/null");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(devNull) && !Files.isRegularFile(devNull), "no /dev/null device here");
        CliHarness.Result r = release("--out", devNull.toString());
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--out /dev/null: is not a regular file");
        assertThat(r.err().strip().lines().count()).isEqualTo(1);
        assertThat(Files.exists(dir.resolve("t.ledger"))).isFalse();
        assertThat(Files.isRegularFile(devNull)).isFalse();
        Path fifo = dir.resolve("fifo");
        boolean made;
        try {
            made = new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0;
        } catch (java.io.IOException e) {
            made = false;
        }
        if (made) {
            CliHarness.Result f = release("--out", fifo.toString());
            assertThat(f.code()).isEqualTo(ExitCodes.USAGE);
            assertThat(f.err()).contains("is not a regular file");
            assertThat(Files.isRegularFile(fifo)).isFalse();
            assertThat(Files.exists(dir.resolve("t.ledger"))).isFalse();
        }
    }

    /**
     * Issue 33: target release without --preprocess takes run's default for private methods (it took plain l2) and
     * says so; source train names the learner that ran (learner=auto picks ncm for --classifier lr; it said "lr").
     */
    @Test
    void releaseUsesRunsDefaultPreprocessingAndTrainNamesItsLearner() throws Exception {
        data();
        CliHarness.Result r = CliHarness.run("target", "release", "--method", "prima", "--data", tgt.toString(), "--epsilon", "2",
                "--ledger", dir.resolve("t.ledger").toString(), "--out", dir.resolve("release.json").toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).contains("preprocessing l2,scale=2 (default for private methods"); // d = 5: floor(sqrt 5) = 2
        assertThat(Files.readString(dir.resolve("release.json"))).contains("l2,scale=2");
        CliHarness.Result t = command(List.of("source", "train"), new String[] {"--data", src.toString(), "--release",
                dir.resolve("release.json").toString(), "--classifier", "lr", "--epsilon", "2", "--public", "size,classes",
                "--ledger", dir.resolve("s.ledger").toString(), "--out", dir.resolve("model.json").toString()});
        assertThat(t.code()).as(t.err()).isZero();
        assertThat(t.out()).contains("learner ncm for --classifier lr");
    }

    /** Issue 33: target predict reads unlabelled rows (it exited 3, "no column named label") and reports no accuracy. */
    @Test
    void predictTakesUnlabelledRows() throws Exception {
        data();
        assertThat(release().code()).isZero();
        assertThat(train(dir.resolve("release.json")).code()).isZero();
        List<String> lines = Files.readAllLines(tgt);
        int label = List.of(lines.get(0).split(",")).indexOf("label");
        assertThat(label).isNotNegative();
        List<String> unlabelled = new ArrayList<>();
        for (String l : lines) {
            List<String> cells = new ArrayList<>(List.of(l.split(",", -1)));
            cells.remove(label);
            unlabelled.add(String.join(",", cells));
        }
        Path plain = dir.resolve("unlabelled.csv");
        Files.write(plain, unlabelled);
        CliHarness.Result r = CliHarness.run("target", "predict", "--data", plain.toString(), "--model", dir.resolve("model.json").toString(),
                "--out", dir.resolve("pred-unlabelled.csv").toString(), "--json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode acc = Json.MAPPER.readTree(r.out()).path("accuracy");
        assertThat(acc.isNull() || acc.isMissingNode()).as(r.out()).isTrue();
        assertThat(Files.readAllLines(dir.resolve("pred-unlabelled.csv"))).hasSize(lines.size());
    }

    @Test
    void objectivePerturbationCrossesThePartiesAsABareGuaranteeAndMatchesRun() throws Exception {
        // the model's release is an ApproximateDpEvent: it is charged to the source's ledger, carried in the artifact,
        // read back by the target, and gives the same predictions as run with the same seed
        data();
        assertThat(release().code()).isZero();
        CliHarness.Result tr = train(dir.resolve("release.json"), "--param", "learner=objective-perturbation");
        assertThat(tr.code()).as(tr.err()).isZero();
        assertThat(Files.readString(dir.resolve("model.json"))).contains("approximate_dp");
        assertThat(Files.readString(dir.resolve("s.ledger"))).contains("approximate_dp");
        CliHarness.Result pr = CliHarness.run("target", "predict", "--data", tgt.toString(), "--model",
                dir.resolve("model.json").toString(), "--release", dir.resolve("release.json").toString(),
                "--out", dir.resolve("pred-op.csv").toString(), "--json");
        assertThat(pr.code()).as(pr.err()).isZero();
        CliHarness.Result run = CliHarness.run("run", "--method", "prima", "--source-public", "size,classes", "--source", src.toString(),
                "--target", tgt.toString(), "--preprocess", "clip=10", "--epsilon", "2", "--seed", "21", "--param",
                "learner=objective-perturbation", "--json");
        assertThat(run.code()).as(run.err()).isZero();
        assertThat(Json.MAPPER.readTree(pr.out()).path("accuracy").asDouble())
                .isEqualTo(Json.MAPPER.readTree(run.out()).path("results").get(0).path("accuracy_mean").asDouble());
    }

    @Test
    void threeCommandsGiveTheSameAccuracyAsRunWithTheSameSeed() throws Exception {
        data();
        CliHarness.Result r1 = release();
        assertThat(r1.code()).as(r1.err()).isZero();
        assertThat(r1.out()).contains("NOT differentially private");
        CliHarness.Result r2 = train(dir.resolve("release.json"));
        assertThat(r2.code()).as(r2.err()).isZero();
        CliHarness.Result r3 = CliHarness.run("target", "predict", "--data", tgt.toString(), "--model",
                dir.resolve("model.json").toString(), "--release", dir.resolve("release.json").toString(),
                "--out", dir.resolve("pred.csv").toString(), "--json");
        assertThat(r3.code()).as(r3.err()).isZero();
        double twoParty = Json.MAPPER.readTree(r3.out()).path("accuracy").asDouble();
        List<String> lines = Files.readAllLines(dir.resolve("pred.csv"));
        assertThat(lines).hasSize(451).first().isEqualTo("row,prediction");

        CliHarness.Result run = CliHarness.run("run", "--method", "prima", "--source-public", "size,classes", "--source", src.toString(), "--target", tgt.toString(),
                "--preprocess", "clip=10", "--epsilon", "2", "--seed", "21", "--json");
        assertThat(run.code()).as(run.err()).isZero();
        JsonNode res = Json.MAPPER.readTree(run.out()).path("results").get(0);
        assertThat(twoParty).isGreaterThan(0.5).isEqualTo(res.path("accuracy_mean").asDouble());

        // the target's own refinement at predict time equals run's refine option; it spends nothing
        byte[] targetLedger = Files.readAllBytes(dir.resolve("t.ledger"));
        CliHarness.Result refined = CliHarness.run("target", "predict", "--data", tgt.toString(), "--model",
                dir.resolve("model.json").toString(), "--refine", "centroids", "--out", dir.resolve("pred-refined.csv").toString(), "--json");
        assertThat(refined.code()).as(refined.err()).isZero();
        assertThat(Json.MAPPER.readTree(refined.out()).path("refine").asText()).isEqualTo("centroids");
        CliHarness.Result runRefined = CliHarness.run("run", "--method", "prima", "--source-public", "size,classes", "--source", src.toString(),
                "--target", tgt.toString(), "--preprocess", "clip=10", "--epsilon", "2", "--seed", "21", "--param", "refine=centroids", "--json");
        assertThat(runRefined.code()).as(runRefined.err()).isZero();
        assertThat(Json.MAPPER.readTree(refined.out()).path("accuracy").asDouble())
                .isEqualTo(Json.MAPPER.readTree(runRefined.out()).path("results").get(0).path("accuracy_mean").asDouble());
        assertThat(Files.readAllBytes(dir.resolve("t.ledger"))).isEqualTo(targetLedger);
        // the anchored prototype refinement too (the one of issue 44's that needs predicted classes only)
        CliHarness.Result anchored = CliHarness.run("target", "predict", "--data", tgt.toString(), "--model",
                dir.resolve("model.json").toString(), "--refine", "map-prototypes", "--out", dir.resolve("pred-anchored.csv").toString(), "--json");
        assertThat(anchored.code()).as(anchored.err()).isZero();
        CliHarness.Result runAnchored = CliHarness.run("run", "--method", "prima", "--source-public", "size,classes", "--source", src.toString(),
                "--target", tgt.toString(), "--preprocess", "clip=10", "--epsilon", "2", "--seed", "21", "--param", "refine=map-prototypes", "--json");
        assertThat(runAnchored.code()).as(runAnchored.err()).isZero();
        assertThat(Json.MAPPER.readTree(anchored.out()).path("accuracy").asDouble())
                .isEqualTo(Json.MAPPER.readTree(runAnchored.out()).path("results").get(0).path("accuracy_mean").asDouble());
        assertThat(Files.readAllBytes(dir.resolve("t.ledger"))).isEqualTo(targetLedger);
        assertThat(CliHarness.run("target", "predict", "--data", tgt.toString(), "--model", dir.resolve("model.json").toString(),
                "--refine", "lame", "--out", dir.resolve("bad.csv").toString()).code()).isEqualTo(ExitCodes.USAGE);
        assertThat(CliHarness.run("target", "predict", "--data", tgt.toString(), "--model", dir.resolve("model.json").toString(),
                "--refine", "kmeans", "--out", dir.resolve("bad.csv").toString()).code()).isEqualTo(ExitCodes.USAGE);
        assertThat(dir.resolve("bad.csv")).doesNotExist();

        // both ledgers hold exactly one step each, within their budgets
        CliHarness.Result tl = CliHarness.run("privacy", "ledger", dir.resolve("t.ledger").toString(), "--json");
        assertThat(tl.code()).as(tl.err()).isZero();
        assertThat(tl.out()).contains("prima target");
        CliHarness.Result sl = CliHarness.run("privacy", "ledger", dir.resolve("s.ledger").toString(), "--json");
        assertThat(sl.out()).contains("prima source");
    }

    @Test
    void badArtifactsAreRefusedWithExitFiveAndNothingWrittenOrSpent() throws Exception {
        data();
        assertThat(release().code()).isZero();
        Path rel = dir.resolve("release.json");
        ObjectMapper json = new ObjectMapper();

        // tampered
        ObjectNode doc = (ObjectNode) json.readTree(rel.toFile());
        doc.with("payload").put("preprocessing", "none");
        Path tampered = dir.resolve("tampered.json");
        json.writeValue(tampered.toFile(), doc);
        CliHarness.Result r = train(tampered);
        assertThat(r.code()).isEqualTo(ExitCodes.ARTIFACT);
        assertThat(r.err()).contains("tampered.json").contains("checksum");
        assertThat(dir.resolve("model.json")).doesNotExist();
        assertThat(dir.resolve("s.ledger")).doesNotExist();

        // truncated: the message gives the position and says the file ends early
        byte[] whole = Files.readAllBytes(rel);
        Path cut = dir.resolve("cut.json");
        Files.write(cut, java.util.Arrays.copyOf(whole, whole.length / 2));
        CliHarness.Result t = train(cut);
        assertThat(t.code()).isEqualTo(ExitCodes.ARTIFACT);
        assertThat(t.err()).contains("cut.json: line ").contains("column").contains("truncated");
        assertThat(t.err().strip().lines().count()).isEqualTo(1);
        assertThat(dir.resolve("s.ledger")).doesNotExist();

        // unknown version
        ObjectNode v9 = (ObjectNode) json.readTree(rel.toFile());
        v9.put("version", 9);
        Path future = dir.resolve("future.json");
        json.writeValue(future.toFile(), v9);
        assertThat(train(future).err()).contains("version 9 is not supported");

        // a model passed where a release is expected
        assertThat(train(rel).code()).isZero();
        byte[] model = Files.readAllBytes(dir.resolve("model.json"));
        byte[] ledger = Files.readAllBytes(dir.resolve("s.ledger"));
        CliHarness.Result wrongKind = train(dir.resolve("model.json"), "--out", dir.resolve("model2.json").toString());
        assertThat(wrongKind.code()).isEqualTo(ExitCodes.ARTIFACT);
        assertThat(wrongKind.err()).contains("expected a 'release'");
        assertThat(Files.readAllBytes(dir.resolve("s.ledger"))).isEqualTo(ledger);

        // wrong dimension: a source with 4 features
        Path narrow = dir.resolve("narrow.csv");
        List<String> rows = new ArrayList<>();
        for (String line : Files.readAllLines(src)) {
            int first = line.indexOf(',');
            rows.add(line.substring(first + 1));
        }
        Files.write(narrow, rows);
        CliHarness.Result dim = CliHarness.run("source", "train", "--data", narrow.toString(), "--release", rel.toString(),
                "--epsilon", "2", "--ledger", dir.resolve("s.ledger").toString(), "--out", dir.resolve("model3.json").toString());
        // the artifact is valid, the data do not fit it: a data error (exit 3), as a dimension mismatch in run
        assertThat(dim.code()).isEqualTo(ExitCodes.DATA);
        assertThat(dim.err()).contains("narrow.csv").contains("has 4 features").contains("is for 5");
        assertThat(Files.readAllBytes(dir.resolve("s.ledger"))).isEqualTo(ledger);
        assertThat(dir.resolve("model3.json")).doesNotExist();

        // a model trained on another release: predict --release notices
        Path otherRelease = dir.resolve("other.json");
        assertThat(release("--out", otherRelease.toString(), "--ledger", dir.resolve("t2.ledger").toString(), "--seed", "22").code()).isZero();
        CliHarness.Result mismatch = CliHarness.run("target", "predict", "--data", tgt.toString(), "--model",
                dir.resolve("model.json").toString(), "--release", otherRelease.toString(), "--out", dir.resolve("p.csv").toString());
        assertThat(mismatch.code()).isEqualTo(ExitCodes.ARTIFACT);
        assertThat(mismatch.err()).contains("another release");
        assertThat(dir.resolve("p.csv")).doesNotExist();
        assertThat(Files.readAllBytes(dir.resolve("model.json"))).isEqualTo(model);
    }

    @Test
    void budgetsAndParametersAreCheckedBeforeAnythingIsSpentOrWritten() throws Exception {
        data();
        Path out = dir.resolve("release.json");
        CliHarness.Result small = release("--budget", "1");
        assertThat(small.code()).isEqualTo(ExitCodes.BUDGET);
        assertThat(out).doesNotExist();
        // a new ledger is written by its first charge: the refused release left none (issue 33)
        assertThat(dir.resolve("t.ledger")).doesNotExist();
        assertThat(release("--epsilon", "0").code()).isEqualTo(ExitCodes.USAGE);
        assertThat(release("--epsilon", "-1").code()).isEqualTo(ExitCodes.USAGE);
        assertThat(release("--delta", "1").code()).isEqualTo(ExitCodes.USAGE);
        assertThat(release("--delta", "0").code()).isEqualTo(ExitCodes.USAGE);
        CliHarness.Result notPrima = release("--method", "coral");
        assertThat(notPrima.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(notPrima.err()).contains("two-party flow supports prima");
        CliHarness.Result fitted = release("--preprocess", "zscore");
        assertThat(fitted.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(fitted.err()).contains("zscore");
        CliHarness.Result noDir = release("--out", dir.resolve("missing/release.json").toString());
        assertThat(noDir.code()).isEqualTo(ExitCodes.USAGE);
        Files.writeString(dir.resolve("nan.csv"), "f1,f2,f3,f4,f5,label\n1,2,3,4,5,a\n1,NaN,3,4,5,b\n");
        CliHarness.Result nan = release("--data", dir.resolve("nan.csv").toString());
        assertThat(nan.code()).isEqualTo(ExitCodes.DATA);
        assertThat(nan.err()).contains("nan.csv");
        assertThat(dir.resolve("t.ledger")).doesNotExist();
        assertThat(out).doesNotExist();
        CliHarness.Result missingModel = CliHarness.run("target", "predict", "--data", tgt.toString(), "--model",
                dir.resolve("nope.json").toString(), "--out", dir.resolve("p.csv").toString());
        assertThat(missingModel.code()).isEqualTo(ExitCodes.DATA); // a missing file is a data error (issue 46)
        assertThat(missingModel.err()).contains("nope.json").contains("no such file (--model)");
    }

    @Test
    void runTakesOneEpsilonOnlyBenchTakesAList() throws Exception {
        data();
        CliHarness.Result r = CliHarness.run("run", "--method", "prima", "--source-public", "size,classes", "--source", src.toString(), "--target", tgt.toString(),
                "--preprocess", "clip=10", "--epsilon", "1,2");
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("one value");
    }

    /** Issue 15.5: an existing ledger is reused without restating its budget (its stored budget applies). */
    @Test
    void anExistingLedgerIsReusedWithoutRepeatingTheBudget() throws Exception {
        data();
        CliHarness.Result first = release("--budget", "5");
        assertThat(first.code()).as(first.err()).isZero();
        // the same ledger again, without --budget (the step's epsilon 2 differs from the stored 5): was exit 5
        Files.delete(dir.resolve("release.json"));
        CliHarness.Result again = release();
        assertThat(again.code()).as(again.err()).isZero();
        assertThat(org.privadapt.privacy.ledger.BudgetLedger.open(dir.resolve("t.ledger")).read().budget().epsilon()).isEqualTo(5.0);
        // a different explicit budget is still refused, and another party's ledger too
        assertThat(release("--budget", "7").code()).isEqualTo(ExitCodes.ARTIFACT);
        CliHarness.Result other = train(dir.resolve("release.json"), "--ledger", dir.resolve("t.ledger").toString());
        assertThat(other.code()).isEqualTo(ExitCodes.ARTIFACT);
        assertThat(other.err()).contains("party 'target'");
    }
}
