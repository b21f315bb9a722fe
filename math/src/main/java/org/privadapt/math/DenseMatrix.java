package org.privadapt.math;

import java.util.Arrays;
import java.util.function.DoubleUnaryOperator;

/**
 * A dense real matrix stored column-major in one {@code double[]} (element (i, j) at {@code i + j * rows}),
 * the layout BLAS and LAPACK expect, so products and decompositions run without copies.
 *
 * <p>Instances are mutable only through the methods whose name says so ({@code set}, {@code ...InPlace});
 * every other operation returns a new matrix and leaves its inputs untouched. {@link #data()} exposes the
 * backing array for kernels; callers that write to it own the consequences.
 *
 * <p>This class holds the shape, the backing array and element access; the loops live in package-private
 * neighbours: {@link DenseLayout} (factories, transpose, row/column copies and selections, stacking),
 * {@link DenseArithmetic} (entry-wise sums, scaling, broadcasts, maps) and {@link DenseReductions} (diagonal,
 * trace, norms, means, symmetry checks and repairs). Products go to {@link LinAlg}.
 */
public final class DenseMatrix implements FeatureMatrix {
    private final int rows;
    private final int cols;
    private final double[] data;

    /** Wraps {@code data} (column-major, length rows*cols) without copying. */
    public DenseMatrix(int rows, int cols, double[] data) {
        if (rows < 0 || cols < 0) {
            throw new IllegalArgumentException("negative shape " + rows + "x" + cols);
        }
        if ((long) rows * cols != data.length) {
            throw new IllegalArgumentException("data length " + data.length + " != " + rows + "x" + cols);
        }
        this.rows = rows;
        this.cols = cols;
        this.data = data;
    }

    public static DenseMatrix zeros(int rows, int cols) {
        long n = (long) rows * cols;
        if (n > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("matrix " + rows + "x" + cols + " too large for one array");
        }
        return new DenseMatrix(rows, cols, new double[(int) n]);
    }

    public static DenseMatrix identity(int n) {
        return DenseLayout.identity(n);
    }

    public static DenseMatrix diagonal(double[] diag) {
        return DenseLayout.diagonal(diag);
    }

    /** Builds a matrix from row arrays (copied); all rows must have the same length. */
    public static DenseMatrix fromRows(double[][] rowArrays) {
        return DenseLayout.fromRows(rowArrays);
    }

    /** Builds a matrix from a row-major array (copied). */
    public static DenseMatrix fromRowMajor(int rows, int cols, double[] rowMajor) {
        return DenseLayout.fromRowMajor(rows, cols, rowMajor);
    }

    /** A column vector (n x 1) holding a copy of {@code v}. */
    public static DenseMatrix column(double[] v) {
        return new DenseMatrix(v.length, 1, v.clone());
    }

    @Override
    public int rows() {
        return rows;
    }

    @Override
    public int cols() {
        return cols;
    }

    /** The backing column-major array (not a copy). */
    public double[] data() {
        return data;
    }

    @Override
    public double get(int i, int j) {
        return data[i + j * rows];
    }

    public void set(int i, int j, double v) {
        data[i + j * rows] = v;
    }

    public void add(int i, int j, double v) {
        data[i + j * rows] += v;
    }

    public DenseMatrix copy() {
        return new DenseMatrix(rows, cols, data.clone());
    }

    @Override
    public DenseMatrix toDense() {
        return this;
    }

    @Override
    public boolean isSparse() {
        return false;
    }

    @Override
    public long storedEntries() {
        return (long) rows * cols;
    }

    public DenseMatrix transpose() {
        return DenseLayout.transpose(this);
    }

    /** Copy of row {@code i}. */
    @Override
    public double[] row(int i) {
        return DenseLayout.row(this, i);
    }

    /** Copy of column {@code j}. */
    public double[] columnCopy(int j) {
        return Arrays.copyOfRange(data, j * rows, (j + 1) * rows);
    }

    public void setColumn(int j, double[] v) {
        DenseLayout.setColumn(this, j, v);
    }

    public void setRow(int i, double[] v) {
        DenseLayout.setRow(this, i, v);
    }

    @Override
    public DenseMatrix selectRows(int[] idx) {
        return DenseLayout.selectRows(this, idx);
    }

    @Override
    public DenseMatrix selectColumns(int[] idx) {
        return DenseLayout.selectColumns(this, idx);
    }

    /** The square submatrix on rows and columns {@code idx}. */
    public DenseMatrix selectSymmetric(int[] idx) {
        return DenseLayout.selectSymmetric(this, idx);
    }

    /** Stacks {@code this} above {@code other} (same number of columns). */
    public DenseMatrix vstack(DenseMatrix other) {
        return DenseLayout.vstack(this, other);
    }

    public DenseMatrix plus(DenseMatrix o) {
        return DenseArithmetic.plus(this, o);
    }

    public DenseMatrix minus(DenseMatrix o) {
        return DenseArithmetic.minus(this, o);
    }

    public DenseMatrix scale(double s) {
        return DenseArithmetic.scale(this, s);
    }

    public void scaleInPlace(double s) {
        DenseArithmetic.scaleInPlace(this, s);
    }

    /** {@code this += s * o}. */
    public void addScaledInPlace(double s, DenseMatrix o) {
        DenseArithmetic.addScaledInPlace(this, s, o);
    }

    /** A copy with {@code s} added to every diagonal entry (square matrices). */
    public DenseMatrix plusIdentity(double s) {
        return DenseArithmetic.plusIdentity(this, s);
    }

    public DenseMatrix map(DoubleUnaryOperator f) {
        return DenseArithmetic.map(this, f);
    }

    public double[] diagonal() {
        return DenseReductions.diagonal(this);
    }

    public double trace() {
        return DenseReductions.trace(this);
    }

    public double frobeniusNorm() {
        return DenseReductions.frobeniusNorm(this);
    }

    public double maxAbs() {
        return DenseReductions.maxAbs(this);
    }

    /** Largest |a_ij - a_ji|; zero for an exactly symmetric matrix. */
    public double asymmetry() {
        return DenseReductions.asymmetry(this);
    }

    /** Replaces the matrix by (A + A^T)/2 in place. */
    public void symmetrizeInPlace() {
        DenseReductions.symmetrizeInPlace(this);
    }

    /** Copies the upper triangle onto the lower one in place. */
    public void mirrorUpperInPlace() {
        DenseReductions.mirrorUpperInPlace(this);
    }

    /** A copy with column j multiplied by {@code f[j]}. */
    public DenseMatrix scaleColumnsCopy(double[] f) {
        return DenseArithmetic.scaleColumnsCopy(this, f);
    }

    /** A copy equal to (A + A^T)/2. */
    public DenseMatrix symmetrized() {
        DenseMatrix m = copy();
        m.symmetrizeInPlace();
        return m;
    }

    /** Column means (length cols). */
    public double[] columnMeans() {
        return DenseReductions.columnMeans(this);
    }

    /** A copy with {@code v[j]} subtracted from column j. */
    public DenseMatrix minusRowVector(double[] v) {
        return DenseArithmetic.minusRowVector(this, v);
    }

    /** A copy with {@code v[j]} added to column j (broadcast a row vector). */
    public DenseMatrix plusRowVector(double[] v) {
        return DenseArithmetic.plusRowVector(this, v);
    }

    @Override
    public double[] rowSquaredNorms() {
        return DenseReductions.rowSquaredNorms(this);
    }

    @Override
    public DenseMatrix scaleRows(double[] factors) {
        return DenseArithmetic.scaleRows(this, factors);
    }

    @Override
    public DenseMatrix multiply(DenseMatrix w) {
        return LinAlg.multiply(this, w);
    }

    @Override
    public DenseMatrix transposeMultiply(DenseMatrix g) {
        return LinAlg.multiplyTransA(this, g);
    }

    @Override
    public void transposeMultiplyInto(DenseMatrix g, DenseMatrix out) {
        LinAlg.gemmInto(this, true, g, false, out);
    }

    @Override
    public DenseMatrix gram() {
        return LinAlg.gram(this);
    }

    /** Index of the first non-finite entry as {row, col}, or null if all are finite. */
    public int[] firstNonFinite() {
        return DenseReductions.firstNonFinite(this);
    }

    void requireSameShape(DenseMatrix o) {
        if (o.rows != rows || o.cols != cols) {
            throw new IllegalArgumentException("shape mismatch: " + rows + "x" + cols + " vs " + o.rows + "x" + o.cols);
        }
    }

    void requireSquare() {
        if (rows != cols) {
            throw new IllegalArgumentException("square matrix required, got " + rows + "x" + cols);
        }
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("DenseMatrix ").append(rows).append('x').append(cols);
        if ((long) rows * cols <= 64) {
            for (int i = 0; i < rows; i++) {
                sb.append(i == 0 ? "\n[" : "\n ").append(Arrays.toString(row(i)));
            }
            sb.append(']');
        }
        return sb.toString();
    }
}
