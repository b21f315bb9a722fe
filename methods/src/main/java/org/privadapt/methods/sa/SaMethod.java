package org.privadapt.methods.sa;

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
 * Non-private Subspace Alignment end to end. Parameter {@code k}: subspace dimension (default 100, capped at d).
 */
public final class SaMethod implements AdaptationMethod {
    /** Source and target bases of the last four (source, target, k); SA here is non-private. */
    private static final RepetitionMemo<DenseMatrix[]> BASES = new RepetitionMemo<>(4);

    @Override
    public String name() {
        return "sa";
    }

    @Override
    public String description() {
        return "Subspace Alignment (Fernando et al. 2013): source principal subspace aligned to the target's (non-private)";
    }

    @Override
    public java.util.Set<String> parameters() {
        return org.privadapt.methods.core.MethodParameters.union(org.privadapt.methods.core.MethodParameters.CLASSIFIER, java.util.Set.of("k"));
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
        int d = task.source().dimension();
        int k = Math.min(d, config.intParam("k", 100));
        // both bases are deterministic functions of the data: computed once for all repetitions of a cell
        DenseMatrix[] bases = BASES.get(List.of(task.source().features(), task.target().features()), List.of(k),
                () -> new DenseMatrix[] {SubspaceAlignment.basisOfRows(task.source().features(), k),
                    SubspaceAlignment.basisOfRows(task.target().features(), k)});
        DenseMatrix ps = bases[0].copy();
        DenseMatrix pt = bases[1].copy();
        Classifier model = Classifiers.train(config, SubspaceAlignment.transformSource(task.source().features(), ps, pt),
                task.source().classLabels());
        int[] pred = new int[task.evaluation().size()];
        org.privadapt.math.FeatureMatrix aligned = SubspaceAlignment.transformTarget(task.evaluation().features(), pt);
        double acc = Classifiers.accuracy(model, aligned, task.evaluation(), pred);
        return new AdaptationOutcome(name(), acc, pred, model.classNames(), NonPrivate.both(), Map.of("k", k))
                .withScores(Classifiers.binaryScores(model, aligned));
    }
}
