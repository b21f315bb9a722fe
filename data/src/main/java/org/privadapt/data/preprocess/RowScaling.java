package org.privadapt.data.preprocess;

import org.privadapt.data.Dataset;
import org.privadapt.math.FeatureMatrix;

/**
 * A row-local step that multiplies each row by a factor computed from that row alone (normalisations, clipping).
 * Nothing is fitted: {@link #fit} ignores its argument, and sparse input stays sparse.
 */
abstract class RowScaling implements Preprocessor {

    /** The factor of every row of {@code x}, each from its own row only. */
    abstract double[] factors(FeatureMatrix x);

    /**
     * The factor of one row given as an array, the same number {@link #factors} gives that row (the same sums in the
     * same order: over the columns, first to last).
     */
    abstract double factor(double[] row);

    /** What the step does, for provenance. */
    abstract String what();

    /** An addition to the provenance line once the factors are known (e.g. how many rows were clipped). */
    String outcome(double[] factors) {
        return "";
    }

    @Override
    public final boolean rowLocal() {
        return true;
    }

    @Override
    public final FittedTransform fit(Dataset data) {
        return new FittedTransform() {
            @Override
            public Dataset apply(Dataset d) {
                double[] f = factors(d.features());
                return d.withFeatures(d.features().scaleRows(f), describe() + outcome(f));
            }

            @Override
            public String describe() {
                return what() + "; row-local";
            }
        };
    }
}
