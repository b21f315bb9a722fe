package org.privadapt.data.preprocess;

import org.privadapt.data.Dataset;
import org.privadapt.math.CsrMatrix;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;

/**
 * Per-feature scaling to [0, 1]: {@code (x - lo) / (hi - lo)}, constant features mapped to 0. With no bounds
 * given, lo and hi are each feature's minimum and maximum over the data passed to {@link #fit} (not row-local:
 * one record can move the range); with public bounds ({@code minmax=lo:hi}, the same for every feature) the
 * step is row-local and values outside are clamped. Sparse input stays sparse when every lo is 0.
 */
public final class MinMax implements Preprocessor {
    private final Double lo;
    private final Double hi;

    /** Range fitted on the data. */
    public MinMax() {
        this.lo = null;
        this.hi = null;
    }

    /** Public, data-independent range. */
    public MinMax(double lo, double hi) {
        if (!(hi > lo) || !Double.isFinite(lo) || !Double.isFinite(hi)) {
            throw new IllegalArgumentException("minmax bounds need lo < hi, got " + lo + ":" + hi);
        }
        this.lo = lo;
        this.hi = hi;
    }

    @Override
    public String spec() {
        return lo == null ? "minmax" : "minmax=" + lo + ":" + hi;
    }

    @Override
    public boolean rowLocal() {
        return lo != null;
    }

    @Override
    public FittedTransform fit(Dataset data) {
        int d = data.dimension();
        double[] min = new double[d];
        double[] max = new double[d];
        String fittedOn;
        if (lo != null) {
            java.util.Arrays.fill(min, lo);
            java.util.Arrays.fill(max, hi);
            fittedOn = "public bounds [" + lo + ", " + hi + "]; row-local";
        } else {
            FeatureMatrix x = data.features();
            if (x instanceof CsrMatrix s) {
                double[][] r = s.columnRanges();
                min = r[0];
                max = r[1];
            } else {
                DenseMatrix m = x.toDense();
                int n = m.rows();
                double[] a = m.data();
                for (int j = 0; j < d; j++) {
                    double mn = Double.POSITIVE_INFINITY;
                    double mx = Double.NEGATIVE_INFINITY;
                    for (int i = 0; i < n; i++) {
                        mn = Math.min(mn, a[i + j * n]);
                        mx = Math.max(mx, a[i + j * n]);
                    }
                    min[j] = n == 0 ? 0 : mn;
                    max[j] = n == 0 ? 0 : mx;
                }
            }
            fittedOn = "fitted on " + data.domain() + ", " + data.size() + " rows";
        }
        double[] shift = min;
        double[] scale = new double[d];
        boolean zeroShift = true;
        for (int j = 0; j < d; j++) {
            double range = max[j] - min[j];
            scale[j] = range > 0 ? 1.0 / range : 0.0;
            zeroShift &= min[j] == 0;
        }
        boolean clamp = lo != null;
        boolean sparseOk = zeroShift && !clamp;
        String what = "minmax (" + fittedOn + ")";
        return new FittedTransform() {
            @Override
            public Dataset apply(Dataset target) {
                FeatureMatrix x = target.features();
                if (x instanceof CsrMatrix s && sparseOk) {
                    return target.withFeatures(s.scaleColumns(scale), what);
                }
                DenseMatrix y = x.toDense().minusRowVector(shift).scaleColumnsCopy(scale);
                if (clamp) {
                    y = y.map(v -> Math.min(1.0, Math.max(0.0, v)));
                }
                return target.withFeatures(y, what);
            }

            @Override
            public String describe() {
                return what;
            }
        };
    }
}
