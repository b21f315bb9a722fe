package org.privadapt.math;

/**
 * The fallback when no native BLAS/LAPACK is present: each kernel is taken from the pure-Java
 * implementation that measured fastest on this project's machine (docs/performance.md, "pure-Java
 * fallback"): EJML's multithreaded products for gemm and syrk, netlib's F2J LAPACK for the symmetric
 * eigensolver and Cholesky (same algorithms as the native path, so results match it to rounding).
 */
final class PureJavaBackend implements LinAlgBackend {
    private final LinAlgBackend products = new EjmlBackend();
    private final LinAlgBackend lapack = NetlibBackend.pureJava();

    @Override
    public String name() {
        return "pure-java";
    }

    @Override
    public String description() {
        return "pure-java (products: " + products.description() + "; decompositions: " + lapack.description() + ")";
    }

    @Override
    public boolean isNative() {
        return false;
    }

    @Override
    public void gemm(boolean transA, boolean transB, int m, int n, int k, double alpha, double[] a, int lda,
                     double[] b, int ldb, double beta, double[] c, int ldc) {
        boolean tight = lda == Math.max(1, transA ? k : m) && ldb == Math.max(1, transB ? n : k) && ldc == Math.max(1, m);
        (tight ? products : lapack).gemm(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    }

    @Override
    public void syrkTransUpper(int n, int k, double alpha, double[] a, int lda, double beta, double[] c, int ldc) {
        boolean tight = lda == Math.max(1, k) && ldc == Math.max(1, n);
        (tight ? products : lapack).syrkTransUpper(n, k, alpha, a, lda, beta, c, ldc);
    }

    @Override
    public void gemv(boolean transA, int m, int n, double alpha, double[] a, int lda, double[] x, double beta, double[] y) {
        lapack.gemv(transA, m, n, alpha, a, lda, x, beta, y);
    }

    @Override
    public void symmetricEigen(int n, double[] a, double[] w, boolean vectors) {
        lapack.symmetricEigen(n, a, w, vectors);
    }

    @Override
    public double[] smallestEigenvalues(int n, double[] a, int count) {
        return lapack.smallestEigenvalues(n, a, count);
    }

    @Override
    public int choleskyLower(int n, double[] a) {
        return lapack.choleskyLower(n, a);
    }
}
