package org.privadapt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.privadapt.cli.report.Json;

class DemoCommandTest {
    @Test
    void demoShowsCoralClearlyBeatingSourceOnly() throws Exception {
        CliHarness.Result r = CliHarness.run("demo", "--json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode json = Json.MAPPER.readTree(r.out());
        JsonNode results = json.get("results");
        assertThat(results.get(0).get("method").asText()).isEqualTo("source-only");
        assertThat(results.get(1).get("method").asText()).isEqualTo("coral");
        double so = results.get(0).get("accuracy_mean").asDouble();
        double co = results.get(1).get("accuracy_mean").asDouble();
        assertThat(co - so).as("CORAL gain on the embedded default").isGreaterThan(0.05);
        assertThat(results.get(1).get("privacy").get("target").get("private").asBoolean()).isFalse();
    }

    @Test
    void humanOutputShowsThePrivateMethodsWithTheirPrivacyStatements() {
        CliHarness.Result r = CliHarness.run("demo");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("source-only").contains("coral").contains("CORAL beats source-only")
                .contains("dp-source-only").contains("prima").contains("source (eps=").contains("target (eps=2")
                .contains("secure source").doesNotContain("NOT PRIVATE");
    }

    @Test
    void privateMethodsSpendAtMostEpsilonTwoAndLearnSomething() throws Exception {
        CliHarness.Result r = CliHarness.run("demo", "--json", "--seed", "5");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode results = Json.MAPPER.readTree(r.out()).get("results");
        assertThat(results).hasSize(4);
        for (int i = 2; i < 4; i++) {
            JsonNode res = results.get(i);
            assertThat(res.get("method").asText()).isEqualTo(i == 2 ? "dp-source-only" : "prima");
            JsonNode src = res.get("privacy").get("source");
            assertThat(src.get("epsilon").asDouble()).isPositive().isLessThanOrEqualTo(2.0 + 1e-9);
            // four classes: chance is 25 %; with seeded noise (fixed) both reach well above it
            assertThat(res.get("accuracy_mean").asDouble()).isGreaterThan(0.45);
        }
        assertThat(results.get(3).get("privacy").get("target").get("epsilon").asDouble()).isLessThanOrEqualTo(2.0 + 1e-9);
        CliHarness.Result text = CliHarness.run("demo", "--seed", "5");
        assertThat(text.out()).contains("NOT PRIVATE");
    }

    @Test
    void badDemoArgumentsAreUsageErrors() {
        CliHarness.Result r = CliHarness.run("demo", "--classes", "1");
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err().strip().lines().count()).isEqualTo(1);
    }

    /**
     * Issue 30: the demo names the best private pipeline of the run, and --private-methods runs others (here paper
     * 004's dp-uda-gmm) with their own privacy statements; an unknown name is a one-line usage error.
     */
    @Test
    void theDemoNamesTheBestPrivatePipelineAndRunsOthersOnRequest() throws Exception {
        CliHarness.Result r = CliHarness.run("demo", "--seed", "5", "--private-methods", "dp-source-only,dp-uda-gmm", "--json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode results = Json.MAPPER.readTree(r.out()).get("results");
        assertThat(results).hasSize(4);
        assertThat(results.get(3).get("method").asText()).isEqualTo("dp-uda-gmm");
        assertThat(results.get(3).get("privacy").get("source").get("epsilon").asDouble()).isPositive().isLessThanOrEqualTo(2.0 + 1e-9);
        double a = results.get(2).get("accuracy_mean").asDouble();
        double b = results.get(3).get("accuracy_mean").asDouble();
        CliHarness.Result text = CliHarness.run("demo", "--seed", "5", "--private-methods", "dp-source-only,dp-uda-gmm");
        assertThat(text.out()).contains("Best private pipeline in this run: " + (a >= b ? "dp-source-only" : "dp-uda-gmm"))
                .doesNotContain("PRIMA adapts");
        CliHarness.Result bad = CliHarness.run("demo", "--private-methods", "nope");
        assertThat(bad.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(bad.err().strip().lines().count()).isEqualTo(1);
    }
}
