package org.privadapt.data.preprocess;

import org.privadapt.data.Dataset;
import org.privadapt.math.DenseMatrix;

/**
 * Subtracts each feature's mean over the data passed to {@link #fit} (per-domain mean alignment). Not
 * row-local; sparse input becomes dense.
 */
public final class Center implements Preprocessor {
    @Override
    public String spec() {
        return "center";
    }

    @Override
    public boolean rowLocal() {
        return false;
    }

    @Override
    public FittedTransform fit(Dataset data) {
        double[] mean = data.denseFeatures().columnMeans();
        String fittedOn = data.domain() + ", " + data.size() + " rows";
        return new FittedTransform() {
            @Override
            public Dataset apply(Dataset target) {
                DenseMatrix y = target.denseFeatures().minusRowVector(mean);
                return target.withFeatures(y, describe());
            }

            @Override
            public String describe() {
                return "center (fitted on " + fittedOn + ")";
            }
        };
    }
}
