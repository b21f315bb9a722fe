package org.privadapt.math.ot;

import java.util.Objects;
import org.privadapt.math.DenseMatrix;

/**
 * A validated transport problem restricted to the rows and columns of positive weight (zero-weight rows and
 * columns carry no mass in any coupling, so the solvers work on the rest and {@link #embed} puts the zeros back).
 * Package-private plumbing shared by the solvers.
 */
final class OtProblem {
    /** Relative tolerance on {@code |sum a - sum b|}. */
    static final double MASS_TOLERANCE = 1e-9;

    final int rows0;
    final int cols0;
    /** Kept row / column indices, or null when every weight is positive (no reduction, no copy). */
    final int[] rowIdx;
    final int[] colIdx;
    final int n;
    final int m;
    /** Reduced cost, column-major n x m; the caller's array when nothing was reduced (never written). */
    final double[] c;
    final double[] a;
    final double[] b;
    final double mass;

    private OtProblem(int rows0, int cols0, int[] rowIdx, int[] colIdx, double[] c, double[] a, double[] b, double mass) {
        this.rows0 = rows0;
        this.cols0 = cols0;
        this.rowIdx = rowIdx;
        this.colIdx = colIdx;
        this.n = a.length;
        this.m = b.length;
        this.c = c;
        this.a = a;
        this.b = b;
        this.mass = mass;
    }

    static OtProblem of(double[] a, double[] b, DenseMatrix cost) {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
        Objects.requireNonNull(cost, "cost");
        if (a.length != cost.rows() || b.length != cost.cols()) {
            throw new IllegalArgumentException("weights of length " + a.length + " and " + b.length + " for a "
                    + cost.rows() + "x" + cost.cols() + " cost matrix");
        }
        double sa = checkedSum(a, "a");
        double sb = checkedSum(b, "b");
        if (!(sa > 0) || !(sb > 0)) {
            throw new IllegalArgumentException("weights must have a positive total, got sum(a)=" + sa + ", sum(b)=" + sb);
        }
        if (Math.abs(sa - sb) > MASS_TOLERANCE * Math.max(sa, sb)) {
            throw new IllegalArgumentException("marginals have different totals: sum(a)=" + sa + ", sum(b)=" + sb);
        }
        int rows0 = cost.rows();
        int cols0 = cost.cols();
        int[] rowIdx = positive(a);
        int[] colIdx = positive(b);
        double[] cd = cost.data();
        double[] ra = a.clone();
        double[] rb = b.clone();
        double[] c = cd;
        if (rowIdx != null || colIdx != null) {
            int[] ri = rowIdx != null ? rowIdx : range(rows0);
            int[] ci = colIdx != null ? colIdx : range(cols0);
            c = new double[ri.length * ci.length];
            for (int jj = 0; jj < ci.length; jj++) {
                int src = ci[jj] * rows0;
                int dst = jj * ri.length;
                for (int ii = 0; ii < ri.length; ii++) {
                    c[dst + ii] = cd[src + ri[ii]];
                }
            }
            ra = select(a, ri);
            rb = select(b, ci);
        }
        OtProblem p = new OtProblem(rows0, cols0, rowIdx, colIdx, c, ra, rb, 0.5 * (sa + sb));
        p.checkCost();
        return p;
    }

    /** Rejects NaN and -Infinity, and positive-weight rows or columns whose costs are all +Infinity. */
    private void checkCost() {
        boolean[] rowFinite = new boolean[n];
        int finiteRows = 0;
        for (int j = 0; j < m; j++) {
            int off = j * n;
            boolean colFinite = false;
            for (int i = 0; i < n; i++) {
                double v = c[off + i];
                if (v < Double.POSITIVE_INFINITY) {
                    if (!(v > Double.NEGATIVE_INFINITY)) {
                        throw new IllegalArgumentException("cost entry (" + originalRow(i) + ", " + originalCol(j)
                                + ") is " + v + " (NaN and -Infinity are not costs)");
                    }
                    colFinite = true;
                    if (!rowFinite[i]) {
                        rowFinite[i] = true;
                        finiteRows++;
                    }
                } else if (Double.isNaN(v)) {
                    throw new IllegalArgumentException("cost entry (" + originalRow(i) + ", " + originalCol(j) + ") is NaN");
                }
            }
            if (!colFinite) {
                throw new IllegalArgumentException("target column " + originalCol(j) + " has positive weight but an "
                        + "infinite cost to every source row of positive weight");
            }
        }
        if (finiteRows < n) {
            for (int i = 0; i < n; i++) {
                if (!rowFinite[i]) {
                    throw new IllegalArgumentException("source row " + originalRow(i) + " has positive weight but an "
                            + "infinite cost to every target column of positive weight");
                }
            }
        }
    }

    int originalRow(int i) {
        return rowIdx == null ? i : rowIdx[i];
    }

    int originalCol(int j) {
        return colIdx == null ? j : colIdx[j];
    }

    /** The n x m plan (column-major, ours to keep) as a rows0 x cols0 matrix with zero rows/columns put back. */
    DenseMatrix embed(double[] plan) {
        if (rowIdx == null && colIdx == null) {
            return new DenseMatrix(n, m, plan);
        }
        DenseMatrix full = DenseMatrix.zeros(rows0, cols0);
        double[] fd = full.data();
        for (int j = 0; j < m; j++) {
            int dst = originalCol(j) * rows0;
            int src = j * n;
            for (int i = 0; i < n; i++) {
                fd[dst + originalRow(i)] = plan[src + i];
            }
        }
        return full;
    }

    private static double checkedSum(double[] w, String name) {
        double s = 0;
        for (int i = 0; i < w.length; i++) {
            double v = w[i];
            if (!(v >= 0) || v == Double.POSITIVE_INFINITY) {
                throw new IllegalArgumentException("weight " + name + "[" + i + "] = " + v
                        + " (weights must be finite and non-negative)");
            }
            s += v;
        }
        return s;
    }

    /** Indices of the positive entries, or null when all are positive. */
    private static int[] positive(double[] w) {
        int count = 0;
        for (double v : w) {
            if (v > 0) {
                count++;
            }
        }
        if (count == w.length) {
            return null;
        }
        int[] idx = new int[count];
        int k = 0;
        for (int i = 0; i < w.length; i++) {
            if (w[i] > 0) {
                idx[k++] = i;
            }
        }
        return idx;
    }

    private static int[] range(int n) {
        int[] r = new int[n];
        for (int i = 0; i < n; i++) {
            r[i] = i;
        }
        return r;
    }

    private static double[] select(double[] w, int[] idx) {
        double[] r = new double[idx.length];
        for (int k = 0; k < idx.length; k++) {
            r[k] = w[idx[k]];
        }
        return r;
    }
}
