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
import org.privadapt.methods.core.Disclosures;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.PrivacyContext;
import org.privadapt.methods.core.PrivateLearners;
import org.privadapt.methods.core.PrivateSelection;
import org.privadapt.methods.core.TargetRefinements;
import org.privadapt.methods.gmmuda.GmmUdaConfig;
import org.privadapt.methods.gmmuda.GmmUdaMethod;
import org.privadapt.models.Classifier;
import org.privadapt.models.nn.Network;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.PrivacyCost;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.ledger.BudgetLedger;

/**
 * The private no-adaptation baseline: the source trains its classifier with a private learner
 * ({@link PrivateLearners}: DP-SGD, DP-GD, DP class statistics, output perturbation) on its own (row-locally
 * preprocessed) data and ships the model; the target applies it after refining it on its own unlabelled rows
 * ({@link TargetRefinements}; when no refinement is named, {@code refine=default}: map-prototypes on wide rows, none on
 * tall ones, {@link org.privadapt.methods.core.DefaultRefinement}). The source spends its (epsilon, delta) on the
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
                org.privadapt.methods.core.TargetRefinements.PARAMETERS, PrivateSelection.PARAMETERS, GmmUdaConfig.PARAMETERS);
    }

    /**
     * Multi-label tasks (and {@code pipeline=gmm-uda}) run paper 004's private no-adapt setting: its DP-SGD source
     * encoder + classifier at the whole budget, no mixture, applied to the target as it is
     * ({@link GmmUdaMethod.Setting#DP_NO_ADAPT}; docs/privacy/gmm-uda.md). The class learners take class labels only.
     */
    @Override
    public boolean supportsMultiLabel(AdaptationTask task, MethodConfig config) {
        return true;
    }

    @Override
    public boolean isPrivate() {
        return true;
    }

    /**
     * Reported: the learner's plan (settings and noise computed from public quantities), the selection's outcome
     * (the chosen candidate and its noisy counts: the selection's DP release, docs/privacy/selection.md) and the
     * target's refinement (its own rows, its own report: nothing of the source's rows without noise).
     */
    @Override
    public boolean diagnosticsArePublic() {
        return true;
    }

    @Override
    public Set<String> protectedParties() {
        return Set.of("source");
    }

    @Override
    public AdaptationOutcome run(AdaptationTask task, MethodConfig config, PrivacyContext privacy)
            throws DataException, BudgetExceededException, BudgetLedger.LedgerException {
        if (GmmUdaMethod.handles(task, config)) {
            for (String p : new String[] {"learner", "refine"}) {
                String v = config.params().get(p);
                if (v != null && !(p.equals("refine") && (v.equals("none") || v.equals(TargetRefinements.DEFAULT)))) {
                    throw new IllegalArgumentException("dp-source-only on multi-label targets (or pipeline=gmm-uda) trains paper 004's "
                            + "DP-SGD source model and applies it as it is: --param " + p + "=" + v + " does not apply");
                }
            }
            return new GmmUdaMethod(GmmUdaMethod.Setting.DP_NO_ADAPT).run(task, config, privacy);
        }
        PrivacySession source = privacy.source();
        ClassLabels y = task.source().classLabels();
        int d = task.source().dimension();
        double eps = source.target().epsilon();
        boolean sizePublic = PrivateLearners.sizePublic(task.source(), source);
        TargetRefinements.mode(config); // a misspelt option fails before anything is spent
        Network model;
        Map<String, Object> diag = new LinkedHashMap<>();
        if (PrivateLearners.selects(config)) {
            // private selection of the learner on the source's own rows, charged as one event
            PrivateSelection.Plan plan = PrivateSelection.plan(config, task.source().size(), d, y.numClasses(), eps,
                    source.target().delta(), source.relation());
            if (PrivateSelection.revealsSize(plan.candidates())) {
                Disclosures.requireForDpSgdModel(task.source(), source, "the source's selected model (a candidate is DP-SGD)");
            } else {
                Disclosures.require(task.source(), source, "the source's selected model", Disclosures.Fact.CLASSES, Disclosures.Fact.SCHEMA);
            }
            source.charge("source model (private selection)", "private selection", plan.event(), plan.describe());
            PrivateSelection.Outcome o = PrivateSelection.run(plan, task.source().features(), y.codes(), y.names(), source.noise());
            model = o.model();
            diag.put("learner", "select: " + o.chosen().label());
            diag.put("learner_choice", "learner=select: private selection among the candidates on a noisy validation count, charged "
                    + "to the source (docs/privacy/selection.md)");
            diag.putAll(plan.describe());
            diag.putAll(o.describe(plan));
        } else {
            PrivateLearners.Kind kind = PrivateLearners.kind(config, d, y.numClasses(), eps, sizePublic);
            PrivateLearners.requireDisclosures(kind, task.source(), source, "the source's " + kind.label() + " model");
            PrivateLearners.Plan plan = PrivateLearners.plan(PrivateLearners.resolved(config, kind), task.source().size(), d, y.numClasses(), eps,
                    source.target().delta(), source.relation(), null, 1);
            source.charge("source model (" + kind.label() + ")", kind.label(), plan.event(), plan.describe());
            model = PrivateLearners.train(plan, task.source().features(), y.codes(), y.names(), source.noise());
            diag.putAll(plan.describe());
            diag.put("learner_choice", PrivateLearners.choiceReason(config, kind, eps, sizePublic));
        }
        // the target's own adaptation of what it received: its rows, its result, nothing released
        // refine=default when none is named: the rule docs/results/defaults.md's protocol chose (DefaultRefinement)
        TargetRefinements.Refined refined = TargetRefinements.refine(TargetRefinements.orDefault(config), model, task.target().features());
        Classifier used = refined.model();
        int[] pred = new int[task.evaluation().size()];
        double acc = Classifiers.accuracy(used, task.evaluation().features(), task.evaluation(), pred);
        diag.putAll(refined.diagnostics());
        return new AdaptationOutcome(name(), acc, pred, model.classNames(),
                Map.of("source", source.spent(), "target", PrivacyCost.NONE), diag)
                .withScores(Classifiers.binaryScores(used, task.evaluation().features()));
    }
}
