package org.privadapt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.methods.artifacts.ArtifactException;
import org.privadapt.privacy.ledger.BudgetLedger;

/**
 * Issue 46 item 3, "mistakes that are accepted and charged": the messages of the refusals (the one line, exit code and
 * untouched directory of each are in {@link HostileInputsTest}'s table), and the right spelling still accepted.
 */
class AcceptedMistakesTest {
    @TempDir
    Path dir;

    /** A small target file whose label column is {@code cls}: 3 features and the labels. */
    private Path target() throws Exception {
        StringBuilder sb = new StringBuilder("a,b,c,cls\n");
        java.util.SplittableRandom r = new java.util.SplittableRandom(3);
        for (int i = 0; i < 120; i++) {
            sb.append(r.nextGaussian()).append(',').append(r.nextGaussian()).append(',').append(r.nextGaussian()).append(',')
                    .append(i % 3).append('\n');
        }
        Path f = dir.resolve("t.csv");
        Files.writeString(f, sb.toString());
        return f;
    }

    private CliHarness.Result release(Path data, String... extra) {
        List<String> a = new ArrayList<>(List.of("target", "release", "--method", "prima", "--data", data.toString(), "--epsilon",
                "1", "--seed", "1", "--ledger", dir.resolve("t.ledger").toString(), "--out", dir.resolve("release.json").toString()));
        a.addAll(List.of(extra));
        return CliHarness.run(a.toArray(String[]::new));
    }

    private List<String> files() throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aMisspeltLabelColumnIsRefusedBeforeTheChargeNamingTheFileTheColumnAndTheColumnsThere() throws Exception {
        Path t = target();
        for (String engine : List.of("inprocess", "stream")) {
            CliHarness.Result r = release(t, "--label-column", "clss", "--engine", engine);
            assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.DATA);
            assertThat(r.err().strip()).isEqualTo("privadapt: data error: " + t + ":line 1 (header): no column 'clss' for "
                    + "--label-column (did you mean 'cls'?); the header's 4 columns are [a, b, c, cls]; name one of them, or "
                    + "--label-column none for unlabelled rows");
            assertThat(files()).as("no ledger, lock or release").containsExactly("t.csv");
        }
        // spelt right, or in another case, the labels are not a feature
        CliHarness.Result ok = release(t, "--label-column", "CLS");
        assertThat(ok.code()).as(ok.err()).isZero();
        assertThat(ok.out()).contains("120 rows x 3 features");
    }

    @Test
    void chunkRowsOutOfRangeIsAUsageErrorNamingTheOptionAndTheRange() throws Exception {
        CliHarness.Result r = release(target(), "--engine", "stream", "--chunk-rows", "2147483647");
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err().strip()).isEqualTo("privadapt: --chunk-rows must be in [1, 1000000], got 2147483647");
        assertThat(files()).containsExactly("t.csv");
    }

    @Test
    void missingOrDirectoryInputsAreDataErrorsNamingTheOption() throws Exception {
        Path t = target();
        Files.createDirectory(dir.resolve("adir"));
        CliHarness.Result r = CliHarness.run("target", "predict", "--model", dir.resolve("missing.json").toString(), "--data",
                t.toString(), "--out", dir.resolve("p.csv").toString());
        assertThat(r.code()).isEqualTo(ExitCodes.DATA);
        assertThat(r.err().strip()).isEqualTo("privadapt: data error: " + dir.resolve("missing.json") + ": no such file (--model)");
        r = CliHarness.run("target", "predict", "--model", dir.resolve("adir").toString(), "--data", t.toString(), "--out",
                dir.resolve("p.csv").toString());
        assertThat(r.code()).isEqualTo(ExitCodes.DATA);
        assertThat(r.err().strip()).isEqualTo("privadapt: data error: " + dir.resolve("adir") + ": is a directory, not a file (--model)");
        r = release(dir.resolve("adir"));
        assertThat(r.code()).isEqualTo(ExitCodes.DATA);
        assertThat(r.err().strip()).isEqualTo("privadapt: data error: " + dir.resolve("adir") + ": is a directory, not a data file");
        r = CliHarness.run("privacy", "ledger", dir.resolve("missing.ledger").toString());
        assertThat(r.code()).isEqualTo(ExitCodes.DATA);
        assertThat(r.err().strip()).isEqualTo("privadapt: data error: " + dir.resolve("missing.ledger")
                + ": no such file (privacy ledger FILE)");
        assertThat(files()).containsExactly("adir", "t.csv");
    }

    @Test
    void aLedgerOrArtifactThatTheReaderFindsMissingIsADataError() {
        StringWriter s = new StringWriter();
        int code = Main.refuse(new BudgetLedger.LedgerException("x.ledger: no such ledger", new NoSuchFileException("x.ledger")),
                new PrintWriter(s, true));
        assertThat(code).isEqualTo(ExitCodes.DATA);
        assertThat(s.toString().strip()).isEqualTo("privadapt: data error: x.ledger: no such ledger");
        assertThat(Main.refuse(new ArtifactException("m.json: gone", new NoSuchFileException("m.json")), new PrintWriter(new StringWriter())))
                .isEqualTo(ExitCodes.DATA);
        // anything else wrong with a ledger stays an invalid ledger
        assertThat(Main.refuse(new BudgetLedger.LedgerException("x.ledger: not a valid ledger"), new PrintWriter(new StringWriter())))
                .isEqualTo(ExitCodes.ARTIFACT);
    }
}
