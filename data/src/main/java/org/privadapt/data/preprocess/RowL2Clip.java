package org.privadapt.data.preprocess;

import org.privadapt.math.FeatureMatrix;

/**
 * Scales every row whose L2 norm exceeds {@code bound} down to norm {@code bound} (others unchanged): after it,
 * ||x_i||_2 &lt;= bound holds for every row whatever the data, which is the premise of every sensitivity in
 * docs/privacy. Row-local.
 */
public final class RowL2Clip extends RowScaling {
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
    String what() {
        return "clip (rows scaled to L2 norm <= " + bound + ")";
    }

    @Override
    double factor(double[] row) {
        double sq = 0;
        for (double v : row) {
            sq += v * v;
        }
        double norm = Math.sqrt(sq);
        return norm > bound ? bound / norm : 1.0;
    }

    @Override
    double[] factors(FeatureMatrix x) {
        double[] sq = x.rowSquaredNorms();
        double[] f = new double[sq.length];
        for (int i = 0; i < f.length; i++) {
            double norm = Math.sqrt(sq[i]);
            f[i] = norm > bound ? bound / norm : 1.0;
        }
        return f;
    }

    @Override
    String outcome(double[] factors) {
        int clipped = 0;
        for (double v : factors) {
            clipped += v < 1.0 ? 1 : 0;
        }
        return ": " + clipped + " of " + factors.length + " rows clipped";
    }
}
