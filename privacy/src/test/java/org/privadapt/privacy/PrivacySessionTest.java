package org.privadapt.privacy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.privacy.accounting.RdpAccountant;
import org.privadapt.privacy.events.ComposedEvent;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.ledger.BudgetLedger;
import org.privadapt.privacy.noise.NoiseSource;

class PrivacySessionTest {
    static final NeighbouringRelation AR = NeighbouringRelation.ADD_OR_REMOVE_ONE;

    @TempDir
    Path dir;

    @Test
    void chargesComposeWithinTheRunTargetAndReachTheLedger() throws Exception {
        BudgetLedger ledger = BudgetLedger.openOrCreate(dir.resolve("l.json"), "target", new PrivacyBudget(10, 1e-5), AR);
        PrivacySession s = new PrivacySession("target", new PrivacyBudget(2, 1e-5), AR, NoiseSource.secure(), ledger);
        assertThat(s.spent()).isEqualTo(PrivacyCost.NONE);
        s.charge("a", "Gaussian", new GaussianEvent(5), Map.of());
        s.charge("b", "Gaussian", new GaussianEvent(5), Map.of());
        double expected = org.privadapt.privacy.accounting.Accountants.certify(AR,
                ComposedEvent.of(new GaussianEvent(5), new GaussianEvent(5)), 1e-5).epsilon();
        assertThat(expected).isLessThanOrEqualTo(new RdpAccountant(AR).epsilon(ComposedEvent.of(new GaussianEvent(5), new GaussianEvent(5)), 1e-5));
        assertThat(s.spent().epsilon()).isCloseTo(expected, offset(1e-12));
        assertThat(s.spent().isPrivate()).isTrue();
        assertThat(ledger.read().entries()).hasSize(2);
        assertThat(ledger.read().entries().get(0).sampler()).contains("AES-256-CTR");
    }

    @Test
    void overTheRunTargetIsRefusedAndNothingIsRecorded() throws Exception {
        BudgetLedger ledger = BudgetLedger.openOrCreate(dir.resolve("l.json"), "source", new PrivacyBudget(10, 1e-5), AR);
        PrivacySession s = new PrivacySession("source", new PrivacyBudget(1, 1e-5), AR, NoiseSource.secure(), ledger);
        assertThatThrownBy(() -> s.charge("big", "Gaussian", new GaussianEvent(0.5), Map.of()))
                .isInstanceOf(BudgetExceededException.class).hasMessageContaining("over the requested 1.0");
        assertThat(s.events()).isEmpty();
        assertThat(ledger.read().entries()).isEmpty();
    }

    @Test
    void theLedgerBudgetBindsAcrossRuns() throws Exception {
        // each run fits its own target of 1, but two do not fit the ledger total of 0.8
        BudgetLedger ledger = BudgetLedger.openOrCreate(dir.resolve("l.json"), "source", new PrivacyBudget(0.8, 1e-5), AR);
        new PrivacySession("source", new PrivacyBudget(1, 1e-5), AR, NoiseSource.secure(), ledger)
                .charge("run 1", "Gaussian", new GaussianEvent(6), Map.of());
        PrivacySession second = new PrivacySession("source", new PrivacyBudget(1, 1e-5), AR, NoiseSource.secure(), ledger);
        assertThat(second.epsilonWith(new GaussianEvent(6))).isLessThan(1.0);
        assertThatThrownBy(() -> second.charge("run 2", "Gaussian", new GaussianEvent(6), Map.of()))
                .isInstanceOf(BudgetExceededException.class).hasMessageContaining("over its budget 0.8");
        assertThat(second.events()).isEmpty();
    }

    @Test
    void seededNoiseIsMarkedNotPrivate() throws Exception {
        PrivacySession s = new PrivacySession("source", new PrivacyBudget(2, 1e-5), AR, NoiseSource.seeded(1), null);
        s.charge("x", "Gaussian", new GaussianEvent(5), Map.of());
        assertThat(s.isPrivate()).isFalse();
        assertThat(s.spent().seededNoise()).isTrue();
        assertThat(s.spent().isPrivate()).isFalse();
        assertThat(s.spent().toString()).contains("NOT PRIVATE");
    }
}
