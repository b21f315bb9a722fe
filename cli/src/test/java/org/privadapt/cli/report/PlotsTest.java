package org.privadapt.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 33: a plain bench gets a bar chart (--plot without --sweep was refused), and a sweep draws the methods
 * without the swept parameter as flat reference lines.
 */
class PlotsTest {
    static Report.TaskResult r(String task, String method, Map<String, String> sweep, double acc) {
        return new Report.TaskResult(task, "s", "t", method, sweep, 3, acc, 0.02, List.of(acc, acc, acc), Map.of());
    }

    static boolean png(byte[] b) {
        return b.length > 8 && (b[0] & 0xff) == 0x89 && b[1] == 'P' && b[2] == 'N' && b[3] == 'G';
    }

    @Test
    void aPlainBenchGetsBarsAndASweepItsReferenceLines() throws Exception {
        List<Report.TaskResult> plain = List.of(r("A->W", "source-only", Map.of(), 0.7), r("A->W", "prima", Map.of(), 0.5),
                r("W->A", "source-only", Map.of(), 0.6), r("W->A", "prima", Map.of(), 0.4));
        assertThat(png(Plots.barsPng("plain", plain))).isTrue();
        List<Report.TaskResult> sweep = List.of(r("A->W", "source-only", Map.of(), 0.7),
                r("A->W", "prima", Map.of("lambda", "0.1"), 0.5), r("A->W", "prima", Map.of("lambda", "1"), 0.55));
        assertThat(png(Plots.sweepPng("sweep", "lambda", sweep))).isTrue();
    }
}
