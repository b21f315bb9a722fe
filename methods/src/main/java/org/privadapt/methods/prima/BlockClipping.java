package org.privadapt.methods.prima;

import org.privadapt.math.CsrMatrix;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;

/**
 * Row-local clipping per block: every row's sub-vector on each block of a partition is scaled down to L2 norm at
 * most {@code bound} (others unchanged). After it, a record contributes at most {@code bound^2} (Frobenius) to each
 * block's Gram matrix, which is what {@link SecondMomentRelease} needs; it reads nothing but the row it changes.
 */
public final class BlockClipping {
    private BlockClipping() {
    }

    public static FeatureMatrix clip(FeatureMatrix x, Partition p, double bound) {
        double[] bounds = new double[p.size()];
        java.util.Arrays.fill(bounds, bound);
        return clip(x, p, bounds);
    }

    /** As above with one bound per block. */
    public static FeatureMatrix clip(FeatureMatrix x, Partition p, double[] bounds) {
        checkBounds(bounds);
        int[] blockOf = blockIndex(p);
        int n = x.rows();
        double[][] sq = new double[n][p.size()];
        if (x instanceof CsrMatrix s) {
            for (int i = 0; i < n; i++) {
                for (int k = s.rowStart(i); k < s.rowEnd(i); k++) {
                    double v = s.valueAt(k);
                    sq[i][blockOf[s.colIndexAt(k)]] += v * v;
                }
            }
            double[] values = new double[(int) s.storedEntries()];
            int[] start = new int[n + 1];
            int[] cols = new int[values.length];
            int t = 0;
            for (int i = 0; i < n; i++) {
                for (int k = s.rowStart(i); k < s.rowEnd(i); k++) {
                    int j = s.colIndexAt(k);
                    double norm = Math.sqrt(sq[i][blockOf[j]]);
                    double bound = bounds[blockOf[j]];
                    cols[t] = j;
                    values[t++] = norm > bound ? s.valueAt(k) * bound / norm : s.valueAt(k);
                }
                start[i + 1] = t;
            }
            return new CsrMatrix(n, x.cols(), start, cols, values);
        }
        DenseMatrix d = x.toDense();
        double[] a = d.data();
        for (int j = 0; j < d.cols(); j++) {
            int b = blockOf[j];
            for (int i = 0; i < n; i++) {
                double v = a[i + j * n];
                sq[i][b] += v * v;
            }
        }
        DenseMatrix out = d.copy();
        double[] o = out.data();
        for (int j = 0; j < d.cols(); j++) {
            int b = blockOf[j];
            double bound = bounds[b];
            for (int i = 0; i < n; i++) {
                double norm = Math.sqrt(sq[i][b]);
                if (norm > bound) {
                    o[i + j * n] *= bound / norm;
                }
            }
        }
        return out;
    }

    private static void checkBounds(double[] bounds) {
        for (double bound : bounds) {
            if (!(bound > 0)) {
                throw new IllegalArgumentException("block clip bound must be > 0, got " + bound);
            }
        }
    }

    /** The block of each feature under a partition. */
    public static int[] blockIndex(Partition p) {
        int[] blockOf = new int[p.dimension()];
        for (int b = 0; b < p.size(); b++) {
            for (int j : p.block(b)) {
                blockOf[j] = b;
            }
        }
        return blockOf;
    }

    /**
     * One dense row clipped as {@link #clip} clips a dense matrix's row (the same arithmetic: squared norms summed in
     * column order, each entry times {@code bound / norm}); a new array. For engines that clip row by row.
     *
     * @param blockOf the block of each feature ({@link #blockIndex})
     */
    public static double[] clipRow(double[] row, int[] blockOf, double[] bounds) {
        checkBounds(bounds);
        if (blockOf.length != row.length) {
            throw new IllegalArgumentException("row has " + row.length + " features, the partition " + blockOf.length);
        }
        double[] sq = new double[bounds.length];
        for (int j = 0; j < row.length; j++) {
            double v = row[j];
            sq[blockOf[j]] += v * v;
        }
        boolean clipped = factors(sq, bounds);
        double[] out = row.clone();
        if (clipped) {
            for (int j = 0; j < row.length; j++) {
                out[j] *= sq[blockOf[j]];
            }
        }
        return out;
    }

    /**
     * {@link #clipRow} on a row held by its non-zeros, in place: {@code values[from..to)} at the columns
     * {@code cols[from..to)} (increasing). The same sums in the same order (a zero adds nothing to a block's norm), so
     * the same factors and the same clipped values as the dense row's. {@code blockOf} null: one block, the whole row.
     */
    public static void clipEntriesInPlace(double[] values, int[] cols, int from, int to, int[] blockOf, double[] bounds) {
        checkBounds(bounds);
        double[] sq = new double[bounds.length];
        for (int k = from; k < to; k++) {
            double v = values[k];
            sq[blockOf == null ? 0 : blockOf[cols[k]]] += v * v;
        }
        if (factors(sq, bounds)) {
            for (int k = from; k < to; k++) {
                values[k] *= sq[blockOf == null ? 0 : blockOf[cols[k]]];
            }
        }
    }

    /**
     * Turns each block's squared norm into its factor in place: bounds[b] / norm where the block is clipped, else 1
     * (x * 1.0 is x exactly); whether any block is clipped.
     */
    private static boolean factors(double[] sq, double[] bounds) {
        boolean clipped = false;
        for (int b = 0; b < sq.length; b++) {
            double norm = Math.sqrt(sq[b]);
            if (norm > bounds[b]) {
                sq[b] = bounds[b] / norm;
                clipped = true;
            } else {
                sq[b] = 1.0;
            }
        }
        return clipped;
    }
}
