package org.privadapt.methods.dpda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.privadapt.data.preprocess.Preprocessing;
import org.privadapt.data.synthetic.SyntheticShift;
import org.privadapt.methods.core.AdaptationOutcome;
import org.privadapt.methods.core.AdaptationTask;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.Methods;
import org.privadapt.methods.core.PrivacyContext;
import org.privadapt.methods.core.TaskPreparation;
import org.privadapt.privacy.BudgetExceededException;

class AdversarialMethodTest {
    static AdaptationTask task() throws Exception {
        var p = SyntheticShift.generate(new SyntheticShift.Config(8, 3, 150, 150, 4.0, 2.0, 1.0), 3);
        return TaskPreparation.prepare("s->t", p.source(), p.target(), p.target(), Preprocessing.parse("l2,scale=2"),
                java.util.Set.of("source", "target"));
    }

    static MethodConfig cfg(String epochs) {
        return new MethodConfig("lr", 0, 1L, Map.of("epochs", epochs, "batch", "16", "lr1", "0.5", "lr2", "0.05", "clip", "1",
                "sigma", "1", "hidden", "16"));
    }

    @Test
    void everyVariantLearnsAndStatesWhatEachPartySpent() throws Exception {
        AdaptationTask t = task();
        for (String name : new String[] {"nn", "dann", "dpda", "g-dpda"}) {
            AdaptationOutcome o = Methods.get(name).run(t, cfg("10"), PrivacyContext.seeded(8, 1e-4, 5));
            assertThat(o.accuracy()).as(name).isGreaterThan(0.5); // three classes: chance is 1/3
            switch (name) {
                case "nn" -> assertThat(o.privacy().get("target").epsilon()).isZero();
                case "dann" -> assertThat(o.privacy().get("target").isPrivate()).isFalse();
                case "dpda" -> {
                    assertThat(o.privacy().get("target").epsilon()).isPositive().isLessThanOrEqualTo(8);
                    assertThat(Double.isInfinite(o.privacy().get("source").epsilon())).isTrue(); // public source, read in clear
                }
                default -> {
                    assertThat(o.privacy().get("target").epsilon()).isPositive().isLessThanOrEqualTo(8);
                    assertThat(o.privacy().get("source").epsilon()).isPositive().isLessThanOrEqualTo(8);
                }
            }
        }
    }

    @Test
    void aPlanBeyondTheBudgetIsRefusedBeforeTraining() throws Exception {
        AdaptationTask t = task();
        PrivacyContext ctx = PrivacyContext.seeded(0.5, 1e-4, 5);
        assertThatThrownBy(() -> Methods.get("dpda").run(t, cfg("200"), ctx)).isInstanceOf(BudgetExceededException.class);
        assertThat(ctx.target().events()).isEmpty();
        assertThatThrownBy(() -> Methods.get("dpda").run(t, new MethodConfig("lr", 0, 1L, Map.of("clipping", "both")),
                PrivacyContext.seeded(8, 1e-4, 5))).hasMessageContaining("joint or separate");
    }

    /** epochs=auto, paper 001's Tables II-III: as many iterations as the budget allows, so the spend meets epsilon. */
    @Test
    void autoEpochsSpendTheBudget() throws Exception {
        AdaptationTask t = task();
        MethodConfig c = new MethodConfig("lr", 0, 1L, Map.of("epochs", "auto", "batch", "16", "sigma", "2", "max-epochs", "500",
                "hidden", "8"));
        AdaptationOutcome o = Methods.get("dpda").run(t, c, PrivacyContext.seeded(1, 1e-4, 5));
        assertThat(o.privacy().get("target").epsilon()).isLessThanOrEqualTo(1.0).isGreaterThan(0.9);
        assertThatThrownBy(() -> Methods.get("dann").run(t, c, PrivacyContext.seeded(1, 1e-4, 5))).hasMessageContaining("dpda and g-dpda only");
    }

    /** G-DPDA's auto: the binding party (here the source, two releases per iteration at a smaller budget) meets its epsilon. */
    @Test
    void gdpdaAutoEpochsStopAtTheTighterParty() throws Exception {
        AdaptationTask t = task();
        MethodConfig c = new MethodConfig("lr", 0, 1L, Map.of("epochs", "auto", "batch", "16", "sigma", "2", "max-epochs", "500",
                "hidden", "8"));
        var n = org.privadapt.privacy.noise.NoiseSource.seeded(5);
        var rel = org.privadapt.privacy.NeighbouringRelation.ADD_OR_REMOVE_ONE;
        PrivacyContext ctx = new PrivacyContext(
                new org.privadapt.privacy.PrivacySession("source", new org.privadapt.privacy.PrivacyBudget(1, 1e-4), rel, n, null),
                new org.privadapt.privacy.PrivacySession("target", new org.privadapt.privacy.PrivacyBudget(4, 1e-4), rel, n.split(), null));
        AdaptationOutcome o = Methods.get("g-dpda").run(t, c, ctx);
        assertThat(o.privacy().get("source").epsilon()).isLessThanOrEqualTo(1.0).isGreaterThan(0.9);
        assertThat(o.privacy().get("target").epsilon()).isLessThan(1.0); // one release per iteration, not the binding party
    }
}
