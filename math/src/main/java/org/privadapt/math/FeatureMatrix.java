package org.privadapt.math;

/**
 * A data matrix with one example per row: the common view of dense ({@link DenseMatrix}) and sparse
 * ({@link CsrMatrix}) features. Models use only these operations, so they run on either layout without
 * densifying sparse data; every operation returns a new object and leaves this one unchanged.
 */
public interface FeatureMatrix {
    int rows();

    int cols();

    double get(int i, int j);

    /** A dense copy of row {@code i}. */
    double[] row(int i);

    /** This matrix as a dense one (no copy if it is dense already). */
    DenseMatrix toDense();

    boolean isSparse();

    /** Number of stored entries (rows*cols for dense, non-zeros for sparse). */
    long storedEntries();

    FeatureMatrix selectRows(int[] idx);

    FeatureMatrix selectColumns(int[] idx);

    /** Squared L2 norm of every row. */
    double[] rowSquaredNorms();

    /** Row i multiplied by {@code factors[i]}. */
    FeatureMatrix scaleRows(double[] factors);

    /** {@code this * w} (n x k). */
    DenseMatrix multiply(DenseMatrix w);

    /** {@code this^T * g} (d x k), for gradients. */
    DenseMatrix transposeMultiply(DenseMatrix g);

    /**
     * {@code out = X^T g}, written over {@code out} ({@code cols() x g.cols()}): the same values as
     * {@link #transposeMultiply}, without allocating the result (a training step reuses its gradient buffers).
     *
     * @throws IllegalArgumentException if the shapes do not match
     */
    default void transposeMultiplyInto(DenseMatrix g, DenseMatrix out) {
        DenseMatrix r = transposeMultiply(g);
        if (out.rows() != r.rows() || out.cols() != r.cols()) {
            throw new IllegalArgumentException("transposeMultiplyInto: result is " + r.rows() + "x" + r.cols()
                    + ", output " + out.rows() + "x" + out.cols());
        }
        System.arraycopy(r.data(), 0, out.data(), 0, r.data().length);
    }

    /** {@code this^T * this} (d x d, symmetric). */
    DenseMatrix gram();
}
