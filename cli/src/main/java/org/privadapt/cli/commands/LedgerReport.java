package org.privadapt.cli.commands;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.privadapt.cli.Runs;
import org.privadapt.privacy.events.EventJson;
import org.privadapt.privacy.ledger.BudgetLedger;

/**
 * A budget ledger as {@code privadapt privacy ledger} and {@code privadapt inspect} print it: as JSON (budget, totals,
 * every entry with its event) or as text for people (one row per entry, its own and the running epsilon, the noise
 * samplers once at the end, the total).
 */
final class LedgerReport {
    private LedgerReport() {
    }

    /** The ledger as JSON: budget, totals and every entry with its event. */
    static Map<String, Object> jsonOf(BudgetLedger.Snapshot s) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("file", s.file().toString());
        out.put("party", s.party());
        out.put("budget", Map.of("epsilon", s.budget().epsilon(), "delta", s.budget().delta()));
        out.put("relation", s.relation().id());
        out.put("epsilon_spent", s.epsilonSpent());
        out.put("epsilon_remaining", s.epsilonRemaining());
        out.put("accountant", s.accountant());
        out.put("all_noise_secure", s.allNoiseSecure());
        List<Map<String, Object>> entries = new ArrayList<>();
        for (BudgetLedger.Entry e : s.entries()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("seq", e.seq());
            m.put("time", e.time());
            m.put("label", e.label());
            m.put("mechanism", e.mechanism());
            m.put("event", EventJson.write(e.event()));
            m.put("sampler", e.sampler());
            m.put("secure_noise", e.secureNoise());
            m.put("parameters", e.parameters());
            m.put("epsilon_after", e.epsilonAfter());
            entries.add(m);
        }
        out.put("entries", entries);
        return out;
    }

    /**
     * The ledger for people: one row per entry with its own epsilon (the entry alone, at the ledger's delta) and
     * the running total, the event and mechanism on an indented line, and each distinct noise sampler once at
     * the end instead of on every entry. Ends with a newline.
     */
    static String text(BudgetLedger.Snapshot s) {
        StringBuilder b = new StringBuilder();
        b.append("ledger ").append(s.file()).append('\n');
        b.append("party ").append(s.party()).append(", budget epsilon ").append(Runs.formatNumber(s.budget().epsilon()))
                .append(" at delta ").append(Runs.formatNumber(s.budget().delta())).append(", ")
                .append(s.relation().description()).append(" neighbours\n\n");
        b.append(String.format(Locale.ROOT, "  %-4s %-19s  %-9s  %-9s  %s%n", "#", "time (UTC)", "eps alone", "eps total", "label"));
        List<String> samplers = new ArrayList<>();
        for (BudgetLedger.Entry e : s.entries()) {
            org.privadapt.privacy.accounting.Accountants.Certified alone = org.privadapt.privacy.accounting.Accountants
                    .certify(s.relation(), e.event(), s.budget().delta());
            String time = e.time() == null ? "" : e.time().replace('T', ' ');
            time = time.length() > 19 ? time.substring(0, 19) : time;
            b.append(String.format(Locale.ROOT, "  %-4d %-19s  %-9s  %-9s  %s%n", e.seq(), time,
                    alone == null ? "n/a" : Runs.formatNumber(alone.epsilon()), Runs.formatNumber(e.epsilonAfter()), e.label()));
            int k = samplers.indexOf(e.sampler());
            if (k < 0) {
                samplers.add(e.sampler());
                k = samplers.size() - 1;
            }
            b.append("       ").append(e.mechanism()).append("; noise [").append(k + 1).append(']')
                    .append(e.secureNoise() ? "" : " NOT SECURE (seeded)").append('\n');
            b.append("       event: ").append(e.event().describe()).append('\n');
        }
        if (!samplers.isEmpty()) {
            b.append("\nnoise samplers:\n");
            for (int i = 0; i < samplers.size(); i++) {
                b.append("  [").append(i + 1).append("] ").append(samplers.get(i)).append('\n');
            }
        }
        b.append(String.format(Locale.ROOT, "%ntotal: epsilon %s of %s spent at delta %s (%s accountant), %s remaining%n",
                Runs.formatNumber(s.epsilonSpent()), Runs.formatNumber(s.budget().epsilon()),
                Runs.formatNumber(s.budget().delta()), s.accountant(), Runs.formatNumber(s.epsilonRemaining())));
        if (!s.allNoiseSecure()) {
            b.append("NOT PRIVATE: at least one release used seeded (non-secure) noise; its guarantee does not hold.\n");
        }
        return b.toString();
    }
}
