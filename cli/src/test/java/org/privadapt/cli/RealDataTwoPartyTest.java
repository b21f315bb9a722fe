package org.privadapt.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.cli.report.Json;
import org.privadapt.data.registry.DataRoot;

/**
 * The README's three-command flow on a real pair (Caltech -> Amazon of Office-Caltech10): the same accuracy as
 * 'run' with the same seed; secure noise without it. Skipped when ../shared/data is absent.
 */
class RealDataTwoPartyTest {
    @TempDir
    Path dir;

    @Test
    void readmeFlowOnCaltechToAmazonEqualsRun() throws Exception {
        Path root = DataRoot.resolve(null);
        assumeThat(Files.isDirectory(root.resolve("office-caltech10")))
                .as("office-caltech10 is absent under %s: real-data test skipped", root).isTrue();
        String rel = dir.resolve("release.json").toString();
        String model = dir.resolve("model.json").toString();
        for (String method : new String[] {"prima"}) {
            CliHarness.Result a = CliHarness.run("target", "release", "--method", method, "--data", "office-caltech10/amazon",
                    "--preprocess", "l2,scale=28", "--epsilon", "2", "--delta", "1e-5", "--ledger",
                    dir.resolve(method + "-t.ledger").toString(), "--out", rel, "--seed", "7");
            assertThat(a.code()).as(a.err()).isZero();
            CliHarness.Result b = CliHarness.run("source", "train", "--data", "office-caltech10/caltech", "--release", rel,
                    "--classifier", "lr", "--epsilon", "2", "--delta", "1e-5", "--ledger",
                    dir.resolve(method + "-s.ledger").toString(), "--out", model, "--seed", "7");
            assertThat(b.code()).as(b.err()).isZero();
            CliHarness.Result c = CliHarness.run("target", "predict", "--data", "office-caltech10/amazon", "--model", model,
                    "--release", rel, "--out", dir.resolve("pred.csv").toString(), "--json");
            assertThat(c.code()).as(c.err()).isZero();
            double twoParty = Json.MAPPER.readTree(c.out()).path("accuracy").asDouble();
            CliHarness.Result run = CliHarness.run("run", "--method", method, "--source", "office-caltech10/caltech",
                    "--target", "office-caltech10/amazon", "--preprocess", "l2,scale=28", "--epsilon", "2", "--seed", "7", "--json");
            assertThat(run.code()).as(run.err()).isZero();
            JsonNode res = Json.MAPPER.readTree(run.out()).path("results").get(0);
            assertThat(twoParty).as(method).isEqualTo(res.path("accuracy_mean").asDouble());
            assertThat(twoParty).as(method).isGreaterThan(0.15); // 10 classes: chance 0.1
        }
        // without --seed: secure noise, and the artifacts say they are private
        CliHarness.Result a = CliHarness.run("target", "release", "--method", "prima", "--data", "office-caltech10/dslr",
                "--preprocess", "l2,scale=28", "--epsilon", "1", "--out", rel, "--json");
        assertThat(a.code()).as(a.err()).isZero();
        JsonNode s = Json.MAPPER.readTree(a.out());
        assertThat(s.path("private").asBoolean()).isTrue();
        assertThat(s.path("epsilon_spent").asDouble()).isPositive().isLessThanOrEqualTo(1.0);
        assertThat(Files.readString(Path.of(rel))).contains("\"private\" : true").doesNotContain("NOT differentially private");
    }

    /** Paper 004's two parties on iu-chest-xray-uda (findings -> impression), small settings to keep it quick. */
    @Test
    void gmmUdaReleaseThenAdaptOnTheChestXraySuite() throws Exception {
        Path root = DataRoot.resolve(null);
        assumeThat(Files.isRegularFile(root.resolve("iu-chest-xray/indiana_reports.csv")))
                .as("iu-chest-xray is absent under %s: real-data test skipped", root).isTrue();
        String rel = dir.resolve("gmm.json").toString();
        CliHarness.Result a = CliHarness.run("source", "release", "--method", "dp-uda-gmm", "--data", "iu-chest-xray-uda/findings",
                "--epsilon", "5", "--delta", "1e-5", "--seed", "1", "--ledger", dir.resolve("s.ledger").toString(), "--out", rel,
                "--param", "hidden=16", "--param", "epochs=2", "--json");
        assertThat(a.code()).as(a.err()).isZero();
        JsonNode s = Json.MAPPER.readTree(a.out());
        assertThat(s.path("rows").asInt()).isEqualTo(1665);
        assertThat(s.path("labels").asInt()).isEqualTo(9);
        assertThat(s.path("epsilon_spent").asDouble()).isPositive().isLessThanOrEqualTo(5.0 + 1e-9);
        CliHarness.Result b = CliHarness.run("target", "adapt", "--method", "dp-uda-gmm", "--release", rel, "--data",
                "iu-chest-xray-uda/impression", "--out", dir.resolve("pred.csv").toString(), "--param", "adapt-epochs=1", "--json");
        assertThat(b.code()).as(b.err()).isZero();
        JsonNode t = Json.MAPPER.readTree(b.out());
        assertThat(t.path("rows").asInt()).isEqualTo(1666);
        assertThat(t.path("target_epsilon_spent").asDouble()).isZero();
        assertThat(t.path("accuracy").asDouble()).isBetween(0.5, 1.0);
        assertThat(Files.readAllLines(dir.resolve("pred.csv"))).hasSize(1667);
    }

    @Test
    void parallelRepetitionsGiveTheSameNumbers() throws Exception {
        Path root = DataRoot.resolve(null);
        assumeThat(Files.isDirectory(root.resolve("office-caltech10")))
                .as("office-caltech10 is absent under %s: real-data test skipped", root).isTrue();
        JsonNode[] acc = new JsonNode[2];
        for (int jobs = 1; jobs <= 2; jobs++) {
            CliHarness.Result r = CliHarness.run("bench", "office-caltech10", "--tasks", "D:W", "--methods", "prima-rse,dp-source-only",
                    "--epsilon", "2", "--runs", "3", "--seed", "3", "--jobs", Integer.toString(jobs), "--json");
            assertThat(r.code()).as(r.err()).isZero();
            acc[jobs - 1] = Json.MAPPER.readTree(r.out()).path("results");
        }
        for (int m = 0; m < 2; m++) {
            assertThat(acc[1].get(m).path("accuracies")).isEqualTo(acc[0].get(m).path("accuracies"));
            assertThat(acc[0].get(m).path("accuracies").size()).isEqualTo(3);
        }
    }
}
