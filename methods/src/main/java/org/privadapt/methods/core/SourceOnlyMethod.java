package org.privadapt.methods.core;

import java.util.Map;
import org.privadapt.data.DataException;
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

    @Override
    public AdaptationOutcome run(AdaptationTask task, MethodConfig config, PrivacyContext privacy) throws DataException {
        Classifier model = Classifiers.train(config, task.source().features(), task.source().classLabels());
        int[] pred = new int[task.evaluation().size()];
        double acc = Classifiers.accuracy(model, task.evaluation().features(), task.evaluation(), pred);
        return new AdaptationOutcome(name(), acc, pred, model.classNames(), NonPrivate.sourceOnly(), Map.of());
    }
}
