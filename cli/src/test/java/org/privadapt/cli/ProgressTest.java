package org.privadapt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProgressTest {
    @Test
    void shownWhenStandardErrorIsATerminalUnlessTheUserSaysOtherwise() {
        // the launcher's answer for standard error wins over System.console() (which needs stdout to be a terminal)
        assertThat(Progress.wanted(null, "true", false)).isTrue();
        assertThat(Progress.wanted(null, "false", true)).isFalse();
        // without the launcher: the console decides
        assertThat(Progress.wanted(null, null, true)).isTrue();
        assertThat(Progress.wanted(null, null, false)).isFalse();
        // PRIVADAPT_PROGRESS forces either way
        assertThat(Progress.wanted("1", "false", false)).isTrue();
        assertThat(Progress.wanted("always", null, false)).isTrue();
        assertThat(Progress.wanted("0", "true", true)).isFalse();
        assertThat(Progress.wanted("never", "true", true)).isFalse();
        // anything else leaves the automatic choice
        assertThat(Progress.wanted("auto", "true", false)).isTrue();
    }

    @Test
    void aDisabledBarIsSilentAndSafe() {
        try (Progress p = Progress.start("x", 3, false)) {
            p.message("m");
            p.step();
        }
    }

    /** Issue 33: without a terminal the long benchmarks print a plain line per finished step (they printed nothing). */
    @Test
    void withoutATerminalTheLongBenchmarksPrintALinePerStep() {
        String before = System.getProperty("privadapt.stderrTty");
        java.io.PrintStream err = System.err;
        java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
        System.setProperty("privadapt.stderrTty", "false");
        System.setErr(new java.io.PrintStream(buf, true));
        try (Progress p = Progress.startWithLines("linalg", 2, true)) {
            p.message("ejml");
            p.step();
            p.step();
        } finally {
            System.setErr(err);
            if (before == null) {
                System.clearProperty("privadapt.stderrTty");
            } else {
                System.setProperty("privadapt.stderrTty", before);
            }
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(System.getenv("PRIVADAPT_PROGRESS") == null, "PRIVADAPT_PROGRESS set");
        assertThat(buf.toString()).contains("privadapt: linalg 1/2 done (ejml)").contains("privadapt: linalg 2/2 done");
        // --json (disabled): silent
        java.io.ByteArrayOutputStream none = new java.io.ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(none, true));
        try (Progress p = Progress.startWithLines("linalg", 2, false)) {
            p.step();
        } finally {
            System.setErr(err);
        }
        assertThat(none.toString()).isEmpty();
    }

    /** Issue 33: a long cell says how long it will take after its first run; a short one says nothing. */
    @Test
    void aLongCellAnnouncesItsDuration() {
        assertThat(Runs.cellEstimate("prima", "A->W", 20, 2, 72.0)).contains("the first of 20 runs took 72 s")
                .contains("about 12 min more");
        assertThat(Runs.cellEstimate("prima", "A->W", 20, 1, 2.0)).isNull();
        assertThat(Runs.cellEstimate("prima", "A->W", 1, 1, 600.0)).isNull();
    }
}
