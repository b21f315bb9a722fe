package org.privadapt.privacy.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.accounting.RdpAccountant;
import org.privadapt.privacy.events.ComposedEvent;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.events.SelfComposedEvent;

class BudgetLedgerTest {
    static final NeighbouringRelation AR = NeighbouringRelation.ADD_OR_REMOVE_ONE;

    @TempDir
    Path dir;

    static BudgetLedger.Charge gaussian(String label, double sigma) {
        return new BudgetLedger.Charge(label, "Gaussian vector release", new GaussianEvent(sigma), Map.of("sigma", sigma),
                "AES-256-CTR test", true);
    }

    @Test
    void recordsReleasesAndComposesThem() throws Exception {
        Path f = dir.resolve("target.ledger.json");
        BudgetLedger l = BudgetLedger.openOrCreate(f, "target", new PrivacyBudget(5, 1e-5), AR);
        l.charge(gaussian("covariance", 4.0));
        BudgetLedger.Entry e2 = l.charge(gaussian("second", 3.0));
        BudgetLedger.Snapshot s = BudgetLedger.open(f).read();
        assertThat(s.entries()).hasSize(2);
        assertThat(s.entries().get(0).label()).isEqualTo("covariance");
        assertThat(s.entries().get(1).parameters()).containsEntry("sigma", 3.0);
        org.privadapt.privacy.accounting.Accountants.Certified c = org.privadapt.privacy.accounting.Accountants.certify(AR,
                ComposedEvent.of(new GaussianEvent(4), new GaussianEvent(3)), 1e-5);
        double expected = c.epsilon();
        assertThat(expected).isLessThanOrEqualTo(new RdpAccountant(AR).epsilon(ComposedEvent.of(new GaussianEvent(4), new GaussianEvent(3)), 1e-5));
        assertThat(s.epsilonSpent()).isCloseTo(expected, offset(1e-12));
        assertThat(e2.epsilonAfter()).isCloseTo(expected, offset(1e-12));
        assertThat(s.accountant()).isEqualTo(c.accountant());
        assertThat(s.allNoiseSecure()).isTrue();
        assertThat(s.epsilonRemaining()).isCloseTo(5 - expected, offset(1e-12));
        assertThat(Files.readString(f)).contains("\"format\" : \"privadapt-ledger\"").contains("AES-256-CTR test");
    }

    @Test
    void refusesOverspendingBeforeAnythingIsWritten() throws Exception {
        Path f = dir.resolve("l.json");
        BudgetLedger l = BudgetLedger.openOrCreate(f, "source", new PrivacyBudget(1.0, 1e-5), AR);
        l.charge(gaussian("first", 6.0));
        byte[] before = Files.readAllBytes(f);
        assertThatThrownBy(() -> l.charge(gaussian("too much", 1.0))).isInstanceOf(BudgetExceededException.class)
                .hasMessageContaining("'too much' would bring party 'source' to epsilon").hasMessageContaining("over its budget 1");
        assertThat(Files.readAllBytes(f)).isEqualTo(before);
        assertThat(l.read().entries()).hasSize(1);
        assertThat(l.epsilonIfCharged(new GaussianEvent(1.0))).isGreaterThan(1.0);
    }

    @Test
    void budgetIsFixedWhenTheLedgerIsCreated() throws Exception {
        Path f = dir.resolve("l.json");
        BudgetLedger.openOrCreate(f, "target", new PrivacyBudget(2, 1e-5), AR);
        assertThatThrownBy(() -> BudgetLedger.openOrCreate(f, "target", new PrivacyBudget(3, 1e-5), AR))
                .isInstanceOf(BudgetLedger.LedgerException.class).hasMessageContaining("a budget is fixed");
        assertThatThrownBy(() -> BudgetLedger.openOrCreate(f, "source", new PrivacyBudget(2, 1e-5), AR))
                .hasMessageContaining("party 'target'");
        assertThat(BudgetLedger.openOrCreate(f, "target", new PrivacyBudget(2, 1e-5), AR).read().entries()).isEmpty();
    }

    @Test
    void editsAreDetected() throws Exception {
        Path f = dir.resolve("l.json");
        BudgetLedger l = BudgetLedger.openOrCreate(f, "target", new PrivacyBudget(2, 1e-5), AR);
        l.charge(gaussian("a", 5.0));
        l.charge(gaussian("b", 5.0));
        String text = Files.readString(f);
        Files.writeString(f, text.replace("\"noise_multiplier\" : 5.0", "\"noise_multiplier\" : 50.0"));
        assertThatThrownBy(() -> BudgetLedger.open(f)).isInstanceOf(BudgetLedger.LedgerException.class)
                .hasMessageContaining("entry 1 fails its hash chain");
        Files.writeString(f, text.replace("\"epsilon\" : 2.0", "\"epsilon\" : 20.0"));
        assertThatThrownBy(() -> BudgetLedger.open(f)).hasMessageContaining("header");
        Files.writeString(f, "{\"format\": \"privadapt-ledger\", \"version\": 99}");
        assertThatThrownBy(() -> BudgetLedger.open(f)).hasMessageContaining("version 99 is not supported");
        Files.writeString(f, "{not json");
        assertThatThrownBy(() -> BudgetLedger.open(f)).hasMessageContaining("malformed JSON");
        assertThatThrownBy(() -> BudgetLedger.open(dir.resolve("none.json"))).hasMessageContaining("no such ledger");
    }

    @Test
    void threadsChargingConcurrentlyNeverOverspend() throws Exception {
        Path f = dir.resolve("l.json");
        double sigma = 8.0;
        double budget = 3.0;
        // how many of these releases fit, computed directly
        int fits = 0;
        while (org.privadapt.privacy.accounting.Accountants.certify(AR, new SelfComposedEvent(new GaussianEvent(sigma), fits + 1),
                1e-5).epsilon() <= budget) {
            fits++;
        }
        BudgetLedger.openOrCreate(f, "target", new PrivacyBudget(budget, 1e-5), AR);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<Integer>> results = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int id = t;
            results.add(pool.submit(() -> {
                BudgetLedger own = BudgetLedger.open(f);
                int ok = 0;
                for (int i = 0; i < 100; i++) {
                    try {
                        own.charge(gaussian("t" + id + "-" + i, sigma));
                        ok++;
                    } catch (BudgetExceededException e) {
                        break;
                    }
                }
                return ok;
            }));
        }
        int total = 0;
        for (Future<Integer> r : results) {
            total += r.get();
        }
        pool.shutdown();
        assertThat(total).isEqualTo(fits);
        BudgetLedger.Snapshot s = BudgetLedger.open(f).read();
        assertThat(s.entries()).hasSize(fits);
        assertThat(s.epsilonSpent()).isLessThanOrEqualTo(budget);
    }

    static Process hammer(Path f, int max, double sigma, double budget, String... extra) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
                LedgerHammer.class.getName(), f.toString(), Integer.toString(max), Double.toString(sigma), Double.toString(budget)));
        cmd.addAll(List.of(extra));
        return new ProcessBuilder(cmd).redirectErrorStream(true).start();
    }

    @Test
    void twoProcessesShareOneBudget() throws Exception {
        Path f = dir.resolve("shared.json");
        BudgetLedger.openOrCreate(f, "target", new PrivacyBudget(3.0, 1e-5), AR);
        Process a = hammer(f, 1000, 8.0, 3.0);
        Process b = hammer(f, 1000, 8.0, 3.0);
        int na = Integer.parseInt(new String(a.getInputStream().readAllBytes()).strip());
        int nb = Integer.parseInt(new String(b.getInputStream().readAllBytes()).strip());
        assertThat(a.waitFor()).isZero();
        assertThat(b.waitFor()).isZero();
        BudgetLedger.Snapshot s = BudgetLedger.open(f).read();
        assertThat(s.entries()).hasSize(na + nb);
        assertThat(s.epsilonSpent()).isLessThanOrEqualTo(3.0);
        assertThat(BudgetLedger.open(f).epsilonIfCharged(new GaussianEvent(8.0))).isGreaterThan(3.0);
    }

    @Test
    void survivesKillMinusNineMidWrite() throws Exception {
        for (int round = 0; round < 4; round++) {
            Path f = dir.resolve("crash" + round + ".json");
            BudgetLedger.openOrCreate(f, "target", new PrivacyBudget(1e6, 1e-5), AR);
            Process p = hammer(f, 1_000_000, 50.0, 1e6, "verbose");
            // wait until it has committed a few entries, so the kill lands while it is writing in a tight loop
            var out = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream()));
            int committed = 0;
            while (committed < 3 + 2 * round) {
                String line = out.readLine();
                assertThat(line).as("hammer output").isNotNull();
                committed = Integer.parseInt(line.substring("charged ".length()));
            }
            Thread.sleep(7L * round);
            p.destroyForcibly(); // SIGKILL
            p.waitFor();
            BudgetLedger.Snapshot s = BudgetLedger.open(f).read(); // parses and passes the hash chain
            assertThat(s.entries().size()).isGreaterThanOrEqualTo(committed);
            for (int i = 0; i < s.entries().size(); i++) {
                assertThat(s.entries().get(i).seq()).isEqualTo(i + 1);
            }
            // the ledger remains usable, and stale temporary files are cleaned by the next writer
            BudgetLedger.open(f).charge(gaussian("after the crash", 50.0));
            String prefix = ".crash" + round;
            try (var files = Files.list(dir)) {
                assertThat(files.map(x -> x.getFileName().toString()).filter(n -> n.startsWith(prefix) && n.endsWith(".tmp")))
                        .isEmpty();
            }
        }
    }
}
