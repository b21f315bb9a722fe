package org.privadapt.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.privadapt.data.ClassLabels;

class BalancedAccuracyTest {
    /** 94 clutter rows then 6 landmines, as imbalanced as the landmine fields. */
    static ClassLabels landmineLike() {
        int[] codes = new int[100];
        for (int i = 94; i < 100; i++) {
            codes[i] = 1;
        }
        return new ClassLabels(codes, List.of("clutter", "landmine"));
    }

    @Test
    void theMajorityClassAloneScoresOneOverK() {
        ClassLabels y = landmineLike();
        int[] allClutter = new int[100];
        assertThat(Metrics.accuracy(allClutter, y)).isEqualTo(0.94);
        assertThat(Metrics.balancedAccuracy(allClutter, y)).isEqualTo(0.5);
        // half the landmines found, 4 clutter rows flagged: (90/94 + 3/6) / 2
        int[] some = new int[100];
        for (int i = 0; i < 4; i++) {
            some[i] = 1;
        }
        for (int i = 94; i < 97; i++) {
            some[i] = 1;
        }
        assertThat(Metrics.balancedAccuracy(some, y)).isCloseTo((90.0 / 94 + 3.0 / 6) / 2, org.assertj.core.data.Offset.offset(1e-12));
    }

    @Test
    void onBalancedRowsItIsTheAccuracyAndAbsentClassesDoNotCount() {
        ClassLabels y = new ClassLabels(new int[] {0, 0, 1, 1}, List.of("a", "b", "c"));
        int[] p = {0, 2, 1, 1};
        assertThat(Metrics.balancedAccuracy(p, y)).isEqualTo(Metrics.accuracy(p, y)).isEqualTo(0.75);
        assertThat(Metrics.balancedAccuracy(new int[0], new ClassLabels(new int[0], List.of("a")))).isNaN();
        assertThatThrownBy(() -> Metrics.balancedAccuracy(new int[1], y)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void imbalancedWhenTheRarestClassHasUnderAQuarterOfTheLargest() {
        assertThat(Metrics.imbalanced(landmineLike())).isTrue();
        assertThat(Metrics.imbalanced(new ClassLabels(new int[] {0, 0, 0, 0, 0, 1}, List.of("a", "b")))).isTrue(); // 1 : 5
        assertThat(Metrics.imbalanced(new ClassLabels(new int[] {0, 0, 0, 0, 1}, List.of("a", "b")))).isFalse(); // 1 : 4
        assertThat(Metrics.imbalanced(new ClassLabels(new int[] {0, 0, 1}, List.of("a", "b", "c")))).isFalse(); // c absent
    }
}
