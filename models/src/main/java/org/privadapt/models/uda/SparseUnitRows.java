package org.privadapt.models.uda;

import org.privadapt.math.CsrMatrix;
import org.privadapt.math.DenseMatrix;

/**
 * The centred unit rows of {@link MapPrototypeSums} for a block held sparse, without densifying it: with
 * {@code z_i = f_i (x_i - mu)} and {@code f_i = 1 / ||x_i - mu||} (0 for a zero {@code z_i}), every statistic the
 * refinement sums is a product with the sparse rows plus a correction by the mean:
 * <ul>
 *   <li>{@code ||x_i - mu||^2 = ||x_i||^2 - 2 x_i . mu + ||mu||^2};</li>
 *   <li>the scores {@code Z D = f o (X D - 1 (mu^T D))};</li>
 *   <li>the weighted sums {@code Z^T W = X^T (f o W) - mu (1^T (f o W))}.</li>
 * </ul>
 * The work per row is its number of non-zeros times K, not d. The values equal the dense path's up to rounding (the
 * norm by its expansion: a row within about 1e-12 relative of the mean is taken as zero, as an equal row is).
 */
final class SparseUnitRows {
    private final CsrMatrix x;
    private final double[] mean;
    private final double[] f;

    SparseUnitRows(CsrMatrix x, double[] mean) {
        this.x = x;
        this.mean = mean;
        double meanSq = 0;
        if (mean != null) {
            for (double v : mean) {
                meanSq += v * v;
            }
        }
        double[] sq = x.rowSquaredNorms();
        f = new double[x.rows()];
        for (int i = 0; i < f.length; i++) {
            double s = sq[i];
            if (mean != null) {
                double dot = 0;
                for (int k = x.rowStart(i); k < x.rowEnd(i); k++) {
                    dot += x.valueAt(k) * mean[x.colIndexAt(k)];
                }
                s = s - 2 * dot + meanSq;
                if (s <= 1e-12 * (sq[i] + meanSq)) {
                    s = 0;
                }
            }
            f[i] = s > 0 ? 1.0 / Math.sqrt(s) : 0.0;
        }
    }

    int rows() {
        return f.length;
    }

    /** The unit centred rows times {@code dirs} (d x K): m x K. */
    DenseMatrix times(DenseMatrix dirs) {
        DenseMatrix xd = x.multiply(dirs);
        int k = dirs.cols();
        double[] md = new double[k];
        if (mean != null) {
            for (int c = 0; c < k; c++) {
                double s = 0;
                for (int j = 0; j < mean.length; j++) {
                    s += mean[j] * dirs.get(j, c);
                }
                md[c] = s;
            }
        }
        for (int c = 0; c < k; c++) {
            for (int i = 0; i < f.length; i++) {
                xd.set(i, c, f[i] * (xd.get(i, c) - md[c]));
            }
        }
        return xd;
    }

    /** Adds the unit centred rows' sums weighted by {@code w} (m x K) into {@code into[0 .. d K)} (d x K, column-major). */
    void addWeightedSums(DenseMatrix w, double[] into) {
        int k = w.cols();
        int d = x.cols();
        DenseMatrix fw = w.scaleRows(f);
        double[] s = x.transposeMultiply(fw).data();
        for (int t = 0; t < s.length; t++) {
            into[t] += s[t];
        }
        if (mean != null) {
            for (int c = 0; c < k; c++) {
                double col = 0;
                for (int i = 0; i < f.length; i++) {
                    col += fw.get(i, c);
                }
                for (int j = 0; j < d; j++) {
                    into[c * d + j] -= mean[j] * col;
                }
            }
        }
    }
}
