package org.privadapt.cli.commands;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.privadapt.cli.Runs;
import org.privadapt.cli.report.Report;

/**
 * The privacy paragraphs at the end of a suite bench's text: what each private method spent in its largest cell,
 * and what every party and domain spent over the whole bench, all cells composed.
 */
final class BenchSummaries {
    private BenchSummaries() {
    }

    /**
     * What each private method spent per cell, per party (issue 33: beside a baseline that read the same domain in
     * the clear, the composed totals below say only "not private", and the private methods' own spend appeared
     * nowhere in the text): the largest spend of any of its cells (one cell: one task at one setting, its runs
     * composed), or what protects the party when it spent nothing.
     */
    static String perMethodText(List<Report.TaskResult> results) {
        Map<String, Map<String, Report.PartySpend>> worst = new java.util.LinkedHashMap<>();
        for (Report.TaskResult r : results) {
            if (r.privacy() == null) {
                continue;
            }
            Map<String, Report.PartySpend> m = worst.computeIfAbsent(r.method(), k -> new java.util.LinkedHashMap<>());
            for (Map.Entry<String, Report.PartySpend> e : r.privacy().entrySet()) {
                Report.PartySpend old = m.get(e.getKey());
                Report.PartySpend now = e.getValue();
                if (old == null || (now.isPrivate() && now.epsilon() instanceof Number n
                        && (!(old.epsilon() instanceof Number o) || n.doubleValue() > o.doubleValue()))) {
                    m.put(e.getKey(), now);
                }
            }
        }
        boolean anyPrivate = worst.values().stream().anyMatch(m -> m.values().stream()
                .anyMatch(ps -> ps.epsilon() instanceof Number n && n.doubleValue() > 0));
        if (!anyPrivate) {
            return "";
        }
        StringBuilder sb = new StringBuilder("\nPrivacy spent per method (the largest cell: one task at one setting, its runs composed):\n\n");
        for (Map.Entry<String, Map<String, Report.PartySpend>> e : worst.entrySet()) {
            sb.append("- ").append(e.getKey()).append(": ");
            List<String> parts = new ArrayList<>();
            for (Map.Entry<String, Report.PartySpend> p : e.getValue().entrySet()) {
                Report.PartySpend ps = p.getValue();
                String what;
                if (ps.epsilon() instanceof Number n && n.doubleValue() == 0) {
                    what = "nothing released";
                } else if (ps.epsilon() instanceof Number n) {
                    what = "eps=" + Runs.formatNumber(n.doubleValue()) + ", delta=" + Runs.formatNumber(ps.delta() == null ? 0 : ps.delta())
                            + (ps.runs() != null && ps.runs() > 1 && ps.epsilonPerRun() != null
                                    ? " (" + ps.runs() + " runs of eps=" + Runs.formatNumber(ps.epsilonPerRun()) + ")" : "")
                            + (ps.isPrivate() ? "" : ", " + (ps.note() == null ? "NOT PRIVATE" : ps.note()));
                } else if (Report.unprotected(ps.epsilon())) {
                    what = "not private";
                } else {
                    what = ps.note() == null ? String.valueOf(ps.epsilon()) : ps.note();
                }
                parts.add(p.getKey() + " " + what);
            }
            sb.append(String.join("; ", parts)).append('\n');
        }
        return sb.toString();
    }

    /**
     * The bench's total spend per party and domain, as text: every cell that read a domain privately composes
     * (Runs.domainTotals), which is what one ledger per domain would record.
     */
    static String totalsText(List<Report.DomainTotal> totals) {
        if (totals.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder("\nPrivacy spent over the whole bench (all cells that read a domain's records compose, whichever role "
                + "they played):\n\n");
        for (Report.DomainTotal t : totals) {
            sb.append("- ").append(t.party()).append(' ').append(t.domain()).append(": ");
            if (Report.unprotected(t.epsilon())) {
                sb.append("not private");
            } else if (!(t.epsilon() instanceof Number)) {
                sb.append(String.format(Locale.ROOT, "no finite epsilon at delta=%s over %d cell%s", Runs.formatNumber(t.delta()),
                        t.cells(), t.cells() == 1 ? "" : "s"));
                if (t.note() != null) {
                    sb.append(" (").append(t.note()).append(')');
                }
            } else {
                sb.append(String.format(Locale.ROOT, "eps=%s, delta=%s over %d cell%s", Runs.formatNumber(((Number) t.epsilon()).doubleValue()), Runs.formatNumber(t.delta()),
                        t.cells(), t.cells() == 1 ? "" : "s"));
                if (t.note() != null) {
                    sb.append(" (").append(t.note()).append(')');
                }
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}
