package org.privadapt.methods.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The registry's order is user-visible (the method listing of {@code run --help}, the rows of bench tables): this
 * is the order of {@code Methods.all()} as it was before the registry was split into providers, name by name.
 */
class MethodsRegistryTest {
    static final List<String> ORDER = List.of("source-only", "target-only", "coral", "sa", "dp-source-only", "prima", "prisa",
            "otda", "dpot-da", "pate", "nn", "dann", "dpda", "g-dpda", "source-target", "kmm", "dm", "cnvxadap", "pcnvxadap",
            "pcnvxadap-stats", "ncnvxadap", "pncnvxadap", "dp-target-only", "uda-with-source", "uda-gmm", "dp-uda-gmm",
            "prima-basic", "prima-rse", "prima-rse-fs", "prima-basic-shrink");

    @Test
    void allListsEveryMethodOnceInTheRegistrationOrder() {
        assertThat(Methods.all()).extracting(AdaptationMethod::name).containsExactlyElementsOf(ORDER);
    }

    @Test
    void getFindsEveryListedMethodByName() {
        for (String name : ORDER) {
            assertThat(Methods.get(name).name()).isEqualTo(name);
        }
    }

    @Test
    void anUnknownNameIsRefusedWithTheKnownOnesInOrder() {
        assertThatThrownBy(() -> Methods.get("no-such-method")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown method 'no-such-method'; known methods: " + String.join(", ", ORDER));
    }

    @Test
    void eachCallReturnsAFreshList() {
        List<AdaptationMethod> a = Methods.all();
        a.clear();
        assertThat(Methods.all()).hasSize(ORDER.size());
    }

    /** Issue 33: a misspelt method name gets a suggestion; a name far from every method gets none. */
    @Test
    void aMisspeltNameGetsADidYouMean() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Methods.get("prmia")).hasMessageContaining("did you mean prima?");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Methods.get("dp-sourceonly")).hasMessageContaining("did you mean dp-source-only?");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Methods.get("xyzzy-unrelated")).hasMessageNotContaining("did you mean");
    }
}
