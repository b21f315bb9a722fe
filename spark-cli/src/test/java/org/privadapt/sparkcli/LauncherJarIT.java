package org.privadapt.sparkcli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 45 item 4, after package: {@code ./privadapt --engine spark} runs the Spark engine itself on a local master,
 * without a Spark distribution (the classpath and flags spark-cli's package wrote), quietly, and writes the artifact
 * and ledger the plain jar writes in process. (Beside {@link EngineJarIT}'s spark-submit run, in a test JVM of its own.)
 */
class LauncherJarIT {
    @TempDir
    Path dir;

    @Test
    void theLaunchersSparkRunWritesWhatThePlainJarWritesInProcessAndNoInfoLine() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(System.getProperty("privadapt.sparkJar") != null, "runs after package (execution 'jars')");
        Path csv = SparkCliSupport.writeCsv(dir.resolve("t.csv"), 240, 5, 4);
        JarProcesses.inProcess(dir, csv);
        Path launcher = Path.of(System.getProperty("privadapt.sparkJar")).getParent().getParent().getParent().resolve("privadapt");
        List<String> cmd = new ArrayList<>(List.of(launcher.toString()));
        cmd.addAll(JarProcesses.release("csv:" + csv, dir.resolve("launched.json"), dir.resolve("launched.ledger")));
        cmd.addAll(List.of("--engine", "spark", "--spark-master", "local[1]", "--feature-columns", "f0,f1,f2,f3,f4"));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("PRIVADAPT_NO_BUILD", "1");
        pb.environment().put("PRIVADAPT_JAVA_OPTS", System.getProperty("privadapt.subprocessJvmArgs", ""));
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        JarProcesses.Proc p = JarProcesses.run(dir, pb);
        assertThat(p.code()).as(p.err()).isZero();
        assertThat(p.out()).contains("240 rows x 5 features");
        assertThat(p.err()).doesNotContain(" INFO ").doesNotContain("SparkUI");
        double worst = Math.max(SparkCliSupport.compare(dir.resolve("in.json"), dir.resolve("launched.json")),
                SparkCliSupport.compare(dir.resolve("in.ledger"), dir.resolve("launched.ledger")));
        System.out.printf("privadapt-spark-cli: the launcher's Spark run vs the plain jar: largest relative difference %.2g%n", worst);
    }
}
