package org.privadapt.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;
import static org.assertj.core.api.Assertions.withinPercentage;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.cli.report.Json;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.ledger.BudgetLedger;

class PrivacyCommandTest {
    @TempDir
    Path dir;

    static JsonNode json(String... args) throws Exception {
        CliHarness.Result r = CliHarness.run(args);
        assertThat(r.code()).as(r.err()).isZero();
        return Json.MAPPER.readTree(r.out());
    }

    @Test
    void epsilonOfTheOpacusSetting() throws Exception {
        JsonNode j = json("privacy", "epsilon", "--noise-multiplier", "1.5", "--sample-rate", "0.04", "--steps", "2250",
                "--delta", "1e-5", "--json");
        assertThat(j.get("epsilon").asDouble()).isCloseTo(7.3291111714386545, withinPercentage(1e-4));
        assertThat(j.get("delta").asDouble()).isEqualTo(1e-5);
        assertThat(j.get("accountant").asText()).isEqualTo("rdp");
        assertThat(j.get("order").asDouble()).isEqualTo(3.9);
    }

    @Test
    void rdpPerOrderForOneStep() throws Exception {
        JsonNode j = json("privacy", "rdp", "--noise-multiplier", "2.5", "--sample-rate", "0.01", "--orders", "1.5,2.5,50",
                "--json");
        // one step is 1/50 of dp_accounting's 50-step values (exact values at the fractional orders)
        assertThat(j.get("rdp").get(0).asDouble()).isCloseTo(6.500708971867e-04 / 50, withinPercentage(1e-6));
        assertThat(j.get("rdp").get(1).asDouble()).isCloseTo(1.085418056917e-03 / 50, withinPercentage(1e-6));
        assertThat(j.get("rdp").get(2).asDouble()).isCloseTo(2.38460375e-02 / 50, withinPercentage(1e-5));
    }

    @Test
    void sigmaNeverOvershoots() throws Exception {
        JsonNode j = json("privacy", "sigma", "--epsilon", "8", "--delta", "1e-5", "--sample-rate", "0.04", "--steps", "2250",
                "--json");
        double s = j.get("noise_multiplier").asDouble();
        assertThat(s).isCloseTo(1.416, offset(2e-3));
        JsonNode back = json("privacy", "epsilon", "--noise-multiplier", Double.toString(s), "--sample-rate", "0.04",
                "--steps", "2250", "--delta", "1e-5", "--json");
        assertThat(back.get("epsilon").asDouble()).isLessThanOrEqualTo(8.0);
    }

    @Test
    void gaussianClassicAndAnalytic() throws Exception {
        JsonNode a = json("privacy", "gaussian", "--epsilon", "1", "--delta", "1e-5", "--sensitivity", "1", "--analytic", "--json");
        assertThat(a.get("sigma").asDouble()).isCloseTo(3.7306, offset(1e-3));
        assertThat(a.get("exact_delta").asDouble()).isLessThanOrEqualTo(1e-5);
        JsonNode c = json("privacy", "gaussian", "--epsilon", "0.5", "--delta", "1e-5", "--sensitivity", "2", "--json");
        assertThat(c.get("sigma").asDouble()).isCloseTo(2 * Math.sqrt(2 * Math.log(1.25e5)) / 0.5, offset(1e-12));
        CliHarness.Result refused = CliHarness.run("privacy", "gaussian", "--epsilon", "2", "--delta", "1e-5", "--sensitivity", "1");
        assertThat(refused.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(refused.err()).contains("epsilon < 1");
    }

    @Test
    void badArgumentsAreUsageErrors() {
        assertThat(CliHarness.run("privacy", "epsilon", "--noise-multiplier", "1", "--sample-rate", "2", "--steps", "10",
                "--delta", "1e-5").code()).isEqualTo(ExitCodes.USAGE);
        assertThat(CliHarness.run("privacy", "epsilon", "--noise-multiplier", "1", "--sample-rate", "0.1", "--steps", "10",
                "--delta", "1").code()).isEqualTo(ExitCodes.USAGE);
        assertThat(CliHarness.run("privacy", "epsilon", "--noise-multiplier", "1", "--sample-rate", "0.1", "--steps", "10",
                "--delta", "1e-5", "--accountant", "magic").err()).contains("unknown accountant 'magic'");
    }

    @Test
    void ledgerIsPrintedWithItsTotalAndTamperingIsAnArtifactError() throws Exception {
        Path f = dir.resolve("target.ledger.json");
        BudgetLedger l = BudgetLedger.openOrCreate(f, "target", new PrivacyBudget(3, 1e-5), NeighbouringRelation.ADD_OR_REMOVE_ONE);
        l.charge(new BudgetLedger.Charge("covariance release", "Gaussian symmetric matrix", new GaussianEvent(4),
                Map.of("sigma", 4.0), "AES-256-CTR", true));
        l.charge(new BudgetLedger.Charge("second release", "Gaussian symmetric matrix", new GaussianEvent(4),
                Map.of("sigma", 4.0), "AES-256-CTR", true));
        CliHarness.Result r = CliHarness.run("privacy", "ledger", f.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("party target").contains("covariance release").contains("total: epsilon")
                .contains("eps alone").contains("eps total").endsWith("\n");
        // the sampler is listed once, not on every entry; each entry's own epsilon equals the first's
        assertThat(r.out().split("AES-256-CTR", -1)).hasSize(2);
        String[] rows = r.out().lines().filter(x -> x.matches("  [12] .*")).toArray(String[]::new);
        assertThat(rows).hasSize(2);
        assertThat(rows[0].split("\\s+")[4]).isEqualTo(rows[1].split("\\s+")[4]);
        assertThat(r.out().lines().mapToInt(String::length).max().orElse(0)).isLessThan(130);
        JsonNode j = json("privacy", "ledger", f.toString(), "--json");
        assertThat(j.get("entries")).hasSize(2);
        assertThat(j.get("epsilon_spent").asDouble()).isPositive().isLessThan(3);
        Files.writeString(f, Files.readString(f).replace("covariance release", "something else"));
        CliHarness.Result bad = CliHarness.run("privacy", "ledger", f.toString());
        assertThat(bad.code()).isEqualTo(ExitCodes.ARTIFACT);
        assertThat(bad.err()).contains("hash chain");
    }

    @Test
    void statementAgreesWithTheAccountantsAndStatesItsCaveats() throws Exception {
        String[] a = {"privacy", "statement", "--n", "60000", "--batch", "256", "--epochs", "15", "--noise-multiplier", "1.1",
            "--delta", "1e-5", "--json"};
        JsonNode st = json(a);
        assertThat(st.get("steps").asLong()).isEqualTo(3516); // ceil(15 * 60000 / 256)
        JsonNode rdp = json("privacy", "epsilon", "--noise-multiplier", "1.1", "--sample-rate", Double.toString(256.0 / 60000),
                "--steps", "3516", "--delta", "1e-5", "--json");
        JsonNode pld = json("privacy", "epsilon", "--noise-multiplier", "1.1", "--sample-rate", Double.toString(256.0 / 60000),
                "--steps", "3516", "--delta", "1e-5", "--accountant", "pld", "--json");
        assertThat(st.get("epsilon_poisson_rdp").asDouble()).isEqualTo(rdp.get("epsilon").asDouble());
        assertThat(st.get("epsilon_poisson_pld").asDouble()).isEqualTo(pld.get("epsilon").asDouble());
        // without amplification by sampling the same noise protects far less
        assertThat(st.get("epsilon_once_per_epoch").asDouble()).isGreaterThan(5 * st.get("epsilon_poisson_pld").asDouble());
        JsonNode k1 = json("privacy", "statement", "--n", "60000", "--batch", "256", "--epochs", "15", "--noise-multiplier",
                "1.1", "--delta", "1e-5", "--max-examples-per-user", "1", "--json");
        assertThat(k1.get("user_epsilon_once_per_epoch").asDouble()).isEqualTo(st.get("epsilon_once_per_epoch").asDouble());
        JsonNode k3 = json("privacy", "statement", "--n", "60000", "--batch", "256", "--epochs", "15", "--noise-multiplier",
                "1.1", "--delta", "1e-5", "--max-examples-per-user", "3", "--json");
        assertThat(k3.get("user_epsilon_poisson").asDouble()).isGreaterThan(st.get("epsilon_poisson_rdp").asDouble())
                .isLessThan(3 * 3 * st.get("epsilon_poisson_rdp").asDouble());
        assertThat(k3.get("user_epsilon_once_per_epoch").asDouble()).isGreaterThan(k1.get("user_epsilon_once_per_epoch").asDouble());
        CliHarness.Result text = CliHarness.run(java.util.Arrays.copyOf(a, a.length - 1));
        assertThat(text.out()).contains("Poisson sampling (*)").contains("once per epoch").contains("checkpoints");
        assertThat(CliHarness.run("privacy", "statement", "--n", "10", "--batch", "20", "--epochs", "1", "--noise-multiplier", "1",
                "--delta", "1e-5").code()).isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void inspectShowsAnArtifactWithoutBase64AndRefusesADamagedOne() throws Exception {
        var p = org.privadapt.data.synthetic.SyntheticShift.generate(
                new org.privadapt.data.synthetic.SyntheticShift.Config(6, 3, 40, 40, 4.0, 2.0, 1.0), 3);
        PrivateRunTest h = new PrivateRunTest();
        h.dir = dir;
        Path tgt = h.writeCsv("t.csv", p.target());
        Path rel = dir.resolve("release.json");
        CliHarness.Result r = CliHarness.run("target", "release", "--method", "prima", "--data", tgt.toString(), "--epsilon", "2",
                "--delta", "1e-4", "--ledger", dir.resolve("t.ledger").toString(), "--out", rel.toString(), "--seed", "3",
                "--public", "size,classes");
        assertThat(r.code()).as(r.err()).isZero();
        CliHarness.Result in = CliHarness.run("inspect", rel.toString());
        assertThat(in.code()).as(in.err()).isZero();
        assertThat(in.out()).contains("release artifact").contains("method prima").contains("party target")
                .contains("(valid)").contains("epsilon_spent").contains("event 1:").contains("array of");
        assertThat(in.out()).doesNotContainPattern("[A-Za-z0-9+/]{60,}"); // no base64 blob
        JsonNode j = json("inspect", rel.toString(), "--json");
        assertThat(j.get("kind").asText()).isEqualTo("release");
        assertThat(j.toString()).contains("characters omitted");
        CliHarness.Result ledger = CliHarness.run("inspect", dir.resolve("t.ledger").toString());
        assertThat(ledger.out()).contains("eps total");
        Files.writeString(rel, Files.readString(rel).replace("\"prima\"", "\"prisa\""));
        CliHarness.Result bad = CliHarness.run("inspect", rel.toString());
        assertThat(bad.code()).isEqualTo(ExitCodes.ARTIFACT);
        assertThat(bad.err()).contains("checksum");
    }
}
