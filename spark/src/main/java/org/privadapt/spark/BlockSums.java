package org.privadapt.spark;

import org.privadapt.math.CompensatedSums;

/**
 * Plain sums over one block of rows (at most {@link RowAggregation#BLOCK_ROWS}), which an accumulator then adds into
 * its compensated sums, one compensated add per entry per block: the streaming engine's scheme (an exact statistic per
 * block, compensated over blocks), so a result stays within about one rounding of the exact sum (a block's plain sum of
 * m terms is within {@code m u} of its own, m at most a few thousand) and does not depend on the partitioning beyond
 * that.
 *
 * <p>The block's second moment is a Java kernel, not a BLAS call: Spark runs one task per core, and a multi-threaded
 * native BLAS (OpenBLAS's default: one thread per core) called from concurrent tasks was measured 10 to 40 times
 * slower than single-threaded (docs/performance.md, "Spark and streaming at scale"); the kernel's speed and its bits do not depend on which BLAS an
 * executor has or how it is configured.
 */
final class BlockSums {
    private BlockSums() {
    }

    /**
     * Adds the upper triangles of {@code x x^T} for the rows {@code rows[0..m)} (each of length d) to {@code g}, packed
     * column by column as {@link Triangles} lays them out ((0,0), (0,1), (1,1), (0,2), ...; length
     * {@code Triangles.size(d)}).
     */
    static void addOuterUpper(double[][] rows, int m, int d, double[] g) {
        int i = 0;
        for (; i + 4 <= m; i += 4) { // four rows per pass over g
            double[] a = rows[i];
            double[] b = rows[i + 1];
            double[] c = rows[i + 2];
            double[] e = rows[i + 3];
            for (int q = 0, t = 0; q < d; q++) {
                double aq = a[q];
                double bq = b[q];
                double cq = c[q];
                double eq = e[q];
                for (int p = 0; p <= q; p++) {
                    g[t + p] += a[p] * aq + b[p] * bq + c[p] * cq + e[p] * eq;
                }
                t += q + 1;
            }
        }
        for (; i < m; i++) {
            double[] x = rows[i];
            for (int q = 0, t = 0; q < d; q++) {
                double xq = x[q];
                for (int p = 0; p <= q; p++) {
                    g[t + p] += x[p] * xq;
                }
                t += q + 1;
            }
        }
    }

    /** Adds the rows {@code rows[0..m)} (each of length d) to {@code s} (length d). */
    static void addRows(double[][] rows, int m, int d, double[] s) {
        for (int i = 0; i < m; i++) {
            double[] x = rows[i];
            for (int j = 0; j < d; j++) {
                s[j] += x[j];
            }
        }
    }

    /** The entries {@code idx} of each row {@code rows[0..m)}, as new rows. */
    static double[][] columns(double[][] rows, int m, int[] idx) {
        double[][] out = new double[m][idx.length];
        for (int i = 0; i < m; i++) {
            double[] x = rows[i];
            double[] y = out[i];
            for (int p = 0; p < idx.length; p++) {
                y[p] = x[idx[p]];
            }
        }
        return out;
    }

    /** Adds {@code values[t]} to entry {@code offset + t} of {@code into}, for every t. */
    static void addTo(CompensatedSums into, int offset, double[] values) {
        for (int t = 0; t < values.length; t++) {
            into.add(offset + t, values[t]);
        }
    }
}
