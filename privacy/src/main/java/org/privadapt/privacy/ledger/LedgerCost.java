package org.privadapt.privacy.ledger;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.privadapt.privacy.accounting.Accountants;
import org.privadapt.privacy.events.ComposedEvent;
import org.privadapt.privacy.events.DpEvent;

/**
 * What a ledger's entries cost: the composition of their events (and of a release being considered), certified by
 * every accountant that supports it at the budget's delta, the smallest certified epsilon kept ({@link Total}); and
 * the message that refuses a plan over the budget. {@link BudgetLedger} decides with these whether to charge.
 */
final class LedgerCost {
    private LedgerCost() {
    }

    /** A composition's certified epsilon and the accountant that gave it ("none" for no entries). */
    record Total(double epsilon, String accountant) {
    }

    /** The cost of {@code s}'s entries composed with {@code extra} (none when null). */
    static Total total(BudgetLedger.Snapshot s, DpEvent extra) throws BudgetLedger.LedgerException {
        List<DpEvent> all = new ArrayList<>();
        for (BudgetLedger.Entry e : s.entries()) {
            all.add(e.event());
        }
        if (extra != null) {
            all.add(extra);
        }
        if (all.isEmpty()) {
            return new Total(0.0, "none");
        }
        DpEvent composed = new ComposedEvent(all);
        Accountants.Certified c = Accountants.certify(s.relation(), composed, s.budget().delta());
        if (c == null) {
            throw new BudgetLedger.LedgerException("no accountant can analyse the composition " + composed.describe()
                    + " under " + s.relation().description());
        }
        return new Total(c.epsilon(), c.accountant());
    }

    /** The refusal of {@code plan}, which would bring the ledger at {@code file} to {@code t}. */
    static String refusal(List<BudgetLedger.Charge> plan, BudgetLedger.Snapshot s, Total t, Path file) {
        String what = plan.size() == 1 ? "'" + plan.get(0).label() + "'"
                : "the plan '" + plan.get(0).label() + "' + " + (plan.size() - 1) + " more";
        return what + " would bring party '" + s.party() + "' to epsilon " + fmt(t.epsilon()) + " at delta " + s.budget().delta()
                + ", over its budget " + fmt(s.budget().epsilon()) + " (spent so far " + fmt(s.epsilonSpent()) + ", ledger "
                + file + ")";
    }

    private static String fmt(double x) {
        return String.format(java.util.Locale.ROOT, "%.6g", x);
    }
}
