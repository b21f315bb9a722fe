package org.privadapt.privacy.ledger;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.PrivacySession;

/**
 * What can be checked about a party's ledger before any of its rows is read (issue 45 item 4: on Spark a pass over
 * the rows takes seconds to minutes, and a spent or damaged ledger was found only after it). Opening the party's
 * session has already verified an existing ledger (format, party, relation, hash chain); here the plan, when it is
 * known without the rows (the target's release: public settings and d), is checked against the session's target and
 * the ledger's remaining budget as the charge will check it, and otherwise a ledger with nothing left is refused (a
 * plan costs more than nothing). Nothing is read, spent or written; the charge checks again under the ledger's lock.
 * Used by the CLI (through its {@code LedgerPrecheck}) and the Spark ML stages.
 */
public final class LedgerPrecheck {
    private LedgerPrecheck() {
    }

    /**
     * @param plan the releases the step will charge, or null when they depend on the rows (then only a spent ledger is
     *             refused)
     */
    public static void check(PrivacySession session, Path ledger, List<PrivacySession.Release> plan)
            throws BudgetExceededException, BudgetLedger.LedgerException {
        if (plan != null) {
            session.check(plan);
            return;
        }
        if (ledger == null || !Files.exists(ledger)) {
            return;
        }
        BudgetLedger.Snapshot s = BudgetLedger.open(ledger).read();
        if (!(s.epsilonRemaining() > 0)) {
            throw new BudgetExceededException(String.format(Locale.ROOT, "%s: the ledger %s is spent (epsilon %.6g of %.6g); "
                    + "nothing was read", session.party(), ledger, s.epsilonSpent(), s.budget().epsilon()));
        }
    }
}
