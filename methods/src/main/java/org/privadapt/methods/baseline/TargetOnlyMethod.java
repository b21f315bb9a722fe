package org.privadapt.methods.baseline;

import java.util.Map;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.DataException;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.core.AdaptationMethod;
import org.privadapt.methods.core.AdaptationOutcome;
import org.privadapt.methods.core.AdaptationTask;
import org.privadapt.methods.core.Classifiers;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.NonPrivate;
import org.privadapt.methods.core.PrivacyContext;
import org.privadapt.methods.dpot.TargetLabels;
import org.privadapt.models.Classifier;

/**
 * The "t-only" baseline of the semi-supervised setting (paper 002, Table 3): the target trains on its own few labelled
 * rows ({@code --param target-labels=k} per class, default 1, chosen at random with the run's seed) and is evaluated
 * on its other rows. Reads no source data; the target's own data never leave it, so nothing is released.
 */
public final class TargetOnlyMethod implements AdaptationMethod {
    @Override
    public String name() {
        return "target-only";
    }

    @Override
    public String description() {
        return "no transfer: train on k labelled target rows per class (target-labels, default 1), test on the others";
    }

    @Override
    public java.util.Set<String> parameters() {
        return org.privadapt.methods.core.MethodParameters.union(org.privadapt.methods.core.MethodParameters.CLASSIFIER,
                java.util.Set.of("target-labels"), org.privadapt.methods.bassily.SupervisedProtocol.PARAMETERS);
    }

    @Override
    public boolean isPrivate() {
        return false;
    }

    @Override
    public AdaptationOutcome run(AdaptationTask task, MethodConfig config, PrivacyContext privacy) throws DataException {
        if (org.privadapt.methods.bassily.SupervisedProtocol.requested(task, config)) {
            // paper 003's protocol (a regression task, or --param target-train=N): the same split as its other methods
            return org.privadapt.methods.bassily.SupervisedBaselines.targetOnly(task, config);
        }
        int perClass = config.intParam("target-labels", 1);
        if (perClass < 1) {
            throw new IllegalArgumentException("target-only needs target-labels >= 1, got " + perClass);
        }
        ClassLabels ys = task.source().classLabels();
        TargetLabels tl = TargetLabels.pick(task, ys.names(), perClass, config.seed());
        DenseMatrix xt = task.target().features().toDense();
        TargetLabels.TrainingSet t = tl.withLabelledRows(DenseMatrix.zeros(0, xt.cols()), new int[0], xt);
        Classifier model = Classifiers.train(config, t.features(), new ClassLabels(t.labels(), ys.names()));
        int[] pred = new int[tl.unlabelled().length];
        double acc = Classifiers.accuracy(model, task.evaluation().features().selectRows(tl.unlabelled()),
                task.evaluation().selectRows(tl.unlabelled(), "unlabelled target rows"), pred);
        return new AdaptationOutcome(name(), acc, pred, model.classNames(), NonPrivate.targetOnly(), Map.of("labelled_target_rows", t.labels().length));
    }
}
