package org.privadapt.cli;

import java.nio.file.Path;
import java.util.List;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.ledger.BudgetLedger;

/**
 * What can be checked about a party's ledger before any of its rows is read (issue 45 item 4: on Spark a pass over
 * the rows takes seconds to minutes, and a spent or damaged ledger was found only after it). Opening the party's
 * session has already verified an existing ledger (format, party, relation, hash chain: exit 5); here the plan, when it
 * is known without the rows (the target's release: public settings and d), is checked against the run's target and
 * the ledger's remaining budget as the charge will check it, and otherwise a ledger with nothing left is refused (a
 * plan costs more than nothing). Both refusals are exit 4 with nothing read, spent or written; the charge checks again
 * under the ledger's lock, as before. The checks are the privacy module's
 * ({@link org.privadapt.privacy.ledger.LedgerPrecheck}), shared with the Spark ML stages.
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
        org.privadapt.privacy.ledger.LedgerPrecheck.check(session, ledger, plan);
    }
}
