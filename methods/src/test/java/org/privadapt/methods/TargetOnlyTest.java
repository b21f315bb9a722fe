package org.privadapt.methods;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.privadapt.data.synthetic.SyntheticShift;
import org.privadapt.methods.core.AdaptationOutcome;
import org.privadapt.methods.core.AdaptationTask;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.Methods;
import org.privadapt.methods.core.PrivacyContext;
import org.privadapt.privacy.PrivacyCost;

class TargetOnlyTest {
    static AdaptationTask task() {
        var p = SyntheticShift.generate(new SyntheticShift.Config(20, 3, 80, 60, 4.0, 3.0, 1.0), 6);
        return new AdaptationTask("t", p.source(), p.target().withoutLabels(), p.target());
    }

    /** Trained on k labelled target rows per class, measured on the other rows only; reads nothing of the source's rows. */
    @Test
    void trainsOnFewTargetLabelsAndMeasuresOnTheRest() throws Exception {
        AdaptationTask t = task();
        AdaptationOutcome one = Methods.get("target-only").run(t, MethodConfig.defaults(), PrivacyContext.secure(1, 1e-5));
        AdaptationOutcome five = Methods.get("target-only").run(t, MethodConfig.defaults().withParam("target-labels", "5"),
                PrivacyContext.secure(1, 1e-5));
        int n = t.target().size();
        assertThat(one.predictions()).hasSize(n - 3);
        assertThat(five.predictions()).hasSize(n - 15);
        assertThat(five.accuracy()).isGreaterThan(0.6); // well-separated classes: 5 labels per class suffice
        assertThat(one.privacy().get("source")).isEqualTo(PrivacyCost.NONE);
        assertThat(one.privacy().get("target")).isEqualTo(PrivacyCost.NOT_PRIVATE);
    }

    @Test
    void refusesZeroLabels() {
        assertThatThrownBy(() -> Methods.get("target-only").run(task(), MethodConfig.defaults().withParam("target-labels", "0"),
                PrivacyContext.secure(1, 1e-5))).hasMessageContaining("target-labels >= 1");
    }
}
