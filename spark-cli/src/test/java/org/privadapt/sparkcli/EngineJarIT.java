package org.privadapt.sparkcli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.cli.ExitCodes;

/**
 * The built jars, run as separate JVMs after {@code package} (surefire execution {@code jars}): the plain CLI jar
 * refuses {@code --engine spark} with the spark-submit command; the Spark jar run as spark-submit runs it (Spark's
 * jars, with Spark's jackson 2.20, first on the classpath, then the application jar; the flags spark-submit adds on
 * Java 17) writes the same artifact and ledger as the plain jar in process ({@link LauncherJarIT}: the same through
 * {@code ./privadapt --engine spark}, a class of its own so that the two Spark runs use both test JVMs).
 */
class EngineJarIT {
    @TempDir
    Path dir;

    @org.junit.jupiter.api.BeforeEach
    void jarsBuilt() {
        // set by the pom's 'jars' execution, which runs after package; a -Dtest=... run before package skips this class
        org.junit.jupiter.api.Assumptions.assumeTrue(System.getProperty("privadapt.sparkJar") != null, "runs after package (execution 'jars')");
    }

    /**
     * Spark's runtime classpath, as spark-submit would put it before the application jar: this test JVM's classpath
     * without the project's own classes and jars and without the CLI's own dependencies (which the Spark jar carries).
     */
    private static String sparkClasspath() {
        List<String> ours = List.of("/org/privadapt/", "/target/classes", "/target/test-classes", "/info/picocli/", "/me/tongfei/",
                "/org/knowm/", "/de/siegmar/", "/us/hebi/", "/dev/ludovic/", "/org/bytedeco/", "/org/ejml/", "/org/ojalgo/",
                "/ch/obermuhlner/", "/commons-statistics", "/org/junit/", "/org/assertj/", "/org/opentest4j/", "/org/apiguardian/",
                "/surefire", "/org/jline/");
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(e -> ours.stream().noneMatch(e::contains))
                .reduce((a, b) -> a + File.pathSeparator + b).orElseThrow();
    }

    @Test
    void thePlainCliJarRefusesTheSparkEngineWithTheSparkSubmitCommandAndWritesNothing() throws Exception {
        Path csv = SparkCliSupport.writeCsv(dir.resolve("t.csv"), 60, 4, 3);
        List<String> a = new ArrayList<>(List.of("-jar", System.getProperty("privadapt.cliJar")));
        a.addAll(JarProcesses.release("csv:" + csv, dir.resolve("r.json"), dir.resolve("t.ledger")));
        a.addAll(List.of("--engine", "spark", "--feature-columns", "f0,f1,f2,f3"));
        JarProcesses.Proc p = JarProcesses.java(dir, a);
        assertThat(p.code()).as(p.err()).isEqualTo(ExitCodes.ENGINE);
        assertThat(p.err().lines().toList()).singleElement().asString()
                .contains("Apache Spark is not on the classpath")
                .contains("spark-submit --class org.privadapt.cli.Main ")
                .contains("privadapt-spark.jar target release --method prima --data csv:" + csv);
        assertThat(dir.resolve("r.json")).doesNotExist();
        assertThat(dir.resolve("t.ledger")).doesNotExist();
        // the Spark jar without Spark says the same
        a.set(1, System.getProperty("privadapt.sparkJar"));
        p = JarProcesses.java(dir, a);
        assertThat(p.code()).as(p.err()).isEqualTo(ExitCodes.ENGINE);
        assertThat(p.err()).contains("spark-submit --class org.privadapt.cli.Main ");
    }

    @Test
    void theSparkJarOnSparksClasspathWritesWhatThePlainJarWritesInProcess() throws Exception {
        Path csv = SparkCliSupport.writeCsv(dir.resolve("t.csv"), 240, 5, 4);
        JarProcesses.inProcess(dir, csv);

        List<String> sp = new ArrayList<>(Arrays.asList(System.getProperty("privadapt.sparkJvmArgs").trim().split("\\s+")));
        sp.addAll(List.of("-cp", sparkClasspath() + File.pathSeparator + System.getProperty("privadapt.sparkJar"),
                "org.privadapt.cli.Main"));
        sp.addAll(JarProcesses.release("csv:" + csv, dir.resolve("spark.json"), dir.resolve("spark.ledger")));
        sp.addAll(List.of("--engine", "spark", "--spark-master", "local[1]", "--feature-columns", "f0,f1,f2,f3,f4"));
        JarProcesses.Proc p = JarProcesses.java(dir, sp);
        assertThat(p.code()).as(p.err()).isZero();
        assertThat(p.out()).contains("release:   ").contains("240 rows x 5 features");
        double worst = Math.max(SparkCliSupport.compare(dir.resolve("in.json"), dir.resolve("spark.json")),
                SparkCliSupport.compare(dir.resolve("in.ledger"), dir.resolve("spark.ledger")));
        System.out.printf("privadapt-spark-cli: the submitted jar vs the plain jar: largest relative difference %.2g%n", worst);
    }
}
