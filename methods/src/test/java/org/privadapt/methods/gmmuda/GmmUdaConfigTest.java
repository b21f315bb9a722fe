package org.privadapt.methods.gmmuda;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.privadapt.methods.core.MethodConfig;

/** The source model's row norm and learning rate by encoder (issue 47): given values win, defaults by encoder. */
class GmmUdaConfigTest {
    static GmmUdaConfig of(Map<String, String> p) {
        return GmmUdaConfig.from(new MethodConfig("lr", 0, 1L, p));
    }

    @Test
    void theBagOfWordsKeepsItsDefaultsAndAPretrainedEncoderGetsItsOwnForThePrivateReleaseOnly() {
        for (GmmUdaConfig bow : new GmmUdaConfig[] {of(Map.of()), of(Map.of("encoder", "bow")), of(Map.of("encoder", " BOW "))}) {
            assertThat(bow.rowNorm(true)).isEqualTo(8);
            assertThat(bow.rowNorm(false)).isEqualTo(1);
            assertThat(bow.learningRate(true)).isEqualTo(1e-3);
            assertThat(bow.learningRate(false)).isEqualTo(1e-3);
        }
        GmmUdaConfig minilm = of(Map.of("encoder", "minilm"));
        assertThat(minilm.rowNorm(true)).isEqualTo(16);
        assertThat(minilm.rowNorm(false)).isEqualTo(1);
        assertThat(minilm.learningRate(true)).isEqualTo(3e-3);
        assertThat(minilm.learningRate(false)).isEqualTo(1e-3);
        GmmUdaConfig given = of(Map.of("encoder", "minilm", "row-norm", "8", "lr", "1e-3"));
        assertThat(given.rowNorm(true)).isEqualTo(8);
        assertThat(given.learningRate(true)).isEqualTo(1e-3);
    }
}
