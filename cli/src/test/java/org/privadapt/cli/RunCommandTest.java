package org.privadapt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.cli.report.Json;
import org.privadapt.data.synthetic.SyntheticShift;
import org.privadapt.math.DenseMatrix;
import us.hebi.matlab.mat.format.Mat5;
import us.hebi.matlab.mat.types.MatFile;
import us.hebi.matlab.mat.types.Matrix;

class RunCommandTest {
    @TempDir
    Path dir;

    /** Writes features (optionally transposed, i.e. d x n) and labels under the given variable names. */
    Path mat(String name, DenseMatrix x, int[] y, String xVar, String yVar, boolean transposed) throws Exception {
        MatFile f = Mat5.newMatFile();
        Matrix m = transposed ? Mat5.newMatrix(x.cols(), x.rows()) : Mat5.newMatrix(x.rows(), x.cols());
        for (int i = 0; i < x.rows(); i++) {
            for (int j = 0; j < x.cols(); j++) {
                if (transposed) {
                    m.setDouble(j, i, x.get(i, j));
                } else {
                    m.setDouble(i, j, x.get(i, j));
                }
            }
        }
        f.addArray(xVar, m);
        if (y != null) {
            Matrix l = Mat5.newMatrix(1, y.length);
            for (int i = 0; i < y.length; i++) {
                l.setDouble(0, i, y[i] + 1);
            }
            f.addArray(yVar, l);
        }
        Path p = dir.resolve(name);
        Mat5.writeToFile(f, p.toFile());
        return p;
    }

    Path[] syntheticPair() throws Exception {
        var p = SyntheticShift.generate(SyntheticShift.Config.demo(), 11);
        Path s = mat("src.mat", p.source().denseFeatures(), p.source().classLabels().codes(), "featuresOfSource", "classes", false);
        Path t = mat("tgt.mat", p.target().denseFeatures(), p.target().classLabels().codes(), "Xt", "yt", true);
        return new Path[] {s, t};
    }

    @Test
    void runsCoralOnMatFilesWithUnusualVariableNamesAndWritesReports() throws Exception {
        Path[] st = syntheticPair();
        Path out = dir.resolve("reports/result.json");
        Path md = dir.resolve("reports/result.md");
        // outputs are checked before anything runs: a missing directory is refused, not created silently
        CliHarness.Result missing = CliHarness.run("run", "--method", "coral", "--source", st[0].toString(), "--target",
                st[1].toString(), "--preprocess", "center", "--out", out.toString());
        assertThat(missing.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(missing.err()).contains("does not exist");
        Files.createDirectories(out.getParent());
        CliHarness.Result r = CliHarness.run("run", "--method", "coral", "--source", st[0].toString(), "--target",
                st[1].toString(), "--preprocess", "center", "--out", out.toString(), "--markdown", md.toString(), "--json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode json = Json.MAPPER.readTree(r.out());
        assertThat(json.get("command").asText()).isEqualTo("run");
        JsonNode res = json.get("results").get(0);
        assertThat(res.get("method").asText()).isEqualTo("coral");
        assertThat(res.get("accuracy_mean").asDouble()).isGreaterThan(0.7);
        assertThat(res.get("privacy").get("source").get("private").asBoolean()).isFalse();
        JsonNode ds = json.get("datasets");
        assertThat(ds.get(0).get("files").get(0).get("sha256").asText()).hasSize(64);
        assertThat(ds.get(0).get("files").get(0).get("detail").asText()).contains("featuresOfSource");
        assertThat(ds.get(1).get("files").get(0).get("detail").asText()).contains("transposed");
        assertThat(Json.MAPPER.readTree(out.toFile()).get("results").get(0).get("accuracy_mean").asDouble())
                .isEqualTo(res.get("accuracy_mean").asDouble());
        assertThat(Files.readString(md)).contains("| task | coral |");
        try (var files = Files.list(out.getParent())) {
            assertThat(files.filter(f -> f.getFileName().toString().endsWith(".tmp"))).isEmpty();
        }
    }

    @Test
    void jsonWithAFileNameWritesTheReportThereAndPrintsText() throws Exception {
        Path[] st = syntheticPair();
        Path file = dir.resolve("r.json");
        CliHarness.Result r = CliHarness.run("run", "--method", "coral", "--source", st[0].toString(), "--target",
                st[1].toString(), "--preprocess", "center", "--json", file.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("accuracy:");
        JsonNode json = Json.MAPPER.readTree(file.toFile());
        assertThat(json.get("results").get(0).get("method").asText()).isEqualTo("coral");
        assertThat(json.get("results").get(0).get("accuracy_mean").asDouble()).isGreaterThan(0.7);
        // a following word that is not a .json file stays where it was: here the suite name of bench
        CliHarness.Result b = CliHarness.run("bench", "--json", "office-caltech10", "--data-root", dir.resolve("none").toString());
        assertThat(b.code()).isEqualTo(ExitCodes.DATA);
        assertThat(b.err()).contains("amazon_SURF_L10.mat: no such file");
    }

    @Test
    void humanOutputAndExplicitVariableNames() throws Exception {
        Path[] st = syntheticPair();
        CliHarness.Result r = CliHarness.run("run", "--method", "source-only", "--source", st[0].toString(), "--target",
                st[1].toString(), "--features-var", "featuresOfSource", "--labels-var", "classes", "--preprocess", "none");
        // --features-var names the source's variable; the target has other names, so it must fail there
        assertThat(r.code()).isEqualTo(ExitCodes.DATA);
        assertThat(r.err()).contains("tgt.mat").contains("no variable 'featuresOfSource'");
        CliHarness.Result ok = CliHarness.run("run", "--method", "source-only", "--source", st[0].toString(), "--target",
                st[1].toString(), "--preprocess", "none");
        assertThat(ok.code()).as(ok.err()).isZero();
        assertThat(ok.out()).contains("accuracy:").contains("source-only").contains("target nothing released");
    }

    /** Runs a failing command with report outputs requested, and checks the one-line error and that nothing was written. */
    void assertDataError(String expectedInMessage, String... args) {
        Path out = dir.resolve("never.json");
        Path md = dir.resolve("never.md");
        String[] all = Arrays.copyOf(args, args.length + 4);
        all[args.length] = "--out";
        all[args.length + 1] = out.toString();
        all[args.length + 2] = "--markdown";
        all[args.length + 3] = md.toString();
        CliHarness.Result r = CliHarness.run(all);
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.DATA);
        assertThat(r.err().strip().lines().count()).as(r.err()).isEqualTo(1);
        assertThat(r.err()).startsWith("privadapt: data error: ").contains(expectedInMessage);
        assertThat(out).doesNotExist();
        assertThat(md).doesNotExist();
        assertThat(r.out()).isEmpty();
    }

    @Test
    void badInputsGiveOneLineDataErrorsAndWriteNothing() throws Exception {
        Path[] st = syntheticPair();
        String src = st[0].toString();
        // missing file
        Path missing = dir.resolve("missing.mat");
        assertDataError(missing + ": no such file", "run", "--method", "coral", "--source", src, "--target", missing.toString());
        // truncated .mat
        byte[] b = Files.readAllBytes(st[1]);
        Path cut = dir.resolve("cut.mat");
        Files.write(cut, Arrays.copyOf(b, b.length / 2));
        assertDataError(cut + ":byte ", "run", "--method", "coral", "--source", src, "--target", cut.toString());
        // CSV with a wrong number of fields
        Path fields = dir.resolve("fields.csv");
        Files.writeString(fields, "a,b,label\n1,2,x\n3,4,y,5\n");
        assertDataError(fields + ":line 3: expected 3 fields", "run", "--method", "coral", "--source", fields.toString(), "--target", fields.toString());
        // CSV with a non-number
        Path word = dir.resolve("word.csv");
        Files.writeString(word, "a,b,label\n1,2,x\n3,four,y\n");
        assertDataError(word + ":line 3, field 2 ('b'): 'four' is not a number", "run", "--method", "coral", "--source", word.toString(),
                "--target", word.toString());
        // NaN and infinity
        Path nan = dir.resolve("nan.csv");
        Files.writeString(nan, "a,b,label\n1,2,x\n3,Infinity,y\n");
        assertDataError(nan + ":line 3, field 2 ('b'): 'Infinity' is not a finite number", "run", "--method", "coral",
                "--source", nan.toString(), "--target", nan.toString());
        // different dimensions in source and target
        Path narrow = dir.resolve("narrow.csv");
        Files.writeString(narrow, "a,b,label\n1,2,x\n3,4,y\n");
        assertDataError(narrow + ": domain 'narrow.csv' has 2 features but domain 'src.mat'", "run", "--method", "coral",
                "--source", src, "--target", narrow.toString());
        // an empty domain
        Path empty = dir.resolve("empty.csv");
        Files.writeString(empty, "a,b,label\n");
        assertDataError(empty + ": domain 'empty.csv' has no examples", "run", "--method", "coral", "--source", narrow.toString(),
                "--target", empty.toString());
        // labels missing where required (an unlabelled source)
        Path unlabelled = dir.resolve("unlabelled.csv");
        Files.writeString(unlabelled, "a,b\n1,2\n3,4\n");
        assertDataError(unlabelled + ": domain 'unlabelled.csv' has no labels", "run", "--method", "coral", "--source",
                unlabelled.toString(), "--label-column", "none", "--target", unlabelled.toString());
    }

    @Test
    void usageErrorsExitWithTwo() throws Exception {
        Path[] st = syntheticPair();
        CliHarness.Result unknown = CliHarness.run("run", "--method", "magic", "--source", st[0].toString(), "--target", st[1].toString());
        assertThat(unknown.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(unknown.err()).contains("unknown method 'magic'").contains("coral");
        CliHarness.Result pre = CliHarness.run("run", "--method", "coral", "--source", st[0].toString(), "--target",
                st[1].toString(), "--preprocess", "whiten");
        assertThat(pre.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(pre.err()).contains("'whiten'");
        CliHarness.Result missingOpt = CliHarness.run("run", "--method", "coral");
        assertThat(missingOpt.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(missingOpt.err()).contains("--source");
        assertThat(CliHarness.run("frobnicate").code()).isEqualTo(ExitCodes.USAGE);
    }

    /** Issue 15.7: a bad method parameter is one line and exit 2, not a stack trace. */
    @Test
    void aNonPositiveRidgeIsAUsageErrorNotAStackTrace() throws Exception {
        Path[] st = syntheticPair();
        for (String method : new String[] {"coral", "prima"}) {
            CliHarness.Result r = CliHarness.run("run", "--method", method, "--source", st[0].toString(), "--target", st[1].toString(),
                    "--preprocess", "l2", "--epsilon", "2", "--param", "lambda=-5");
            assertThat(r.code()).as(method + ": " + r.err()).isEqualTo(ExitCodes.USAGE);
            assertThat(r.err()).contains("lambda must be").contains("-5").doesNotContain("Exception").doesNotContain("\tat ");
            assertThat(r.err().strip().lines().count()).isEqualTo(1);
        }
    }

    /** Issue 15.6: misspelt --param names and bad enum values are usage errors that list what is valid. */
    @Test
    void unknownParametersAndValuesAreUsageErrorsListingTheValidOnes() throws Exception {
        Path[] st = syntheticPair();
        CliHarness.Result typo = CliHarness.run("run", "--method", "coral", "--source", st[0].toString(), "--target", st[1].toString(),
                "--param", "lamda=2");
        assertThat(typo.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(typo.err()).contains("unknown --param 'lamda'").contains("lambda");
        CliHarness.Result epoch = CliHarness.run("run", "--method", "dp-source-only", "--source", st[0].toString(), "--target",
                st[1].toString(), "--preprocess", "l2", "--epsilon", "1", "--param", "epoch=50");
        assertThat(epoch.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(epoch.err()).contains("unknown --param 'epoch'").contains("epochs");
        CliHarness.Result value = CliHarness.run("run", "--method", "prima", "--source", st[0].toString(), "--target", st[1].toString(),
                "--preprocess", "l2", "--epsilon", "1", "--param", "partitioning=foo");
        assertThat(value.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(value.err()).contains("partitioning must be one of [single, random, forward], got 'foo'").doesNotContain("enum");
        CliHarness.Result release = CliHarness.run("target", "release", "--method", "prima", "--data", st[1].toString(), "--epsilon", "1",
                "--out", dir.resolve("r.json").toString(), "--param", "blocksize=4");
        assertThat(release.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(release.err()).contains("unknown --param 'blocksize'").contains("block-size");
        assertThat(dir.resolve("r.json")).doesNotExist();
    }

    /** A three-feature signed table: the default is chosen from the data (zscore), printed, and recorded. */
    @Test
    void defaultPreprocessingIsChosenFromTheDataAndPrinted() throws Exception {
        java.util.SplittableRandom rng = new java.util.SplittableRandom(3);
        StringBuilder src = new StringBuilder("a,b,c,label\n");
        StringBuilder tgt = new StringBuilder("a,b,c,label\n");
        for (int i = 0; i < 300; i++) {
            int y = i % 3;
            double a = rng.nextGaussian() + (y == 0 ? 2 : y == 1 ? -2 : 0);
            double b = 3 * rng.nextGaussian() + (y == 2 ? 5 : 0);
            double c = rng.nextGaussian() - 1;
            src.append(a).append(',').append(b).append(',').append(c).append(',').append(y).append('\n');
            tgt.append(2 * a + 1).append(',').append(b).append(',').append(c + 3).append(',').append(y).append('\n');
        }
        Path s = dir.resolve("s.csv");
        Path t = dir.resolve("t.csv");
        Files.writeString(s, src);
        Files.writeString(t, tgt);
        CliHarness.Result text = CliHarness.run("run", "--method", "source-only", "--source", s.toString(), "--target",
                t.toString(), "--label-column", "label");
        assertThat(text.code()).as(text.err()).isZero();
        assertThat(text.err()).contains("preprocessing zscore (default for tabular columns");
        CliHarness.Result json = CliHarness.run("run", "--method", "source-only", "--source", s.toString(), "--target",
                t.toString(), "--label-column", "label", "--json");
        JsonNode cfg = Json.MAPPER.readTree(json.out()).get("config");
        assertThat(cfg.get("preprocess").asText()).isEqualTo("zscore");
        // --json FILE with a name not ending in .json: written, not "Unmatched argument"
        Path txt = dir.resolve("out.txt");
        CliHarness.Result toFile = CliHarness.run("run", "--method", "source-only", "--source", s.toString(), "--target",
                t.toString(), "--label-column", "label", "--json", txt.toString());
        assertThat(toFile.code()).as(toFile.err()).isZero();
        assertThat(Json.MAPPER.readTree(txt.toFile()).get("command").asText()).isEqualTo("run");
        assertThat(cfg.get("preprocess_default").asText()).contains("tabular");
        // a party read without DP: epsilon null and a flag, not the string "inf"
        JsonNode srcSpend = Json.MAPPER.readTree(json.out()).get("results").get(0).get("privacy").get("source");
        assertThat(srcSpend.get("epsilon").isNull()).isTrue();
        assertThat(srcSpend.get("unprotected").asBoolean()).isTrue();
        assertThat(srcSpend.get("private").asBoolean()).isFalse();
        assertThat(Json.MAPPER.readTree(json.out()).get("results").get(0).get("accuracy_mean").asDouble()).isGreaterThan(0.7);
        CliHarness.Result priv = CliHarness.run("run", "--method", "dp-source-only", "--source", s.toString(), "--target",
                t.toString(), "--label-column", "label", "--epsilon", "2", "--seed", "1", "--source-public", "size,classes",
                "--delta", "1e-4");
        assertThat(priv.code()).as(priv.err()).isZero();
        assertThat(priv.err()).contains("preprocessing l2,scale=1 (default for private methods");
    }

    /** JDA layout (both domains in one file, d x n) with per-role variables; an unlabelled target CSV beside a source. */
    @Test
    void perRoleMatVariablesAndAnUnlabelledTargetCsv() throws Exception {
        var p = SyntheticShift.generate(SyntheticShift.Config.demo(), 11);
        MatFile f = Mat5.newMatFile();
        for (String[] role : new String[][] {{"X_src", "Y_src"}, {"X_tar", "Y_tar"}}) {
            var ds = role[0].equals("X_src") ? p.source() : p.target();
            DenseMatrix x = ds.denseFeatures();
            Matrix m = Mat5.newMatrix(x.cols(), x.rows());
            for (int i = 0; i < x.rows(); i++) {
                for (int j = 0; j < x.cols(); j++) {
                    m.setDouble(j, i, x.get(i, j));
                }
            }
            int[] y = ds.classLabels().codes();
            Matrix l = Mat5.newMatrix(y.length, 1);
            for (int i = 0; i < y.length; i++) {
                l.setDouble(i, 0, y[i] + 1);
            }
            f.addArray(role[0], m).addArray(role[1], l);
        }
        Path both = dir.resolve("both.mat");
        Mat5.writeToFile(f, both.toFile());
        CliHarness.Result ambiguous = CliHarness.run("run", "--method", "coral", "--source", both.toString(), "--target", both.toString());
        assertThat(ambiguous.code()).isEqualTo(ExitCodes.DATA);
        assertThat(ambiguous.err()).contains("--source-features-var");
        CliHarness.Result r = CliHarness.run("run", "--method", "coral", "--source", both.toString(), "--target", both.toString(),
                "--source-features-var", "X_src", "--source-labels-var", "Y_src", "--target-features-var", "X_tar",
                "--target-labels-var", "Y_tar", "--preprocess", "center", "--json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode json = Json.MAPPER.readTree(r.out());
        assertThat(json.get("datasets").get(0).get("files").get(0).get("detail").asText()).contains("X_src").contains("transposed");
        assertThat(json.get("datasets").get(1).get("files").get(0).get("detail").asText()).contains("X_tar");
        assertThat(json.get("results").get(0).get("accuracy_mean").asDouble()).isGreaterThan(0.7);

        // an unlabelled target CSV (no label column) beside a labelled source, evaluated on a labelled copy
        StringBuilder s = new StringBuilder("a,b,label\n");
        StringBuilder t = new StringBuilder("a,b\n");
        StringBuilder e = new StringBuilder("a,b,label\n");
        java.util.SplittableRandom rng = new java.util.SplittableRandom(2);
        for (int i = 0; i < 200; i++) {
            int y = i % 2;
            double a = rng.nextGaussian() + 3 * y;
            double b = rng.nextGaussian();
            s.append(a).append(',').append(b).append(',').append(y).append('\n');
            t.append(a + 1).append(',').append(2 * b).append('\n');
            e.append(a + 1).append(',').append(2 * b).append(',').append(y).append('\n');
        }
        Files.writeString(dir.resolve("s.csv"), s);
        Files.writeString(dir.resolve("t.csv"), t);
        Files.writeString(dir.resolve("e.csv"), e);
        CliHarness.Result u = CliHarness.run("run", "--method", "coral", "--source", dir.resolve("s.csv").toString(),
                "--target", dir.resolve("t.csv").toString(), "--target-eval", dir.resolve("e.csv").toString(),
                "--label-column", "label", "--json");
        assertThat(u.code()).as(u.err()).isZero();
        assertThat(Json.MAPPER.readTree(u.out()).get("results").get(0).get("accuracy_mean").asDouble()).isGreaterThan(0.8);
        // the evaluation rows must be labelled
        CliHarness.Result noEval = CliHarness.run("run", "--method", "coral", "--source", dir.resolve("s.csv").toString(),
                "--target", dir.resolve("t.csv").toString(), "--target-eval", dir.resolve("t.csv").toString(),
                "--label-column", "label");
        assertThat(noEval.code()).isEqualTo(ExitCodes.DATA);
        assertThat(noEval.err()).contains("t.csv");
    }

    /** User mistakes are one line and exit 2 or 3, never an internal error: a sweep of bad inputs. */
    @Test
    void badInputsNeverGiveAStackTrace() throws Exception {
        Path one = dir.resolve("one.csv");
        Files.writeString(one, "a,b,label\n1,2,0\n3,1,0\n");
        Path two = dir.resolve("two.csv");
        Files.writeString(two, "a,b,label\n1,2,0\n3,1,1\n0,1,0\n2,2,1\n");
        String[][] cases = {
            {"run", "--method", "prima", "--source", one.toString(), "--target", one.toString(), "--epsilon", "2",
                "--source-public", "size,classes", "--target-public", "size"},
            {"run", "--method", "coral", "--source", one.toString(), "--target", two.toString()},
            {"run", "--method", "coral", "--source", two.toString(), "--target", two.toString(), "--param", "lambda=abc"},
            {"run", "--method", "sa", "--source", two.toString(), "--target", two.toString(), "--param", "k=0"},
            {"run", "--method", "coral", "--source", two.toString(), "--target", two.toString(), "--preprocess", "scale=x"},
            {"run", "--method", "dp-source-only", "--source", two.toString(), "--target", two.toString(), "--epsilon", "-1"},
            {"run", "--method", "coral", "--source", two.toString(), "--target", two.toString(), "--runs", "0"},
            {"inspect", two.toString()},
            {"privacy", "gaussian", "--epsilon", "2", "--delta", "1e-5", "--sensitivity", "-1"},
        };
        for (String[] c : cases) {
            CliHarness.Result r = CliHarness.run(c);
            assertThat(r.code()).as(String.join(" ", c) + "\n" + r.err()).isIn(ExitCodes.USAGE, ExitCodes.DATA, ExitCodes.ARTIFACT);
            assertThat(r.err()).as(String.join(" ", c)).doesNotContain("\tat ").doesNotContain("internal error");
            assertThat(r.err().strip().lines().filter(l -> l.startsWith("privadapt: ") && !l.contains("warning")
                    && !l.startsWith("privadapt: preprocessing ")).count()).as(r.err()).isEqualTo(1);
        }
    }
}
