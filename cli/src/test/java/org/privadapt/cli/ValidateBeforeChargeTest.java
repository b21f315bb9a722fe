package org.privadapt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.cli.report.Json;
import org.privadapt.data.synthetic.SyntheticShift;

/**
 * Issue 33: every training parameter is range-checked when the plan is made, before the ledger is charged. Before,
 * {@code lr=NaN} charged epsilon 1.83 and then failed in training, and {@code epochs=-1} or {@code 0} ran.
 */
class ValidateBeforeChargeTest {
    @TempDir
    Path dir;

    @Test
    void badTrainingParametersAreRefusedWithNothingCharged() throws Exception {
        PrivateRunTest h = new PrivateRunTest();
        h.dir = dir;
        var p = SyntheticShift.generate(new SyntheticShift.Config(4, 2, 60, 60, 3.0, 2.0, 1.0), 5);
        Path src = h.writeCsv("src.csv", p.source());
        Path tgt = h.writeCsv("tgt.csv", p.target());
        Path ledger = dir.resolve("s.ledger");
        for (String bad : new String[] {"lr=NaN", "lr=-1", "lr=Infinity", "epochs=-1", "epochs=0", "weight-decay=-0.1",
                "optimizer=sgdd", "schedule=step:x"}) {
            CliHarness.Result r = CliHarness.run("run", "--method", "dp-source-only", "--source", src.toString(), "--target", tgt.toString(),
                    "--epsilon", "2", "--preprocess", "l2", "--source-public", "size,classes", "--param", "learner=dp-sgd", "--param", bad,
                    "--source-ledger", ledger.toString());
            assertThat(r.code()).as(bad + ": " + r.err()).isEqualTo(ExitCodes.USAGE);
            assertThat(r.err().strip().lines().count()).as(bad).isEqualTo(1);
            // a new ledger is written by its first charge: a refused run leaves no file, not even the lock
            assertThat(Files.exists(ledger)).as(bad).isFalse();
            assertThat(Files.exists(dir.resolve("s.ledger.lock"))).as(bad).isFalse();
        }
    }

    @Test
    void aRunRefusedBeforeSpendingLeavesNoLedgerFileWhileAnExistingLedgerIsKeptAsItWas() throws Exception {
        PrivateRunTest h = new PrivateRunTest();
        h.dir = dir;
        var p = SyntheticShift.generate(new SyntheticShift.Config(4, 2, 60, 60, 3.0, 2.0, 1.0), 5);
        Path src = h.writeCsv("src.csv", p.source());
        Path tgt = h.writeCsv("tgt.csv", p.target());
        Path ledger = dir.resolve("n.ledger");
        String[][] refusals = {
                {"--param", "learner=sgd"},                           // an unknown learner
                {"--param", "learner=ncm", "--source-budget", "1"},   // a plan over the new ledger's budget
        };
        for (String[] extra : refusals) {
            java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("run", "--method", "dp-source-only", "--source",
                    src.toString(), "--target", tgt.toString(), "--epsilon", "2", "--preprocess", "l2", "--source-public", "size,classes",
                    "--source-ledger", ledger.toString()));
            args.addAll(java.util.List.of(extra));
            CliHarness.Result r = CliHarness.run(args.toArray(String[]::new));
            assertThat(r.code()).as(String.join(" ", extra) + ": " + r.err()).isNotZero();
            assertThat(Files.exists(ledger)).as(String.join(" ", extra)).isFalse();
        }
        // a run that spends creates it; a refused run afterwards leaves its bytes as they were
        CliHarness.Result ok = CliHarness.run("run", "--method", "dp-source-only", "--source", src.toString(), "--target", tgt.toString(),
                "--epsilon", "1", "--preprocess", "l2", "--source-public", "size,classes", "--param", "learner=ncm", "--source-ledger",
                ledger.toString(), "--source-budget", "3");
        assertThat(ok.code()).as(ok.err()).isZero();
        byte[] before = Files.readAllBytes(ledger);
        assertThat(Json.MAPPER.readTree(before).get("entries")).hasSize(1);
        CliHarness.Result bad = CliHarness.run("run", "--method", "dp-source-only", "--source", src.toString(), "--target", tgt.toString(),
                "--epsilon", "1", "--preprocess", "l2", "--source-public", "size,classes", "--param", "learner=sgd", "--source-ledger",
                ledger.toString());
        assertThat(bad.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(Files.readAllBytes(ledger)).isEqualTo(before);
    }
}
