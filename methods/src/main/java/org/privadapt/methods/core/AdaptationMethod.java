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
    /**
     * Whether the outcome's diagnostics may go into reports. A private method's diagnostics can hold statistics of
     * protected rows computed without noise (a vote agreement, a row count), so by default only non-private methods'
     * are reported; a private method opts in only when every key it writes is a DP output, a public fact or a
     * function of public data (its docs/privacy page says which).
     */
    default boolean diagnosticsArePublic() {
        return !isPrivate();
    }

    /**
     * Whether the method runs on {@code task} when its source carries multi-label targets
     * ({@link org.privadapt.data.MultiLabels}); the others refuse such a task with a one-line message.
     */
    default boolean supportsMultiLabel(AdaptationTask task, MethodConfig config) {
        return false;
    }

    /** True when {@code task}'s source carries multi-label targets. */
    static boolean isMultiLabel(AdaptationTask task) {
        return task.source().labels().orElse(null) instanceof org.privadapt.data.MultiLabels;
    }

    default java.util.Set<String> protectedParties() {
        return java.util.Set.of();
    }

    /** The {@code --param} names this method reads ({@link MethodParameters}); any other name is refused. */
    default java.util.Set<String> parameters() {
        return MethodParameters.CLASSIFIER;
    }

    /**
     * True if, under {@code config}, the outcome depends neither on the run's seed nor on its noise (a full-batch
     * L-BFGS model on a closed-form transform, say), so that repetitions are identical and {@code bench} runs the method
     * once per task and repeats the outcome. Never true for a private method. Claimed only where a test checks it
     * ({@code DeterministicMethodsTest}).
     */
    default boolean deterministic(MethodConfig config) {
        return false;
    }

    /** As {@link #deterministic(MethodConfig)} for this task (a method may draw a seeded split on some tasks). */
    default boolean deterministic(AdaptationTask task, MethodConfig config) {
        return deterministic(config);
    }

    /**
     * Runs the method. Private methods charge every release to the session of the party it reads, before drawing
     * noise, and report what each party spent.
     */
    AdaptationOutcome run(AdaptationTask task, MethodConfig config, PrivacyContext privacy)
            throws DataException, org.privadapt.privacy.BudgetExceededException, org.privadapt.privacy.ledger.BudgetLedger.LedgerException;
}
