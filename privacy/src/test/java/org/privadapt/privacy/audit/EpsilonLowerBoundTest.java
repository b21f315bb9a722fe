package org.privadapt.privacy.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** Clopper-Pearson limits against closed forms, and the bound's behaviour at its edges. */
class EpsilonLowerBoundTest {
    @Test
    void clopperPearsonMatchesItsClosedFormsAtTheEdges() {
        // k = 0: the upper limit solves (1 - p)^n = a; k = n: the lower limit solves p^n = a
        assertThat(EpsilonLowerBound.upper(0, 100, 0.05)).isCloseTo(1 - Math.pow(0.05, 1.0 / 100), within(1e-12));
        assertThat(EpsilonLowerBound.lower(100, 100, 0.05)).isCloseTo(Math.pow(0.05, 1.0 / 100), within(1e-12));
        assertThat(EpsilonLowerBound.upper(100, 100, 0.05)).isEqualTo(1.0);
        assertThat(EpsilonLowerBound.lower(0, 100, 0.05)).isZero();
        // the limits bracket the observed proportion
        assertThat(EpsilonLowerBound.lower(30, 100, 0.05)).isLessThan(0.3);
        assertThat(EpsilonLowerBound.upper(30, 100, 0.05)).isGreaterThan(0.3);
    }

    @Test
    void noSeparationGivesZeroAndSeparationGivesAPositiveBound() {
        assertThat(EpsilonLowerBound.of(500, 1000, 500, 1000, 1e-5, 0.05).epsilon()).isZero();
        EpsilonLowerBound.Result r = EpsilonLowerBound.of(10, 100_000, 1000, 100_000, 1e-5, 0.05);
        // the point estimate is log(100); the confidence limits pull it below
        assertThat(r.epsilon()).isPositive().isLessThan(Math.log(100));
        assertThat(r.fprUpper()).isGreaterThan(1e-4);
        assertThat(r.tprLower()).isLessThan(1e-2);
        // more trials at the same rates give a tighter (larger) bound
        assertThat(EpsilonLowerBound.of(100, 1_000_000, 10_000, 1_000_000, 1e-5, 0.05).epsilon()).isGreaterThan(r.epsilon());
    }
}
