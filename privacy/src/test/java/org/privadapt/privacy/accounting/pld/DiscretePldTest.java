package org.privadapt.privacy.accounting.pld;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The discrete PLD: hockey-stick formula, its inverse, truncation and composition, on hand-computable cases. */
class DiscretePldTest {

    /** Losses -0.5, 0, 0.5 with masses 0.2, 0.3, 0.4, and 0.1 at infinity. */
    private static DiscretePld small() {
        return new DiscretePld(0.5, -1, new double[] {0.2, 0.3, 0.4}, 0.1, 0.0);
    }

    @Test
    void deltaIsTheHockeyStickSum() {
        DiscretePld pld = small();
        assertThat(pld.delta(0.0)).isCloseTo(0.1 + 0.4 * (1 - Math.exp(-0.5)), within(1e-15));
        assertThat(pld.delta(0.25)).isCloseTo(0.1 + 0.4 * (1 - Math.exp(-0.25)), within(1e-15));
        // only losses strictly above eps count, so at and beyond the largest finite loss only infinity is left
        assertThat(pld.delta(0.5)).isEqualTo(0.1);
        assertThat(pld.delta(7.0)).isEqualTo(0.1);
        assertThat(pld.delta(Double.POSITIVE_INFINITY)).isEqualTo(0.1);
    }

    @Test
    void epsilonInvertsDeltaOnThePiecewiseForm() {
        DiscretePld pld = small();
        // On [0, 0.5): delta(eps) = 0.5 - e^eps 0.4 e^-0.5, so delta = 0.2 at eps = 0.5 + ln(0.75).
        double eps = pld.epsilon(0.2);
        assertThat(eps).isCloseTo(0.5 + Math.log(0.75), within(1e-12));
        assertThat(pld.delta(eps)).isLessThanOrEqualTo(0.2);
        // delta(0) = 0.257... <= 0.3, so no epsilon is needed
        assertThat(pld.epsilon(0.3)).isZero();
        // the mass at infinity cannot be paid for by any finite epsilon
        assertThat(pld.epsilon(0.05)).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(pld.epsilon(0.1)).isLessThanOrEqualTo(0.5);
        assertThat(pld.delta(pld.epsilon(0.1))).isLessThanOrEqualTo(0.1);
    }

    @Test
    void epsilonNeverUnderstatesAndIsTight() {
        DiscretePld pld = new AdditiveNoiseLoss(AdditiveNoiseLoss.Noise.GAUSSIAN, 0.8,
                AdditiveNoiseLoss.Direction.PLAIN, 1.0).discretise(1e-3, Discretisation.CONNECT_THE_DOTS, 1e-15);
        // delta(0) = 0.468: at delta = 0.5 no epsilon is needed
        assertThat(pld.delta(0.0)).isLessThan(0.5);
        assertThat(pld.epsilon(0.5)).isZero();
        for (double delta : new double[] {0.4, 0.1, 1e-3, 1e-6, 1e-10}) {
            double eps = pld.epsilon(delta);
            assertThat(eps).isPositive();
            assertThat(pld.delta(eps)).as("delta %s", delta).isLessThanOrEqualTo(delta);
            assertThat(pld.delta(eps - 1e-9)).as("delta %s", delta).isGreaterThan(delta);
        }
    }

    @Test
    void truncationMovesTheLowerTailUpAndTheUpperTailToInfinity() {
        double[] probs = {1e-16, 2e-16, 0.5, 0.5 - 6e-16, 3e-16};
        DiscretePld pld = DiscretePld.truncated(0.1, 10, probs, 0.0, 0.0, 1e-15);
        assertThat(pld.lowerIndex()).isEqualTo(12);
        assertThat(pld.size()).isEqualTo(2);
        assertThat(pld.prob(0)).isEqualTo(0.5 + 3e-16);
        assertThat(pld.prob(1)).isEqualTo(0.5 - 6e-16);
        assertThat(pld.infinityMass()).isEqualTo(3e-16);
        assertThat(pld.truncatedMass()).isCloseTo(6e-16, within(1e-30));
        assertThat(pld.totalMass()).isCloseTo(1.0, within(1e-15));
    }

    @Test
    void truncationKeepsAtLeastOnePoint() {
        DiscretePld pld = DiscretePld.truncated(0.1, 0, new double[] {1e-17, 1e-17, 1e-17}, 1.0 - 3e-17, 0.0, 1e-15);
        assertThat(pld.size()).isEqualTo(1);
        assertThat(pld.totalMass()).isCloseTo(1.0, within(1e-16));
    }

    @Test
    void compositionConvolvesAndCombinesInfinity() {
        DiscretePld a = small();
        DiscretePld b = new DiscretePld(0.5, 2, new double[] {0.6, 0.2}, 0.2, 0.0);
        DiscretePld c = a.compose(b, 0.0);
        assertThat(c.lowerIndex()).isEqualTo(1);
        assertThat(c.size()).isEqualTo(4);
        assertThat(c.prob(0)).isCloseTo(0.2 * 0.6, within(1e-16));
        assertThat(c.prob(1)).isCloseTo(0.2 * 0.2 + 0.3 * 0.6, within(1e-16));
        assertThat(c.prob(2)).isCloseTo(0.3 * 0.2 + 0.4 * 0.6, within(1e-16));
        assertThat(c.prob(3)).isCloseTo(0.4 * 0.2, within(1e-16));
        assertThat(c.infinityMass()).isCloseTo(1 - 0.9 * 0.8, within(1e-16));
    }

    @Test
    void selfCompositionBySquaringEqualsRepeatedComposition() {
        DiscretePld a = small();
        DiscretePld repeated = DiscretePld.identity(0.5);
        for (int i = 0; i < 13; i++) {
            repeated = repeated.compose(a, 0.0);
        }
        DiscretePld squared = a.selfCompose(13, 0.0);
        assertThat(squared.lowerIndex()).isEqualTo(repeated.lowerIndex());
        assertThat(squared.size()).isEqualTo(repeated.size());
        for (int i = 0; i < squared.size(); i++) {
            assertThat(squared.prob(i)).isCloseTo(repeated.prob(i), within(1e-15));
        }
        assertThat(squared.infinityMass()).isCloseTo(repeated.infinityMass(), within(1e-15));
        assertThat(a.selfCompose(0, 0.0).delta(0.0)).isZero();
        assertThat(a.selfCompose(1, 0.0)).isSameAs(a);
    }

    @Test
    void identityAndNonPrivateActAsUnitAndZero() {
        DiscretePld a = small();
        assertThat(DiscretePld.identity(0.5).compose(a, 0.0)).isSameAs(a);
        assertThat(DiscretePld.identity(0.5).delta(0.0)).isZero();
        assertThat(DiscretePld.identity(0.5).epsilon(1e-9)).isZero();
        DiscretePld none = a.compose(DiscretePld.nonPrivate(0.5), 0.0);
        assertThat(none.delta(100.0)).isEqualTo(1.0);
        assertThat(none.epsilon(0.999)).isEqualTo(Double.POSITIVE_INFINITY);
    }

    @Test
    void largeCompositionsKeepTheirMassAndRecordTruncation() {
        DiscretePld base = new AdditiveNoiseLoss(AdditiveNoiseLoss.Noise.GAUSSIAN, 1.0,
                AdditiveNoiseLoss.Direction.REMOVE, 0.1).discretise(1e-4, Discretisation.CONNECT_THE_DOTS, 1e-15);
        DiscretePld composed = base.selfCompose(200, 1e-15);
        assertThat(composed.totalMass()).isCloseTo(1.0, within(1e-12));
        // Each of the 200 mechanisms lost at most 2e-15; each composition loses at most 2e-15 more, and what the
        // squaring 2^k -> 2^(k+1) loses counts 200 / 2^(k+1) times in the result: at most 2 x 200 x 2e-15 in all.
        assertThat(composed.truncatedMass()).isPositive().isLessThan(200 * 2e-15 + 2 * 200 * 2e-15);
    }

    /**
     * FFT round-off is not pessimistic by construction, so measure it: squaring a realistic PLD (2,200 grid points,
     * so the FFT path is taken) against the direct double sum. Observed: at most 1.0e-17 per entry (the peak entry
     * is 1.3e-2) and at most 4.2e-16 in delta; the test allows 1e-15 per entry and 1e-14 in delta.
     */
    @Test
    void fftRoundOffIsNegligibleInDelta() {
        DiscretePld base = new AdditiveNoiseLoss(AdditiveNoiseLoss.Noise.GAUSSIAN, 1.5,
                AdditiveNoiseLoss.Direction.REMOVE, 0.04).discretise(1e-3, Discretisation.CONNECT_THE_DOTS, 1e-15);
        assertThat((long) base.size() * base.size()).isGreaterThan(Fft.DIRECT_LIMIT);
        DiscretePld viaFft = base.compose(base, 0.0);
        double[] direct = new double[2 * base.size() - 1];
        for (int i = 0; i < base.size(); i++) {
            for (int j = 0; j < base.size(); j++) {
                direct[i + j] += base.prob(i) * base.prob(j);
            }
        }
        double inf = 2 * base.infinityMass() - base.infinityMass() * base.infinityMass();
        DiscretePld viaDirect = new DiscretePld(1e-3, 2 * base.lowerIndex(), direct, inf, 0.0);
        // zero-mass ends (round-off clamped to zero) are trimmed even with tailBound = 0
        int offset = (int) (viaFft.lowerIndex() - viaDirect.lowerIndex());
        assertThat(offset).isBetween(0, 10);
        assertThat(direct.length - viaFft.size() - offset).isBetween(0, 10);
        double worst = 0;
        for (int k = 0; k < direct.length; k++) {
            int i = k - offset;
            double fft = i >= 0 && i < viaFft.size() ? viaFft.prob(i) : 0.0;
            worst = Math.max(worst, Math.abs(fft - direct[k]));
        }
        assertThat(worst).isLessThan(1e-15);
        for (double eps : new double[] {0.0, 0.5, 1.0, 2.0, 4.0}) {
            assertThat(viaFft.delta(eps)).as("eps=%s", eps).isCloseTo(viaDirect.delta(eps), within(1e-14));
        }
    }

    @Test
    void refusesMismatchedGridsAndEmptySupports() {
        assertThatThrownBy(() -> small().compose(DiscretePld.identity(0.25), 0.0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("grids");
        assertThatThrownBy(() -> new DiscretePld(0.1, 0, new double[0], 0.0, 0.0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> small().selfCompose(-1, 0.0)).isInstanceOf(IllegalArgumentException.class);
    }
}
