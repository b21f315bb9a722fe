package org.privadapt.methods.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.privadapt.data.preprocess.Preprocessing;
import org.privadapt.data.synthetic.SyntheticShift;
import org.privadapt.privacy.PrivacyCost;

/**
 * dp-source-only's default refinement (issue 44 item 4): the protocol's rule on the target's n/(K d), applied when no
 * refinement is named, equal to naming what it chooses, and reported with its reason and cost.
 */
class DefaultRefinementTest {
    @Test
    void theRuleSplitsAtThePublishedThresholdAndKeepsThe13SuitesChoices() {
        double t = Math.pow(10, DefaultRefinement.LOG10_THRESHOLD); // 2.123
        assertThat(t).isBetween(2.12, 2.13);
        // n/(K d) just below and just above the threshold (K = 1, d = 1000)
        assertThat(DefaultRefinement.choose(2123, 1, 1000)).isEqualTo("map-prototypes");
        assertThat(DefaultRefinement.choose(2124, 1, 1000)).isEqualTo("none");
        // the extremes of docs/results/defaults.md on the target's side: the widest-but-tallest suite (mnist-usps,
        // 1800 rows, 10 classes, 256 features: 0.70) refines, the least tall tabular one (south-german-credit, 562
        // rows, 4 classes, 19 features: 7.4) does not
        assertThat(DefaultRefinement.choose(1800, 10, 256)).isEqualTo("map-prototypes");
        assertThat(DefaultRefinement.choose(562, 4, 19)).isEqualTo("none");
        assertThat(DefaultRefinement.choose(150, 3, 4096)).isEqualTo("map-prototypes"); // mtfs3
        assertThat(DefaultRefinement.choose(9782, 2, 102)).isEqualTo("none"); // adult
        Map<String, Object> d = DefaultRefinement.describe(120, 3, 64);
        assertThat(d).containsEntry("mode", "default").containsEntry("chosen", "map-prototypes");
        assertThat((String) d.get("reason")).contains("docs/results/defaults.md").contains("120/(3 x 64)");
        assertThat((String) d.get("cost")).startsWith("none");
    }

    @Test
    void dpSourceOnlyAppliesTheRuleWhenNoRefinementIsNamedAndEqualsNamingItsChoice() throws Exception {
        AdaptationMethod method = Methods.get("dp-source-only");
        // wide: 120 target rows, 3 classes, 64 features (n/(K d) 0.63): map-prototypes; tall: 300 rows, 6 features (16.7): none
        for (int[] shape : new int[][] {{64, 40, 40}, {6, 150, 100}}) {
            var problem = SyntheticShift.generate(new SyntheticShift.Config(shape[0], 3, shape[1], shape[2], 4.0, 3.0, 1.0), 5);
            AdaptationTask t = TaskPreparation.prepare("syn", problem.source(), problem.target(), problem.target(),
                    Preprocessing.parse("l2"), Set.of("source"));
            String expected = shape[0] == 64 ? "map-prototypes" : "none";
            AdaptationOutcome byDefault = method.run(t, new MethodConfig("lr", 0, 3, Map.of("learner", "ncm")), PrivacyContext.seeded(2.0, 1e-5, 7));
            AdaptationOutcome named = method.run(t, new MethodConfig("lr", 0, 3, Map.of("learner", "ncm", "refine", expected)),
                    PrivacyContext.seeded(2.0, 1e-5, 7));
            assertThat(byDefault.predictions()).as(expected).isEqualTo(named.predictions());
            assertThat(byDefault.accuracy()).isEqualTo(named.accuracy());
            @SuppressWarnings("unchecked")
            Map<String, Object> choice = (Map<String, Object>) byDefault.diagnostics().get("refine");
            assertThat(choice).containsEntry("mode", "default").containsEntry("chosen", expected);
            if (expected.equals("map-prototypes")) {
                assertThat(choice.get("refinement")).isEqualTo(named.diagnostics().get("refine"));
            } else {
                assertThat(choice).doesNotContainKey("refinement");
                assertThat(named.diagnostics()).doesNotContainKey("refine"); // refine=none named: nothing to report
            }
            assertThat(byDefault.privacy().get("target")).isEqualTo(PrivacyCost.NONE);
            assertThat(byDefault.privacy().get("source").epsilon()).isEqualTo(named.privacy().get("source").epsilon());
        }
        // refine=default named is the same as not naming one; other methods keep none as their default
        assertThat(TargetRefinements.mode(TargetRefinements.orDefault(MethodConfig.defaults()))).isEqualTo("default");
        assertThat(TargetRefinements.mode(MethodConfig.defaults())).isEqualTo("none");
        assertThat(TargetRefinements.orDefault(MethodConfig.defaults().withParam("refine", "none")).params()).containsEntry("refine", "none");
    }
}
