package org.privadapt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.cli.report.Json;
import org.privadapt.data.synthetic.SyntheticShift;
import org.privadapt.privacy.ledger.BudgetLedger;

/** Private methods through the CLI: budgets, ledgers, seeded noise, preprocessing rules. */
class PrivateRunTest {
    @TempDir
    Path dir;

    Path[] csvPair() throws Exception {
        var p = SyntheticShift.generate(new SyntheticShift.Config(5, 3, 200, 100, 4.0, 1.0, 0.0), 3);
        return new Path[] {writeCsv("src.csv", p.source()), writeCsv("tgt.csv", p.target())};
    }

    Path writeCsv(String name, org.privadapt.data.Dataset d) throws Exception {
        StringBuilder sb = new StringBuilder();
        for (int j = 1; j <= d.dimension(); j++) {
            sb.append('f').append(j).append(',');
        }
        sb.append("label\n");
        var y = d.classLabels();
        for (int i = 0; i < d.size(); i++) {
            for (double v : d.features().row(i)) {
                sb.append(v).append(',');
            }
            sb.append(y.names().get(y.code(i))).append('\n');
        }
        Path f = dir.resolve(name);
        Files.writeString(f, sb.toString());
        return f;
    }

    @Test
    void seededRunsAreMarkedNotPrivate() throws Exception {
        Path[] st = csvPair();
        CliHarness.Result r = CliHarness.run("run", "--method", "dp-source-only", "--source-public", "size,classes", "--source", st[0].toString(), "--target",
                st[1].toString(), "--preprocess", "clip=10", "--epsilon", "3", "--seed", "5", "--param", "epochs=5", "--json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode res = Json.MAPPER.readTree(r.out()).get("results").get(0);
        JsonNode src = res.get("privacy").get("source");
        assertThat(src.get("private").asBoolean()).isFalse();
        assertThat(src.get("note").asText()).contains("NOT PRIVATE");
        assertThat(src.get("epsilon").asDouble()).isLessThanOrEqualTo(3.0).isPositive();
        assertThat(res.get("privacy").get("target").get("epsilon").asDouble()).isZero();
        assertThat(res.get("accuracy_mean").asDouble()).isGreaterThan(0.5);
    }

    @Test
    void privateMethodsNeedAnEpsilonAndRowLocalPreprocessing() throws Exception {
        Path[] st = csvPair();
        CliHarness.Result noEps = CliHarness.run("run", "--method", "dp-source-only", "--source-public", "size,classes", "--source", st[0].toString(),
                "--target", st[1].toString());
        assertThat(noEps.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(noEps.err()).contains("--epsilon");
        CliHarness.Result zscore = CliHarness.run("run", "--method", "dp-source-only", "--source-public", "size,classes", "--source", st[0].toString(),
                "--target", st[1].toString(), "--epsilon", "1", "--preprocess", "zscore");
        assertThat(zscore.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(zscore.err()).contains("[zscore]").contains("source");
        // under replace-one n is public by the relation: only the class set needs declaring; the RDP accountant's
        // replace-one bound is charged (issue 14)
        CliHarness.Result replace = CliHarness.run("run", "--method", "dp-source-only", "--source-public", "classes", "--source",
                st[0].toString(), "--target", st[1].toString(), "--epsilon", "1", "--preprocess", "clip=10", "--relation", "replace",
                "--param", "epochs=1", "--json");
        assertThat(replace.code()).as(replace.err()).isZero();
        JsonNode rsrc = Json.MAPPER.readTree(replace.out()).get("results").get(0).get("privacy").get("source");
        assertThat(rsrc.get("epsilon").asDouble()).isLessThanOrEqualTo(1.0).isGreaterThan(0.9);
    }

    @Test
    void theSourceLedgerIsChargedAndRefusesOverspendingWithoutWritingAnything() throws Exception {
        Path[] st = csvPair();
        Path ledger = dir.resolve("source.ledger.json");
        Path out = dir.resolve("out.json");
        String[] base = {"run", "--method", "dp-source-only", "--source-public", "size,classes", "--source", st[0].toString(), "--target", st[1].toString(),
            "--preprocess", "clip=10", "--epsilon", "2", "--source-ledger", ledger.toString(), "--source-budget", "2.1",
            "--param", "epochs=3"};
        CliHarness.Result first = CliHarness.run(base);
        assertThat(first.code()).as(first.err()).isZero();
        BudgetLedger.Snapshot s = BudgetLedger.open(ledger).read();
        assertThat(s.entries()).hasSize(1);
        assertThat(s.budget().epsilon()).isEqualTo(2.1);
        assertThat(s.entries().get(0).sampler()).contains("AES-256-CTR");
        byte[] before = Files.readAllBytes(ledger);
        String[] again = java.util.Arrays.copyOf(base, base.length + 2);
        again[base.length] = "--out";
        again[base.length + 1] = out.toString();
        CliHarness.Result second = CliHarness.run(again);
        assertThat(second.code()).isEqualTo(ExitCodes.BUDGET);
        assertThat(second.err()).startsWith("privadapt: privacy budget refused: ").contains("over its budget 2.1");
        assertThat(out).doesNotExist();
        assertThat(Files.readAllBytes(ledger)).isEqualTo(before);
    }

    /** Issue 14.3: the reported spend of --runs R is the composition of all R runs, equal to what a ledger records. */
    @Test
    void repeatedRunsReportTheComposedSpendThatTheLedgerRecords() throws Exception {
        Path[] st = csvPair();
        Path ledger = dir.resolve("runs.ledger.json");
        CliHarness.Result r = CliHarness.run("run", "--method", "dp-source-only", "--source-public", "size,classes", "--source", st[0].toString(), "--target",
                st[1].toString(), "--preprocess", "clip=10", "--epsilon", "1", "--runs", "3", "--source-ledger", ledger.toString(),
                "--source-budget", "10", "--param", "epochs=2", "--json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode src = Json.MAPPER.readTree(r.out()).get("results").get(0).get("privacy").get("source");
        BudgetLedger.Snapshot s = BudgetLedger.open(ledger).read();
        assertThat(s.entries()).hasSize(3);
        // before the fix the report kept the first run's cost (about 1) while the ledger held the three runs' total
        assertThat(src.get("epsilon").asDouble()).isCloseTo(s.epsilonSpent(), org.assertj.core.api.Assertions.within(1e-9));
        assertThat(src.get("epsilon").asDouble()).isGreaterThan(1.2);
        assertThat(src.get("epsilon_per_run").asDouble()).isLessThanOrEqualTo(1.0).isGreaterThan(0.8);
        assertThat(src.get("runs").asInt()).isEqualTo(3);
    }

    /** Issue 14.8: an output that cannot be written is found before the ledger is charged, not after. */
    @Test
    void anUnwritableOutputIsRefusedBeforeTheLedgerIsCharged() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self")), "needs Linux /proc (no files can be created there)");
        Path[] st = csvPair();
        Path ledger = dir.resolve("out.ledger.json");
        CliHarness.Result r = CliHarness.run("run", "--method", "dp-source-only", "--source-public", "size,classes", "--source", st[0].toString(), "--target",
                st[1].toString(), "--preprocess", "clip=10", "--epsilon", "1", "--source-ledger", ledger.toString(),
                "--param", "epochs=2", "--out", "/proc/privadapt-report.json");
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--out /proc/privadapt-report.json").contains("not writable");
        assertThat(ledger).doesNotExist();
        Path existing = Path.of("/proc/version"); // exists, cannot be replaced even by root
        CliHarness.Result r2 = CliHarness.run("run", "--method", "dp-source-only", "--source-public", "size,classes", "--source", st[0].toString(), "--target",
                st[1].toString(), "--preprocess", "clip=10", "--epsilon", "1", "--source-ledger", ledger.toString(),
                "--param", "epochs=2", "--markdown", existing.toString());
        assertThat(r2.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(ledger).doesNotExist();
    }

    /** Issue 14.11: delta at or above 1/n is refused (unless allowed), above 1/(10 n) warned about. */
    @Test
    void aDeltaThatPromisesNothingIsRefusedAndALargeOneWarned() throws Exception {
        Path[] st = csvPair(); // 600 source rows (3 classes x 200)
        String[] base = {"run", "--method", "dp-source-only", "--source-public", "size,classes", "--source", st[0].toString(), "--target", st[1].toString(),
            "--preprocess", "clip=10", "--epsilon", "1", "--param", "epochs=1"};
        CliHarness.Result half = CliHarness.run(concat(base, "--delta", "0.5"));
        assertThat(half.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(half.err()).contains("1/n").contains("source's 600 records").contains("--allow-large-delta");
        CliHarness.Result allowed = CliHarness.run(concat(base, "--delta", "0.01", "--allow-large-delta"));
        assertThat(allowed.code()).as(allowed.err()).isZero();
        assertThat(allowed.err()).contains("warning").contains("1/n");
        CliHarness.Result large = CliHarness.run(concat(base, "--delta", "1e-3"));
        assertThat(large.code()).as(large.err()).isZero();
        assertThat(large.err()).contains("warning: --delta 0.001 is above 1/(10 n)");
        CliHarness.Result fine = CliHarness.run(concat(base, "--delta", "1e-5"));
        assertThat(fine.code()).as(fine.err()).isZero();
        assertThat(fine.err()).doesNotContain("1/(10 n)");
    }

    static String[] concat(String[] a, String... b) {
        String[] r = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    /** Issue 14.2 and 14.5: n and the class set of a CSV are private unless declared; the silent path is refused. */
    @Test
    void undeclaredSizeAndClassesOfAProtectedPartyAreRefused() throws Exception {
        Path[] st = csvPair();
        Path ledger = dir.resolve("undeclared.ledger.json");
        String[] base = {"run", "--method", "dp-source-only", "--source", st[0].toString(), "--target", st[1].toString(),
            "--preprocess", "clip=10", "--epsilon", "1", "--param", "epochs=1", "--param", "learner=dp-sgd",
            "--source-ledger", ledger.toString()};
        CliHarness.Result size = CliHarness.run(base);
        assertThat(size.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(size.err()).contains("number of records n").contains("--relation replace").contains("--source-public size");
        CliHarness.Result classes = CliHarness.run(concat(base, "--source-public", "size"));
        assertThat(classes.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(classes.err()).contains("class set").contains("--source-public classes");
        // refused before anything was charged (the ledger file may exist, created empty when the run opened it)
        assertThat(!Files.exists(ledger) || BudgetLedger.open(ledger).read().entries().isEmpty()).isTrue();
        CliHarness.Result bad = CliHarness.run(concat(base, "--source-public", "sizes"));
        assertThat(bad.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(bad.err()).contains("--source-public: unknown public fact 'sizes'");
        CliHarness.Result ok = CliHarness.run(concat(base, "--source-public", "size,classes"));
        assertThat(ok.code()).as(ok.err()).isZero();
        // the default learner (class statistics, docs/privacy/private-learners.md) does not reveal n: only the class set
        String[] byDefault = {"run", "--method", "dp-source-only", "--source", st[0].toString(), "--target", st[1].toString(),
            "--preprocess", "clip=10", "--epsilon", "1", "--source-ledger", dir.resolve("default.ledger.json").toString()};
        CliHarness.Result noClasses = CliHarness.run(byDefault);
        assertThat(noClasses.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(noClasses.err()).contains("class set").doesNotContain("number of records");
        CliHarness.Result classesOnly = CliHarness.run(concat(byDefault, "--source-public", "classes"));
        assertThat(classesOnly.code()).as(classesOnly.err()).isZero();
    }
}
