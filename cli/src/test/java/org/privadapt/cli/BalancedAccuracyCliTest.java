package org.privadapt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.cli.report.Json;
import org.privadapt.cli.report.Markdown;
import org.privadapt.cli.report.Report;

/**
 * Imbalanced evaluation rows (issue 44.3, landmine: 6 % positive) report a balanced accuracy beside accuracy, in
 * run's text and JSON and in bench's table; balanced rows do not.
 */
class BalancedAccuracyCliTest {
    @TempDir
    Path dir;

    /** Two features; class 1 is {@code positives} of 200 rows, shifted by 1.5 on the first feature. */
    Path csv(String name, int positives, double shift, long seed) throws Exception {
        java.util.Random rng = new java.util.Random(seed);
        StringBuilder sb = new StringBuilder("a,b,label\n");
        for (int i = 0; i < 200; i++) {
            int y = i < positives ? 1 : 0;
            sb.append(rng.nextGaussian() + 1.5 * y + shift).append(',').append(rng.nextGaussian()).append(',').append(y).append('\n');
        }
        Path p = dir.resolve(name);
        Files.writeString(p, sb);
        return p;
    }

    @Test
    void runReportsBalancedAccuracyOnImbalancedRowsOnly() throws Exception {
        Path s = csv("s.csv", 20, 0, 1);
        Path t = csv("t.csv", 12, 0.5, 2);
        CliHarness.Result text = CliHarness.run("run", "--method", "source-only", "--source", s.toString(), "--target", t.toString(),
                "--label-column", "label");
        assertThat(text.code()).as(text.err()).isZero();
        assertThat(text.out()).containsPattern("accuracy: +[0-9.]+ % \\(balanced accuracy [0-9.]+ %; AUC 0\\.[0-9]{3}\\)");
        CliHarness.Result json = CliHarness.run("run", "--method", "source-only", "--source", s.toString(), "--target", t.toString(),
                "--label-column", "label", "--json");
        JsonNode r = Json.MAPPER.readTree(json.out()).get("results").get(0);
        double bal = r.get("balanced_accuracy_mean").asDouble();
        assertThat(bal).isBetween(0.0, 1.0);
        assertThat(r.get("balanced_accuracies")).hasSize(1);
        // the AUC of the source model's scores: the shift is on the first feature, so it ranks well above chance
        assertThat(r.get("aucs")).hasSize(1);
        assertThat(r.get("auc_mean").asDouble()).isBetween(0.7, 1.0);
        // balanced rows: accuracy alone
        Path sb = csv("sb.csv", 100, 0, 3);
        Path tb = csv("tb.csv", 100, 0.5, 4);
        CliHarness.Result balanced = CliHarness.run("run", "--method", "source-only", "--source", sb.toString(), "--target",
                tb.toString(), "--label-column", "label", "--json");
        JsonNode rb = Json.MAPPER.readTree(balanced.out()).get("results").get(0);
        assertThat(rb.has("balanced_accuracy_mean")).isFalse();
        assertThat(rb.get("aucs")).hasSize(1); // every two-class result with scores has its AUC in the JSON
        // PRIMA's composite model gives classes only: no AUC
        CliHarness.Result prima = CliHarness.run("run", "--method", "prima", "--source", s.toString(), "--target", t.toString(),
                "--label-column", "label", "--epsilon", "2", "--seed", "1", "--source-public", "size,classes", "--json");
        assertThat(prima.code()).as(prima.err()).isZero();
        assertThat(Json.MAPPER.readTree(prima.out()).get("results").get(0).has("aucs")).isFalse();
    }

    @Test
    void benchTableShowsItBesideAccuracyAndTheJsonRoundTrips() throws Exception {
        Report.TaskResult imb = new Report.TaskResult("Fol->Bare", "foliated", "bare-earth", "source-only", null, 2, 0.93, 0.01,
                List.of(0.92, 0.94), Map.of()).withBalancedAccuracies(List.of(0.5, 0.6)).withAucs(List.of(0.75, 0.85));
        Report.TaskResult other = new Report.TaskResult("Bare->Fol", "bare-earth", "foliated", "source-only", null, 2, 0.94, 0.0,
                List.of(0.94, 0.94), Map.of()).withBalancedAccuracies(List.of(0.7, 0.7));
        String md = Markdown.resultsTable("landmine", List.of(imb, other));
        assertThat(md).contains("| Fol->Bare | 93.0 ± 1.0 (bal. 55.0 ± 7.1; AUC 0.800) |").contains("| **average** | **93.5** (bal. **62.5**) |")
                .contains("bal. = balanced accuracy");
        Report.TaskResult plain = new Report.TaskResult("A->W", "a", "w", "coral", null, 1, 0.8, 0.0, List.of(0.8), Map.of());
        assertThat(Markdown.resultsTable("office", List.of(plain))).doesNotContain("bal.");
        JsonNode n = Json.MAPPER.readTree(Json.write(imb));
        assertThat(n.get("balanced_accuracy_mean").asDouble()).isCloseTo(0.55, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(Json.MAPPER.treeToValue(n, Report.TaskResult.class).balancedAccuracies()).containsExactly(0.5, 0.6);
        assertThat(Json.MAPPER.treeToValue(n, Report.TaskResult.class).aucs()).containsExactly(0.75, 0.85);
        assertThat(n.get("auc_mean").asDouble()).isCloseTo(0.8, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(Json.MAPPER.readTree(Json.write(plain)).has("balanced_accuracies")).isFalse();
    }
}
