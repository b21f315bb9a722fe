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
import org.privadapt.methods.core.PrivateTraining;
import org.privadapt.models.nn.Network;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.PrivacyCost;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.ledger.BudgetLedger;

/**
 * The private no-adaptation baseline: the source trains its classifier with DP-SGD on its own (row-locally
 * preprocessed) data and ships the model; the target applies it. The source spends its (epsilon, delta) on the
 * training; the target spends nothing (it only evaluates the model on its own rows).
 */
public final class DpSourceOnlyMethod implements AdaptationMethod {
    @Override
    public String name() {
        return "dp-source-only";
    }

    @Override
    public String description() {
        return "no adaptation, source model trained with DP-SGD (source private; target not read)";
    }

    @Override
    public java.util.Set<String> parameters() {
        return org.privadapt.methods.core.MethodParameters.DP_SGD;
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
        Disclosures.requireForDpSgdModel(task.source(), source, "the source's DP-SGD model");
        PrivateTraining.Plan plan = PrivateTraining.plan(config, task.source().size(), source.target().epsilon(),
                source.target().delta(), source.relation());
        source.charge("dp-sgd source model", "DP-SGD (Poisson sampling, joint clipping, Gaussian noise)", plan.event(),
                plan.describe());
        Network model = PrivateTraining.train(plan, task.source().features(), y.codes(), y.names(), source.noise());
        int[] pred = new int[task.evaluation().size()];
        double acc = Classifiers.accuracy(model, task.evaluation().features(), task.evaluation(), pred);
        Map<String, Object> diag = new LinkedHashMap<>(plan.describe());
        return new AdaptationOutcome(name(), acc, pred, model.classNames(),
                Map.of("source", source.spent(), "target", PrivacyCost.NONE), diag);
    }
}
