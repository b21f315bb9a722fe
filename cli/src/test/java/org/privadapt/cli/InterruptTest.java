package org.privadapt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.privacy.ledger.BudgetLedger;

/**
 * Issue 46, item 2: Ctrl-C through the launcher. The launcher ({@code ./privadapt}, on this test's classpath through
 * {@code PRIVADAPT_CLASSPATH}) is started as the leader of its own process group, with INT at its default as a terminal
 * leaves it, and a real SIGINT is sent to the whole group, as a terminal's Ctrl-C is. {@code PRIVADAPT_TEST_HOLD} makes
 * the run wait just before its charge (or just before writing its output) so that the moment is certain.
 *
 * <p>Before the charge: the process ends within 2 s, exit 130, one line saying no ledger was charged and no output
 * written, and the directory holds exactly what it held. After the charge: the same, and the line names the ledger and
 * what it now stands at; the ledger holds the charge; no output file and no temporary file.
 */
class InterruptTest {
    @TempDir
    Path dir;

    static Path launcher() {
        Path p = Path.of("").toAbsolutePath();
        for (Path q = p; q != null; q = q.getParent()) {
            if (Files.isRegularFile(q.resolve("privadapt")) && Files.isDirectory(q.resolve("cli"))) {
                return q.resolve("privadapt");
            }
        }
        return null;
    }

    static boolean available(String... cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor() == 0;
        } catch (Exception e) {
            return false;
        }
    }

    record Outcome(int exit, double seconds, List<String> stderr) {
    }

    Outcome interrupt(String hold, Path ledger, Path out) throws Exception {
        Path launcher = launcher();
        Assumptions.assumeTrue(launcher != null, "the launcher script is not found above " + Path.of("").toAbsolutePath());
        Assumptions.assumeTrue(available("env", "--default-signal=INT", "true") && available("setsid", "true"),
                "needs GNU env --default-signal and setsid (Linux)");
        Path data = dir.resolve("t.csv");
        StringBuilder csv = new StringBuilder("a,b,c,cls\n");
        Random r = new Random(3);
        for (int i = 0; i < 400; i++) {
            csv.append(String.format(java.util.Locale.ROOT, "%.3f,%.3f,%.3f,%d%n", r.nextGaussian() + i % 2, r.nextGaussian(),
                    r.nextGaussian(), i % 2));
        }
        Files.writeString(data, csv);
        List<String> cmd = new ArrayList<>(List.of("env", "--default-signal=INT", "setsid", "bash", launcher.toString(),
                "target", "release", "--method", "prima", "--data", data.toString(), "--label-column", "cls", "--epsilon", "2",
                "--delta", "1e-5", "--ledger", ledger.toString(), "--out", out.toString(), "--seed", "1"));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
        pb.environment().put("PRIVADAPT_CLASSPATH", System.getProperty("java.class.path"));
        pb.environment().put("PRIVADAPT_TEST_HOLD", hold);
        pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Process p = pb.start();
        List<String> err = new ArrayList<>();
        BufferedReader br = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = br.readLine()) != null) {
            err.add(line);
            if (line.contains("PRIVADAPT_TEST_HOLD")) {
                break;
            }
        }
        assertThat(err).as("the run reached its hold point").anyMatch(l -> l.contains("PRIVADAPT_TEST_HOLD"));
        long t0 = System.nanoTime();
        // a terminal's Ctrl-C: SIGINT to every process of the foreground group (setsid made the launcher its leader)
        assertThat(new ProcessBuilder("kill", "-INT", "--", "-" + p.pid()).start().waitFor()).isZero();
        boolean ended = p.waitFor(20, TimeUnit.SECONDS);
        double seconds = (System.nanoTime() - t0) / 1e9;
        if (!ended) {
            p.destroyForcibly();
        }
        while ((line = br.readLine()) != null) {
            err.add(line);
        }
        assertThat(ended).as("ended after the signal").isTrue();
        return new Outcome(p.exitValue(), seconds, err);
    }

    static List<String> files(Path d) throws Exception {
        try (Stream<Path> s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void ctrlCBeforeTheChargeStopsWithinTwoSecondsWithNothingSpentOrWritten() throws Exception {
        Outcome o = interrupt("charge", dir.resolve("t.ledger"), dir.resolve("release.json"));
        assertThat(o.exit()).isEqualTo(130);
        assertThat(o.seconds()).as("seconds from the signal to the exit").isLessThan(2.0);
        assertThat(o.stderr()).contains("privadapt: interrupted (INT); no ledger was charged; no output was written");
        assertThat(files(dir)).containsExactly("t.csv");
    }

    @Test
    void ctrlCAfterTheChargeSaysWhatWasSpentAndThatNothingWasWritten() throws Exception {
        Path ledger = dir.resolve("t.ledger");
        Outcome o = interrupt("output", ledger, dir.resolve("release.json"));
        assertThat(o.exit()).isEqualTo(130);
        assertThat(o.seconds()).as("seconds from the signal to the exit").isLessThan(2.0);
        String last = o.stderr().get(o.stderr().size() - 1);
        assertThat(last).startsWith("privadapt: interrupted (INT); charged: " + ledger.toAbsolutePath())
                .contains("the ledger now stands at epsilon 2.0").endsWith("; no output was written");
        assertThat(BudgetLedger.open(ledger).read().epsilonSpent()).isCloseTo(2.0, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(files(dir)).containsExactly("t.csv", "t.ledger", "t.ledger.lock");
    }
}
