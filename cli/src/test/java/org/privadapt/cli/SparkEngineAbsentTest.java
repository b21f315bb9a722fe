package org.privadapt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cli module has no Spark on its classpath (as the plain jar): {@code --engine spark} stops before anything is read,
 * spent or written, with exit code 6 and the spark-submit command; misused engine options are usage errors.
 */
class SparkEngineAbsentTest {
    @TempDir
    Path dir;

    @Test
    void theSparkEngineWithoutSparkGivesTheSparkSubmitCommandAndWritesNothing() {
        Path out = dir.resolve("r.json");
        Path ledger = dir.resolve("t.ledger");
        CliHarness.Result r = CliHarness.run("target", "release", "--engine", "spark", "--method", "prima", "--data", "parquet:/lake/t",
                "--feature-columns", "a,b", "--spark-master", "local[2]", "--epsilon", "1", "--ledger", ledger.toString(), "--out", out.toString());
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.ENGINE);
        assertThat(r.err().lines().toList()).singleElement().asString()
                .contains("Apache Spark is not on the classpath")
                .contains("spark-submit --class org.privadapt.cli.Main ")
                .contains("privadapt-spark.jar target release --engine spark --method prima --data parquet:/lake/t --feature-columns a,b "
                        + "--spark-master 'local[2]'");
        assertThat(out).doesNotExist();
        assertThat(ledger).doesNotExist();
    }

    @Test
    void engineOptionsOutOfPlaceAreUsageErrors() {
        String out = dir.resolve("r.json").toString();
        CliHarness.Result r = CliHarness.run("target", "release", "--engine", "spark", "--method", "prima", "--data", "parquet:/lake/t",
                "--epsilon", "1", "--out", out);
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--feature-columns");
        r = CliHarness.run("target", "release", "--method", "prima", "--data", "t.csv", "--spark-master", "yarn", "--epsilon", "1", "--out", out);
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--spark-master applies with --engine spark only");
        r = CliHarness.run("target", "release", "--method", "prima", "--data", "parquet:/lake/t", "--epsilon", "1", "--out", out);
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("read with --engine spark");
        r = CliHarness.run("target", "release", "--engine", "spark", "--method", "prima", "--data", "/lake/t.csv", "--feature-columns", "a",
                "--epsilon", "1", "--out", out);
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("parquet:PATH, csv:PATH");
        r = CliHarness.run("target", "release", "--engine", "flink", "--method", "prima", "--data", "t.csv", "--epsilon", "1", "--out", out);
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(dir.resolve("r.json")).doesNotExist();
    }
}
