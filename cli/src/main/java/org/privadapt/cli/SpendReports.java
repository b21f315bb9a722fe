package org.privadapt.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.privadapt.cli.report.Report;

/**
 * What results say about budgets: the parties that left part of their epsilon unspent (per result, and summed over
 * a bench), and the totals per party and domain over every cell that read the same records, certified as one
 * composition. {@link Runs} keeps the public entry points and delegates here.
 */
final class SpendReports {
    private SpendReports() {
    }

    static List<String> unspentNotes(Report.TaskResult r) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, Report.PartySpend> e : r.privacy().entrySet()) {
            Report.PartySpend s = e.getValue();
            Double spent = s.perRunEpsilon();
            Double asked = s.epsilonRequested();
            if (spent == null || asked == null || !(spent > 0) || !(spent < Runs.UNSPENT_BELOW * asked)) {
                continue;
            }
            String why = null;
            if (r.diagnostics() != null && !r.diagnostics().isEmpty() && r.diagnostics().get(0).get("budget_unspent") != null) {
                why = r.diagnostics().get(0).get("budget_unspent").toString();
            }
            out.add(r.method() + " on " + r.task() + (r.sweep() == null ? "" : " " + r.sweep()) + ": " + e.getKey() + " spent eps "
                    + Runs.formatNumber(spent) + " of " + Runs.formatNumber(asked) + (r.runs() > 1 ? " per run" : "") + " ("
                    + Math.round(100 * spent / asked) + " %)" + (why == null ? "" : "; " + why));
        }
        return out;
    }

    static List<String> unspentSummary(List<Report.TaskResult> results) {
        Map<String, double[]> range = new LinkedHashMap<>(); // min spent, max spent, cells, asked
        Map<String, String> reason = new LinkedHashMap<>();
        Map<String, Integer> cells = new LinkedHashMap<>();
        for (Report.TaskResult r : results) {
            for (Map.Entry<String, Report.PartySpend> e : r.privacy().entrySet()) {
                String key = r.method() + "\u0000" + e.getKey();
                cells.merge(key, 1, Integer::sum);
                Report.PartySpend s = e.getValue();
                Double spent = s.perRunEpsilon();
                Double asked = s.epsilonRequested();
                if (spent == null || asked == null || !(spent > 0) || !(spent < Runs.UNSPENT_BELOW * asked)) {
                    continue;
                }
                double[] g = range.computeIfAbsent(key, k -> new double[] {Double.POSITIVE_INFINITY, 0, 0});
                g[0] = Math.min(g[0], spent / asked);
                g[1] = Math.max(g[1], spent / asked);
                g[2]++;
                if (!reason.containsKey(key) && r.diagnostics() != null && !r.diagnostics().isEmpty()
                        && r.diagnostics().get(0).get("budget_unspent") != null) {
                    String why = r.diagnostics().get(0).get("budget_unspent").toString();
                    reason.put(key, why.substring(why.indexOf(": ") + 2));
                }
            }
        }
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, double[]> e : range.entrySet()) {
            String[] mp = e.getKey().split("\u0000");
            double[] g = e.getValue();
            String pct = Math.round(100 * g[0]) == Math.round(100 * g[1]) ? Math.round(100 * g[0]) + " %"
                    : Math.round(100 * g[0]) + "-" + Math.round(100 * g[1]) + " %";
            out.add("budget left unspent: " + mp[0] + "'s " + mp[1] + " spent " + pct + " of its epsilon per run in " + (int) g[2]
                    + " of " + cells.get(e.getKey()) + " cells" + (reason.containsKey(e.getKey()) ? " (" + reason.get(e.getKey()) + ")" : ""));
        }
        return out;
    }

    static List<Report.DomainTotal> domainTotals(List<Report.TaskResult> results,
                                                 org.privadapt.privacy.NeighbouringRelation relation, double delta,
                                                 Map<String, String> splitOf) {
        Map<String, List<org.privadapt.privacy.events.DpEvent>> events = new LinkedHashMap<>();
        Map<String, Integer> cells = new LinkedHashMap<>();
        Map<String, Integer> openCells = new LinkedHashMap<>();
        Map<String, Boolean> seeded = new LinkedHashMap<>();
        Map<String, java.util.LinkedHashSet<String>> roles = new LinkedHashMap<>();
        Map<String, String> domainOf = new LinkedHashMap<>();
        for (Report.TaskResult r : results) {
            for (String party : List.of("source", "target")) {
                Report.PartySpend s = r.privacy().get(party);
                if (s == null) {
                    continue;
                }
                String domain = "source".equals(party) ? r.source() : r.target();
                String key = splitOf == null ? party + "/" + domain : java.util.Objects.toString(splitOf.get(party), "all") + "/" + domain;
                boolean notPrivate = Report.unprotected(s.epsilon());
                if (!notPrivate && s.events() == null) {
                    continue; // nothing read (epsilon 0)
                }
                roles.computeIfAbsent(key, k -> new java.util.LinkedHashSet<>()).add(party);
                domainOf.put(key, domain);
                if (notPrivate) {
                    openCells.merge(key, 1, Integer::sum);
                    continue;
                }
                cells.merge(key, 1, Integer::sum);
                seeded.merge(key, !s.isPrivate(), Boolean::logicalOr);
                events.computeIfAbsent(key, k -> new ArrayList<>()).add(org.privadapt.privacy.events.EventJson.read(s.events()));
            }
        }
        List<Report.DomainTotal> out = new ArrayList<>();
        for (String key : roles.keySet()) {
            String party = String.join("+", roles.get(key));
            String domain = domainOf.get(key);
            int open = openCells.getOrDefault(key, 0);
            if (!cells.containsKey(key)) {
                out.add(new Report.DomainTotal(party, domain, false, null, null, open, "data read without differential privacy"));
                continue;
            }
            org.privadapt.privacy.events.ComposedEvent all = new org.privadapt.privacy.events.ComposedEvent(events.get(key));
            org.privadapt.privacy.accounting.Accountants.Certified c = org.privadapt.privacy.accounting.Accountants.certify(relation,
                    all, delta);
            double eps = c == null ? Double.POSITIVE_INFINITY : c.epsilon();
            double at = delta;
            String widened = null;
            double bare = org.privadapt.privacy.accounting.Accountants.bareDelta(all);
            if (!Double.isFinite(eps) && bare > 0 && delta + bare < 0.5) {
                // bare (eps, delta) guarantees (objective perturbation) add their deltas: several of them certify
                // nothing at one release's delta, so the total is stated at delta plus their sum, never hidden
                at = delta + bare;
                c = org.privadapt.privacy.accounting.Accountants.certify(relation, all, at);
                eps = c == null ? Double.POSITIVE_INFINITY : c.epsilon();
                widened = "stated at delta plus the releases' own deltas, which (eps, delta) guarantees add";
            }
            boolean s = seeded.get(key);
            String note = s ? "seeded noise (--seed): NOT PRIVATE"
                    : !Double.isFinite(eps) ? "no finite epsilon: the accountant cannot compose these cells" : widened;
            if (open > 0) {
                String also = "also read without privacy by " + open + " cell" + (open == 1 ? "" : "s")
                        + " (non-private methods): not protected in this bench";
                note = note == null ? also : note + "; " + also;
            }
            out.add(new Report.DomainTotal(party, domain, open == 0 && !s && Double.isFinite(eps), Double.isFinite(eps) ? eps : "infinity",
                    at, cells.get(key), note));
        }
        return out;
    }
}
