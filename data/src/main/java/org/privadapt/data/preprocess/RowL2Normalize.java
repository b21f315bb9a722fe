package org.privadapt.data.preprocess;

import org.privadapt.math.FeatureMatrix;

/** Divides each row by its L2 norm (rows of zeros are left as they are), so every row has norm 1 (or 0). Row-local. */
public final class RowL2Normalize extends RowScaling {
    @Override
    public String spec() {
        return "l2";
    }

    @Override
    String what() {
        return "l2 (rows divided by their L2 norm)";
    }

    @Override
    double factor(double[] row) {
        double sq = 0;
        for (double v : row) {
            sq += v * v;
        }
        return sq > 0 ? 1.0 / Math.sqrt(sq) : 1.0;
    }

    @Override
    double[] factors(FeatureMatrix x) {
        double[] sq = x.rowSquaredNorms();
        double[] f = new double[sq.length];
        for (int i = 0; i < f.length; i++) {
            f[i] = sq[i] > 0 ? 1.0 / Math.sqrt(sq[i]) : 1.0;
        }
        return f;
    }
}
