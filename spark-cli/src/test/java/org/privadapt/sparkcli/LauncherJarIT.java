package org.privadapt.sparkcli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
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
        JarProcesses.Proc p = launch(csv, "launched", "0", "");
        assertThat(p.code()).as(p.err()).isZero();
        assertThat(p.out()).contains("240 rows x 5 features");
        assertThat(p.err()).doesNotContain(" INFO ").doesNotContain("SparkUI");
        double worst = Math.max(SparkCliSupport.compare(dir.resolve("in.json"), dir.resolve("launched.json")),
                SparkCliSupport.compare(dir.resolve("in.ledger"), dir.resolve("launched.ledger")));
        System.out.printf("privadapt-spark-cli: the launcher's Spark run vs the plain jar: largest relative difference %.2g%n", worst);
    }

    /**
     * The launcher's default class-data archive: the first run lists its classes and, once it has succeeded, a background
     * JVM writes the archive; the next run maps Spark's classes from it (the JVM's class-load log says so) and writes
     * the same artifact and ledger.
     */
    @Test
    void theFirstSparkRunLeavesAClassArchiveThatTheNextRunMaps() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(System.getProperty("privadapt.sparkJar") != null, "runs after package (execution 'jars')");
        Path launcherDir = launcher().getParent().resolve("spark-cli/target/launcher");
        Path jsa = launcherDir.resolve("spark.jsa");
        Path lock = launcherDir.resolve("spark.jsa.lock");
        Files.deleteIfExists(jsa);
        Path csv = SparkCliSupport.writeCsv(dir.resolve("t.csv"), 240, 5, 4);
        // a run that fails lists no classes for an archive and leaves neither its list nor the lock, with its exit code
        JarProcesses.Proc failed = launch(dir.resolve("missing.csv"), "failed", "1", "");
        assertThat(failed.code()).as(failed.err()).isEqualTo(3);
        try (var left = Files.list(launcherDir)) {
            assertThat(left.map(f -> f.getFileName().toString()).filter(f -> f.startsWith("spark.jsa"))).as("left after a failed run").isEmpty();
        }
        JarProcesses.inProcess(dir, csv);
        JarProcesses.Proc first = launch(csv, "first", "1", "");
        assertThat(first.code()).as(first.err()).isZero();
        long deadline = System.nanoTime() + 300_000_000_000L; // the dump takes about 40 s of one idle core
        while ((Files.exists(lock) || !Files.exists(jsa)) && System.nanoTime() < deadline) {
            Thread.sleep(500);
        }
        assertThat(jsa).as("the archive written after the first run").isNotEmptyFile();
        assertThat(lock).doesNotExist();
        Path classLog = dir.resolve("classes.log");
        JarProcesses.Proc second = launch(csv, "second", "1", " -Xlog:class+load=info:file=" + classLog);
        assertThat(second.code()).as(second.err()).isZero();
        long mapped = Files.readAllLines(classLog).stream().filter(l -> l.contains("source: shared objects file")
                && l.contains("org.apache.spark.")).count();
        assertThat(mapped).as("Spark classes mapped from the archive").isGreaterThan(1000);
        assertThat(Math.max(SparkCliSupport.compare(dir.resolve("in.json"), dir.resolve("second.json")),
                SparkCliSupport.compare(dir.resolve("in.ledger"), dir.resolve("second.ledger")))).isLessThan(1e-9);
    }

    private static Path launcher() {
        return Path.of(System.getProperty("privadapt.sparkJar")).getParent().getParent().getParent().resolve("privadapt");
    }

    private JarProcesses.Proc launch(Path csv, String name, String cds, String extraJvm) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(launcher().toString()));
        cmd.addAll(JarProcesses.release("csv:" + csv, dir.resolve(name + ".json"), dir.resolve(name + ".ledger")));
        cmd.addAll(List.of("--engine", "spark", "--spark-master", "local[1]", "--feature-columns", "f0,f1,f2,f3,f4"));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("PRIVADAPT_NO_BUILD", "1");
        pb.environment().put("PRIVADAPT_CDS", cds);
        pb.environment().put("PRIVADAPT_JAVA_OPTS", System.getProperty("privadapt.subprocessJvmArgs", "") + extraJvm);
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        return JarProcesses.run(dir, pb);
    }
}
