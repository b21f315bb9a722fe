package org.privadapt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.cli.report.Json;

/** Issue 29 deliverable 4 through the CLI: a run that leaves budget unspent says so, and why; one that spends it does not. */
class AdversarialBudgetCliTest {
    @TempDir
    Path dir;

    CliHarness.Result dpda(String... extra) throws Exception {
        PrivateRunTest csv = new PrivateRunTest();
        csv.dir = dir;
        Path[] st = csv.csvPair();
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("run", "--method", "dpda", "--target-public",
                "size,schema", "--source", st[0].toString(), "--target", st[1].toString(), "--preprocess", "clip=10", "--epsilon", "4",
                "--seed", "5", "--param", "epochs=2", "--param", "hidden=4"));
        args.addAll(java.util.List.of(extra));
        return CliHarness.run(args.toArray(String[]::new));
    }

    @Test
    void aFixedSigmaLeavesBudgetUnspentAndTheRunSaysWhy() throws Exception {
        CliHarness.Result text = dpda("--param", "sigma=8");
        assertThat(text.code()).as(text.err()).isZero();
        assertThat(text.out()).containsPattern("note: +budget left unspent: dpda on .*: target spent eps [0-9.e-]+ of 4 \\(\\d+ %\\); "
                + "spent eps .* of 4 \\(target\\): sigma fixed by --param sigma");
        CliHarness.Result json = dpda("--param", "sigma=8", "--json");
        JsonNode report = Json.MAPPER.readTree(json.out());
        JsonNode res = report.get("results").get(0);
        assertThat(res.get("privacy").get("target").get("epsilon_requested").asDouble()).isEqualTo(4.0);
        assertThat(res.get("diagnostics").get(0).get("budget_unspent").asText()).endsWith("sigma fixed by --param sigma");
        assertThat(res.get("diagnostics").get(0).get("sigma_choice").asText()).startsWith("fixed by --param sigma");
        assertThat(report.get("warnings").toString()).contains("budget left unspent: dpda");
    }

    @Test
    void theDefaultSpendsTheBudgetAndSaysHowSigmaWasChosen() throws Exception {
        CliHarness.Result json = dpda("--json");
        assertThat(json.code()).as(json.err()).isZero();
        JsonNode report = Json.MAPPER.readTree(json.out());
        JsonNode res = report.get("results").get(0);
        assertThat(res.get("privacy").get("target").get("epsilon").asDouble()).isLessThanOrEqualTo(4.0).isGreaterThanOrEqualTo(0.99 * 4);
        JsonNode d = res.get("diagnostics").get(0);
        assertThat(d.get("sigma_choice").asText()).startsWith("calibrated to the budget");
        assertThat(d.has("budget_unspent")).isFalse();
        assertThat(report.get("warnings").toString()).doesNotContain("budget left unspent");
        CliHarness.Result text = dpda();
        assertThat(text.out()).doesNotContain("budget left unspent");
    }
}
