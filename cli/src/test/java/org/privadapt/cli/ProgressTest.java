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
}
