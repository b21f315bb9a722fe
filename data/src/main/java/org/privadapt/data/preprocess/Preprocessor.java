package org.privadapt.data.preprocess;

import org.privadapt.data.Dataset;

/**
 * One preprocessing step. {@link #fit} reads the data it is given (nothing else) and returns the fitted
 * transform; a {@linkplain #rowLocal() row-local} step has fixed parameters and changes each row on its own, so
 * it reads nothing from any other row. Only row-local steps keep record-level sensitivity analyses valid: a step
 * fitted on the data (means, ranges) lets one record move every other row.
 */
public interface Preprocessor {
    /** The spec name, e.g. {@code l1}, {@code zscore}, {@code minmax}, {@code clip=1}. */
    String spec();

    /** True when the step transforms each row independently with parameters fixed in advance. */
    boolean rowLocal();

    /** Fits on {@code data} (which is all it reads) and returns the transform. */
    FittedTransform fit(Dataset data);

    /** A fitted step: applies to any dataset of the same dimension and says what it was fitted on. */
    interface FittedTransform {
        Dataset apply(Dataset data);

        /** E.g. {@code zscore (fitted on office-caltech10/amazon, 958 rows)}. */
        String describe();
    }
}
