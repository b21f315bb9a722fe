package org.privadapt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.cli.report.Json;

/**
 * {@code --param encoder=NAME} (issue 47) on the generated stand-in of iu-chest-xray-uda, with a stand-in encoder
 * ({@link LetterCountEncoder}): the release records the encoder's name and hash, inspect shows them, a target whose
 * rows are encoded otherwise is refused (one line, exit code 7, nothing written), and an encoder on rows that are no
 * text suite's, or an unknown encoder, is a usage error.
 */
class TextEncoderCliTest {
    @TempDir
    Path dir;
    Path root;
    final TwoPartyGmmUdaCliTest twoParty = new TwoPartyGmmUdaCliTest();

    @BeforeEach
    void data() throws Exception {
        System.setProperty("privadapt.cache", dir.resolve("cache").toString());
        root = dir.resolve("data");
        TwoPartyGmmUdaCliTest.writeReports(root, 260, 3);
        twoParty.dir = dir;
        twoParty.root = root;
    }

    @AfterEach
    void clear() {
        System.clearProperty("privadapt.cache");
    }

    @Test
    void theReleaseNamesItsEncoderAndRefusesATargetEncodedOtherwise() throws Exception {
        CliHarness.Result r = twoParty.release("--param", "encoder=" + LetterCountEncoder.NAME);
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("text encoder: letter-counts (sha256 0123456789abcdef");
        JsonNode art = Json.MAPPER.readTree(dir.resolve("release.json").toFile());
        JsonNode te = art.path("payload").path("featurisation").path("text_encoder");
        assertThat(te.path("name").asText()).isEqualTo(LetterCountEncoder.NAME);
        assertThat(te.path("sha256").asText()).isEqualTo(new LetterCountEncoder().hash());
        assertThat(art.path("payload").path("input_dim").asInt()).isEqualTo(8);
        assertThat(Files.list(dir.resolve("cache").resolve("encoded")).count()).isEqualTo(2); // the suite's two sections, cached

        CliHarness.Result shown = CliHarness.run("inspect", dir.resolve("release.json").toString());
        assertThat(shown.code()).as(shown.err()).isZero();
        assertThat(shown.out()).contains("text encoder letter-counts (sha256 " + new LetterCountEncoder().hash() + ")");

        // the target's rows in the bag of words: refused before any adaptation, nothing written
        CliHarness.Result bow = twoParty.adapt(dir.resolve("release.json").toString());
        assertThat(bow.code()).isEqualTo(ExitCodes.ENCODER);
        assertThat(bow.err().strip()).doesNotContain("\n").contains("text encoder mismatch")
                .contains("trained on text encoder letter-counts").contains("encoded with bow")
                .contains("--param encoder=letter-counts");
        assertThat(dir.resolve("pred.csv")).doesNotExist();

        // the same encoder: adapted
        CliHarness.Result ok = twoParty.adapt(dir.resolve("release.json").toString(), "--param", "encoder=" + LetterCountEncoder.NAME,
                "--json");
        assertThat(ok.code()).as(ok.err()).isZero();
        assertThat(Json.MAPPER.readTree(ok.out()).path("target_epsilon_spent").asDouble()).isZero();
        assertThat(dir.resolve("pred.csv")).exists();
    }

    @Test
    void aBagOfWordsReleaseRefusesAnEncodedTargetAndSaysSo() throws Exception {
        CliHarness.Result r = twoParty.release();
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(Json.MAPPER.readTree(dir.resolve("release.json").toFile()).path("payload").path("featurisation")
                .path("text_encoder").path("name").asText()).isEqualTo("bow");
        CliHarness.Result enc = twoParty.adapt(dir.resolve("release.json").toString(), "--param", "encoder=" + LetterCountEncoder.NAME);
        assertThat(enc.code()).isEqualTo(ExitCodes.ENCODER);
        assertThat(enc.err().strip()).doesNotContain("\n").contains("trained on text encoder bow");
        assertThat(dir.resolve("pred.csv")).doesNotExist();
    }

    @Test
    void anUnknownEncoderOrOneOnRowsThatAreNoTextIsAUsageError() throws Exception {
        CliHarness.Result unknown = twoParty.release("--param", "encoder=nosuch");
        assertThat(unknown.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(unknown.err().strip()).doesNotContain("\n").contains("encoder=nosuch").contains("no such text encoder");
        assertThat(dir.resolve("release.json")).doesNotExist();
        assertThat(dir.resolve("s.ledger")).doesNotExist();

        Path csv = dir.resolve("rows.csv");
        Files.writeString(csv, "a,b,label\n1,0,x\n0,1,y\n1,1,x\n0,0,y\n");
        CliHarness.Result notText = CliHarness.run("run", "--method", "uda-gmm", "--source", csv.toString(), "--target",
                csv.toString(), "--param", "encoder=" + LetterCountEncoder.NAME);
        assertThat(notText.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(notText.err().strip()).doesNotContain("\n").contains("only a text suite's texts").contains("--text-column");

        CliHarness.Result spark = CliHarness.run("run", "--method", "uda-gmm", "--engine", "spark", "--source", "parquet:" + csv,
                "--target", "parquet:" + csv, "--feature-columns", "a,b", "--label-column", "label", "--param", "encoder=" + LetterCountEncoder.NAME);
        assertThat(spark.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(spark.err().strip()).doesNotContain("\n").contains("the text encoders run in process");
    }
}
