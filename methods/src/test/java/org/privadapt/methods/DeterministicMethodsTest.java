package org.privadapt.methods;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.privadapt.data.synthetic.SyntheticShift;
import org.privadapt.methods.core.AdaptationMethod;
import org.privadapt.methods.core.AdaptationOutcome;
import org.privadapt.methods.core.AdaptationTask;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.Methods;
import org.privadapt.methods.core.PrivacyContext;

/**
 * A method that declares itself deterministic for a configuration is run once per task by {@code bench} and its
 * outcome repeated: the declaration must hold, i.e. other seeds and other noise give the very same predictions.
 */
class DeterministicMethodsTest {
    static AdaptationTask task() {
        var p = SyntheticShift.generate(new SyntheticShift.Config(12, 3, 90, 70, 4.0, 3.0, 1.0), 11);
        return new AdaptationTask("t", p.source(), p.target().withoutLabels(), p.target());
    }

    @Test
    void declaredDeterministicMethodsIgnoreSeedAndNoise() throws Exception {
        AdaptationTask t = task();
        MethodConfig lr = MethodConfig.defaults();
        List<String> declared = Methods.all().stream().filter(m -> m.deterministic(lr)).map(AdaptationMethod::name).toList();
        assertThat(declared).containsExactlyInAnyOrder("source-only", "coral", "sa", "otda");
        for (String name : declared) {
            AdaptationMethod m = Methods.get(name);
            AdaptationOutcome a = m.run(t, lr.withSeed(1), PrivacyContext.seeded(2.0, 1e-5, 1));
            AdaptationOutcome b = m.run(t, lr.withSeed(99), PrivacyContext.seeded(2.0, 1e-5, 12345));
            assertThat(b.predictions()).as(name).containsExactly(a.predictions());
            assertThat(b.accuracy()).as(name).isEqualTo(a.accuracy());
        }
    }

    /** The network's initialisation and minibatch order follow the seed: never declared deterministic. */
    @Test
    void nothingIsDeterministicWithTheNetworkOrWhenPrivate() {
        MethodConfig dnn = new MethodConfig("dnn", 1e-3, 1L, java.util.Map.of());
        assertThat(Methods.all().stream().filter(m -> m.deterministic(dnn))).isEmpty();
        assertThat(Methods.all().stream().filter(m -> m.isPrivate() && m.deterministic(MethodConfig.defaults()))).isEmpty();
        // the labelled target rows of the semi-supervised setting follow the seed
        assertThat(Methods.get("target-only").deterministic(MethodConfig.defaults())).isFalse();
        assertThat(Methods.get("otda").deterministic(MethodConfig.defaults().withParam("target-labels", "1"))).isFalse();
    }
}
