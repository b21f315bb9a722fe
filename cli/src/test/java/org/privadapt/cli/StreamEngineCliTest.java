package org.privadapt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code target release --engine stream} against the in-process command on the same file and seed, as
 * SparkEngineCliTest checks {@code --engine spark}: the artifact (numbers to 1e-9 relative, also inside the base64
 * arrays; every other field equal but the time of writing and the checksum over it), the ledger's entries and standard
 * output, for blocks of 1, 7 and more rows than the file has; bad input refused with the in-process command's message
 * and exit code, nothing charged or written, even when the bad row is in the last block; what cannot stream refused.
 */
class StreamEngineCliTest {
    static final int N = 360;
    static final int D = 6;
    static final Set<String> VOLATILE = Set.of("created", "time", "checksum", "hash");

    @TempDir
    static Path dir;
    static Path csv;

    @BeforeAll
    static void write() throws IOException {
        SplittableRandom r = new SplittableRandom(31);
        StringBuilder sb = new StringBuilder();
        for (int j = 0; j < D; j++) {
            sb.append('f').append(j).append(',');
        }
        sb.append("y\n");
        String[] classes = {"a", "b", "c"};
        for (int i = 0; i < N; i++) {
            int c = i % 3;
            double scale = Math.pow(10, r.nextDouble(-1, 1));
            for (int j = 0; j < D; j++) {
                double v = i == 7 ? 0.0 : scale * (r.nextGaussian() + (j % 3 == c ? 1.5 : 0.0));
                sb.append(Double.toString(v)).append(',');
            }
            sb.append(classes[c]).append('\n');
        }
        csv = dir.resolve("target.csv");
        Files.writeString(csv, sb.toString(), StandardCharsets.UTF_8);
    }

    static List<String> release(String method, Path data, Path out, Path ledger, List<String> extra) {
        List<String> a = new ArrayList<>(List.of("target", "release", "--method", method, "--data", data.toString(), "--epsilon", "2",
                "--delta", "1e-5", "--seed", "11", "--ledger", ledger.toString(), "--out", out.toString(), "--label-column", "y"));
        a.addAll(extra);
        return a;
    }

    static CliHarness.Result run(List<String> args) {
        return CliHarness.run(args.toArray(new String[0]));
    }

    @Test
    void theStreamedReleaseEqualsTheInProcessOneAndChargesTheSameLedger() throws Exception {
        record Case(String name, String method, List<String> extra) {
        }
        List<Case> cases = List.of(
                new Case("prima-default", "prima", List.of()), // default preprocessing (from the header), forward selection
                new Case("prisa-l2", "prisa", List.of("--preprocess", "l2,scale=3")),
                new Case("prima-random", "prima", List.of("--preprocess", "clip=4", "--param", "partitioning=random",
                        "--param", "block-size=2", "--relation", "replace")));
        double worst = 0;
        for (Case c : cases) {
            Path inOut = dir.resolve(c.name + "-in.json");
            Path inLedger = dir.resolve(c.name + "-in.ledger");
            CliHarness.Result in = run(release(c.method, csv, inOut, inLedger, c.extra));
            assertThat(in.code()).as(c.name + " in process: " + in.err()).isZero();
            for (String chunk : List.of("1", "7", "1000", "default")) {
                String tag = c.name + "-" + chunk;
                Path out = dir.resolve(tag + ".json");
                Path ledger = dir.resolve(tag + ".ledger");
                List<String> a = release(c.method, csv, out, ledger, c.extra);
                a.addAll(List.of("--engine", "stream"));
                if (!chunk.equals("default")) {
                    a.addAll(List.of("--chunk-rows", chunk));
                }
                CliHarness.Result st = run(a);
                assertThat(st.code()).as(tag + ": " + st.err()).isZero();
                assertThat(st.out()).isEqualTo(in.out().replace(inOut.toString(), out.toString()));
                assertThat(st.err()).isEqualTo(in.err());
                worst = Math.max(worst, compare(inOut, out));
                worst = Math.max(worst, compare(inLedger, ledger));
            }
        }
        System.out.printf("privadapt-stream: target release, streamed vs in process: largest relative difference %.2g%n", worst);
    }

    /**
     * {@code source train --engine stream} (learner ncm or lda, the class set given): the model artifact, the ledger
     * and the summary equal the in-process command's on the same seed, for blocks of 1, 7, more than n rows and the
     * default; a label outside the classes in the last block is refused before anything is charged.
     */
    @Test
    void theStreamedSourceTrainingEqualsTheInProcessOneAndChargesTheSameLedger() throws Exception {
        SplittableRandom r = new SplittableRandom(47);
        StringBuilder sb = new StringBuilder("f0,f1,f2,f3,f4,f5,y\n");
        for (int i = 0; i < 330; i++) {
            int c = i % 3;
            double scale = Math.pow(10, r.nextDouble(-1, 1));
            for (int j = 0; j < D; j++) {
                sb.append(Double.toString(scale * (r.nextGaussian() + (j % 3 == c ? 1.2 : 0.0)))).append(',');
            }
            sb.append("abc".charAt(c)).append('\n');
        }
        Path source = dir.resolve("source.csv");
        Files.writeString(source, sb.toString(), StandardCharsets.UTF_8);
        record Case(String name, String method, List<String> release, List<String> train) {
        }
        List<Case> cases = List.of(
                new Case("prima-ncm", "prima", List.of(), List.of("--param", "learner=ncm")),
                new Case("prisa-lda-vote", "prisa", List.of("--preprocess", "l2,scale=3", "--param", "ensemble=vote"),
                        List.of("--param", "learner=lda")),
                new Case("prima-random-replace", "prima", List.of("--preprocess", "clip=4", "--param", "partitioning=random",
                        "--param", "block-size=2", "--relation", "replace"), List.of("--param", "learner=ncm", "--relation", "replace")));
        double worst = 0;
        for (Case c : cases) {
            Path rel = dir.resolve("st-" + c.name + "-release.json");
            CliHarness.Result made = run(release(c.method, csv, rel, dir.resolve("st-" + c.name + "-t.ledger"), c.release));
            assertThat(made.code()).as(made.err()).isZero();
            List<String> base = new ArrayList<>(List.of("source", "train", "--data", source.toString(), "--release", rel.toString(),
                    "--classes", "a,b,c", "--label-column", "y", "--epsilon", "2", "--delta", "1e-5", "--seed", "13"));
            base.addAll(c.train);
            Path inOut = dir.resolve("st-" + c.name + "-in.json");
            Path inLedger = dir.resolve("st-" + c.name + "-in.ledger");
            List<String> a = new ArrayList<>(base);
            a.addAll(List.of("--ledger", inLedger.toString(), "--out", inOut.toString()));
            CliHarness.Result in = run(a);
            assertThat(in.code()).as(c.name + " in process: " + in.err()).isZero();
            assertThat(in.out()).contains("330 source rows, 3 classes");
            for (String chunk : List.of("1", "7", "1000", "default")) {
                String tag = "st-" + c.name + "-" + chunk;
                Path out = dir.resolve(tag + ".json");
                Path ledger = dir.resolve(tag + ".ledger");
                a = new ArrayList<>(base);
                a.addAll(List.of("--ledger", ledger.toString(), "--out", out.toString(), "--engine", "stream"));
                if (!chunk.equals("default")) {
                    a.addAll(List.of("--chunk-rows", chunk));
                }
                CliHarness.Result st = run(a);
                assertThat(st.code()).as(tag + ": " + st.err()).isZero();
                assertThat(st.out()).isEqualTo(in.out().replace(inOut.toString(), out.toString()));
                worst = Math.max(worst, compare(inOut, out));
                worst = Math.max(worst, compare(inLedger, ledger));
            }
            if (c.name.equals("prisa-lda-vote")) {
                // issue 45 item 4: target predict --engine stream writes the in-process predictions, accuracy and summary
                // (blocks of 7 rows, the model's preprocessing l2,scale=3 per block); --refine needs all rows: refused
                Path inPred = dir.resolve("predict-in.csv");
                CliHarness.Result pi = run(List.of("target", "predict", "--data", csv.toString(), "--label-column", "y", "--model",
                        inOut.toString(), "--out", inPred.toString()));
                assertThat(pi.code()).as(pi.err()).isZero();
                Path stPred = dir.resolve("predict-stream.csv");
                List<String> pa = new ArrayList<>(List.of("target", "predict", "--data", csv.toString(), "--label-column", "y", "--model",
                        inOut.toString(), "--out", stPred.toString(), "--engine", "stream", "--chunk-rows", "7"));
                CliHarness.Result ps = run(pa);
                assertThat(ps.code()).as(ps.err()).isZero();
                assertThat(Files.readString(stPred)).isEqualTo(Files.readString(inPred));
                assertThat(ps.out()).isEqualTo(pi.out().replace(inPred.toString(), stPred.toString()));
                pa.addAll(List.of("--refine", "centroids"));
                CliHarness.Result refused = run(pa);
                assertThat(refused.code()).as(refused.err()).isEqualTo(ExitCodes.USAGE);
                assertThat(refused.err()).contains("--refine centroids");
            }
        }
        System.out.printf("privadapt-stream: source train, streamed vs in process: largest relative difference %.2g%n", worst);
        // a label outside the classes in the last block, a gradient learner: refused before any charge
        List<String> lines = new ArrayList<>(Files.readAllLines(source));
        lines.set(329, lines.get(329).replaceAll(",[abc]$", ",z"));
        Path bad = dir.resolve("source-bad.csv");
        Files.write(bad, lines);
        Path rel = dir.resolve("st-prima-ncm-release.json");
        Path out = dir.resolve("st-never.json");
        Path ledger = dir.resolve("st-never.ledger");
        CliHarness.Result res = run(List.of("source", "train", "--data", bad.toString(), "--release", rel.toString(), "--classes", "a,b,c",
                "--label-column", "y", "--epsilon", "2", "--param", "learner=ncm", "--ledger", ledger.toString(), "--out", out.toString(),
                "--engine", "stream", "--chunk-rows", "64"));
        assertThat(res.code()).as(res.err()).isEqualTo(ExitCodes.DATA);
        assertThat(res.err().lines().toList()).singleElement().asString().contains(bad.toString()).contains("'z'");
        res = run(List.of("source", "train", "--data", source.toString(), "--release", rel.toString(), "--classes", "a,b,c",
                "--label-column", "y", "--epsilon", "2", "--param", "learner=dp-sgd", "--ledger", ledger.toString(), "--out", out.toString(),
                "--engine", "stream"));
        assertThat(res.code()).as(res.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(out).doesNotExist();
        assertThat(ledger).doesNotExist();
    }

    @Test
    void badInputIsRefusedAsInProcessBeforeAnyChargeEvenInTheLastBlock() throws Exception {
        List<String> lines = new ArrayList<>(Files.readAllLines(csv));
        List<String[]> edits = List.of(
                new String[] {"350", "2", "abc"}, // a value that is not a number, in the last block of 100
                new String[] {"340", "4", ""}, // a missing value
                new String[] {"300", "1", "1e999"}); // not finite
        for (String[] e : edits) {
            List<String> copy = new ArrayList<>(lines);
            String[] row = copy.get(Integer.parseInt(e[0])).split(",", -1);
            row[Integer.parseInt(e[1])] = e[2];
            copy.set(Integer.parseInt(e[0]), String.join(",", row));
            Path bad = dir.resolve("bad-" + e[0] + ".csv");
            Files.write(bad, copy);
            Path out = dir.resolve("bad-out.json");
            Path ledger = dir.resolve("bad.ledger");
            CliHarness.Result in = run(release("prima", bad, out, ledger, List.of("--preprocess", "l2")));
            assertThat(in.code()).as(in.err()).isEqualTo(ExitCodes.DATA);
            List<String> a = release("prima", bad, out, ledger, List.of("--preprocess", "l2", "--engine", "stream", "--chunk-rows", "100"));
            CliHarness.Result st = run(a);
            assertThat(st.code()).as(st.err()).isEqualTo(ExitCodes.DATA);
            assertThat(st.err()).isEqualTo(in.err()).contains(bad.toString()).contains("line " + (Integer.parseInt(e[0]) + 1));
            assertThat(st.err().lines().toList()).hasSize(1);
            assertThat(out).doesNotExist();
            assertThat(ledger).doesNotExist();
        }
    }

    @Test
    void whatCannotStreamIsAUsageErrorAndTheEngineOptionsAreChecked() throws Exception {
        Path out = dir.resolve("never.json");
        Path ledger = dir.resolve("never.ledger");
        record Refusal(List<String> extra, String message) {
        }
        List<Refusal> refusals = List.of(
                new Refusal(List.of("--engine", "stream", "--preprocess", "l2,zscore"), "zscore"),
                new Refusal(List.of("--engine", "stream", "--categorical", "one-hot"), "one-hot"),
                new Refusal(List.of("--chunk-rows", "10"), "--chunk-rows applies with --engine stream only"),
                new Refusal(List.of("--engine", "stream", "--chunk-rows", "0"), "--chunk-rows must be in [1, 1000000]"),
                new Refusal(List.of("--engine", "stream", "--feature-columns", "f0"), "applies with --engine spark only"));
        for (Refusal r : refusals) {
            List<String> a = release("prima", csv, out, ledger, r.extra);
            CliHarness.Result res = run(a);
            assertThat(res.code()).as(r.extra + ": " + res.err()).isEqualTo(ExitCodes.USAGE);
            assertThat(res.err()).contains(r.message);
        }
        Path svm = dir.resolve("t.svmlight");
        Files.writeString(svm, "1 1:2 3:1\n0 2:1\n");
        CliHarness.Result res = run(List.of("target", "release", "--method", "prima", "--data", svm.toString(), "--epsilon", "1",
                "--out", out.toString(), "--engine", "stream"));
        assertThat(res.code()).as(res.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(res.err()).contains("--engine inprocess");
        res = run(List.of("source", "train", "--release", "r.json", "--data", csv.toString(), "--epsilon", "1", "--out", out.toString(),
                "--engine", "stream"));
        assertThat(res.code()).as(res.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(res.err()).contains("--engine stream: name the class set (--classes");
        for (List<String> cmd : List.of(
                List.of("run", "--method", "prima", "--source", csv.toString(), "--target", csv.toString()))) {
            List<String> a = new ArrayList<>(cmd);
            a.addAll(List.of("--engine", "stream"));
            res = run(a);
            assertThat(res.code()).as(cmd + ": " + res.err()).isEqualTo(ExitCodes.USAGE);
            assertThat(res.err()).contains("--engine stream is taken by 'target release'");
        }
        assertThat(out).doesNotExist();
        assertThat(ledger).doesNotExist();
    }

    // ---- comparison of two artifacts or ledgers written by the CLI (as spark-cli's SparkCliSupport)

    static final ObjectMapper M = new ObjectMapper();

    static double compare(Path a, Path b) throws IOException {
        double[] worst = {0};
        compare(M.readTree(a.toFile()), M.readTree(b.toFile()), "$", worst);
        return worst[0];
    }

    static void compare(JsonNode a, JsonNode b, String path, double[] worst) {
        if (a.isNumber() && b.isNumber()) {
            double x = a.asDouble();
            double y = b.asDouble();
            double rel = Math.abs(x - y) / Math.max(1.0, Math.max(Math.abs(x), Math.abs(y)));
            assertThat(rel).as(path + ": " + x + " vs " + y).isLessThanOrEqualTo(1e-9);
            worst[0] = Math.max(worst[0], rel);
            return;
        }
        assertThat(b.getNodeType()).as(path).isEqualTo(a.getNodeType());
        if (a.isObject()) {
            List<String> ka = new ArrayList<>();
            a.fieldNames().forEachRemaining(ka::add);
            List<String> kb = new ArrayList<>();
            b.fieldNames().forEachRemaining(kb::add);
            assertThat(kb).as(path + " keys").isEqualTo(ka);
            for (Iterator<Map.Entry<String, JsonNode>> it = a.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!VOLATILE.contains(e.getKey())) {
                    compare(e.getValue(), b.get(e.getKey()), path + "." + e.getKey(), worst);
                }
            }
        } else if (a.isArray()) {
            assertThat(b.size()).as(path + " size").isEqualTo(a.size());
            for (int i = 0; i < a.size(); i++) {
                compare(a.get(i), b.get(i), path + "[" + i + "]", worst);
            }
        } else if (path.endsWith(".base64")) {
            double[] x = doubles(a.asText());
            double[] y = doubles(b.asText());
            assertThat(y.length).as(path + " length").isEqualTo(x.length);
            for (int i = 0; i < x.length; i++) {
                compare(M.getNodeFactory().numberNode(x[i]), M.getNodeFactory().numberNode(y[i]), path + "[" + i + "]", worst);
            }
        } else {
            assertThat(b).as(path).isEqualTo(a);
        }
    }

    static double[] doubles(String base64) {
        java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(java.util.Base64.getDecoder().decode(base64)).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        double[] out = new double[buf.remaining() / 8];
        buf.asDoubleBuffer().get(out);
        return out;
    }
}
