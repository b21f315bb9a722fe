package org.privadapt.math;

/**
 * The few dense kernels the library's hot paths use, on column-major arrays with BLAS/LAPACK conventions.
 * Implementations: {@link NetlibBackend} (native OpenBLAS through JNI when the machine has it, netlib's
 * pure-Java BLAS and F2J LAPACK otherwise) and {@link EjmlBackend} (pure Java, multithreaded products).
 * Which one runs is chosen once by {@link LinAlg}; docs/performance.md records the measurements behind
 * the default.
 */
public interface LinAlgBackend {

    /** Short stable name, e.g. {@code netlib-native}, {@code netlib-java}, {@code ejml}. */
    String name();

    /** Human description including the concrete implementation classes. */
    String description();

    /** True when the kernels run in native code. */
    boolean isNative();

    /**
     * {@code C = alpha * op(A) * op(B) + beta * C}, op(A) m x k, op(B) k x n, C m x n, with leading dimensions
     * as in BLAS dgemm.
     */
    void gemm(boolean transA, boolean transB, int m, int n, int k, double alpha, double[] a, int lda,
              double[] b, int ldb, double beta, double[] c, int ldc);

    /**
     * Upper triangle of {@code C = alpha * A^T A + beta * C} where A is k x n (lda >= k) and C is n x n: the
     * Gram matrix of the columns of A (dsyrk with uplo=U, trans=T). The strict lower triangle of C is left
     * as it was.
     */
    void syrkTransUpper(int n, int k, double alpha, double[] a, int lda, double beta, double[] c, int ldc);

    /**
     * Upper triangle of {@code C = alpha * A A^T + beta * C} where A is n x k (lda >= n) and C is n x n: the Gram matrix
     * of the rows of a k x n matrix stored row by row (dsyrk with uplo=U, trans=N). The strict lower triangle of C is
     * left as it was.
     */
    void syrkUpper(int n, int k, double alpha, double[] a, int lda, double beta, double[] c, int ldc);

    /** {@code y = alpha * op(A) x + beta * y} with A m x n column-major. */
    void gemv(boolean transA, int m, int n, double alpha, double[] a, int lda, double[] x, double beta, double[] y);

    /**
     * Eigendecomposition of the symmetric n x n matrix in {@code a} (upper triangle read). Writes the
     * eigenvalues in ascending order into {@code w}; if {@code vectors}, overwrites {@code a} with the
     * orthonormal eigenvectors as columns, otherwise leaves {@code a} in an unspecified state.
     *
     * @throws ArithmeticException if the algorithm fails to converge
     */
    void symmetricEigen(int n, double[] a, double[] w, boolean vectors);

    /**
     * The {@code k} largest eigenvalues of the symmetric n x n matrix in {@code a} (upper triangle read) and their
     * eigenvectors: writes the eigenvalues in ascending order into {@code w[0..k)} and the matching orthonormal
     * eigenvectors as the columns of the n x k column-major {@code z}; {@code a} is destroyed. The default computes
     * the whole decomposition and keeps the last k pairs; a backend with a partial-spectrum driver overrides it.
     *
     * @throws ArithmeticException if the algorithm fails to converge
     */
    default void largestEigenpairs(int n, double[] a, int k, double[] w, double[] z) {
        if (k < 1 || k > n) {
            throw new IllegalArgumentException("k=" + k + " outside [1, " + n + "]");
        }
        double[] all = new double[n];
        symmetricEigen(n, a, all, true);
        System.arraycopy(all, n - k, w, 0, k);
        System.arraycopy(a, (n - k) * n, z, 0, n * k);
    }

    /**
     * The {@code count} smallest eigenvalues of the symmetric matrix in {@code a} (upper triangle read),
     * ascending; {@code a} is destroyed.
     */
    double[] smallestEigenvalues(int n, double[] a, int count);

    /**
     * Cholesky factorisation in place: on success the lower triangle of {@code a} holds L with A = L L^T and
     * the result is 0; otherwise the result is the (1-based) order of the first non-positive leading minor.
     * The strict upper triangle is unspecified afterwards.
     */
    int choleskyLower(int n, double[] a);
}
