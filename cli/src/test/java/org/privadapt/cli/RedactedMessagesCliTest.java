package org.privadapt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.data.PrivateText;

/**
 * Issue 46 item 4 on the command line: {@code --redact-messages} (before or after the subcommand) or
 * {@code -Dprivadapt.messages=redact} keeps the cell, the label, the row's number and counts out of a data error's one
 * line, which still names the file and the rule; without it the line is as before; the setting ends with the command.
 */
class RedactedMessagesCliTest {
    @TempDir
    static Path dir;
    static Path target;
    static Path source;
    static Path release;

    /** 120 rows of 4 features and a label y in a, b, c; {@code bad} replaces line 17 when given. */
    static Path csv(String name, int seed, String bad) throws IOException {
        SplittableRandom r = new SplittableRandom(seed);
        List<String> lines = new ArrayList<>(List.of("f0,f1,f2,f3,y"));
        for (int i = 0; i < 120; i++) {
            int c = i % 3;
            StringBuilder sb = new StringBuilder();
            for (int j = 0; j < 4; j++) {
                sb.append(Double.toString(r.nextGaussian() + (j % 3 == c ? 1.5 : 0.0))).append(',');
            }
            lines.add(sb.append("abc".charAt(c)).toString());
        }
        if (bad != null) {
            lines.set(16, bad);
        }
        Path p = dir.resolve(name);
        Files.write(p, lines, StandardCharsets.UTF_8);
        return p;
    }

    @BeforeAll
    static void files() throws IOException {
        target = csv("target.csv", 3, null);
        source = csv("source.csv", 5, null);
        release = dir.resolve("release.json");
        CliHarness.Result made = CliHarness.run("target", "release", "--method", "prima", "--data", target.toString(), "--epsilon", "2",
                "--delta", "1e-5", "--seed", "11", "--ledger", dir.resolve("t.ledger").toString(), "--out", release.toString(),
                "--label-column", "y");
        assertThat(made.code()).as(made.err()).isZero();
    }

    static List<String> train(Path data, String tag, String... extra) {
        List<String> a = new ArrayList<>(List.of("source", "train", "--data", data.toString(), "--release", release.toString(),
                "--classes", "a,b,c", "--label-column", "y", "--epsilon", "2", "--param", "learner=ncm",
                "--ledger", dir.resolve(tag + ".ledger").toString(), "--out", dir.resolve(tag + ".json").toString()));
        a.addAll(List.of(extra));
        return a;
    }

    static CliHarness.Result run(List<String> args) {
        return CliHarness.run(args.toArray(new String[0]));
    }

    static CliHarness.Result redacted(List<String> args, boolean before) {
        List<String> a = new ArrayList<>(args);
        if (before) {
            a.add(0, "--redact-messages");
        } else {
            a.add("--redact-messages");
        }
        CliHarness.Result r = run(a);
        assertThat(PrivateText.redacting()).as("the setting ends with the command").isFalse();
        return r;
    }

    /** The one line, past the file's name, holds none of {@code secrets}; it names the file and says {@code rule}. */
    static void clean(CliHarness.Result r, Path file, String rule, String... secrets) {
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.DATA);
        assertThat(r.err().lines().toList()).hasSize(1);
        String line = r.err().strip();
        assertThat(line).contains(file.toString()).contains(rule).contains("<redacted>");
        String rest = line.replace(file.toString(), "<file>").replace(dir.toString(), "<dir>");
        for (String s : secrets) {
            assertThat(rest).doesNotContain(s);
        }
    }

    @Test
    void aCellThatIsNotANumberInProcessAndStreamed() throws IOException {
        Path bad = csv("text.csv", 5, "1.0,secretcell,2.0,3.0,a");
        for (List<String> engine : List.of(List.<String>of(), List.of("--engine", "stream", "--chunk-rows", "8"))) {
            List<String> args = train(bad, "text", engine.toArray(new String[0]));
            CliHarness.Result plain = run(args);
            assertThat(plain.code()).isEqualTo(ExitCodes.DATA);
            assertThat(plain.err().strip()).isEqualTo("privadapt: data error: " + bad + ":line 17, field 2 ('f1'): 'secretcell' "
                    + "is not a number (column 'f1' holds numbers elsewhere)");
            for (boolean before : new boolean[] {true, false}) {
                CliHarness.Result r = redacted(args, before);
                assertThat(r.err().strip()).isEqualTo("privadapt: data error: " + bad + ":line <redacted>, field 2 ('f1'): <redacted> "
                        + "is not a number (column 'f1' holds numbers elsewhere)");
                clean(r, bad, "is not a number", "secretcell", "17");
            }
        }
    }

    @Test
    void aLabelOutsideTheClassesInProcessAndStreamed() throws IOException {
        Path bad = csv("outside.csv", 5, "1.0,2.0,3.0,4.0,zebra");
        CliHarness.Result plain = run(train(bad, "z-in"));
        assertThat(plain.code()).as(plain.err()).isEqualTo(ExitCodes.DATA);
        assertThat(plain.err()).contains("'zebra'").contains("--classes");
        clean(redacted(train(bad, "z-in"), true), bad, "outside --classes", "zebra");
        // the streamed learners name the row (16: the 16th row after the header)
        List<String> streamed = train(bad, "z-st", "--engine", "stream", "--chunk-rows", "8");
        plain = run(streamed);
        assertThat(plain.code()).as(plain.err()).isEqualTo(ExitCodes.DATA);
        assertThat(plain.err()).contains("'zebra'").contains("row 16").contains("is not one of the classes");
        clean(redacted(streamed, false), bad, "is not one of the classes [a, b, c]", "zebra", "16");
        assertThat(dir.resolve("z-in.json")).doesNotExist();
        assertThat(dir.resolve("z-st.ledger")).doesNotExist();
    }

    @Test
    void theSystemPropertyRedactsAsTheOptionDoes() throws IOException {
        Path bad = csv("nonfinite.csv", 5, "1.0,NaN,2.0,3.0,a");
        String before = System.getProperty(PrivateText.PROPERTY);
        try {
            System.setProperty(PrivateText.PROPERTY, "redact");
            clean(run(train(bad, "nan")), bad, "is not a finite number", "NaN", "17");
        } finally {
            if (before == null) {
                System.clearProperty(PrivateText.PROPERTY);
            } else {
                System.setProperty(PrivateText.PROPERTY, before);
            }
        }
        assertThat(run(train(bad, "nan")).err()).contains("line 17").contains("'NaN'");
    }
}
