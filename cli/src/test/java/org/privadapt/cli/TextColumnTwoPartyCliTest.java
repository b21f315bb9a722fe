package org.privadapt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.cli.report.Json;

/**
 * {@code --text-column} with a pretrained encoder (the stand-in {@link LetterCountEncoder}) through the two-party flows
 * whose artifacts do not record an encoder themselves (issue 47): PRIMA's target release and source model, DPOT's
 * release record it ({@code featurisation.text_encoder}), and the partner whose rows are encoded otherwise is refused
 * (exit code 7) before it spends or writes anything; artifacts of the bag of words record nothing (as before).
 */
class TextColumnTwoPartyCliTest {
    @TempDir
    Path dir;
    Path src;
    Path tgt;

    static final String ENC = "encoder=" + LetterCountEncoder.NAME;

    @BeforeEach
    void data() throws Exception {
        System.setProperty("privadapt.cache", dir.resolve("cache").toString());
        src = dir.resolve("source.csv");
        tgt = dir.resolve("target.csv");
        Files.writeString(src, TextColumnCliTest.csv(200, 1, false));
        Files.writeString(tgt, TextColumnCliTest.csv(100, 2, true));
    }

    @AfterEach
    void clear() {
        System.clearProperty("privadapt.cache");
    }

    static CliHarness.Result run(List<String> base, String... extra) {
        List<String> a = new ArrayList<>(base);
        a.addAll(Arrays.asList(extra));
        return CliHarness.run(a.toArray(String[]::new));
    }

    @Test
    void primasReleaseAndModelRecordTheEncoderAndRefuseRowsEncodedOtherwise() throws Exception {
        CliHarness.Result rel = run(List.of("target", "release", "--method", "prima", "--data", tgt.toString(), "--text-column",
                "note", "--preprocess", "l2", "--epsilon", "2", "--ledger", dir.resolve("t.ledger").toString(), "--out",
                dir.resolve("release.json").toString(), "--seed", "21"), "--param", ENC);
        assertThat(rel.code()).as(rel.err()).isZero();
        JsonNode te = Json.MAPPER.readTree(dir.resolve("release.json").toFile()).path("payload").path("featurisation")
                .path("text_encoder");
        assertThat(te.path("name").asText()).isEqualTo(LetterCountEncoder.NAME);
        assertThat(te.path("sha256").asText()).isEqualTo(new LetterCountEncoder().hash());

        List<String> train = List.of("source", "train", "--data", src.toString(), "--text-column", "note", "--release",
                dir.resolve("release.json").toString(), "--epsilon", "2", "--public", "size,classes", "--ledger",
                dir.resolve("s.ledger").toString(), "--out", dir.resolve("model.json").toString(), "--seed", "21");
        CliHarness.Result bow = run(train);
        assertThat(bow.code()).isEqualTo(ExitCodes.ENCODER);
        assertThat(bow.err().strip()).doesNotContain("\n").contains("text encoder letter-counts").contains("encoded with bow")
                .contains("--param encoder=letter-counts");
        assertThat(dir.resolve("s.ledger")).doesNotExist();
        assertThat(dir.resolve("model.json")).doesNotExist();
        CliHarness.Result model = run(train, "--param", ENC);
        assertThat(model.code()).as(model.err()).isZero();
        assertThat(Json.MAPPER.readTree(dir.resolve("model.json").toFile()).path("payload").path("featurisation")
                .path("text_encoder").path("name").asText()).isEqualTo(LetterCountEncoder.NAME);

        List<String> predict = List.of("target", "predict", "--data", tgt.toString(), "--text-column", "note", "--model",
                dir.resolve("model.json").toString(), "--out", dir.resolve("pred.csv").toString(), "--json");
        CliHarness.Result refused = run(predict);
        assertThat(refused.code()).isEqualTo(ExitCodes.ENCODER);
        assertThat(refused.err()).contains("the model was made from rows encoded with text encoder letter-counts");
        assertThat(dir.resolve("pred.csv")).doesNotExist();
        CliHarness.Result pred = run(predict, "--param", ENC);
        assertThat(pred.code()).as(pred.err()).isZero();
        assertThat(Json.MAPPER.readTree(pred.out()).path("accuracy").asDouble()).isGreaterThan(0.5);
        assertThat(run(predict, "--param", "lr=1").code()).isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void dpotsReleaseRecordsTheEncoderAndABagOfWordsReleaseRecordsNothing() throws Exception {
        List<String> release = List.of("source", "release", "--method", "dpot", "--data", src.toString(), "--text-column", "note",
                "--preprocess", "none", "--epsilon", "8", "--delta", "1e-3", "--relation", "replace", "--public", "classes",
                "--out", dir.resolve("dpot.json").toString(), "--seed", "7");
        CliHarness.Result bowRelease = run(release, "--ledger", dir.resolve("bow.ledger").toString());
        assertThat(bowRelease.code()).as(bowRelease.err()).isZero();
        assertThat(Json.MAPPER.readTree(dir.resolve("dpot.json").toFile()).path("payload").has("featurisation")).isFalse();

        CliHarness.Result r = run(release, "--ledger", dir.resolve("s.ledger").toString(), "--param", ENC);
        assertThat(r.code()).as(r.err()).isZero();
        List<String> adapt = List.of("target", "adapt", "--release", dir.resolve("dpot.json").toString(), "--data", tgt.toString(),
                "--text-column", "note", "--out", dir.resolve("pred.csv").toString(), "--seed", "7");
        CliHarness.Result refused = run(adapt);
        assertThat(refused.code()).isEqualTo(ExitCodes.ENCODER);
        assertThat(dir.resolve("pred.csv")).doesNotExist();
        CliHarness.Result ok = run(adapt, "--param", ENC);
        assertThat(ok.code()).as(ok.err()).isZero();
    }
}
