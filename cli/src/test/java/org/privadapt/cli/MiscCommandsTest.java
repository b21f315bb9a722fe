package org.privadapt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.cli.report.Json;

class MiscCommandsTest {
    @TempDir
    Path dir;

    @Test
    void datasetsReportsMissingFilesUnderAnEmptyRoot() throws Exception {
        CliHarness.Result r = CliHarness.run("datasets", "--data-root", dir.toString());
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("office-caltech10  [MISSING]").contains("missing: " + dir);
        CliHarness.Result j = CliHarness.run("datasets", "--data-root", dir.toString(), "--json", "--no-load");
        JsonNode s = null;
        JsonNode office = null;
        for (JsonNode x : Json.MAPPER.readTree(j.out()).get("suites")) {
            if (x.get("name").asText().equals("amazon-reviews")) {
                s = x;
            } else if (x.get("name").asText().equals("office-caltech10")) {
                office = x;
            }
        }
        assertThat(s).isNotNull();
        assertThat(s.get("present").asBoolean()).isFalse();
        assertThat(s.get("domains").get(1).get("expectedRows").asInt()).isEqualTo(4465);
        // each domain names its own missing file, not the suite's first
        assertThat(s.get("domains").get(1).get("error").asText()).endsWith("books_test.svmlight").doesNotContain(",");
        assertThat(office.get("domains").get(1).get("error").asText()).endsWith("Caltech10_SURF_L10.mat");
    }

    @Test
    void benchOnAMissingSuiteIsADataErrorAndAnUnknownOneAUsageError() {
        CliHarness.Result r = CliHarness.run("bench", "office-caltech10", "--data-root", dir.toString());
        assertThat(r.code()).isEqualTo(ExitCodes.DATA);
        assertThat(r.err()).contains("amazon_SURF_L10.mat: no such file");
        // an unknown suite is a wrong choice on the command line, like an unknown method: exit 2
        CliHarness.Result u = CliHarness.run("bench", "mnist");
        assertThat(u.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(u.err()).contains("unknown suite 'mnist'").contains("mnist-usps");
        assertThat(CliHarness.run("bench", "office-caltech10", "--methods", "nope").code()).isEqualTo(ExitCodes.USAGE);
        // a plot that cannot be written is refused before anything runs (a plain bench now plots bars: issue 33)
        assertThat(CliHarness.run("bench", "office-caltech10", "--plot", dir.toString()).code()).isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void linalgBenchSmokeTestComparesBackends() throws Exception {
        CliHarness.Result r = CliHarness.run("bench", "linalg", "--quick", "--backends", "netlib-java,ejml", "--json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode cells = Json.MAPPER.readTree(r.out()).get("cells");
        assertThat(cells).hasSize(2 * 13); // 13 operations x size pairs per backend
        assertThat(cells.get(0).get("operation").asText()).contains("gemm");
        assertThat(cells.get(0).get("gflops").asDouble()).isPositive();
    }

    @Test
    void helpAndVersion() {
        CliHarness.Result h = CliHarness.run("--help");
        assertThat(h.code()).isZero();
        assertThat(h.out()).contains("demo").contains("run").contains("datasets").contains("privacy").contains("bench")
                .contains("Exit codes");
        assertThat(CliHarness.run("--version").out()).startsWith("privadapt ");
    }

    /** Issue 15.10: a command group without a subcommand prints its usage to standard error and exits 2. */
    @Test
    void aCommandGroupWithoutSubcommandIsAUsageError() {
        for (String[] args : new String[][] {{}, {"privacy"}, {"source"}, {"target"}}) {
            CliHarness.Result r = CliHarness.run(args);
            assertThat(r.code()).as(String.join(" ", args)).isEqualTo(ExitCodes.USAGE);
            assertThat(r.err()).contains("Usage:");
            assertThat(r.out()).isEmpty();
        }
        CliHarness.Result help = CliHarness.run("run", "--help");
        assertThat(help.code()).isZero();
        assertThat(help.out()).contains("--classifier=lr|dnn");
    }

    /** Issue 15.10: no noise is infinite epsilon, said in words, without a NaN order. */
    @Test
    void zeroNoiseSaysInfinityWithoutANanOrder() {
        CliHarness.Result r = CliHarness.run("privacy", "epsilon", "--noise-multiplier", "0", "--sample-rate", "0.1", "--steps", "10",
                "--delta", "1e-5");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("epsilon = infinity").contains("no privacy").doesNotContain("NaN");
    }

    /** Issue 30's audit: a suite with no source -> target task was an IndexOutOfBounds stack trace in bench. */
    @Test
    void benchOnASuiteWithoutTasksIsAOneLineUsageError() throws Exception {
        CliHarness.Result r = CliHarness.run("bench", "iu-chest-xray", "--methods", "source-only,dp-uda-gmm", "--epsilon", "2", "--seed", "1");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("suite 'iu-chest-xray' has no source -> target task").contains("iu-chest-xray-uda")
                .doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(r.err().strip().lines().count()).isEqualTo(1);
    }

    /** privadapt audit: a bound below the claim in JSON for both relations; an unknown release is a usage error. */
    @Test
    void auditPrintsALowerBoundBelowTheClaim() throws Exception {
        CliHarness.Result r = CliHarness.run("audit", "--trials", "20000", "--seed", "3", "--json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode a = Json.MAPPER.readTree(r.out()).get("audits");
        assertThat(a).hasSize(2);
        for (JsonNode x : a) {
            assertThat(x.get("empirical_epsilon_lower_bound").asDouble()).isBetween(0.0, 2.0);
            assertThat(x.get("noise").asText()).contains("NOT PRIVATE");
        }
        CliHarness.Result bad = CliHarness.run("audit", "--release", "nonsense");
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.err()).contains("auditable: ncm, lda");
    }

    /**
     * Several releases and epsilons in one call, with the plot: a PNG beside the table; a release stated under
     * replace-one only is skipped under "both" and refused under add/remove; a plot file that is not .png is refused
     * before anything runs.
     */
    @Test
    void auditOfSeveralReleasesWritesThePlot(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path png = dir.resolve("audit.png");
        CliHarness.Result r = CliHarness.run("audit", "--release", "ncm,dpot-record", "--epsilon", "1,2", "--trials", "400", "--seed", "3",
                "--plot", png.toString(), "--json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode a = Json.MAPPER.readTree(r.out()).get("audits");
        assertThat(a).hasSize(6); // ncm: 2 epsilons x 2 relations; dpot-record: 2 epsilons x replace-one
        assertThat(a.get(4).get("release").asText()).isEqualTo("dpot-record");
        assertThat(a.get(4).get("relation").asText()).contains("replace");
        byte[] head = java.util.Arrays.copyOf(java.nio.file.Files.readAllBytes(png), 4);
        assertThat(head).containsExactly(0x89, 'P', 'N', 'G');
        CliHarness.Result refused = CliHarness.run("audit", "--release", "dpot-record", "--relation", "add-remove");
        assertThat(refused.code()).isEqualTo(2);
        assertThat(refused.err()).contains("replace one record");
        CliHarness.Result badPlot = CliHarness.run("audit", "--plot", dir.resolve("a.svg").toString());
        assertThat(badPlot.code()).isEqualTo(2);
        assertThat(java.nio.file.Files.exists(dir.resolve("a.svg"))).isFalse();
    }

    /** Issue 33: one message for non-finite, absurd, negative and non-numeric budgets, before anything runs. */
    @Test
    void everyEpsilonOptionHasOneRangeMessage() {
        for (String e : new String[] {"Infinity", "1e308", "NaN", "-1", "0"}) {
            for (String[] cmd : new String[][] {{"demo", "--epsilon", e}, {"run", "--method", "dp-source-only", "--source", "a.csv",
                    "--target", "b.csv", "--epsilon", e}, {"audit", "--epsilon", e}}) {
                CliHarness.Result r = CliHarness.run(cmd);
                assertThat(r.code()).as("%s %s", String.join(" ", cmd), r.err()).isEqualTo(2);
                assertThat(r.err()).as(String.join(" ", cmd)).contains("--epsilon must be a finite number in (0, 1000]");
                assertThat(r.err().strip().lines().count()).isEqualTo(1);
            }
        }
    }

    /** Issue 33: a billion runs was accepted and ran 75 s to an OutOfMemoryError; refused up front now. */
    @Test
    void absurdRunCountsAreRefusedUpFront() {
        CliHarness.Result r = CliHarness.run("run", "--method", "source-only", "--source", "/nonexistent/a.csv", "--target",
                "/nonexistent/b.csv", "--runs", "1000000000");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("--runs must be in [1, 10000]");
        assertThat(r.err().strip().lines().count()).isEqualTo(1);
    }
}
