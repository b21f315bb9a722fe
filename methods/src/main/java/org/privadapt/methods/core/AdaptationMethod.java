package org.privadapt.methods.core;

import org.privadapt.data.DataException;

/** A domain-adaptation method that can be run end to end on a task (one process holding both parties' data). */
public interface AdaptationMethod {
    /** Registry name, e.g. {@code coral}. */
    String name();

    /** One line for listings. */
    String description();

    /** Whether the method gives a differential-privacy guarantee to both parties. */
    boolean isPrivate();

    /**
     * The parties whose data this method protects with DP: their preprocessing must be row-local (a step fitted on
     * all of a party's rows would make every transformed row depend on every record, and the method's sensitivity
     * bounds would no longer hold).
     */
    default java.util.Set<String> protectedParties() {
        return java.util.Set.of();
    }

    /**
     * Runs the method. Private methods charge every release to the session of the party it reads, before drawing
     * noise, and report what each party spent.
     */
    AdaptationOutcome run(AdaptationTask task, MethodConfig config, PrivacyContext privacy)
            throws DataException, org.privadapt.privacy.BudgetExceededException, org.privadapt.privacy.ledger.BudgetLedger.LedgerException;
}
