package org.privadapt.privacy.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;

/** A new ledger opened lazily is written by its first charge only (issue 33: a refused run leaves no file). */
class LazyLedgerTest {
    static final NeighbouringRelation AR = NeighbouringRelation.ADD_OR_REMOVE_ONE;

    @TempDir
    Path dir;

    @Test
    void nothingIsWrittenUntilTheFirstChargeAndThenTheFileIsTheEagerOne() throws Exception {
        Path lazy = dir.resolve("sub/lazy.ledger");
        Path eager = dir.resolve("eager.ledger");
        BudgetLedger l = BudgetLedger.openOrCreateLazily(lazy, "source", new PrivacyBudget(3, 1e-5), AR, true);
        // reads, checks and a refused plan touch nothing on disk
        assertThat(l.read().entries()).isEmpty();
        assertThat(l.read().budget().epsilon()).isEqualTo(3.0);
        assertThat(l.epsilonIfCharged(BudgetLedgerTest.gaussian("x", 2).event())).isPositive();
        l.check(List.of(BudgetLedgerTest.gaussian("x", 2)));
        assertThatThrownBy(() -> l.charge(BudgetLedgerTest.gaussian("too much", 0.1))).isInstanceOf(BudgetExceededException.class);
        assertThat(Files.exists(lazy)).isFalse();
        assertThat(Files.exists(lazy.resolveSibling("lazy.ledger.lock"))).isFalse();
        assertThat(Files.exists(lazy.getParent())).isFalse();
        // the first charge writes the same ledger an eager open would have, then charges
        l.charge(BudgetLedgerTest.gaussian("first", 2));
        BudgetLedger e = BudgetLedger.openOrCreate(eager, "source", new PrivacyBudget(3, 1e-5), AR);
        e.charge(BudgetLedgerTest.gaussian("first", 2));
        BudgetLedger.Snapshot a = BudgetLedger.open(lazy).read();
        BudgetLedger.Snapshot b = BudgetLedger.open(eager).read();
        assertThat(a.epsilonSpent()).isEqualTo(b.epsilonSpent());
        assertThat(a.entries()).hasSize(1);
        // the same header (its hash seeds the chain): the entries differ only by their time stamps
        assertThat(Files.readString(lazy).replaceAll("\"time\" : \"[^\"]*\"", "").replaceAll("\"hash\" : \"[^\"]*\"", ""))
                .isEqualTo(Files.readString(eager).replaceAll("\"time\" : \"[^\"]*\"", "").replaceAll("\"hash\" : \"[^\"]*\"", ""));
        assertThat(a.party()).isEqualTo("source");
        // and charges compose with it as with any ledger
        l.charge(BudgetLedgerTest.gaussian("second", 2));
        assertThat(BudgetLedger.open(lazy).read().entries()).hasSize(2);
    }

    @Test
    void aLedgerCreatedMeanwhileIsCheckedAgainstThePartyRelationAndFixedBudget() throws Exception {
        Path f = dir.resolve("race.ledger");
        BudgetLedger fixed = BudgetLedger.openOrCreateLazily(f, "source", new PrivacyBudget(3, 1e-5), AR, true);
        BudgetLedger keeping = BudgetLedger.openOrCreateLazily(f, "source", new PrivacyBudget(1, 1e-5), AR, false);
        BudgetLedger other = BudgetLedger.openOrCreateLazily(f, "target", new PrivacyBudget(3, 1e-5), AR, false);
        // another process creates it with budget 5
        BudgetLedger.openOrCreate(f, "source", new PrivacyBudget(5, 1e-5), AR);
        assertThatThrownBy(() -> fixed.charge(BudgetLedgerTest.gaussian("x", 2))).isInstanceOf(BudgetLedger.LedgerException.class)
                .hasMessageContaining("created meanwhile");
        assertThatThrownBy(() -> other.read()).isInstanceOf(BudgetLedger.LedgerException.class).hasMessageContaining("party 'source'");
        // keeping the stored budget: the stored 5 applies, not the 1 it would have created
        keeping.charge(BudgetLedgerTest.gaussian("x", 2));
        assertThat(keeping.read().budget().epsilon()).isEqualTo(5.0);
        assertThat(keeping.read().entries()).hasSize(1);
    }

    @Test
    void anExistingLedgerIsOpenedAsTheEagerOpensDo() throws Exception {
        Path f = dir.resolve("old.ledger");
        BudgetLedger.openOrCreate(f, "source", new PrivacyBudget(5, 1e-5), AR);
        assertThatThrownBy(() -> BudgetLedger.openOrCreateLazily(f, "source", new PrivacyBudget(3, 1e-5), AR, true))
                .isInstanceOf(BudgetLedger.LedgerException.class).hasMessageContaining("fixed when its ledger is created");
        assertThat(BudgetLedger.openOrCreateLazily(f, "source", new PrivacyBudget(3, 1e-5), AR, false).read().budget().epsilon())
                .isEqualTo(5.0);
    }
}
