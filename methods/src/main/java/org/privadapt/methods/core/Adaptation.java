package org.privadapt.methods.core;

import org.privadapt.data.DataException;
import org.privadapt.data.Dataset;
import org.privadapt.data.preprocess.Preprocessing;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.ledger.BudgetLedger;

/**
 * The Java entry point for "run method M on a source-target pair", what {@code privadapt run} does for one run:
 * the method by name ({@link Methods#get}, with its did-you-mean), the task prepared with the method's protected
 * parties (a preprocessing step fitted on a protected party's rows is refused: {@link TaskPreparation}), then the
 * method, charging each party's session before any noise is drawn.
 *
 * <pre>{@code
 * PrivacyContext privacy = new PrivacyContext(
 *         PrivacySession.builder("source").epsilon(2).delta(1e-5).ledger(Path.of("source.ledger"), 10).build(),
 *         PrivacySession.builder("target").epsilon(2).delta(1e-5).build());
 * AdaptationOutcome out = Adaptation.run("dp-source-only", source, target, evaluation, "l2", MethodConfig.defaults(), privacy);
 * }</pre>
 */
public final class Adaptation {
    private Adaptation() {
    }

    /**
     * Runs {@code method} once.
     *
     * @param evaluation    the target's rows to score (labelled), or {@code target} itself
     * @param preprocessing a preprocessing spec as {@code --preprocess} takes it (e.g. {@code l2,scale=28}, {@code none})
     * @throws IllegalArgumentException for an unknown method, a bad setting or a preprocessing the method's privacy forbids
     * @throws DataException            for rows the method cannot use (shapes, values, labels)
     * @throws BudgetExceededException  when a party's session or ledger would be overspent (nothing is then spent)
     */
    public static AdaptationOutcome run(String method, Dataset source, Dataset target, Dataset evaluation, String preprocessing,
                                        MethodConfig config, PrivacyContext privacy)
            throws DataException, BudgetExceededException, BudgetLedger.LedgerException {
        AdaptationMethod m = Methods.get(method);
        AdaptationTask task = TaskPreparation.prepare(source.domain() + "->" + target.domain(), source, target, evaluation,
                Preprocessing.parse(preprocessing), m.protectedParties());
        return m.run(task, config, privacy);
    }
}
