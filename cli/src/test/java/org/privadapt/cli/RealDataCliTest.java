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

/** The CLI on ../shared/data; each test is skipped, with a message, when the data is absent. */
class RealDataCliTest {
    @TempDir
    Path dir;

    static Path root() {
        return DataRoot.resolve(null);
    }

    static void requireFile(String rel) {
        assumeThat(Files.isRegularFile(root().resolve(rel))).as("%s is absent under %s: real-data test skipped", rel, root()).isTrue();
    }

    @Test
    void coralRunsOnEveryOfficeCaltechDomainByPath() {
        String[] files = {"amazon_SURF_L10.mat", "Caltech10_SURF_L10.mat", "dslr_SURF_L10.mat", "webcam_SURF_L10.mat"};
        for (String f : files) {
            requireFile("office-caltech10/surf/" + f);
        }
        // a cycle through the four domains reads every file once as the source and once as the target (the other eight
        // pairs repeat those reads; the table's commands run them all)
        for (int i = 0; i < files.length; i++) {
            String s = files[i];
            String t = files[(i + 1) % files.length];
            CliHarness.Result r = CliHarness.run("run", "--method", "coral", "--source",
                    root().resolve("office-caltech10/surf/" + s).toString(), "--target",
                    root().resolve("office-caltech10/surf/" + t).toString());
            assertThat(r.code()).as(s + " -> " + t + ": " + r.err()).isZero();
            assertThat(r.out()).contains("accuracy:");
        }
    }

    @Test
    void datasetsListsEverySuiteWithManifestShapes() throws Exception {
        assumeThat(Files.isDirectory(root())).as("%s is absent: real-data test skipped", root()).isTrue();
        CliHarness.Result r = CliHarness.run("datasets", "--json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode suites = Json.MAPPER.readTree(r.out()).get("suites");
        assertThat(suites).hasSize(18); // the manifest's 16 data sets; south-german-credit read with two labels, iu-chest-xray
                                        // also as paper 004's multi-label findings -> impression suite
        for (JsonNode s : suites) {
            if (!s.get("present").asBoolean()) {
                continue;
            }
            for (JsonNode d : s.get("domains")) {
                assertThat(d.get("status").asText()).as(s.get("name") + "/" + d.get("domain")).isEqualTo("ok");
            }
        }
        JsonNode oc = suites.get(0);
        assertThat(oc.get("name").asText()).isEqualTo("office-caltech10");
        assertThat(oc.get("domains").get(1).get("rows").asInt()).isEqualTo(1123);
        assertThat(oc.get("domains").get(1).get("cols").asInt()).isEqualTo(800);
    }

    @Test
    void benchWritesTableJsonAndSweepPlot() throws Exception {
        requireFile("office-caltech10/surf/webcam_SURF_L10.mat");
        Path json = dir.resolve("bench.json");
        Path md = dir.resolve("bench.md");
        Path png = dir.resolve("sweep.png");
        CliHarness.Result r = CliHarness.run("bench", "office-caltech10", "--tasks", "D:W,W->D", "--methods", "source-only,coral",
                "--sweep", "lambda=0.1,1", "--out", json.toString(), "--markdown", md.toString(), "--plot", png.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("| D->W |").contains("coral (lambda=0.1)")
                .doesNotContain("source-only (lambda"); // source-only takes no lambda: run once per task, a reference
        JsonNode results = Json.MAPPER.readTree(json.toFile()).get("results");
        assertThat(results).hasSize(6); // per task: source-only once, coral at each of the two values
        int sourceOnly = 0;
        for (JsonNode res : results) {
            if (res.get("method").asText().equals("source-only")) {
                sourceOnly++;
                assertThat(res.get("sweep") == null || res.get("sweep").isNull() || res.get("sweep").isEmpty()).isTrue();
            } else {
                assertThat(res.get("sweep").get("lambda").asText()).isIn("0.1", "1");
            }
        }
        assertThat(sourceOnly).isEqualTo(2);
        byte[] head = java.util.Arrays.copyOf(Files.readAllBytes(png), 8);
        assertThat(head).containsExactly(0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n');
        assertThat(Files.readString(md)).contains("**average**");
    }

    @Test
    void anInterruptedBenchResumesFromItsCheckpointWithTheSameNumbers() throws Exception {
        requireFile("office-caltech10/surf/webcam_SURF_L10.mat");
        String[] common = {"--epsilon", "2", "--seed", "3", "--runs", "2", "--preprocess", "l2,scale=28"};
        Path full = dir.resolve("full.json");
        Path cp = dir.resolve("cp.json");
        Path resumed = dir.resolve("resumed.json");
        CliHarness.Result f = CliHarness.run(concat(new String[] {"bench", "office-caltech10", "--tasks", "D:W,W:D",
                "--methods", "source-only,dp-source-only", "--out", full.toString()}, common));
        assertThat(f.code()).as(f.err()).isZero();
        // the "interrupted" run: one cell finished
        CliHarness.Result p = CliHarness.run(concat(new String[] {"bench", "office-caltech10", "--tasks", "W:D",
                "--methods", "dp-source-only", "--checkpoint", cp.toString()}, common));
        assertThat(p.code()).as(p.err()).isZero();
        JsonNode partial = Json.MAPPER.readTree(cp.toFile());
        assertThat(partial.get("results")).hasSize(1);
        assertThat(partial.get("config").get("seed").asLong()).isEqualTo(3);
        // another call adds another cell and keeps the first
        CliHarness.Result p2 = CliHarness.run(concat(new String[] {"bench", "office-caltech10", "--tasks", "D:W",
                "--methods", "source-only", "--checkpoint", cp.toString()}, common));
        assertThat(p2.code()).as(p2.err()).isZero();
        assertThat(Json.MAPPER.readTree(cp.toFile()).get("results")).hasSize(2);
        CliHarness.Result r = CliHarness.run(concat(new String[] {"bench", "office-caltech10", "--tasks", "D:W,W:D",
                "--methods", "source-only,dp-source-only", "--checkpoint", cp.toString(), "--out", resumed.toString()}, common));
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).contains("2 of 4 cells reused from the checkpoint")
                .contains("resuming from the checkpoint " + cp + ": 2 finished cells"); // said at the start too
        JsonNode a = Json.MAPPER.readTree(full.toFile()).get("results");
        JsonNode b = Json.MAPPER.readTree(resumed.toFile()).get("results");
        assertThat(b).hasSize(4);
        for (int i = 0; i < 4; i++) {
            assertThat(b.get(i).get("task")).isEqualTo(a.get(i).get("task"));
            assertThat(b.get(i).get("method")).isEqualTo(a.get(i).get("method"));
            assertThat(b.get(i).get("accuracies")).isEqualTo(a.get(i).get("accuracies"));
            assertThat(b.get(i).get("privacy")).isEqualTo(a.get(i).get("privacy"));
        }
        assertThat(Json.MAPPER.readTree(cp.toFile()).get("results")).isEqualTo(b);
        // other settings: refused, and the checkpoint is left as it was
        byte[] before = Files.readAllBytes(cp);
        CliHarness.Result other = CliHarness.run(concat(new String[] {"bench", "office-caltech10", "--tasks", "D:W",
                "--methods", "dp-source-only", "--checkpoint", cp.toString(), "--epsilon", "2", "--seed", "3", "--runs", "3"}));
        assertThat(other.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(other.err()).contains(cp.toString()).contains("written with other settings (config.runs was 2, now 3)");
        assertThat(Files.readAllBytes(cp)).isEqualTo(before);
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Test
    void amazonReferenceUsesTheSuiteProtocol() throws Exception {
        requireFile("amazon-reviews/svmlight-5000/kitchen_test.svmlight");
        CliHarness.Result r = CliHarness.run("run", "--method", "source-only", "--source", "amazon-reviews/books",
                "--target", "amazon-reviews/kitchen", "--preprocess", "none", "--json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode json = Json.MAPPER.readTree(r.out());
        assertThat(json.get("datasets").get(2).get("domain").asText()).isEqualTo("amazon-reviews/kitchen:test");
        assertThat(json.get("datasets").get(2).get("rows").asInt()).isEqualTo(5945);
        assertThat(json.get("results").get(0).get("accuracy_mean").asDouble()).isGreaterThan(0.6);
    }

    @Test
    void multiLabelSuiteIsListedAndRefusedByTheMethodsWithOneLine() throws Exception {
        requireFile("iu-chest-xray/indiana_reports.csv");
        CliHarness.Result d = CliHarness.run("datasets", "--json");
        assertThat(d.code()).as(d.err()).isZero();
        JsonNode uda = null;
        for (JsonNode s : Json.MAPPER.readTree(d.out()).get("suites")) {
            if (s.get("name").asText().equals("iu-chest-xray-uda")) {
                uda = s;
            }
        }
        assertThat(uda).isNotNull();
        assertThat(uda.get("domains").get(0).get("rows").asInt()).isEqualTo(1665);
        assertThat(uda.get("domains").get(1).get("rows").asInt()).isEqualTo(1666);
        assertThat(uda.get("domains").get(0).get("labels").asText()).isEqualTo("9 labels (multi-label)");
        CliHarness.Result r = CliHarness.run("run", "--method", "coral", "--source", "iu-chest-xray-uda/findings",
                "--target", "iu-chest-xray-uda/impression");
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("coral: ").contains("does not support multi-label targets");
        assertThat(r.err().strip().lines().count()).as(r.err()).isEqualTo(1);
        CliHarness.Result b = CliHarness.run("bench", "iu-chest-xray-uda", "--methods", "coral", "--out", dir.resolve("b.json").toString());
        assertThat(b.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(b.err()).contains("does not support multi-label targets");
    }
}
