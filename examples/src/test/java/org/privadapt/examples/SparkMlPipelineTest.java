package org.privadapt.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the Spark ML pipeline example on local[2] (issue 45 item 3) and checks what it prints. */
class SparkMlPipelineTest {
    @TempDir
    Path dir;

    @Test
    void thePipelinesFitSaveLoadAndPredictChargingEachLedgerOnce() throws Exception {
        String out = ExamplesTest.capture(() -> SparkMlPipeline.main(new String[] {dir.toString()}));
        assertThat(ExamplesTest.percent(out, "target accuracy")).as(out).isGreaterThan(50); // 3 classes: chance is 33 %
        assertThat(out).contains("400 rows, predicted by the loaded pipeline").contains("model privacy block: differentially private");
        assertThat(out).containsPattern("target.ledger: spent epsilon 2\\.0000 of 2\\.0 in \\d+ release")
                .containsPattern("source.ledger: spent epsilon 2\\.0000 of 2\\.0 in \\d+ release");
        assertThat(dir.resolve("release.json")).exists();
        assertThat(dir.resolve("source-pipeline/stages")).isDirectory();
    }
}
