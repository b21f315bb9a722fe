package org.privadapt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 46, item 1, through the CLI: `run` of a method that charges both parties, with the source's ledger at a path
 * that cannot be created or with one file named for both, refuses with one line and leaves the directory as it was
 * (the target's new ledger not created, nothing charged).
 */
class TwoPartyLedgerCliTest {
    @TempDir
    Path dir;

    Path data() throws Exception {
        Path f = dir.resolve("t.csv");
        StringBuilder csv = new StringBuilder("a,b,cls\n");
        Random r = new Random(5);
        for (int i = 0; i < 300; i++) {
            csv.append(r.nextGaussian() + (i % 2)).append(',').append(r.nextGaussian()).append(',').append(i % 2).append('\n');
        }
        Files.writeString(f, csv);
        Files.writeString(dir.resolve("plain-file"), "x");
        return f;
    }

    List<String> files() throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void anUncreatableSourceLedgerChargesNeitherParty() throws Exception {
        Path t = data();
        for (String method : new String[] {"g-dpda", "prima"}) {
            List<String> before = files();
            CliHarness.Result r = CliHarness.run("run", "--method", method, "--source", t.toString(), "--target", t.toString(),
                    "--label-column", "cls", "--epsilon", "2", "--seed", "1", "--param", "epochs=1",
                    "--source-public", "size,classes", "--target-public", "size,classes",
                    "--source-ledger", dir.resolve("plain-file/s.json").toString(), "--target-ledger", dir.resolve("t.json").toString());
            assertThat(r.code()).as(method + ": " + r.err()).isEqualTo(ExitCodes.ARTIFACT);
            assertThat(r.err()).contains("is not a directory").contains("nothing was charged");
            assertThat(files()).as(method).isEqualTo(before);
        }
    }

    @Test
    void oneFileForBothPartiesIsAUsageError() throws Exception {
        Path t = data();
        List<String> before = files();
        CliHarness.Result r = CliHarness.run("run", "--method", "g-dpda", "--source", t.toString(), "--target", t.toString(),
                "--label-column", "cls", "--epsilon", "2", "--seed", "1", "--source-ledger", dir.resolve("l.json").toString(),
                "--target-ledger", dir.resolve("sub/../l.json").toString());
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err().strip().lines()).hasSize(1);
        assertThat(r.err()).contains("name the same file");
        assertThat(files()).isEqualTo(before);
    }
}
