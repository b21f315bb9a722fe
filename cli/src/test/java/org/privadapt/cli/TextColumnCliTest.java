package org.privadapt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.cli.report.Json;

/**
 * {@code --text-column} (issue 47): a text column of the user's own CSV files encoded by {@code --param encoder} beside
 * the numeric columns, end to end through the CLI on generated data and seeded noise: a private run, a dp-uda-gmm
 * release recording its encoder and refusing a target encoded otherwise (exit code 7), and the one-line refusals of
 * what cannot be encoded, before anything is charged or written.
 */
class TextColumnCliTest {
    @TempDir
    Path dir;
    Path src;
    Path tgt;

    static final String[] WORDS_A = {"heart", "enlarged", "cardiomegaly", "silhouette"};
    static final String[] WORDS_B = {"lungs", "clear", "normal", "expanded"};

    /** n rows: a number, a short text whose words follow the label, and the label. */
    static String csv(int n, long seed, boolean shifted) {
        SplittableRandom r = new SplittableRandom(seed);
        StringBuilder s = new StringBuilder("age,note,label\n");
        for (int i = 0; i < n; i++) {
            boolean a = r.nextBoolean();
            String[] w = a ? WORDS_A : WORDS_B;
            StringBuilder t = new StringBuilder(shifted ? "impression:" : "findings:");
            for (int k = 0; k < 3; k++) {
                t.append(' ').append(w[r.nextInt(w.length)]);
            }
            s.append(30 + r.nextInt(40)).append(",\"").append(t).append("\",").append(a ? "a" : "b").append('\n');
        }
        return s.toString();
    }

    @BeforeEach
    void data() throws Exception {
        System.setProperty("privadapt.cache", dir.resolve("cache").toString());
        src = dir.resolve("source.csv");
        tgt = dir.resolve("target.csv");
        Files.writeString(src, csv(240, 1, false));
        Files.writeString(tgt, csv(120, 2, true));
    }

    @AfterEach
    void clear() {
        System.clearProperty("privadapt.cache");
    }

    CliHarness.Result run(String... extra) {
        List<String> a = new ArrayList<>(List.of("run", "--method", "dp-source-only", "--source-public", "size,classes",
                "--source", src.toString(), "--target", tgt.toString(), "--epsilon", "3", "--seed", "5"));
        a.addAll(Arrays.asList(extra));
        return CliHarness.run(a.toArray(String[]::new));
    }

    CliHarness.Result release(String... extra) {
        return release(src, "note", extra);
    }

    CliHarness.Result release(Path data, String textColumn, String... extra) {
        List<String> a = new ArrayList<>(List.of("source", "release", "--method", "dp-uda-gmm", "--data", data.toString(),
                "--text-column", textColumn, "--public", "size,classes", "--epsilon", "8", "--delta", "1e-5", "--seed", "7",
                "--ledger", dir.resolve("s.ledger").toString(), "--out", dir.resolve("release.json").toString()));
        a.addAll(Arrays.asList(TwoPartyGmmUdaCliTest.SETTINGS));
        a.addAll(Arrays.asList(extra));
        return CliHarness.run(a.toArray(String[]::new));
    }

    CliHarness.Result adapt(String... extra) {
        List<String> a = new ArrayList<>(List.of("target", "adapt", "--method", "dp-uda-gmm", "--release",
                dir.resolve("release.json").toString(), "--data", tgt.toString(), "--text-column", "note", "--out",
                dir.resolve("pred.csv").toString()));
        a.addAll(Arrays.asList(TwoPartyGmmUdaCliTest.ADAPT));
        a.addAll(Arrays.asList(extra));
        return CliHarness.run(a.toArray(String[]::new));
    }

    @Test
    void aPrivateRunReadsTheTextColumnBesideTheNumbers() throws Exception {
        CliHarness.Result r = run("--text-column", "note", "--json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode res = Json.MAPPER.readTree(r.out()).get("results").get(0);
        assertThat(res.toString()).contains("4097"); // age, then the 4,096 hashed buckets
        assertThat(res.path("accuracy_mean").asDouble()).isGreaterThan(0.8); // the words carry the label across the domains
        // the same run with csv:FILE and the encoder named: the same numbers
        CliHarness.Result named = run("--text-column", "note", "--param", "encoder=bow", "--json");
        assertThat(named.code()).as(named.err()).isZero();
        assertThat(Json.MAPPER.readTree(named.out()).get("results").get(0).path("accuracy_mean").asDouble())
                .isEqualTo(res.path("accuracy_mean").asDouble());
    }

    @Test
    void theReleaseRecordsTheEncoderAndRefusesATargetEncodedOtherwise() throws Exception {
        CliHarness.Result r = release("--param", "encoder=" + LetterCountEncoder.NAME);
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode p = Json.MAPPER.readTree(dir.resolve("release.json").toFile()).path("payload");
        assertThat(p.path("featurisation").path("text_encoder").path("name").asText()).isEqualTo(LetterCountEncoder.NAME);
        assertThat(p.path("featurisation").path("text_encoder").path("sha256").asText()).isEqualTo(new LetterCountEncoder().hash());
        assertThat(p.path("input_dim").asInt()).isEqualTo(1 + 8);
        assertThat(Files.list(dir.resolve("cache").resolve("encoded")).count()).isEqualTo(1);

        CliHarness.Result bow = adapt();
        assertThat(bow.code()).isEqualTo(ExitCodes.ENCODER);
        assertThat(bow.err().strip()).doesNotContain("\n").contains("trained on text encoder letter-counts")
                .contains("encoded with bow");
        assertThat(dir.resolve("pred.csv")).doesNotExist();

        CliHarness.Result ok = adapt("--param", "encoder=" + LetterCountEncoder.NAME);
        assertThat(ok.code()).as(ok.err()).isZero();
        assertThat(dir.resolve("pred.csv")).exists();
        assertThat(Files.list(dir.resolve("cache").resolve("encoded")).count()).isEqualTo(2); // the target's texts too
    }

    @Test
    void whatCannotBeEncodedIsRefusedInOneLineAndNothingIsCharged() throws Exception {
        CliHarness.Result misspelt = release(src, "notes");
        assertThat(misspelt.code()).isEqualTo(ExitCodes.DATA);
        assertThat(misspelt.err().strip()).doesNotContain("\n").contains("source.csv")
                .contains("no column 'notes' for --text-column").contains("did you mean 'note'");

        Path na = dir.resolve("na.csv");
        Files.writeString(na, "age,note,label\n41,heart,a\n35,NA,b\n");
        CliHarness.Result missing = release(na, "note");
        assertThat(missing.code()).isEqualTo(ExitCodes.DATA);
        assertThat(missing.err().strip()).doesNotContain("\n").contains("na.csv:line 3, field 2 ('note')").contains("missing text");

        CliHarness.Result numbers = release(src, "age");
        assertThat(numbers.code()).isEqualTo(ExitCodes.DATA);
        assertThat(numbers.err().strip()).doesNotContain("\n").contains("holds numbers only");
        assertThat(dir.resolve("s.ledger")).doesNotExist();
        assertThat(dir.resolve("release.json")).doesNotExist();

        // an encoder on a file without a text column, a text column of a benchmark domain, a streamed file: usage errors
        CliHarness.Result noColumn = run("--param", "encoder=" + LetterCountEncoder.NAME);
        assertThat(noColumn.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(noColumn.err()).contains("--text-column");
        CliHarness.Result ref = CliHarness.run("run", "--method", "source-only", "--source", "office-caltech10/amazon",
                "--target", "office-caltech10/dslr", "--text-column", "note");
        assertThat(ref.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(ref.err()).contains("benchmark domain");
        CliHarness.Result bench = CliHarness.run("bench", "office-caltech10", "--methods", "source-only", "--text-column", "note");
        assertThat(bench.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(bench.err()).contains("--text-column note: bench runs a benchmark suite");
        CliHarness.Result stream = CliHarness.run("target", "release", "--method", "prima", "--data", tgt.toString(),
                "--text-column", "note", "--engine", "stream", "--epsilon", "1", "--out", dir.resolve("t.json").toString());
        assertThat(stream.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(stream.err()).contains("--text-column").contains("--engine stream");
    }
}
