package org.privadapt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.cli.report.Json;
import org.privadapt.data.synthetic.SyntheticShift;

/** dpot-da as two processes (source release, target adapt) against 'run', and the refusals of the release. */
class TwoPartyDpotCliTest {
    @TempDir
    Path dir;

    Path src;
    Path tgt;

    void data() throws Exception {
        var p = SyntheticShift.generate(new SyntheticShift.Config(20, 3, 200, 150, 4.0, 3.0, 1.0), 5);
        PrivateRunTest h = new PrivateRunTest();
        h.dir = dir;
        src = h.writeCsv("src.csv", p.source());
        tgt = h.writeCsv("tgt.csv", p.target());
    }

    CliHarness.Result release(String... extra) {
        return TwoPartyCliTest.command(List.of("source", "release"), new String[] {"--method", "dpot", "--data", src.toString(),
            "--preprocess", "none", "--epsilon", "8", "--delta", "1e-3", "--relation", "replace", "--public", "classes",
            "--ledger", dir.resolve("s.ledger").toString(), "--out", dir.resolve("dpot.json").toString(), "--seed", "7",
            "--param", "level=attribute"}, extra);
    }

    @Test
    void twoCommandsGiveTheSameAccuracyAsRunWithTheSameSeed() throws Exception {
        data();
        CliHarness.Result r1 = release();
        assertThat(r1.code()).as(r1.err()).isZero();
        assertThat(r1.out()).contains("NOT differentially private").contains("attribute level");
        JsonNode art = Json.MAPPER.readTree(dir.resolve("dpot.json").toFile());
        assertThat(art.path("privacy").path("guarantee").asText()).contains("attribute-level only");
        assertThat(art.path("privacy").path("relation").asText()).isEqualTo("replace");
        assertThat(art.path("privacy").path("epsilon_spent").asDouble()).isBetween(6.0, 8.0);
        CliHarness.Result r2 = CliHarness.run("target", "adapt", "--release", dir.resolve("dpot.json").toString(), "--data",
                tgt.toString(), "--out", dir.resolve("pred.csv").toString(), "--seed", "7", "--json");
        assertThat(r2.code()).as(r2.err()).isZero();
        double twoParty = Json.MAPPER.readTree(r2.out()).path("accuracy").asDouble();
        assertThat(Files.readAllLines(dir.resolve("pred.csv"))).hasSize(451).first().isEqualTo("row,prediction");

        CliHarness.Result run = CliHarness.run("run", "--method", "dpot-da", "--source-public", "classes", "--source", src.toString(), "--target", tgt.toString(),
                "--preprocess", "none", "--epsilon", "8", "--delta", "1e-3", "--relation", "replace", "--seed", "7",
                "--param", "level=attribute", "--json");
        assertThat(run.code()).as(run.err()).isZero();
        double one = Json.MAPPER.readTree(run.out()).path("results").get(0).path("accuracy_mean").asDouble();
        assertThat(twoParty).isEqualTo(one);
        assertThat(one).isGreaterThan(0.5); // 3 classes, an easy shift: far above chance
    }

    @Test
    void addRemoveIsRefusedWithNothingWrittenOrSpent() throws Exception {
        data();
        CliHarness.Result r = release("--relation", "add-remove");
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("replace-one");
        assertThat(dir.resolve("dpot.json")).doesNotExist();
        assertThat(dir.resolve("s.ledger")).satisfiesAnyOf(p -> assertThat(p).doesNotExist(),
                p -> assertThat(Files.readString(p)).doesNotContain("dpot"));
    }

    @Test
    void budgetTooSmallIsRefusedAndTamperedReleaseRejected() throws Exception {
        data();
        CliHarness.Result r = release("--param", "noise-ratio=0.01");
        assertThat(r.code()).isEqualTo(ExitCodes.BUDGET);
        assertThat(dir.resolve("dpot.json")).doesNotExist();
        CliHarness.Result ok = release();
        assertThat(ok.code()).as(ok.err()).isZero();
        String text = Files.readString(dir.resolve("dpot.json")).replace("\"row_noise_std\" : ", "\"row_noise_std\" : 1");
        Files.writeString(dir.resolve("bad.json"), text);
        CliHarness.Result t = CliHarness.run("target", "adapt", "--release", dir.resolve("bad.json").toString(), "--data",
                tgt.toString(), "--out", dir.resolve("p.csv").toString());
        assertThat(t.code()).isEqualTo(ExitCodes.ARTIFACT);
        assertThat(t.err()).contains("checksum");
        assertThat(dir.resolve("p.csv")).doesNotExist();
    }

    /** A record-level release at a small epsilon: the source is told before, the target after, that it is at chance. */
    @Test
    void aGuaranteeThatLeavesChanceLevelIsSaidOnBothSides() throws Exception {
        data();
        CliHarness.Result r1 = TwoPartyCliTest.command(List.of("source", "release"), new String[] {"--method", "dpot", "--data",
            src.toString(), "--preprocess", "l2", "--epsilon", "0.5", "--delta", "1e-3", "--relation", "replace", "--public",
            "classes", "--ledger", dir.resolve("s.ledger").toString(), "--out", dir.resolve("dpot.json").toString(), "--seed", "7"});
        assertThat(r1.code()).as(r1.err()).isZero();
        assertThat(r1.out()).contains("record level").contains("warning: the noise on a class's mean is").contains("chance level");
        CliHarness.Result r2 = CliHarness.run("target", "adapt", "--release", dir.resolve("dpot.json").toString(), "--data",
                tgt.toString(), "--out", dir.resolve("pred.csv").toString(), "--seed", "7");
        assertThat(r2.code()).as(r2.err()).isZero();
        assertThat(r2.out()).contains("is at chance level");
        // the attribute-level release of the first test is far from chance: no warning there
        CliHarness.Result ok = release("--out", dir.resolve("dpot2.json").toString());
        assertThat(ok.out()).doesNotContain("warning: the noise");
    }
}
