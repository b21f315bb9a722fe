package org.privadapt.models;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.privadapt.data.ClassLabels;

class MetricsTest {
    @Test
    void chanceLevelIsTheMajorityRatePlusTwoBinomialDeviations() {
        int[] codes = new int[100];
        for (int i = 0; i < 100; i++) {
            codes[i] = i < 40 ? 0 : i < 70 ? 1 : 2; // majority 40 %
        }
        ClassLabels y = new ClassLabels(codes, List.of("a", "b", "c"));
        assertThat(Metrics.majorityRate(y)).isEqualTo(0.4);
        double margin = 2 * Math.sqrt(0.4 * 0.6 / 100); // 0.098
        assertThat(Metrics.atChance(0.4 + margin - 1e-9, y)).isTrue();
        assertThat(Metrics.atChance(0.4 + margin + 1e-9, y)).isFalse();
        assertThat(Metrics.atChance(0.2, y)).isTrue();
        assertThat(Metrics.chanceWarning(0.3, y)).contains("30.0 %").contains("40.0 %").contains("100 evaluation rows");
        assertThat(Metrics.chanceWarning(0.9, y)).isNull();
        assertThat(Metrics.accuracy(new int[] {0, 1, 2}, new ClassLabels(new int[] {0, 1, 1}, List.of("a", "b", "c"))))
                .isEqualTo(2.0 / 3);
    }
}
