package org.privadapt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.cli.report.Json;

/** {@code bench dpot-wasserstein} on the real DSLR -> Webcam pair (small: 157 x 295 rows); skipped without the data. */
class DpotBenchCliTest {
    @TempDir
    Path dir;

    @Test
    void wassersteinErrorGrowsWithTheNoiseRatioAndWritesItsPlot() throws Exception {
        RealDataCliTest.requireFile("office-caltech10/surf/dslr_SURF_L10.mat");
        RealDataCliTest.requireFile("office-caltech10/surf/webcam_SURF_L10.mat");
        Path png = dir.resolve("fig2.png");
        CliHarness.Result r = CliHarness.run("bench", "dpot-wasserstein", "--tasks", "D:W", "--runs", "2", "--minibatches", "3",
                "--seed", "1", "--plot", png.toString(), "--json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode rows = Json.MAPPER.readTree(r.out()).get("rows");
        assertThat(rows).hasSize(8);
        assertThat(rows.get(0).get("noise_ratio").asDouble()).isZero();
        for (JsonNode row : rows) {
            assertThat(row.get("whole_mean").asDouble()).isFinite().isNotNegative();
            assertThat(row.get("minibatch_mean").asDouble()).isFinite().isNotNegative();
        }
        // sigma/w = 1.6 against no noise: the error must grow (noise of the order of the projected rows' scale)
        assertThat(rows.get(7).get("whole_mean").asDouble()).isGreaterThan(rows.get(0).get("whole_mean").asDouble());
        assertThat(Files.size(png)).isPositive();
    }

    @Test
    void badSettingsAreUsageErrorsAndWriteNothing() {
        RealDataCliTest.requireFile("office-caltech10/surf/dslr_SURF_L10.mat");
        Path png = dir.resolve("never.png");
        for (String[] bad : new String[][] {{"--param", "reg=abc"}, {"--param", "reg=0"}, {"--tasks", "D:X"}, {"--tasks", "D"}}) {
            String[] args = new String[] {"bench", "dpot-wasserstein", "--runs", "2", "--minibatches", "1", "--plot", png.toString(),
                    bad[0], bad[1]};
            CliHarness.Result r = CliHarness.run(args);
            assertThat(r.code()).as(String.join(" ", bad) + ": " + r.err()).isEqualTo(ExitCodes.USAGE);
            assertThat(r.err()).isNotBlank();
        }
        assertThat(png).doesNotExist();
    }

    /** Issue 33: an explicit --runs 1 is honoured (it silently became 20), and without --seed the noise is secure. */
    @Test
    void runsOneIsHonouredAndNoSeedMeansSecureNoise() throws Exception {
        RealDataCliTest.requireFile("office-caltech10/surf/dslr_SURF_L10.mat");
        RealDataCliTest.requireFile("office-caltech10/surf/webcam_SURF_L10.mat");
        CliHarness.Result r = CliHarness.run("bench", "dpot-wasserstein", "--tasks", "D:W", "--runs", "1", "--minibatches", "1", "--json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode j = Json.MAPPER.readTree(r.out());
        assertThat(j.get("whole_batch_runs").asInt()).isEqualTo(1);
        assertThat(j.get("noise").asText()).isEqualTo("secure");
        assertThat(r.err()).doesNotContain("seeded noise requested");
    }
}
