package org.privadapt.cli.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.data.Provenance;

class BenchCheckpointTest {
    @TempDir
    Path dir;

    private static Map<String, Object> config(int runs, Long seed) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("suite", "office-caltech10");
        c.put("methods", List.of("coral", "prima"));
        c.put("tasks", List.of("amazon->webcam"));
        c.put("l2", 1e-3);
        c.put("runs", runs);
        c.put("delta", 1e-5);
        c.put("seed", seed);
        return c;
    }

    private static Report.DatasetInfo dataset(String sha) {
        return new Report.DatasetInfo("source", "office-caltech10/amazon", 958, 800, "10 classes",
                List.of(new Provenance.SourceFile("a.mat", sha, "mat", "fts")), List.of("l2"));
    }

    private static Report report(Map<String, Object> config, List<Report.TaskResult> results) {
        return new Report("privadapt", "test", "bench", "2026-01-01T00:00:00Z", new Report.Environment("17", "linux", "x", 2),
                config, List.of(dataset("ab12")), results, List.of());
    }

    private static Report.TaskResult cell(String method, Map<String, String> sweep, double... acc) {
        List<Double> a = java.util.Arrays.stream(acc).boxed().toList();
        Map<String, Report.PartySpend> spend = new LinkedHashMap<>();
        spend.put("source", new Report.PartySpend(false, "inf", null, "data read without differential privacy"));
        spend.put("target", new Report.PartySpend(false, 2.0, 1e-5, "seeded noise (--seed): NOT PRIVATE"));
        return new Report.TaskResult("A->W", "amazon", "webcam", method, sweep, a.size(), 0.5, 0.1, a, spend);
    }

    @Test
    void aSavedCheckpointGivesBackItsCellsByTaskMethodAndSweep() throws Exception {
        Path f = dir.resolve("cp.json");
        BenchCheckpoint empty = BenchCheckpoint.open(f, config(2, 7L));
        assertThat(empty.size()).isZero();
        assertThat(Files.exists(f)).isFalse();
        Report.TaskResult coral = cell("coral", null, 0.25, 0.75);
        Report.TaskResult swept = cell("prima", Map.of("epsilon", "2.0"), 0.125, 0.5);
        empty.save(report(config(2, 7L), List.of(coral, swept)));

        Map<String, Object> more = config(2, 7L);
        more.put("methods", List.of("coral", "prima", "prisa")); // a selector: may differ
        BenchCheckpoint c = BenchCheckpoint.open(f, more);
        assertThat(c.size()).isEqualTo(2);
        assertThat(c.find("A->W", "coral", Map.of())).contains(coral);
        assertThat(c.find("A->W", "prima", Map.of("epsilon", "2.0"))).contains(swept);
        assertThat(c.find("A->W", "prima", Map.of("epsilon", "3.0"))).isEmpty();
        assertThat(c.find("W->A", "coral", null)).isEmpty();
        // a later call selecting other cells adds to the file and keeps what it held
        Report.TaskResult sa = cell("sa", null, 0.5, 0.5);
        c.save(report(more, List.of(sa)));
        BenchCheckpoint after = BenchCheckpoint.open(f, config(2, 7L));
        assertThat(after.size()).isEqualTo(3);
        assertThat(after.find("A->W", "sa", Map.of())).contains(sa);
        assertThat(after.find("A->W", "coral", Map.of())).contains(coral);
        // a cell computed again replaces the one held (no duplicates)
        Report.TaskResult coral2 = cell("coral", null, 0.5, 0.625);
        after.save(report(more, List.of(coral2)));
        assertThat(BenchCheckpoint.open(f, config(2, 7L)).find("A->W", "coral", null)).contains(coral2);
        assertThat(BenchCheckpoint.open(f, config(2, 7L)).size()).isEqualTo(3);
        c.checkDataset(dataset("ab12")); // same files: accepted
        assertThatThrownBy(() -> c.checkDataset(dataset("ff00")))
                .hasMessageContaining("office-caltech10/amazon was read from other files");
    }

    @Test
    void otherSettingsOrABadFileAreRefusedWithTheReason() throws Exception {
        Path f = dir.resolve("cp.json");
        BenchCheckpoint.open(f, config(2, 7L)).save(report(config(2, 7L), List.of(cell("coral", null, 0.5, 0.5))));
        assertThatThrownBy(() -> BenchCheckpoint.open(f, config(2, null)))
                .isInstanceOf(BenchCheckpoint.CheckpointException.class)
                .hasMessageContaining("written with other settings (config.seed was 7, now absent)");
        assertThatThrownBy(() -> BenchCheckpoint.open(f, config(20, 7L)))
                .hasMessageContaining("config.runs was 2, now 20");

        Files.writeString(f, "{\"command\": \"bench\", \"config\": ");
        assertThatThrownBy(() -> BenchCheckpoint.open(f, config(2, 7L))).hasMessageStartingWith(f + ": not a readable JSON bench report");
        Files.writeString(f, "{\"command\": \"run\", \"config\": {}, \"results\": []}");
        assertThatThrownBy(() -> BenchCheckpoint.open(f, config(2, 7L))).hasMessageContaining("not a bench report");
        Files.writeString(f, Json.write(report(config(2, 7L), List.of(cell("coral", null, 0.5, 0.5))))
                .replaceFirst("\"runs\" : 2,(\\s+)\"accuracy_mean\"", "\"runs\" : 3,$1\"accuracy_mean\""));
        assertThatThrownBy(() -> BenchCheckpoint.open(f, config(2, 7L))).hasMessageContaining("results[0] is incomplete");
    }
}
