package org.privadapt.privacy.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/**
 * The one-run bound against literal values computed independently with SciPy 1.17 (binom.sf / binom.pmf, the same
 * theorem written out in Python, bisection to 1e-15): p-values to 1e-10, epsilons to 2e-6 (our bisection's step).
 */
class OneRunBoundTest {
    @Test
    void pValuesMatchTheOracle() {
        assertThat(OneRunBound.pValue(1000, 100, 80, 1.0, 1e-5)).isCloseTo(0.07300911594917776, within(1e-10));
        assertThat(OneRunBound.pValue(1000, 100, 80, 1.0, 0)).isCloseTo(0.07155624680483674, within(1e-10));
    }

    @Test
    void epsilonsMatchTheOracle() {
        assertThat(OneRunBound.epsilon(1000, 100, 80, 0, 0.05)).isCloseTo(0.958392045292099, within(2e-6));
        assertThat(OneRunBound.epsilon(1000, 100, 80, 1e-5, 0.05)).isCloseTo(0.9553185349552558, within(2e-6));
        assertThat(OneRunBound.epsilon(1000, 200, 150, 1e-5, 0.05)).isCloseTo(0.8199729121699937, within(2e-6));
        assertThat(OneRunBound.epsilon(1000, 1000, 600, 1e-5, 0.01)).isCloseTo(0.25305134144512553, within(2e-6));
        assertThat(OneRunBound.epsilon(10000, 500, 490, 1e-5, 0.05)).isCloseTo(3.313549008814731, within(2e-6));
    }

    @Test
    void chanceGuessingProvesNothingAndMoreCorrectGuessesProveMore() {
        assertThat(OneRunBound.epsilon(1000, 100, 50, 1e-5, 0.05)).isZero();
        assertThat(OneRunBound.epsilon(1000, 100, 90, 1e-5, 0.05)).isGreaterThan(OneRunBound.epsilon(1000, 100, 80, 1e-5, 0.05));
        // a larger delta explains more
        assertThat(OneRunBound.epsilon(1000, 100, 80, 1e-3, 0.05)).isLessThan(OneRunBound.epsilon(1000, 100, 80, 1e-5, 0.05));
        assertThatThrownBy(() -> OneRunBound.pValue(10, 11, 1, 1, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
