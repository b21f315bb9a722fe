package org.privadapt.math;

/**
 * A dense matrix prepared for many row gathers (minibatches): {@link #selectRows} reads a row-major copy made once,
 * so a batch of B rows costs B contiguous reads of d values instead of one cache line per entry of the
 * column-major {@link DenseMatrix#selectRows} (issue 32). Every other operation is the dense matrix's own, and
 * {@code selectRows} returns exactly what the dense matrix's would (the same values in the same column-major
 * layout: it is a copy, nothing is computed).
 *
 * <p>Costs one more n x d array for as long as the trainer keeps it; {@link #of} returns sparse and small matrices
 * as they are.
 */
public final class RowGather implements FeatureMatrix {
    /** Below this many entries a dense matrix is gathered from directly (it fits in cache anyway). */
    static final long MIN_ENTRIES = 1L << 15;
    /** Output rows written per sweep over the columns (a cache line of the column-major output per column). */
    private static final int ROW_BLOCK = 8;

    private final DenseMatrix dense;
    private final double[] rowMajor; // row i at i * cols

    private RowGather(DenseMatrix dense) {
        this.dense = dense;
        this.rowMajor = dense.transpose().data(); // column-major d x n = row-major n x d (blocked transpose)
    }

    /**
     * Gathers of this many passes over the rows pay for the copy: measured on 5000 x 1024 (docs/performance.md),
     * the copy costs 40 ms once compiled and warm (up to 200 ms on fresh memory) and saves about 0.7 ms per
     * 256-row batch, so about 2.5 passes break even.
     */
    public static final double MIN_PASSES = 3.0;

    /**
     * {@code x} wrapped for fast row gathers when it is dense, not small, and the caller will gather at least
     * {@value #MIN_PASSES} times its rows in all ({@code rowsToGather}, expected); otherwise {@code x} itself.
     */
    public static FeatureMatrix of(FeatureMatrix x, double rowsToGather) {
        if (x instanceof DenseMatrix m && (long) m.rows() * m.cols() >= MIN_ENTRIES && m.rows() > 1
                && rowsToGather >= MIN_PASSES * m.rows()) {
            return new RowGather(m);
        }
        return x;
    }

    @Override
    public DenseMatrix selectRows(int[] idx) {
        int n = dense.rows();
        int d = dense.cols();
        int b = idx.length;
        double[] out = new double[b * d];
        for (int k0 = 0; k0 < b; k0 += ROW_BLOCK) {
            int k1 = Math.min(b, k0 + ROW_BLOCK);
            for (int k = k0; k < k1; k++) {
                if (idx[k] < 0 || idx[k] >= n) {
                    throw new ArrayIndexOutOfBoundsException("row " + idx[k] + " of " + n);
                }
            }
            for (int j = 0; j < d; j++) {
                int dst = j * b;
                for (int k = k0; k < k1; k++) {
                    out[dst + k] = rowMajor[idx[k] * d + j];
                }
            }
        }
        return new DenseMatrix(b, d, out);
    }

    @Override
    public int rows() {
        return dense.rows();
    }

    @Override
    public int cols() {
        return dense.cols();
    }

    @Override
    public double get(int i, int j) {
        return dense.get(i, j);
    }

    @Override
    public double[] row(int i) {
        int d = dense.cols();
        return java.util.Arrays.copyOfRange(rowMajor, i * d, i * d + d);
    }

    @Override
    public DenseMatrix toDense() {
        return dense;
    }

    @Override
    public boolean isSparse() {
        return false;
    }

    @Override
    public long storedEntries() {
        return dense.storedEntries();
    }

    @Override
    public FeatureMatrix selectColumns(int[] idx) {
        return dense.selectColumns(idx);
    }

    @Override
    public double[] rowSquaredNorms() {
        return dense.rowSquaredNorms();
    }

    @Override
    public FeatureMatrix scaleRows(double[] factors) {
        return dense.scaleRows(factors);
    }

    @Override
    public DenseMatrix multiply(DenseMatrix w) {
        return dense.multiply(w);
    }

    @Override
    public DenseMatrix transposeMultiply(DenseMatrix g) {
        return dense.transposeMultiply(g);
    }

    @Override
    public void transposeMultiplyInto(DenseMatrix g, DenseMatrix out) {
        dense.transposeMultiplyInto(g, out);
    }

    @Override
    public DenseMatrix gram() {
        return dense.gram();
    }
}
