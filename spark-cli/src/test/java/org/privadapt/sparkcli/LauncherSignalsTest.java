package org.privadapt.sparkcli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher ({@code ./privadapt}) and a JVM that does not end: Ctrl-C or TERM while a native BLAS call runs can
 * leave the JVM stuck in OpenBLAS's exit-time thread shutdown (issue 33; seen with bench). The launcher passes the
 * signal on and kills the JVM if it has not ended {@code PRIVADAPT_EXIT_GRACE} seconds later, exiting 130 (INT) or 143
 * (TERM) with one line; otherwise the JVM's own exit code is the launcher's. A stand-in "java" (via JAVA_HOME) that
 * ignores the signals plays the stuck JVM. Here, not in the cli module, because the launcher needs the packaged
 * {@code cli/target/privadapt.jar}, which the reactor builds before this module.
 */
class LauncherSignalsTest {
    @TempDir
    Path dir;

    private Path launcher() {
        Path l = Path.of("..", "privadapt").toAbsolutePath().normalize();
        assumeTrue(Files.isExecutable(l) && Files.exists(l.resolveSibling("cli/target/privadapt.jar")),
                "the launcher and cli/target/privadapt.jar are needed (the reactor packages cli before this module)");
        return l;
    }

    private Path fakeJava(String body) throws Exception {
        Path bin = Files.createDirectories(dir.resolve("jdk/bin"));
        Path java = bin.resolve("java");
        Files.writeString(java, "#!/bin/bash\n" + body + "\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        return dir.resolve("jdk");
    }

    private Process start(Path javaHome) throws Exception {
        // through env --default-signal: a shell that ignores a signal on entry cannot trap it, and a test run started in
        // the background by a non-interactive shell (nohup ... &, a CI script) inherits INT ignored; a terminal's
        // Ctrl-C, the case this test is about, finds it at its default
        ProcessBuilder pb = new ProcessBuilder("env", "--default-signal=INT,TERM", launcher().toString(), "datasets");
        pb.environment().put("JAVA_HOME", javaHome.toString());
        pb.environment().put("PRIVADAPT_EXIT_GRACE", "1");
        pb.redirectError(dir.resolve("err.txt").toFile());
        pb.redirectOutput(dir.resolve("out.txt").toFile());
        return pb.start();
    }

    private void awaitStarted() throws Exception {
        for (int i = 0; i < 100 && !Files.readString(dir.resolve("err.txt")).contains("stand-in started"); i++) {
            Thread.sleep(100);
        }
    }

    @Test
    void aJvmThatDoesNotEndAfterTheSignalIsKilled() throws Exception {
        Path pidFile = dir.resolve("stand-in.pid");
        Path home = fakeJava("trap '' INT TERM\necho $$ > '" + pidFile + "'\necho 'stand-in started' >&2\nexec sleep 120");
        for (String[] signal : new String[][] {{"INT", "130"}, {"TERM", "143"}}) {
            Process p = start(home);
            awaitStarted();
            long t0 = System.nanoTime();
            new ProcessBuilder("kill", "-" + signal[0], Long.toString(p.pid())).start().waitFor();
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).as(signal[0] + ": the launcher ended").isTrue();
            double seconds = (System.nanoTime() - t0) * 1e-9;
            assertThat(p.exitValue()).as(signal[0]).isEqualTo(Integer.parseInt(signal[1]));
            assertThat(seconds).as(signal[0] + ": within the grace period and a little").isLessThan(15);
            assertThat(Files.readString(dir.resolve("err.txt"))).contains("had not ended 1 s after the " + signal[0] + " signal");
            // the stand-in (which ignores the signal) was killed, not left running
            long standIn = Long.parseLong(Files.readString(pidFile).trim());
            for (int i = 0; i < 50 && ProcessHandle.of(standIn).map(ProcessHandle::isAlive).orElse(false); i++) {
                Thread.sleep(100);
            }
            assertThat(ProcessHandle.of(standIn).map(ProcessHandle::isAlive).orElse(false)).as(signal[0] + ": stand-in alive").isFalse();
        }
    }

    @Test
    void otherwiseTheJvmsExitCodeIsTheLaunchers() throws Exception {
        Process p = start(fakeJava("cat > /dev/null\nexit 7"));
        p.getOutputStream().write("input\n".getBytes(java.nio.charset.StandardCharsets.UTF_8)); // standard input reaches it
        p.getOutputStream().close();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(7);
    }
}
