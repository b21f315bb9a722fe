package org.privadapt.methods.dpsgd;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.DataException;
import org.privadapt.methods.core.AdaptationMethod;
import org.privadapt.methods.core.AdaptationOutcome;
import org.privadapt.methods.core.AdaptationTask;
import org.privadapt.methods.core.Classifiers;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.PrivacyContext;
import org.privadapt.methods.core.PrivateLearners;
import org.privadapt.methods.core.TargetRefinements;
import org.privadapt.models.Classifier;
import org.privadapt.models.nn.Network;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.PrivacyCost;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.ledger.BudgetLedger;

/**
 * The private no-adaptation baseline: the source trains its classifier with a private learner
 * ({@link PrivateLearners}: DP-SGD, DP-GD, DP class statistics, output perturbation) on its own (row-locally
 * preprocessed) data and ships the model; the target applies it, optionally after refining it on its own unlabelled
 * rows ({@link TargetRefinements}). The source spends its (epsilon, delta) on the
 * training; the target spends nothing (it only evaluates the model on its own rows).
 */
public final class DpSourceOnlyMethod implements AdaptationMethod {
    @Override
    public String name() {
        return "dp-source-only";
    }

    @Override
    public String description() {
        return "no adaptation, source model from a private learner (DP-SGD, DP-GD, class statistics, output perturbation; source private; the target reads only its own rows, with refine)";
    }

    @Override
    public java.util.Set<String> parameters() {
        return org.privadapt.methods.core.MethodParameters.union(org.privadapt.methods.core.PrivateLearners.ALL,
                org.privadapt.methods.core.TargetRefinements.PARAMETERS);
    }

    @Override
    public boolean isPrivate() {
        return true;
    }

    @Override
    public Set<String> protectedParties() {
        return Set.of("source");
    }

    @Override
    public AdaptationOutcome run(AdaptationTask task, MethodConfig config, PrivacyContext privacy)
            throws DataException, BudgetExceededException, BudgetLedger.LedgerException {
        PrivacySession source = privacy.source();
        ClassLabels y = task.source().classLabels();
        int d = task.source().dimension();
        double eps = source.target().epsilon();
        PrivateLearners.Kind kind = PrivateLearners.kind(config, d, y.numClasses(), eps,
                PrivateLearners.sizePublic(task.source(), source));
        PrivateLearners.requireDisclosures(kind, task.source(), source, "the source's " + kind.label() + " model");
        TargetRefinements.mode(config); // a misspelt option fails before anything is spent
        PrivateLearners.Plan plan = PrivateLearners.plan(PrivateLearners.resolved(config, kind), task.source().size(), d, y.numClasses(), eps,
                source.target().delta(), source.relation(), null, 1);
        source.charge("source model (" + kind.label() + ")", kind.label(), plan.event(), plan.describe());
        Network model = PrivateLearners.train(plan, task.source().features(), y.codes(), y.names(), source.noise());
        // the target's own adaptation of what it received: its rows, its result, nothing released
        TargetRefinements.Refined refined = TargetRefinements.refine(config, model, task.target().features());
        Classifier used = refined.model();
        int[] pred = new int[task.evaluation().size()];
        double acc = Classifiers.accuracy(used, task.evaluation().features(), task.evaluation(), pred);
        Map<String, Object> diag = new LinkedHashMap<>(plan.describe());
        diag.putAll(refined.diagnostics());
        return new AdaptationOutcome(name(), acc, pred, model.classNames(),
                Map.of("source", source.spent(), "target", PrivacyCost.NONE), diag);
    }
}
