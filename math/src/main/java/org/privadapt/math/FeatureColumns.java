package org.privadapt.math;

/**
 * Two feature matrices side by side (the same rows, the left's columns then the right's): dense when both are dense,
 * else compressed sparse rows (a table's few numeric columns beside a text column's 4,096 hashed buckets stay sparse).
 */
public final class FeatureColumns {
    private FeatureColumns() {
    }

    /**
     * {@code [left | right]}, row by row.
     *
     * @throws IllegalArgumentException when the two have different numbers of rows
     */
    public static FeatureMatrix beside(FeatureMatrix left, FeatureMatrix right) {
        if (left.rows() != right.rows()) {
            throw new IllegalArgumentException("cannot put " + left.rows() + " rows beside " + right.rows());
        }
        if (right.cols() == 0) {
            return left;
        }
        if (left.cols() == 0) {
            return right;
        }
        int n = left.rows();
        if (!left.isSparse() && !right.isSparse()) {
            // column-major: the right's columns follow the left's
            double[] a = left.toDense().data();
            double[] b = right.toDense().data();
            double[] data = new double[a.length + b.length];
            System.arraycopy(a, 0, data, 0, a.length);
            System.arraycopy(b, 0, data, a.length, b.length);
            return new DenseMatrix(n, left.cols() + right.cols(), data);
        }
        CsrMatrix l = sparse(left);
        CsrMatrix r = sparse(right);
        int offset = l.cols();
        int nnz = (int) (l.storedEntries() + r.storedEntries());
        int[] start = new int[n + 1];
        int[] cols = new int[nnz];
        double[] vals = new double[nnz];
        int k = 0;
        for (int i = 0; i < n; i++) {
            for (int p = l.rowStart(i); p < l.rowEnd(i); p++) {
                cols[k] = l.colIndexAt(p);
                vals[k++] = l.valueAt(p);
            }
            for (int p = r.rowStart(i); p < r.rowEnd(i); p++) {
                cols[k] = offset + r.colIndexAt(p);
                vals[k++] = r.valueAt(p);
            }
            start[i + 1] = k;
        }
        return new CsrMatrix(n, offset + r.cols(), start, cols, vals);
    }

    private static CsrMatrix sparse(FeatureMatrix m) {
        return m instanceof CsrMatrix c ? c : CsrMatrix.fromDense(m.toDense());
    }
}
