package org.privadapt.data.preprocess;

import org.privadapt.math.FeatureMatrix;

/**
 * Multiplies every row by a fixed public constant K (e.g. {@code l2,scale=28} gives rows of norm 28, about unit
 * scale per feature for 800 features). Row-local: a constant does not depend on any data.
 */
public final class RowScale extends RowScaling {
    private final double factor;

    public RowScale(double factor) {
        if (!(factor > 0) || !Double.isFinite(factor)) {
            throw new IllegalArgumentException("scale must be a positive finite number, got " + factor);
        }
        this.factor = factor;
    }

    public double factor() {
        return factor;
    }

    @Override
    public String spec() {
        return "scale=" + (factor == Math.rint(factor) && Math.abs(factor) < 1e15 ? Long.toString((long) factor)
                : Double.toString(factor));
    }

    @Override
    String what() {
        return "scale (rows multiplied by " + factor + ")";
    }

    @Override
    double factor(double[] row) {
        return factor;
    }

    @Override
    double[] factors(FeatureMatrix x) {
        double[] f = new double[x.rows()];
        java.util.Arrays.fill(f, factor);
        return f;
    }
}
