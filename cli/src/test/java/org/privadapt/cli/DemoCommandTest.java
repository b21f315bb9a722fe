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
    void humanOutputNamesBothMethods() {
        CliHarness.Result r = CliHarness.run("demo");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("source-only").contains("coral").contains("CORAL beats source-only");
    }

    @Test
    void badDemoArgumentsAreUsageErrors() {
        CliHarness.Result r = CliHarness.run("demo", "--classes", "1");
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err().strip().lines().count()).isEqualTo(1);
    }
}
