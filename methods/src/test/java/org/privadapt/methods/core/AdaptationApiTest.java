package org.privadapt.methods.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.data.Dataset;
import org.privadapt.data.synthetic.SyntheticShift;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.ledger.BudgetLedger;

/** Issue 33's Java API items: the run entry point, the session builder, and the Dataset-to-arrays helpers. */
class AdaptationApiTest {
    @TempDir
    Path dir;

    static SyntheticShift.Problem pair() {
        return SyntheticShift.generate(new SyntheticShift.Config(4, 2, 100, 100, 3.0, 2.0, 1.0), 5);
    }

    @Test
    void runsAMethodOnAPairChargingTheSessionsItIsGiven() throws Exception {
        SyntheticShift.Problem p = pair();
        Path ledger = dir.resolve("source.ledger");
        PrivacyContext privacy = new PrivacyContext(
                PrivacySession.builder("source").epsilon(2).delta(1e-5).seededNoise(3).ledger(ledger, 10).build(),
                PrivacySession.builder("target").epsilon(2).delta(1e-5).seededNoise(4).build());
        AdaptationOutcome out = Adaptation.run("dp-source-only", p.source(), p.target(), p.target(), "l2",
                MethodConfig.defaults().withParam("learner", "ncm"), privacy);
        assertThat(out.accuracy()).isGreaterThan(0.6);
        assertThat(out.predictions()).hasSize(p.target().size());
        assertThat(BudgetLedger.open(ledger).read().entries()).hasSize(1);
        assertThat(privacy.source().spent().epsilon()).isPositive().isLessThanOrEqualTo(2.0 + 1e-9);
        // the same run through the CLI's task preparation and method gives the same predictions (same seeds)
        PrivacyContext again = new PrivacyContext(
                PrivacySession.builder("source").epsilon(2).delta(1e-5).seededNoise(3).build(),
                PrivacySession.builder("target").epsilon(2).delta(1e-5).seededNoise(4).build());
        AdaptationTask task = TaskPreparation.prepare("x", p.source(), p.target(), p.target(),
                org.privadapt.data.preprocess.Preprocessing.parse("l2"), Methods.get("dp-source-only").protectedParties());
        assertThat(Methods.get("dp-source-only").run(task, MethodConfig.defaults().withParam("learner", "ncm"), again).predictions())
                .isEqualTo(out.predictions());
    }

    @Test
    void refusesUnknownMethodsAndPreprocessingFittedOnAProtectedPartyBeforeSpending() throws Exception {
        SyntheticShift.Problem p = pair();
        Path ledger = dir.resolve("refused.ledger");
        PrivacyContext privacy = new PrivacyContext(
                PrivacySession.builder("source").epsilon(2).delta(1e-5).ledger(ledger, 10).build(),
                PrivacySession.builder("target").epsilon(2).delta(1e-5).build());
        assertThatThrownBy(() -> Adaptation.run("dp-sorce-only", p.source(), p.target(), p.target(), "l2", MethodConfig.defaults(), privacy))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dp-source-only");
        assertThatThrownBy(() -> Adaptation.run("dp-source-only", p.source(), p.target(), p.target(), "zscore", MethodConfig.defaults(),
                privacy)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("zscore");
        assertThat(Files.exists(ledger)).isFalse();
    }

    @Test
    void theSessionBuilderHasSafeDefaultsAndRequiresTheBudget() throws Exception {
        PrivacySession s = PrivacySession.builder("source").epsilon(1).delta(1e-6).build();
        assertThat(s.isPrivate()).isTrue();
        assertThat(s.relation()).isEqualTo(NeighbouringRelation.ADD_OR_REMOVE_ONE);
        assertThat(s.target().epsilon()).isEqualTo(1.0);
        assertThat(s.target().delta()).isEqualTo(1e-6);
        assertThat(PrivacySession.builder("t").epsilon(1).delta(1e-6).seededNoise(1).build().isPrivate()).isFalse();
        assertThat(PrivacySession.builder("t").epsilon(1).delta(1e-6).relation(NeighbouringRelation.REPLACE_ONE).build().relation())
                .isEqualTo(NeighbouringRelation.REPLACE_ONE);
        assertThatThrownBy(() -> PrivacySession.builder("t").epsilon(1).build()).hasMessageContaining("delta");
        assertThatThrownBy(() -> PrivacySession.builder(" ")).hasMessageContaining("party");
    }

    @Test
    void aDatasetGivesItsRowsAndClassCodesAsArrays() throws Exception {
        Dataset d = pair().source();
        double[][] rows = d.featureRows();
        int[] codes = d.classCodes();
        assertThat(rows).hasNumberOfRows(d.size());
        for (int i = 0; i < d.size(); i++) {
            assertThat(rows[i]).containsExactly(d.denseFeatures().row(i));
        }
        assertThat(codes).containsExactly(d.classLabels().codes());
        rows[0][0] = 1e9; // a copy
        assertThat(d.denseFeatures().get(0, 0)).isNotEqualTo(1e9);
        assertThatThrownBy(() -> d.withoutLabels().classCodes()).isInstanceOf(org.privadapt.data.DataException.class);
    }
}
