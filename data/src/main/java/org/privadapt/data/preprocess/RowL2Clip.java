package org.privadapt.data.preprocess;

import org.privadapt.data.Dataset;
import org.privadapt.math.FeatureMatrix;

/**
 * Scales every row whose L2 norm exceeds {@code bound} down to norm {@code bound} (others unchanged): after it,
 * ||x_i||_2 <= bound holds for every row whatever the data, which is the premise of every sensitivity in
 * docs/privacy. Row-local.
 */
public final class RowL2Clip implements Preprocessor {
    private final double bound;

    public RowL2Clip(double bound) {
        if (!(bound > 0) || !Double.isFinite(bound)) {
            throw new IllegalArgumentException("clip bound must be a positive finite number, got " + bound);
        }
        this.bound = bound;
    }

    public double bound() {
        return bound;
    }

    @Override
    public String spec() {
        return "clip=" + bound;
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
                int clipped = 0;
                for (int i = 0; i < f.length; i++) {
                    double norm = Math.sqrt(sq[i]);
                    if (norm > bound) {
                        f[i] = bound / norm;
                        clipped++;
                    } else {
                        f[i] = 1.0;
                    }
                }
                return d.withFeatures(x.scaleRows(f), describe() + ": " + clipped + " of " + f.length + " rows clipped");
            }

            @Override
            public String describe() {
                return "clip (rows scaled to L2 norm <= " + bound + "; row-local)";
            }
        };
    }
}
