package org.privadapt.methods;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import org.junit.jupiter.api.Test;
import org.privadapt.data.preprocess.Preprocessing;
import org.privadapt.data.synthetic.SyntheticShift;
import org.privadapt.methods.core.AdaptationOutcome;
import org.privadapt.methods.core.AdaptationTask;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.Methods;
import org.privadapt.methods.core.PrivacyContext;
import org.privadapt.methods.core.TaskPreparation;
import org.privadapt.privacy.PrivacyCost;

class DpSourceOnlyTest {
    @Test
    void trainsWithDpSgdAndSpendsOnlyTheSourceBudget() throws Exception {
        var p = SyntheticShift.generate(new SyntheticShift.Config(6, 3, 300, 100, 4.0, 1.0, 0.0), 1); // no shift
        AdaptationTask t = TaskPreparation.prepare("syn", p.source(), p.target(), p.target(), Preprocessing.parse("clip=10"),
                Set.of("source"));
        for (String classifier : new String[] {"lr", "dnn"}) {
            MethodConfig c = new MethodConfig(classifier, 0, 3, java.util.Map.of("epochs", "10", "lr", "0.05", "clip", "2"));
            AdaptationOutcome o = Methods.get("dp-source-only").run(t, c, PrivacyContext.seeded(4.0, 1e-5, 7));
            assertThat(o.accuracy()).as(classifier).isGreaterThan(0.75); // 3 classes: chance is 1/3
            assertThat(o.privacy().get("source").epsilon()).isLessThanOrEqualTo(4.0).isGreaterThan(3.5);
            assertThat(o.privacy().get("source").seededNoise()).isTrue();
            assertThat(o.privacy().get("target")).isEqualTo(PrivacyCost.NONE);
            assertThat((double) o.diagnostics().get("noise_multiplier")).isPositive();
        }
    }

    @Test
    void refusesPreprocessingFittedOnTheProtectedSource() {
        var p = SyntheticShift.generate(SyntheticShift.Config.demo(), 1);
        assertThatThrownBy(() -> TaskPreparation.prepare("syn", p.source(), p.target(), p.target(), Preprocessing.parse("l2,zscore"),
                Methods.get("dp-source-only").protectedParties()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("[zscore]").hasMessageContaining("source");
    }

    @Test
    void replaceOnePlansAreAccountedForReplaceOneAndNeedMoreNoise() {
        // since issue 14 the RDP accountant bounds the subsampled Gaussian under replace-one (remove then add): the same
        // epsilon needs a larger noise multiplier than under add/remove
        var rep = org.privadapt.methods.core.PrivateTraining.plan(MethodConfig.defaults(), 100, 1, 1e-5,
                org.privadapt.privacy.NeighbouringRelation.REPLACE_ONE);
        var ar = org.privadapt.methods.core.PrivateTraining.plan(MethodConfig.defaults(), 100, 1, 1e-5,
                org.privadapt.privacy.NeighbouringRelation.ADD_OR_REMOVE_ONE);
        org.assertj.core.api.Assertions.assertThat(rep.config().noiseMultiplier()).isGreaterThan(ar.config().noiseMultiplier());
        org.assertj.core.api.Assertions.assertThat(org.privadapt.privacy.accounting.Accountants.certify(
                org.privadapt.privacy.NeighbouringRelation.REPLACE_ONE, rep.event(), 1e-5).epsilon()).isLessThanOrEqualTo(1.0);
    }
}
