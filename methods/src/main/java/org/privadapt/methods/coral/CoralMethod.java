package org.privadapt.methods.coral;

import java.util.List;
import java.util.Map;
import org.privadapt.data.DataException;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.core.AdaptationMethod;
import org.privadapt.methods.core.AdaptationOutcome;
import org.privadapt.methods.core.AdaptationTask;
import org.privadapt.methods.core.Classifiers;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.NonPrivate;
import org.privadapt.methods.core.PrivacyContext;
import org.privadapt.methods.core.RepetitionMemo;
import org.privadapt.models.Classifier;

/**
 * Non-private CORAL end to end: covariances of the source and of the target sample, the alignment map
 * {@link Coral#alignmentMap}, a classifier trained on the aligned source and applied to the target rows as they
 * are. Parameter {@code lambda} (default 1) is the ridge added to both covariances.
 */
public final class CoralMethod implements AdaptationMethod {
    /** Aligned sources of the last two (source, target, lambda); CORAL here is non-private, so nothing is reused noise. */
    private static final RepetitionMemo<DenseMatrix> ALIGNED = new RepetitionMemo<>(2);

    @Override
    public String name() {
        return "coral";
    }

    @Override
    public String description() {
        return "CORAL (Sun, Feng, Saenko 2016): source whitened with its covariance, recoloured with the target's (non-private)";
    }

    @Override
    public java.util.Set<String> parameters() {
        return org.privadapt.methods.core.MethodParameters.union(org.privadapt.methods.core.MethodParameters.CLASSIFIER, java.util.Set.of("lambda"));
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
        task.source().requireSameDimension(task.target());
        double lambda = config.param("lambda", 1.0);
        if (!(lambda > 0) || Double.isInfinite(lambda)) {
            throw new IllegalArgumentException("lambda must be a finite number > 0 (the ridge added to both covariances), got " + lambda);
        }
        // the aligned source is a deterministic function of the data: computed once for all repetitions of a cell
        DenseMatrix aligned = ALIGNED.get(List.of(task.source().features(), task.target().features()), List.of(lambda),
                () -> Coral.alignSource(task.source().features(), task.target().features(), lambda)).copy();
        Classifier model = Classifiers.train(config, aligned, task.source().classLabels());
        int[] pred = new int[task.evaluation().size()];
        double acc = Classifiers.accuracy(model, task.evaluation().features(), task.evaluation(), pred);
        return new AdaptationOutcome(name(), acc, pred, model.classNames(), NonPrivate.both(), Map.of("lambda", lambda))
                .withScores(Classifiers.binaryScores(model, task.evaluation().features()));
    }
}
