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

    /** The rank formula against the definition, P(score+ > score-) + P(tie) / 2 over every pair, with many ties. */
    @Test
    void aucEqualsThePairwiseDefinition() {
        java.util.SplittableRandom r = new java.util.SplittableRandom(44);
        for (int trial = 0; trial < 20; trial++) {
            int n = 5 + r.nextInt(60);
            double[] s = new double[n];
            int[] y = new int[n];
            for (int i = 0; i < n; i++) {
                y[i] = r.nextInt(10) < 3 ? 1 : 0;
                s[i] = r.nextInt(8) + (y[i] == 1 ? 2 : 0); // integer scores: ties within and across classes
            }
            double wins = 0;
            long pairs = 0;
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    if (y[i] == 1 && y[j] == 0) {
                        wins += s[i] > s[j] ? 1 : s[i] == s[j] ? 0.5 : 0;
                        pairs++;
                    }
                }
            }
            ClassLabels truth = new ClassLabels(y, List.of("neg", "pos"));
            double auc = Metrics.auc(s, truth, 1);
            if (pairs == 0) {
                assertThat(auc).isNaN();
            } else {
                assertThat(auc).isCloseTo(wins / pairs, org.assertj.core.data.Offset.offset(1e-12));
                // the other class as positive with the scores negated: the same area
                double[] neg = java.util.Arrays.stream(s).map(v -> -v).toArray();
                assertThat(Metrics.auc(neg, truth, 0)).isCloseTo(auc, org.assertj.core.data.Offset.offset(1e-12));
            }
        }
        ClassLabels t = new ClassLabels(new int[] {0, 0, 1, 1}, List.of("a", "b"));
        assertThat(Metrics.auc(new double[] {0.1, 0.2, 0.3, 0.4}, t, 1)).isEqualTo(1.0);
        assertThat(Metrics.auc(new double[] {0.4, 0.3, 0.2, 0.1}, t, 1)).isEqualTo(0.0);
        assertThat(Metrics.auc(new double[] {0.5, 0.5, 0.5, 0.5}, t, 1)).isEqualTo(0.5);
    }
}
