package org.privadapt.spark;

import org.privadapt.math.CompensatedSums;
import org.privadapt.math.DenseMatrix;

/** Upper triangles (diagonal included, column by column: (0,0), (0,1), (1,1), (0,2), ...) kept in compensated sums. */
final class Triangles {
    private Triangles() {
    }

    static int size(int len) {
        return len * (len + 1) / 2;
    }

    /**
     * Adds {@code x_S x_S^T}'s upper triangle at {@code offset}, for the features {@code idx} of x (all of x when null).
     */
    static void addOuter(CompensatedSums into, int offset, double[] x, int[] idx) {
        int len = idx == null ? x.length : idx.length;
        int t = offset;
        for (int q = 0; q < len; q++) {
            double xq = idx == null ? x[q] : x[idx[q]];
            for (int p = 0; p <= q; p++) {
                double xp = idx == null ? x[p] : x[idx[p]];
                into.add(t++, xp * xq);
            }
        }
    }

    /** The symmetric len x len matrix whose upper triangle is at {@code offset}. */
    static DenseMatrix symmetric(CompensatedSums from, int offset, int len) {
        DenseMatrix m = DenseMatrix.zeros(len, len);
        int t = offset;
        for (int q = 0; q < len; q++) {
            for (int p = 0; p <= q; p++) {
                double v = from.value(t++);
                m.set(p, q, v);
                m.set(q, p, v);
            }
        }
        return m;
    }
}
