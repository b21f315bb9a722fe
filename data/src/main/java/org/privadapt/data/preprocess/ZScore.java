package org.privadapt.data.preprocess;

import org.privadapt.data.Dataset;
import org.privadapt.math.DenseMatrix;

/**
 * Per-feature standardisation {@code (x - mean) / std} with the population standard deviation (divisor n, as
 * MATLAB's {@code zscore(x, 1)} in the GFK/CORAL protocol); constant features are only centred. Fitted on the
 * data passed to {@link #fit}: in the usual protocol each domain is standardised with its own statistics. Not
 * row-local (means and deviations read every row); sparse input becomes dense.
 */
public final class ZScore implements Preprocessor {
    @Override
    public String spec() {
        return "zscore";
    }

    @Override
    public boolean rowLocal() {
        return false;
    }

    @Override
    public FittedTransform fit(Dataset data) {
        DenseMatrix x = data.denseFeatures();
        int n = x.rows();
        int d = x.cols();
        double[] mean = x.columnMeans();
        double[] scale = new double[d];
        double[] a = x.data();
        for (int j = 0; j < d; j++) {
            double s = 0;
            for (int i = 0; i < n; i++) {
                double t = a[i + j * n] - mean[j];
                s += t * t;
            }
            double sd = n > 0 ? Math.sqrt(s / n) : 0;
            scale[j] = sd > 0 ? 1.0 / sd : 1.0;
        }
        String fittedOn = data.domain() + ", " + n + " rows";
        return new FittedTransform() {
            @Override
            public Dataset apply(Dataset target) {
                DenseMatrix y = target.denseFeatures().minusRowVector(mean).scaleColumnsCopy(scale);
                return target.withFeatures(y, describe());
            }

            @Override
            public String describe() {
                return "zscore (fitted on " + fittedOn + ")";
            }
        };
    }
}
