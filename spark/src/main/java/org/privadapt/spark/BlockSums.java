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
        // tiles of TILE x TILE entries of g, each updated by every row of the block before the next: g (d^2 / 2 values,
        // 4 MB at d 1,024) is then read and written once per block instead of once per four rows. Every entry still
        // adds the rows in the same order and the same groups of four, so the sums are the untiled kernel's to the bit.
        for (int qt = 0; qt < d; qt += TILE) {
            int qEnd = Math.min(d, qt + TILE);
            for (int pt = 0; pt < qEnd; pt += TILE) {
                int i = 0;
                for (; i + 4 <= m; i += 4) { // four rows per pass over the tile
                    double[] a = rows[i];
                    double[] b = rows[i + 1];
                    double[] c = rows[i + 2];
                    double[] e = rows[i + 3];
                    for (int q = qt; q < qEnd; q++) {
                        double aq = a[q];
                        double bq = b[q];
                        double cq = c[q];
                        double eq = e[q];
                        int t = (int) ((long) q * (q + 1) / 2);
                        int pEnd = Math.min(q + 1, pt + TILE);
                        for (int p = pt; p < pEnd; p++) {
                            g[t + p] += a[p] * aq + b[p] * bq + c[p] * cq + e[p] * eq;
                        }
                    }
                }
                for (; i < m; i++) {
                    double[] x = rows[i];
                    for (int q = qt; q < qEnd; q++) {
                        double xq = x[q];
                        int t = (int) ((long) q * (q + 1) / 2);
                        int pEnd = Math.min(q + 1, pt + TILE);
                        for (int p = pt; p < pEnd; p++) {
                            g[t + p] += x[p] * xq;
                        }
                    }
                }
            }
        }
    }

    /** The side of {@link #addOuterUpper}'s tiles: 128 x 128 entries of g (128 KB) stay in a core's cache. */
    static final int TILE = 128;

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
