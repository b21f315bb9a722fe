package org.privadapt.cli.commands;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@code run --engine spark --method dp-source-only} cannot refine (the target's rows are not in one place): where the
 * default rule would choose map-prototypes in process, it says so in one warning; where the rule chooses none, as the
 * Spark engine does, it says nothing.
 */
class SparkRunDefaultRefinementTest {
    @Test
    void wideRowsAreWarnedOfAndTallRowsAreNot() {
        String w = SparkRun.unrefinedWarning(157, 10, 1024);
        assertThat(w).contains("map-prototypes").contains("refine=none").contains("docs/results/defaults.md").contains("0.0153")
                .doesNotContain("\n");
        assertThat(SparkRun.unrefinedWarning(9782, 2, 102)).isNull();
        assertThat(SparkRun.unrefinedWarning(3_000_000_000L, 3, 6)).isNull(); // n beyond an int: tall
    }
}
