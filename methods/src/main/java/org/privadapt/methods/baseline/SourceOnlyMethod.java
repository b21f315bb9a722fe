package org.privadapt.methods.baseline;

import java.util.Map;
import org.privadapt.data.DataException;
import org.privadapt.methods.core.AdaptationMethod;
import org.privadapt.methods.core.AdaptationOutcome;
import org.privadapt.methods.core.AdaptationTask;
import org.privadapt.methods.core.Classifiers;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.MethodParameters;
import org.privadapt.methods.core.NonPrivate;
import org.privadapt.methods.core.PrivacyContext;
import org.privadapt.methods.core.TargetRefinements;
import org.privadapt.models.Classifier;

/** The no-adaptation baseline: train on the source, predict on the target. Reads no target data. */
public final class SourceOnlyMethod implements AdaptationMethod {
    @Override
    public String name() {
        return "source-only";
    }

    @Override
    public String description() {
        return "no adaptation: train on source, test on target (non-private)";
    }

    @Override
    public boolean isPrivate() {
        return false;
    }

    /** Deterministic with logistic regression (L-BFGS from zero); the network's initialisation follows the seed. */
    @Override
    public boolean deterministic(MethodConfig config) {
        return "lr".equals(config.classifier());
    }

    /** Not under paper 003's protocol, where each run draws its own split. */
    @Override
    public boolean deterministic(AdaptationTask task, MethodConfig config) {
        return deterministic(config) && !org.privadapt.methods.bassily.SupervisedProtocol.requested(task, config)
                && !org.privadapt.methods.gmmuda.GmmUdaMethod.handles(task, config); // paper 004's network follows the seed
    }

    @Override
    public java.util.Set<String> parameters() {
        return MethodParameters.union(org.privadapt.methods.bassily.SupervisedBaselines.baselineParameters(),
                org.privadapt.methods.gmmuda.GmmUdaConfig.PARAMETERS, TargetRefinements.PARAMETERS);
    }

    /** Multi-label tasks run paper 004's no-adapt setting ({@link org.privadapt.methods.gmmuda.GmmUdaMethod}). */
    @Override
    public boolean supportsMultiLabel(AdaptationTask task, MethodConfig config) {
        return true;
    }

    @Override
    public AdaptationOutcome run(AdaptationTask task, MethodConfig config, PrivacyContext privacy) throws DataException {
        if (org.privadapt.methods.gmmuda.GmmUdaMethod.handles(task, config)) {
            // paper 004's no-adapt: its encoder + classifier, trained without DP (multi-label, or pipeline=gmm-uda)
            try {
                return new org.privadapt.methods.gmmuda.GmmUdaMethod(org.privadapt.methods.gmmuda.GmmUdaMethod.Setting.NO_ADAPT)
                        .run(task, config, privacy);
            } catch (org.privadapt.privacy.BudgetExceededException | org.privadapt.privacy.ledger.BudgetLedger.LedgerException e) {
                throw new IllegalStateException("the non-private no-adapt setting spends nothing", e);
            }
        }
        if (org.privadapt.methods.bassily.SupervisedProtocol.requested(task, config)) {
            // paper 003's protocol (a regression task, or --param target-train=N): the same split as its other methods
            return org.privadapt.methods.bassily.SupervisedBaselines.sourceOnly(task, config);
        }
        // source-only is the no-adaptation baseline of every comparison: its refine defaults to none (refine=auto on request)
        MethodConfig rc = config.params().containsKey("refine") ? config : config.withParam("refine", "none");
        TargetRefinements.mode(rc);
        Classifier trained = Classifiers.train(config, task.source().features(), task.source().classLabels());
        // the non-private reference for the private methods' refine option: the same target-side refinement
        TargetRefinements.Refined refined = TargetRefinements.refine(rc, trained, task.target().features());
        Classifier model = refined.model();
        int[] pred = new int[task.evaluation().size()];
        double acc = Classifiers.accuracy(model, task.evaluation().features(), task.evaluation(), pred);
        return new AdaptationOutcome(name(), acc, pred, model.classNames(), NonPrivate.sourceOnly(), refined.diagnostics())
                .withScores(Classifiers.binaryScores(model, task.evaluation().features()));
    }
}
