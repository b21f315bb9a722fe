package org.privadapt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.privadapt.data.synthetic.SyntheticShift;

/**
 * Issue 33: a table of over 100 hostile inputs, each refused with one line on standard error, its distinct exit code
 * (2 usage, 3 data, 4 budget, 5 artifact or ledger, 6 engine; never 0 or 1), nothing written and nothing spent: every
 * file in the working directory keeps its bytes and no file appears (ledgers, outputs, lock files, temporaries).
 */
class HostileInputsTest {
    @TempDir
    static Path dir;

    private static final Map<String, String> files = new TreeMap<>();

    static final int USAGE = ExitCodes.USAGE;
    static final int DATA = ExitCodes.DATA;
    static final int BUDGET = ExitCodes.BUDGET;
    static final int ARTIFACT = ExitCodes.ARTIFACT;
    static final int ENGINE = ExitCodes.ENGINE;

    @BeforeAll
    static void files() throws Exception {
        PrivateRunTest h = new PrivateRunTest();
        h.dir = dir;
        var p = SyntheticShift.generate(new SyntheticShift.Config(4, 2, 60, 60, 3.0, 2.0, 1.0), 5);
        put("SRC", h.writeCsv("src.csv", p.source()));
        put("TGT", h.writeCsv("tgt.csv", p.target()));
        String header = Files.readAllLines(dir.resolve("src.csv")).get(0);
        String row = Files.readAllLines(dir.resolve("src.csv")).get(1);
        put("EMPTY", write("empty.csv", ""));
        put("HEADER", write("header.csv", header + "\n"));
        put("NAN", write("nan.csv", header + "\n" + row + "\n" + row.replaceFirst("^[^,]*", "NaN") + "\n"));
        put("TEXT", write("text.csv", header + "\n" + row + "\n" + row.replaceFirst("^[^,]*", "abc") + "\n"));
        put("RAGGED", write("ragged.csv", header + "\n" + row + "\n" + row.substring(row.indexOf(',') + 1) + "\n"));
        put("WIDE", write("wide.csv", "f0," + header + "\n" + "1," + row + "\n" + "2," + row + "\n"));
        put("NOLABEL", write("nolabel.csv", header.replace("label", "klass") + "\n" + row + "\n"));
        put("INF", write("inf.csv", header + "\n" + row + "\n" + row.replaceFirst("^[^,]*", "Infinity") + "\n"));
        put("BINARY", write("garbage.bin", "\u0000\u0001\u0002PK\u0003\u0004\u00ff\u00fe"));
        // string labels in a column named y (a misspelt --label-column would make it a categorical feature)
        put("STRLABEL", write("strlabel.csv", "f1,f2,f3,f4,y\n" + String.join("\n", List.of("1,2,3,4,cat", "2,3,4,5,dog",
                "3,4,5,6,cat", "4,5,6,7,dog")) + "\n"));
        Files.createDirectory(dir.resolve("adir"));
        put("DIR", dir.resolve("adir"));
        put("NOFILE", dir.resolve("missing.csv"));
        // a real release, model and ledgers, made by the CLI itself
        CliHarness.Result r = CliHarness.run("target", "release", "--method", "prima", "--data", get("TGT"), "--epsilon", "1",
                "--seed", "1", "--ledger", dir.resolve("t.ledger").toString(), "--out",
                dir.resolve("release.json").toString());
        assertThat(r.code()).as(r.err()).isZero();
        put("REL", dir.resolve("release.json"));
        put("TLEDGER", dir.resolve("t.ledger"));
        r = CliHarness.run("source", "train", "--data", get("SRC"), "--release", get("REL"), "--epsilon", "1", "--seed", "2",
                "--param", "learner=ncm", "--public", "classes", "--ledger", dir.resolve("s.ledger").toString(), "--budget", "1", "--out",
                dir.resolve("model.json").toString());
        assertThat(r.code()).as(r.err()).isZero();
        put("MODEL", dir.resolve("model.json"));
        put("SLEDGER", dir.resolve("s.ledger")); // spent: budget 1, all of it charged
        String rel = Files.readString(dir.resolve("release.json"));
        put("TRUNC", write("truncated.json", rel.substring(0, rel.length() / 2)));
        put("TAMPER", write("tampered.json", tamper(rel)));
        put("NOTJSON", write("notjson.json", "this is not json"));
        put("OTHERVERSION", write("otherversion.json", rel.replaceFirst("\"version\" *: *[0-9]+", "\"version\" : 999")));
        put("CORRUPTLEDGER", write("corrupt.ledger", Files.readString(dir.resolve("t.ledger")).replaceFirst("\"epsilon_after\"", "\"epsilon_afterx\"")));
        put("EMPTYLEDGER", write("empty.ledger", ""));
        // issue 46 item 5: each party's keys, a signed release
        for (String k : new String[] {"target", "other"}) {
            r = CliHarness.run("keys", "generate", "--out", dir.resolve(k + ".key").toString());
            assertThat(r.code()).as(r.err()).isZero();
        }
        put("TKEY", dir.resolve("target.key"));
        put("TPUB", dir.resolve("target.pub"));
        put("OPUB", dir.resolve("other.pub"));
        r = CliHarness.run("target", "release", "--method", "prima", "--data", get("TGT"), "--epsilon", "1", "--seed", "1",
                "--ledger", dir.resolve("t2.ledger").toString(), "--out", dir.resolve("signed.json").toString(), "--sign-key", get("TKEY"));
        assertThat(r.code()).as(r.err()).isZero();
        put("SREL", dir.resolve("signed.json"));
        put("NEWKEY", dir.resolve("new.key"));
        put("OUT", dir.resolve("out.json"));
        put("NEWLEDGER", dir.resolve("new.ledger"));
        put("PLOT", dir.resolve("plot.png"));
    }

    private static String tamper(String json) {
        // change one digit inside the base64-free part of a number: the checksum no longer matches
        int i = json.indexOf("\"epsilon\"");
        int j = i + json.substring(i).indexOf(':') + 1;
        while (!Character.isDigit(json.charAt(j))) {
            j++;
        }
        char c = json.charAt(j);
        return json.substring(0, j) + (c == '9' ? '8' : (char) (c + 1)) + json.substring(j + 1);
    }

    private static Path write(String name, String content) throws Exception {
        Path f = dir.resolve(name);
        Files.writeString(f, content, StandardCharsets.ISO_8859_1);
        return f;
    }

    private static void put(String key, Path p) {
        files.put(key, p.toString());
    }

    private static String get(String key) {
        return files.get(key);
    }

    /** One hostile input: the arguments (with {KEY} placeholders) and the exit code it must give. */
    record Case(String why, int code, String... args) {
        @Override
        public String toString() {
            return why;
        }
    }

    static Case c(String why, int code, String... args) {
        return new Case(why, code, args);
    }

    static final String[] RUN = {"run", "--method", "dp-source-only", "--source", "{SRC}", "--target", "{TGT}", "--source-public",
            "size,classes"};

    static String[] run(String... extra) {
        List<String> a = new ArrayList<>(List.of(RUN));
        a.addAll(List.of(extra));
        return a.toArray(String[]::new);
    }

    static final String[] TREL = {"target", "release", "--method", "prima", "--out", "{OUT}",
            "--ledger", "{NEWLEDGER}"};

    static String[] trel(String... extra) {
        List<String> a = new ArrayList<>(List.of(TREL));
        a.addAll(List.of(extra));
        return a.toArray(String[]::new);
    }

    static String[] strain(String... extra) {
        List<String> a = new ArrayList<>(List.of("source", "train", "--out", "{OUT}", "--ledger", "{NEWLEDGER}"));
        a.addAll(List.of(extra));
        return a.toArray(String[]::new);
    }

    static String[] predict(String... extra) {
        List<String> a = new ArrayList<>(List.of("target", "predict", "--out", "{OUT}"));
        a.addAll(List.of(extra));
        return a.toArray(String[]::new);
    }

    static Stream<Case> cases() {
        return Stream.of(
                // --- budgets and privacy parameters (run)
                c("epsilon 0", USAGE, run("--epsilon", "0", "--source-ledger", "{NEWLEDGER}")),
                c("epsilon negative", USAGE, run("--epsilon", "-1")),
                c("epsilon NaN", USAGE, run("--epsilon", "NaN")),
                c("epsilon Infinity", USAGE, run("--epsilon", "Infinity")),
                c("epsilon 1e308", USAGE, run("--epsilon", "1e308")),
                c("epsilon not a number", USAGE, run("--epsilon", "two")),
                c("epsilon empty", USAGE, run("--epsilon", "")),
                c("delta 0", USAGE, run("--epsilon", "1", "--delta", "0")),
                c("delta 1", USAGE, run("--epsilon", "1", "--delta", "1")),
                c("delta negative", USAGE, run("--epsilon", "1", "--delta", "-1e-5")),
                c("delta NaN", USAGE, run("--epsilon", "1", "--delta", "NaN")),
                c("delta at least 1/n", USAGE, run("--epsilon", "1", "--delta", "0.1")),
                c("relation unknown", USAGE, run("--epsilon", "1", "--relation", "swap")),
                c("source budget below the run", BUDGET, run("--epsilon", "2", "--source-ledger", "{NEWLEDGER}", "--source-budget", "1",
                        "--param", "learner=ncm")),
                c("source budget NaN", USAGE, run("--epsilon", "1", "--source-ledger", "{NEWLEDGER}", "--source-budget", "NaN")),
                c("source ledger spent", BUDGET, run("--epsilon", "1", "--source-ledger", "{SLEDGER}", "--param", "learner=ncm")),
                c("source ledger of another party", ARTIFACT, run("--epsilon", "0.1", "--source-ledger", "{TLEDGER}", "--param", "learner=ncm")),
                c("source ledger corrupt", ARTIFACT, run("--epsilon", "0.1", "--source-ledger", "{CORRUPTLEDGER}", "--param", "learner=ncm")),
                c("source ledger empty file", ARTIFACT, run("--epsilon", "0.1", "--source-ledger", "{EMPTYLEDGER}", "--param", "learner=ncm")),
                c("source ledger is a directory", ARTIFACT, run("--epsilon", "0.1", "--source-ledger", "{DIR}", "--param", "learner=ncm")),
                c("public fact unknown", USAGE, run("--epsilon", "1", "--source-public", "everything")),
                // --- methods and parameters (run)
                c("method unknown", USAGE, "run", "--method", "magic", "--source", "{SRC}", "--target", "{TGT}", "--epsilon", "1"),
                c("method misspelt", USAGE, "run", "--method", "dp-sorce-only", "--source", "{SRC}", "--target", "{TGT}", "--epsilon", "1"),
                c("method missing", USAGE, "run", "--source", "{SRC}", "--target", "{TGT}", "--epsilon", "1"),
                c("source missing", USAGE, "run", "--method", "coral", "--target", "{TGT}"),
                c("param unknown", USAGE, run("--epsilon", "1", "--param", "frobnicate=3")),
                c("param without value", USAGE, run("--epsilon", "1", "--param", "learner")),
                c("learner unknown", USAGE, run("--epsilon", "1", "--param", "learner=sgd", "--source-ledger", "{NEWLEDGER}")),
                c("lr NaN", USAGE, run("--epsilon", "1", "--param", "learner=dp-sgd", "--param", "lr=NaN", "--source-ledger", "{NEWLEDGER}")),
                c("lr negative", USAGE, run("--epsilon", "1", "--param", "learner=dp-sgd", "--param", "lr=-1")),
                c("epochs 0", USAGE, run("--epsilon", "1", "--param", "learner=dp-sgd", "--param", "epochs=0")),
                c("epochs negative", USAGE, run("--epsilon", "1", "--param", "learner=dp-sgd", "--param", "epochs=-1")),
                c("epochs not a number", USAGE, run("--epsilon", "1", "--param", "learner=dp-sgd", "--param", "epochs=many")),
                c("batch 0", USAGE, run("--epsilon", "1", "--param", "learner=dp-sgd", "--param", "batch=0")),
                c("clip 0", USAGE, run("--epsilon", "1", "--param", "learner=dp-sgd", "--param", "clip=0")),
                c("clip NaN", USAGE, run("--epsilon", "1", "--param", "learner=dp-sgd", "--param", "clip=NaN")),
                c("weight decay negative", USAGE, run("--epsilon", "1", "--param", "learner=dp-sgd", "--param", "weight-decay=-0.1")),
                c("optimizer unknown", USAGE, run("--epsilon", "1", "--param", "learner=dp-sgd", "--param", "optimizer=sgdd")),
                c("schedule malformed", USAGE, run("--epsilon", "1", "--param", "learner=dp-sgd", "--param", "schedule=step:x")),
                c("refine unknown", USAGE, run("--epsilon", "1", "--param", "refine=magic")),
                c("selection unknown", USAGE, run("--epsilon", "1", "--param", "learner=select", "--param", "selection=best")),
                c("selection validation 1", USAGE, run("--epsilon", "1", "--param", "learner=select", "--param", "selection-validation=1")),
                c("candidates one", USAGE, run("--epsilon", "1", "--param", "learner=select", "--param", "learner-candidates=ncm")),
                c("runs 0", USAGE, run("--epsilon", "1", "--runs", "0")),
                c("runs negative", USAGE, run("--epsilon", "1", "--runs", "-3")),
                c("runs absurd", USAGE, run("--epsilon", "1", "--runs", "1000000000")),
                c("seed not a number", USAGE, run("--epsilon", "1", "--seed", "abc")),
                c("preprocess unknown step", USAGE, run("--epsilon", "1", "--preprocess", "whiten")),
                c("preprocess fitted on the protected source", USAGE, run("--epsilon", "1", "--preprocess", "zscore")),
                c("preprocess scale 0", USAGE, run("--epsilon", "1", "--preprocess", "l2,scale=0")),
                c("classifier unknown", USAGE, run("--epsilon", "1", "--classifier", "svm")),
                c("task unknown", USAGE, run("--epsilon", "1", "--task", "ranking")),
                c("option unknown", USAGE, run("--epsilon", "1", "--epsilonn", "2")),
                c("relation replace for dp-target-only classes is stated", USAGE, "run", "--method", "pcnvxadap", "--source", "{SRC}",
                        "--target", "{TGT}", "--epsilon", "1"),
                // --- data files (run)
                c("source missing file", DATA, "run", "--method", "coral", "--source", "{NOFILE}", "--target", "{TGT}"),
                c("source empty file", DATA, "run", "--method", "coral", "--source", "{EMPTY}", "--target", "{TGT}"),
                c("source header only", DATA, "run", "--method", "coral", "--source", "{HEADER}", "--target", "{TGT}"),
                c("source NaN value", DATA, "run", "--method", "coral", "--source", "{NAN}", "--target", "{TGT}"),
                c("source Infinity value", DATA, "run", "--method", "coral", "--source", "{INF}", "--target", "{TGT}"),
                c("source text value", DATA, "run", "--method", "coral", "--source", "{TEXT}", "--target", "{TGT}"),
                c("source ragged row", DATA, "run", "--method", "coral", "--source", "{RAGGED}", "--target", "{TGT}"),
                c("source binary garbage", DATA, "run", "--method", "coral", "--source", "{BINARY}", "--target", "{TGT}"),
                c("source is a directory", DATA, "run", "--method", "coral", "--source", "{DIR}", "--target", "{TGT}"),
                c("source without its label column", DATA, "run", "--method", "coral", "--source", "{NOLABEL}", "--target", "{TGT}"),
                c("dimensions differ", DATA, "run", "--method", "coral", "--source", "{WIDE}", "--target", "{TGT}"),
                c("label column named but absent", DATA, "run", "--method", "coral", "--source", "{SRC}", "--target", "{TGT}",
                        "--label-column", "y"),
                c("feature columns without the spark engine", USAGE, "run", "--method", "coral", "--source", "{SRC}", "--target",
                        "{TGT}", "--feature-columns", "zz"),
                c("unknown suite reference", DATA, "run", "--method", "coral", "--source", "nosuchsuite/a", "--target", "nosuchsuite/b"),
                // --- target release
                c("release: epsilon missing", USAGE, trel("--data", "{TGT}")),
                c("release: epsilon 0", USAGE, trel("--data", "{TGT}", "--epsilon", "0")),
                c("release: method unknown", USAGE, "target", "release", "--method", "primo", "--data", "{TGT}", "--epsilon", "1", "--out", "{OUT}"),
                c("release: missing file", DATA, trel("--data", "{NOFILE}", "--epsilon", "1")),
                c("release: NaN value", DATA, trel("--data", "{NAN}", "--epsilon", "1")),
                c("release: empty file", DATA, trel("--data", "{EMPTY}", "--epsilon", "1")),
                c("release: out is a directory", USAGE, "target", "release", "--method", "prima", "--data", "{TGT}", "--epsilon", "1",
                        "--out", "{DIR}", "--ledger", "{NEWLEDGER}"),
                c("release: out is a special file", USAGE, "target", "release", "--method", "prima", "--data", "{TGT}", "--epsilon", "1",
                        "--out", "/dev/null", "--ledger", "{NEWLEDGER}"),
                c("release: out in a missing directory", USAGE, "target", "release", "--method", "prima", "--data", "{TGT}", "--epsilon",
                        "1", "--out", "{DIR}/no/such/dir/out.json", "--ledger", "{NEWLEDGER}"),
                c("release: the source's ledger", ARTIFACT, "target", "release", "--method", "prima", "--data", "{TGT}", "--epsilon",
                        "1", "--out", "{OUT}", "--ledger", "{SLEDGER}"),
                c("release: budget below the step", BUDGET, trel("--data", "{TGT}", "--epsilon", "1", "--budget", "0.5")),
                c("release: ledger spent", BUDGET, "target", "release", "--method", "prima", "--data", "{TGT}", "--epsilon", "0.5",
                        "--out", "{OUT}", "--ledger", "{TLEDGER}"),
                c("release: preprocessing fitted on its rows", USAGE, trel("--data", "{TGT}", "--epsilon", "1", "--preprocess", "zscore")),
                c("release: parquet without Spark", USAGE, trel("--data", "parquet:/tmp/x.parquet", "--epsilon", "1")),
                c("release: engine spark without Spark", ENGINE, trel("--data", "csv:{TGT}", "--epsilon", "1", "--engine", "spark",
                        "--feature-columns", "f1,f2,f3,f4")),
                c("release: engine unknown", USAGE, trel("--data", "{TGT}", "--epsilon", "1", "--engine", "hadoop")),
                // --- source train
                c("train: release missing", DATA, strain("--data", "{SRC}", "--release", "{NOFILE}", "--epsilon", "1")),
                c("train: release truncated", ARTIFACT, strain("--data", "{SRC}", "--release", "{TRUNC}", "--epsilon", "1")),
                c("train: release tampered", ARTIFACT, strain("--data", "{SRC}", "--release", "{TAMPER}", "--epsilon", "1")),
                c("train: release not JSON", ARTIFACT, strain("--data", "{SRC}", "--release", "{NOTJSON}", "--epsilon", "1")),
                c("train: release of another version", ARTIFACT, strain("--data", "{SRC}", "--release", "{OTHERVERSION}", "--epsilon", "1")),
                c("train: a model given as release", ARTIFACT, strain("--data", "{SRC}", "--release", "{MODEL}", "--epsilon", "1")),
                c("train: dimensions differ from the release", DATA, strain("--data", "{WIDE}", "--release", "{REL}", "--epsilon", "1")),
                c("train: learner unknown", USAGE, strain("--data", "{SRC}", "--release", "{REL}", "--epsilon", "1", "--param", "learner=sgd")),
                c("train: lr NaN", USAGE, strain("--data", "{SRC}", "--release", "{REL}", "--epsilon", "1", "--param", "learner=dp-sgd",
                        "--param", "lr=NaN")),
                c("train: budget below the step", BUDGET, strain("--data", "{SRC}", "--release", "{REL}", "--epsilon", "2", "--budget", "1",
                        "--param", "learner=ncm", "--public", "classes")),
                c("train: engine spark is not distributed", USAGE, strain("--data", "{SRC}", "--release", "{REL}", "--epsilon", "1",
                        "--engine", "spark")),
                // --- target predict
                c("predict: model missing", DATA, predict("--data", "{TGT}", "--model", "{NOFILE}")),
                c("predict: a release given as model", ARTIFACT, predict("--data", "{TGT}", "--model", "{REL}")),
                c("predict: model tampered", ARTIFACT, predict("--data", "{TGT}", "--model", "{TAMPER}")),
                c("predict: rows of another width", DATA, predict("--data", "{WIDE}", "--model", "{MODEL}")),
                c("predict: NaN row", DATA, predict("--data", "{NAN}", "--model", "{MODEL}")),
                c("predict: out is a directory", USAGE, "target", "predict", "--data", "{TGT}", "--model", "{MODEL}", "--out", "{DIR}"),
                // --- other commands
                c("inspect: garbage", ARTIFACT, "inspect", "{BINARY}"),
                c("inspect: missing", DATA, "inspect", "{NOFILE}"),
                c("audit: release unknown", USAGE, "audit", "--release", "nothing"),
                c("audit: trials too few", USAGE, "audit", "--release", "ncm", "--trials", "1"),
                c("audit: epsilon 0", USAGE, "audit", "--release", "ncm", "--epsilon", "0"),
                c("audit: confidence 1", USAGE, "audit", "--release", "ncm", "--confidence", "1"),
                c("audit: relation not stated", USAGE, "audit", "--release", "pcnvxadap", "--relation", "add-remove", "--trials", "100"),
                c("bench: suite unknown", USAGE, "bench", "nosuchsuite"),
                c("bench: task unknown", USAGE, "bench", "office-caltech10", "--tasks", "X:Y", "--methods", "source-only"),
                c("bench: methods unknown", USAGE, "bench", "office-caltech10", "--methods", "nothing"),
                c("privacy epsilon: sigma 0", USAGE, "privacy", "epsilon", "--sigma", "0", "--q", "0.01", "--steps", "10", "--delta", "1e-5"),
                c("privacy ledger: missing", DATA, "privacy", "ledger", "{NOFILE}"),
                c("unknown command", USAGE, "frobnicate"),
                // --- issue 46: mistakes once accepted and charged
                c("release: label column misspelt", DATA, trel("--data", "{TGT}", "--epsilon", "1", "--label-column", "lable")),
                c("release: label column misspelt, string labels", DATA, trel("--data", "{STRLABEL}", "--epsilon", "1",
                        "--label-column", "why")),
                c("release: label column number beyond the header", DATA, trel("--data", "{TGT}", "--epsilon", "1", "--label-column", "99")),
                c("release stream: label column misspelt", DATA, trel("--data", "{TGT}", "--epsilon", "1", "--label-column", "lable",
                        "--engine", "stream")),
                c("train: label column misspelt", DATA, strain("--data", "{SRC}", "--release", "{REL}", "--epsilon", "1",
                        "--label-column", "lable", "--param", "learner=ncm", "--public", "classes")),
                c("train stream: label column misspelt", DATA, strain("--data", "{SRC}", "--release", "{REL}", "--epsilon", "1",
                        "--label-column", "lable", "--param", "learner=ncm", "--classes", "0,1", "--engine", "stream")),
                c("predict: label column misspelt", DATA, predict("--data", "{TGT}", "--model", "{MODEL}", "--label-column", "lable")),
                c("run: label column misspelt", DATA, run("--epsilon", "1", "--label-column", "lable", "--source-ledger", "{NEWLEDGER}")),
                c("run: target-eval without the named label column", DATA, run("--epsilon", "1", "--label-column", "label",
                        "--target-eval", "{NOLABEL}", "--source-ledger", "{NEWLEDGER}")),
                c("release stream: chunk rows 2147483647", USAGE, trel("--data", "{TGT}", "--epsilon", "1", "--engine", "stream",
                        "--chunk-rows", "2147483647")),
                c("release stream: chunk rows 0", USAGE, trel("--data", "{TGT}", "--epsilon", "1", "--engine", "stream",
                        "--chunk-rows", "0")),
                c("train stream: chunk rows 1000001", USAGE, strain("--data", "{SRC}", "--release", "{REL}", "--epsilon", "1",
                        "--param", "learner=ncm", "--classes", "0,1", "--engine", "stream", "--chunk-rows", "1000001")),
                c("release: svmlight dimension negative", USAGE, trel("--data", "{TGT}", "--epsilon", "1", "--dimension", "-4")),
                c("demo: per-class absurd", USAGE, "demo", "--per-class", "2147483647"),
                c("demo: dimension absurd", USAGE, "demo", "--dimension", "2147483647"),
                c("bench dpot-wasserstein: minibatches 0", USAGE, "bench", "dpot-wasserstein", "--minibatches", "0"),
                c("release stream: data is a directory", DATA, trel("--data", "{DIR}", "--epsilon", "1", "--engine", "stream")),
                c("train: data is a directory", DATA, strain("--data", "{DIR}", "--release", "{REL}", "--epsilon", "1")),
                c("train: release is a directory", DATA, strain("--data", "{SRC}", "--release", "{DIR}", "--epsilon", "1")),
                c("predict: model is a directory", DATA, predict("--data", "{TGT}", "--model", "{DIR}")),
                c("predict: data is a directory", DATA, predict("--data", "{DIR}", "--model", "{MODEL}")),
                c("predict: release missing", DATA, predict("--data", "{TGT}", "--model", "{MODEL}", "--release", "{NOFILE}")),
                c("adapt: release missing", DATA, "target", "adapt", "--release", "{NOFILE}", "--data", "{TGT}", "--out", "{OUT}"),
                c("adapt: release is a directory", DATA, "target", "adapt", "--release", "{DIR}", "--data", "{TGT}", "--out", "{OUT}"),
                c("inspect: a directory", DATA, "inspect", "{DIR}"),
                c("privacy ledger: a directory", DATA, "privacy", "ledger", "{DIR}"),
                // --- issue 46 item 5: signed artifacts and key files
                c("train: unsigned release with --verify-key", ARTIFACT, strain("--data", "{SRC}", "--release", "{REL}", "--epsilon", "1",
                        "--verify-key", "{TPUB}")),
                c("train: release signed by another key", ARTIFACT, strain("--data", "{SRC}", "--release", "{SREL}", "--epsilon", "1",
                        "--verify-key", "{OPUB}")),
                c("train: verify key missing", DATA, strain("--data", "{SRC}", "--release", "{SREL}", "--epsilon", "1",
                        "--verify-key", "{NOFILE}")),
                c("train: verify key is a directory", DATA, strain("--data", "{SRC}", "--release", "{SREL}", "--epsilon", "1",
                        "--verify-key", "{DIR}")),
                c("train: verify key is a private key", USAGE, strain("--data", "{SRC}", "--release", "{SREL}", "--epsilon", "1",
                        "--verify-key", "{TKEY}")),
                c("train: verify key is garbage", DATA, strain("--data", "{SRC}", "--release", "{SREL}", "--epsilon", "1",
                        "--verify-key", "{BINARY}")),
                c("release: sign key missing", DATA, trel("--data", "{TGT}", "--epsilon", "1", "--sign-key", "{NOFILE}")),
                c("release: sign key is a public key", USAGE, trel("--data", "{TGT}", "--epsilon", "1", "--sign-key", "{TPUB}")),
                c("release: sign key is garbage", DATA, trel("--data", "{TGT}", "--epsilon", "1", "--sign-key", "{BINARY}")),
                c("predict: unsigned model with --verify-key", ARTIFACT, predict("--data", "{TGT}", "--model", "{MODEL}",
                        "--verify-key", "{TPUB}")),
                c("adapt: verify key is garbage", DATA, "target", "adapt", "--release", "{SREL}", "--data", "{TGT}", "--out", "{OUT}",
                        "--verify-key", "{BINARY}"),
                c("inspect: signed by another key", ARTIFACT, "inspect", "--verify-key", "{OPUB}", "{SREL}"),
                c("inspect: unsigned with --verify-key", ARTIFACT, "inspect", "--verify-key", "{TPUB}", "{REL}"),
                c("keys generate: the private key exists", USAGE, "keys", "generate", "--out", "{TKEY}"),
                c("keys generate: the public key exists", USAGE, "keys", "generate", "--out", "{NEWKEY}", "--public-out", "{TPUB}"),
                c("keys generate: a missing directory", USAGE, "keys", "generate", "--out", "{DIR}/no/such/new.key"),
                c("keys show: garbage", DATA, "keys", "show", "{BINARY}"),
                c("keys show: missing", DATA, "keys", "show", "{NOFILE}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void isRefusedWithOneLineItsExitCodeNothingWrittenAndNothingSpent(Case k) throws Exception {
        String[] args = new String[k.args().length];
        for (int i = 0; i < args.length; i++) {
            String a = k.args()[i];
            for (Map.Entry<String, String> e : files.entrySet()) {
                a = a.replace("{" + e.getKey() + "}", e.getValue());
            }
            args[i] = a;
        }
        Map<String, String> before = snapshot();
        CliHarness.Result r = CliHarness.run(args);
        assertThat(r.code()).as("%s: exit code (stderr: %s)", k.why(), r.err()).isEqualTo(k.code());
        assertThat(r.err().strip()).as("%s: an error message", k.why()).isNotEmpty();
        assertThat(r.err().strip().lines().count()).as("%s: one line, got: %s", k.why(), r.err()).isEqualTo(1);
        assertThat(snapshot()).as("%s: nothing written, nothing spent", k.why()).isEqualTo(before);
    }

    /** Every file under the working directory with its SHA-256. */
    private Map<String, String> snapshot() throws Exception {
        Map<String, String> m = new TreeMap<>();
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                if (Files.isRegularFile(p)) {
                    m.put(dir.relativize(p).toString(), HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p))));
                } else if (!p.equals(dir)) {
                    m.put(dir.relativize(p) + "/", "dir");
                }
            }
        }
        return m;
    }

    @org.junit.jupiter.api.Test
    void theTableHasAHundredInputs() {
        assertThat(cases().count()).isGreaterThanOrEqualTo(100);
        assertThat(cases().map(Case::why).distinct().count()).isEqualTo(cases().count());
    }
}
