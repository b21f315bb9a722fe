package org.privadapt.cli.commands;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.privadapt.cli.report.Report;

/**
 * Issue 33: beside a baseline that read the same domain in the clear, bench's composed totals say "not private" and
 * the private methods' spend appeared nowhere in the text; the per-method lines show it for each party.
 */
class BenchPrivacySummaryTest {
    static Report.TaskResult cell(String method, Map<String, Report.PartySpend> spend) {
        return new Report.TaskResult("A->W", "amazon", "webcam", method, Map.of(), 1, 0.5, 0.0, List.of(0.5), spend);
    }

    @Test
    void thePrivateMethodsSpendIsShownBesideABaseline() {
        Map<String, Report.PartySpend> baseline = new LinkedHashMap<>();
        baseline.put("source", new Report.PartySpend(false, "inf", null, "data read without differential privacy"));
        baseline.put("target", new Report.PartySpend(true, 0.0, 0.0, "nothing released"));
        Map<String, Report.PartySpend> prima = new LinkedHashMap<>();
        prima.put("source", new Report.PartySpend(true, 2.0, 1e-5, null));
        prima.put("target", new Report.PartySpend(true, 1.5, 1e-5, null));
        String t = BenchCommand.perMethodText(List.of(cell("source-only", baseline), cell("prima", prima)));
        assertThat(t).contains("- source-only: source not private; target nothing released")
                .contains("- prima: source eps=2, delta=1e-5; target eps=1.5, delta=1e-5");
        assertThat(BenchCommand.perMethodText(List.of(cell("source-only", baseline)))).isEmpty();
    }
}
