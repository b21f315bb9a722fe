package org.privadapt.sparkcli;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The built jars run as separate JVMs (the *JarIT classes, after package): a process's exit code and output. */
final class JarProcesses {
    private JarProcesses() {
    }

    record Proc(int code, String out, String err) {
    }

    /** {@code java ARGS} in {@code dir}, with the test JVMs' speed flags (C1 only, the serial collector). */
    static Proc java(Path dir, List<String> args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // the test JVMs' speed flags (pom property test.jvm.speed: C1 only, the serial collector) for these short runs
        // too: the Spark run takes about half as long
        String speed = System.getProperty("privadapt.subprocessJvmArgs", "").trim();
        if (!speed.isEmpty()) {
            cmd.addAll(Arrays.asList(speed.split("\\s+")));
        }
        cmd.addAll(args);
        return run(dir, new ProcessBuilder(cmd));
    }

    /** Runs a process in {@code dir} and collects its exit code and output. */
    static Proc run(Path dir, ProcessBuilder pb) throws Exception {
        pb.directory(dir.toFile());
        pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
        pb.redirectOutput(dir.resolve("stdout").toFile());
        pb.redirectError(dir.resolve("stderr").toFile());
        int code = pb.start().waitFor();
        return new Proc(code, Files.readString(dir.resolve("stdout"), StandardCharsets.UTF_8),
                Files.readString(dir.resolve("stderr"), StandardCharsets.UTF_8));
    }

    /** PRIMA's target release of {@code data} with a fixed seed, to {@code out}, charged to {@code ledger}. */
    static List<String> release(String data, Path out, Path ledger) {
        return List.of("target", "release", "--method", "prima", "--data", data, "--preprocess", "l2,scale=2", "--epsilon", "2",
                "--seed", "5", "--ledger", ledger.toString(), "--out", out.toString());
    }

    /** The plain CLI jar's release of the CSV in process: the reference the Spark runs must equal. */
    static void inProcess(Path dir, Path csv) throws Exception {
        List<String> in = new ArrayList<>(List.of("-jar", System.getProperty("privadapt.cliJar")));
        in.addAll(release(csv.toString(), dir.resolve("in.json"), dir.resolve("in.ledger")));
        in.addAll(List.of("--label-column", "y"));
        Proc p = java(dir, in);
        org.assertj.core.api.Assertions.assertThat(p.code()).as(p.err()).isZero();
    }
}
