package org.privadapt.cli.commands;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.cli.Main;

/**
 * {@code bench scale} on a tiny cell (no timing is checked: speed is the benchmark's business): every engine that can
 * run here reports a time and its own peak heap and RSS from its child JVM; the Spark column, with no Spark on this
 * module's classpath, says what it needs and does not fail the bench; the generated CSV is what the loaders read.
 */
class ScaleBenchTest {
    @TempDir
    Path dir;

    @Test
    void aTinyCellRunsEveryEngineInAChildJvmAndTheSparkColumnSaysWhatItNeeds() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Path json = dir.resolve("scale.json");
        int code = Main.execute(new String[] {"bench", "scale", "--sizes", "300x5", "--out", json.toString()}, new PrintWriter(out),
                new PrintWriter(err));
        assertThat(code).as(err.toString()).isZero();
        JsonNode cells = new ObjectMapper().readTree(json.toFile()).get("cells");
        List<String> seen = new ArrayList<>();
        for (JsonNode c : cells) {
            String what = c.get("engine").asText() + " " + c.get("release").asText();
            seen.add(what);
            if (c.get("engine").asText().equals("spark")) {
                assertThat(c.path("seconds").isMissingNode() || c.path("seconds").isNull()).as(what).isTrue();
                assertThat(c.get("note").asText()).as(what).contains("privadapt-spark.jar");
            } else {
                assertThat(c.get("seconds").asDouble()).as(what + ": " + c).isPositive();
                assertThat(c.get("peakHeapMb").asDouble()).as(what + ": " + c).isPositive();
                assertThat(c.get("peakRssMb").asDouble()).as(what + ": " + c).isGreaterThanOrEqualTo(c.get("peakHeapMb").asDouble() / 4);
            }
        }
        assertThat(seen).containsExactly("load prima", "load ncm", "stream prima", "stream ncm", "spark prima", "spark ncm");
        assertThat(out.toString()).contains("| 300 | 5 |").contains("Spark: not run");
        assertThat(err.toString()).contains("bench scale: 300 x 5, stream prima: ");
    }

    @Test
    void theGeneratedRowsAreWhatTheLoaderReads() throws Exception {
        Path csv = dir.resolve("rows.csv");
        ScaleBench.write(csv, 40, 3, 1);
        org.privadapt.data.Dataset d = org.privadapt.data.io.DataFiles.load(csv, "rows", org.privadapt.data.io.DataFiles.Options.DEFAULT);
        assertThat(d.size()).isEqualTo(40);
        assertThat(d.dimension()).isEqualTo(3);
        assertThat(((org.privadapt.data.ClassLabels) d.labels().orElseThrow()).names()).isEqualTo(ScaleBench.CLASSES);
        assertThat(Files.readAllLines(csv).get(1)).matches("(-?[0-9]\\.[0-9]{4},){3}a");
    }
}
