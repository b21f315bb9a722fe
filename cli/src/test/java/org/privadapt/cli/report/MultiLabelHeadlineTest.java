package org.privadapt.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 33: a multi-label result's headline cell shows the mean F1 beside the mean per-label accuracy (93.9 % is what
 * answering "absent" for every label gives), and the table warns when a label is never found in any run.
 */
class MultiLabelHeadlineTest {
    static Map<String, Object> run(double meanF1, double... f1) {
        List<Object> per = new ArrayList<>();
        for (int l = 0; l < f1.length; l++) {
            per.add(Map.of("label", "L" + l, "accuracy", 0.9, "f1", f1[l]));
        }
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("per_label", per);
        d.put("mean_f1", meanF1);
        return d;
    }

    @Test
    void theHeadlineShowsF1AndWarnsOfLabelsNeverFound() {
        List<Map<String, Object>> diags = List.of(run(0.2, 0.6, 0.0, 0.0), run(0.1, 0.3, 0.0, 0.0));
        Report.TaskResult r = new Report.TaskResult("F->I", "f", "i", "dp-uda-gmm", Map.of(), 2, 0.939, 0.001, List.of(0.939, 0.939),
                Map.of(), null, null, null, null, diags);
        String t = Markdown.resultsTable(null, List.of(r));
        assertThat(t).contains("93.9").contains("(F1 15.0)");
        assertThat(t).contains("Warning: dp-uda-gmm on F->I: positive-class F1 0 on 2 of 3 labels in every run");
        // a class-label result is unchanged: no F1, no warning
        Report.TaskResult c = new Report.TaskResult("A->W", "a", "w", "coral", Map.of(), 1, 0.8, 0.0, List.of(0.8), Map.of());
        assertThat(Markdown.resultsTable(null, List.of(c))).doesNotContain("F1").doesNotContain("Warning");
    }
}
