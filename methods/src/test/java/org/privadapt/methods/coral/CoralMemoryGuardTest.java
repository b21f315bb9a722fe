package org.privadapt.methods.coral;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** CORAL's exact d x d route is refused up front where its matrices cannot fit in the heap (20 Newsgroups, spam). */
class CoralMemoryGuardTest {
    private static final long SIX_GB = 6_000_000_000L;

    @Test
    void theDenseRouteIsRefusedWithOneLineWhereItsMatricesExceedTheHeap() {
        // 20 Newsgroups: 4 x 8 x 25,804^2 bytes = 21.3 GB
        assertThatThrownBy(() -> Coral.requireDenseRouteFits(25_804, 1.0, SIX_GB)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("d = 25804").hasMessageContaining("21.3 GB").hasMessageContaining("6.0 GB heap")
                .hasMessageContaining("--param lambda").hasMessageNotContaining("\n");
        assertThatThrownBy(() -> Coral.requireDenseRouteFits(152_543, 1.0, SIX_GB)).hasMessageContaining("744.6 GB");
    }

    @Test
    void theDenseRouteRunsWhereItFits() {
        // Amazon reviews, d = 5,000: 0.8 GB; and exactly at the heap
        assertThatCode(() -> Coral.requireDenseRouteFits(5_000, 1.0, SIX_GB)).doesNotThrowAnyException();
        int d = 1000;
        long exact = (long) Coral.DENSE_ROUTE_MATRICES * 8L * d * d;
        assertThatCode(() -> Coral.requireDenseRouteFits(d, 1.0, exact)).doesNotThrowAnyException();
        assertThatThrownBy(() -> Coral.requireDenseRouteFits(d, 1.0, exact - 1)).isInstanceOf(IllegalArgumentException.class);
    }
}
