package org.privadapt.methods.core;

import org.privadapt.data.DataException;
import org.privadapt.data.Dataset;
import org.privadapt.data.preprocess.Preprocessing;

/**
 * Builds an {@link AdaptationTask} from raw domains: checks shapes and values, then preprocesses each party
 * with steps fitted on that party's own data only (the source on the source; the target on its adaptation
 * sample, the same fitted transform then applied to its evaluation rows).
 */
public final class TaskPreparation {
    private TaskPreparation() {
    }

    public static AdaptationTask prepare(String name, Dataset source, Dataset target, Dataset evaluation,
                                         Preprocessing preprocessing) throws DataException {
        return prepare(name, source, target, evaluation, preprocessing, java.util.Set.of());
    }

    /**
     * As above; {@code protectedParties} ("source", "target") must only be preprocessed with row-local steps.
     *
     * @throws IllegalArgumentException naming the offending step when a protected party would be preprocessed with
     *                                  a step fitted on its data
     */
    public static AdaptationTask prepare(String name, Dataset source, Dataset target, Dataset evaluation,
                                         Preprocessing preprocessing, java.util.Set<String> protectedParties)
            throws DataException {
        java.util.List<String> dataDependent = preprocessing.dataDependentSteps();
        if (!dataDependent.isEmpty() && !protectedParties.isEmpty()) {
            throw new IllegalArgumentException("preprocessing step" + (dataDependent.size() > 1 ? "s " : " ") + dataDependent
                    + " would be fitted on the private data of " + String.join(" and ", new java.util.TreeSet<>(protectedParties))
                    + ", which breaks the method's sensitivity bounds; use row-local steps (l1, l2, clip=B, scale=K, minmax=LO:HI, none)");
        }
        source.requireNonEmpty().requireFinite();
        target.requireNonEmpty().requireFinite();
        evaluation.requireNonEmpty().requireFinite();
        source.requireSameDimension(target);
        source.requireSameDimension(evaluation);
        if (source.labels().orElse(null) instanceof org.privadapt.data.MultiLabels m) {
            // multi-label: the evaluation rows need the same labels; methods that do not support them refuse when run
            if (!(evaluation.labels().orElse(null) instanceof org.privadapt.data.MultiLabels e) || !e.names().equals(m.names())) {
                throw new DataException(evaluation.firstFile(), null, "the source has " + m.numLabels() + " multi-label targets "
                        + m.names() + " but the target's evaluation rows do not carry the same labels");
            }
            return finish(name, source, target, evaluation, preprocessing);
        }
        if (evaluation.labels().orElse(null) instanceof org.privadapt.data.MultiLabels m) {
            throw new DataException(evaluation.firstFile(), null, "the target's evaluation rows have " + m.numLabels()
                    + " multi-label targets but the source does not");
        }
        if (source.labels().orElse(null) instanceof org.privadapt.data.RealTargets) {
            // regression: the evaluation rows need real-valued targets too
            if (!(evaluation.labels().orElse(null) instanceof org.privadapt.data.RealTargets)) {
                throw new DataException(evaluation.firstFile(), null, "the source has real-valued targets but the target's "
                        + "evaluation rows " + (evaluation.hasLabels() ? "have class labels" : "have none") + "; both need "
                        + "real-valued targets (--task regression)");
            }
        } else {
            if (source.classLabels().numClasses() < 2) {
                throw new DataException(source.firstFile(), null, "the source's labels hold a single class ("
                        + source.classLabels().names() + "): a classifier needs at least two");
            }
            evaluation.classLabels();
        }
        return finish(name, source, target, evaluation, preprocessing);
    }

    private static AdaptationTask finish(String name, Dataset source, Dataset target, Dataset evaluation,
                                         Preprocessing preprocessing) throws DataException {
        Dataset s = preprocessing.fitAndApply(source);
        Dataset t = target;
        Dataset e = evaluation;
        for (var step : preprocessing.steps()) {
            var fitted = step.fit(t);
            e = fitted.apply(e);
            t = fitted.apply(t);
        }
        return new AdaptationTask(name, s, t.withoutLabels(), e, preprocessing.spec());
    }
}
