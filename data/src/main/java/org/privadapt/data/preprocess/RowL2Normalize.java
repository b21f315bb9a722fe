package org.privadapt.data.preprocess;

import org.privadapt.data.Dataset;
import org.privadapt.math.FeatureMatrix;

/**
 * Divides each row by its L2 norm (rows of zeros are left as they are), so every row has norm 1 (or 0). Row-local.
 */
public final class RowL2Normalize implements Preprocessor {
    @Override
    public String spec() {
        return "l2";
    }

    @Override
    public boolean rowLocal() {
        return true;
    }

    @Override
    public FittedTransform fit(Dataset data) {
        return new FittedTransform() {
            @Override
            public Dataset apply(Dataset d) {
                FeatureMatrix x = d.features();
                double[] sq = x.rowSquaredNorms();
                double[] f = new double[sq.length];
                for (int i = 0; i < f.length; i++) {
                    f[i] = sq[i] > 0 ? 1.0 / Math.sqrt(sq[i]) : 1.0;
                }
                return d.withFeatures(x.scaleRows(f), describe());
            }

            @Override
            public String describe() {
                return "l2 (rows divided by their L2 norm; row-local)";
            }
        };
    }
}
