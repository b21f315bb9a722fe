package org.privadapt.models.uda;

import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;

/**
 * The rows {@code f_i (x_i - m)} of a matrix X, a mean m and row factors f, without forming them: a sparse X stays
 * sparse (centring 152,543-d bag-of-words rows would densify them). Products go through X's own kernels:
 * {@code C w = F (X w - 1 m^T w)}, {@code C^T g = X^T (F g) - m 1^T (F g)},
 * {@code ||c_i||^2 = f_i^2 (||x_i||^2 - 2 x_i.m + ||m||^2)}.
 */
public final class CentredRows implements FeatureMatrix {
    private final FeatureMatrix base;
    private final double[] mean;
    private final double[] factors; // null: all 1

    public CentredRows(FeatureMatrix base, double[] mean) {
        this(base, mean, null);
    }

    private CentredRows(FeatureMatrix base, double[] mean, double[] factors) {
        if (mean.length != base.cols()) {
            throw new IllegalArgumentException("mean of length " + mean.length + " for " + base.cols() + " columns");
        }
        this.base = base;
        this.mean = mean;
        this.factors = factors;
    }

    /** The column means of X, by one product ({@code X^T 1 / n}), without densifying X. */
    public static double[] columnMeans(FeatureMatrix x) {
        int n = x.rows();
        DenseMatrix ones = DenseMatrix.zeros(n, 1);
        java.util.Arrays.fill(ones.data(), n > 0 ? 1.0 / n : 0.0);
        return x.transposeMultiply(ones).data().clone();
    }

    /** X centred on its own column means. */
    public static CentredRows onOwnMean(FeatureMatrix x) {
        return new CentredRows(x, columnMeans(x));
    }

    public double[] mean() {
        return mean.clone();
    }

    private double factor(int i) {
        return factors == null ? 1.0 : factors[i];
    }

    @Override
    public int rows() {
        return base.rows();
    }

    @Override
    public int cols() {
        return base.cols();
    }

    @Override
    public double get(int i, int j) {
        return factor(i) * (base.get(i, j) - mean[j]);
    }

    @Override
    public double[] row(int i) {
        double[] r = base.row(i);
        double f = factor(i);
        for (int j = 0; j < r.length; j++) {
            r[j] = f * (r[j] - mean[j]);
        }
        return r;
    }

    @Override
    public DenseMatrix toDense() {
        DenseMatrix d = DenseMatrix.zeros(rows(), cols());
        for (int i = 0; i < rows(); i++) {
            d.setRow(i, row(i));
        }
        return d;
    }

    @Override
    public boolean isSparse() {
        return false;
    }

    @Override
    public long storedEntries() {
        return (long) rows() * cols();
    }

    @Override
    public FeatureMatrix selectRows(int[] idx) {
        double[] f = null;
        if (factors != null) {
            f = new double[idx.length];
            for (int i = 0; i < idx.length; i++) {
                f[i] = factors[idx[i]];
            }
        }
        return new CentredRows(base.selectRows(idx), mean, f);
    }

    @Override
    public FeatureMatrix selectColumns(int[] idx) {
        double[] m = new double[idx.length];
        for (int j = 0; j < idx.length; j++) {
            m[j] = mean[idx[j]];
        }
        return new CentredRows(base.selectColumns(idx), m, factors);
    }

    @Override
    public double[] rowSquaredNorms() {
        double[] sq = base.rowSquaredNorms();
        double[] xm = base.multiply(DenseMatrix.column(mean)).data();
        double mm = 0;
        for (double v : mean) {
            mm += v * v;
        }
        double[] out = new double[sq.length];
        for (int i = 0; i < sq.length; i++) {
            double f = factor(i);
            out[i] = f * f * Math.max(0.0, sq[i] - 2 * xm[i] + mm);
        }
        return out;
    }

    @Override
    public FeatureMatrix scaleRows(double[] f) {
        double[] g = new double[f.length];
        for (int i = 0; i < f.length; i++) {
            g[i] = factor(i) * f[i];
        }
        return new CentredRows(base, mean, g);
    }

    @Override
    public DenseMatrix multiply(DenseMatrix w) {
        DenseMatrix out = base.multiply(w);
        int n = rows();
        int k = w.cols();
        double[] o = out.data();
        for (int c = 0; c < k; c++) {
            double mw = 0;
            for (int j = 0; j < mean.length; j++) {
                mw += mean[j] * w.get(j, c);
            }
            for (int i = 0; i < n; i++) {
                o[i + c * n] = factor(i) * (o[i + c * n] - mw);
            }
        }
        return out;
    }

    @Override
    public DenseMatrix transposeMultiply(DenseMatrix g) {
        int n = rows();
        int k = g.cols();
        DenseMatrix fg = g.copy();
        if (factors != null) {
            fg = g.scaleRows(factors);
        }
        DenseMatrix out = base.transposeMultiply(fg);
        for (int c = 0; c < k; c++) {
            double s = 0;
            for (int i = 0; i < n; i++) {
                s += fg.get(i, c);
            }
            for (int j = 0; j < mean.length; j++) {
                out.add(j, c, -mean[j] * s);
            }
        }
        return out;
    }

    @Override
    public DenseMatrix gram() {
        return toDense().gram();
    }
}
