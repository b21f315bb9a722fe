package org.privadapt.math;

import dev.ludovic.netlib.blas.BLAS;
import dev.ludovic.netlib.blas.JavaBLAS;
import dev.ludovic.netlib.blas.NativeBLAS;
import dev.ludovic.netlib.lapack.JavaLAPACK;
import dev.ludovic.netlib.lapack.LAPACK;
import dev.ludovic.netlib.lapack.NativeLAPACK;
import org.netlib.util.intW;

/**
 * BLAS/LAPACK through dev.ludovic.netlib: with {@link #nativeOrNull()} a native library through JNI (the
 * system's {@code libblas.so.3}/{@code liblapack.so.3}, or the OpenBLAS shipped as a Maven artifact: see
 * {@link NativeBlas}); with {@link #pureJava()} netlib's Java BLAS
 * and the F2J translation of reference LAPACK. Both implement the same Fortran interfaces, so results agree
 * to rounding.
 */
public final class NetlibBackend implements LinAlgBackend {
    /**
     * netlib logs which implementation it loaded (and every failed attempt) through java.util.logging on
     * standard error; privadapt reports the backend itself (JSON "environment", {@link #description()}), so
     * those messages are silenced. The reference keeps the configured logger from being garbage-collected.
     */
    private static final java.util.logging.Logger NETLIB_LOG = java.util.logging.Logger.getLogger("dev.ludovic.netlib");

    static {
        NETLIB_LOG.setLevel(java.util.logging.Level.SEVERE);
    }

    private final BLAS blas;
    private final LAPACK lapack;
    private final boolean isNative;

    private NetlibBackend(BLAS blas, LAPACK lapack, boolean isNative) {
        this.blas = blas;
        this.lapack = lapack;
        this.isNative = isNative;
    }

    /**
     * The native backend, or null when no native BLAS/LAPACK can be loaded on this machine. Which library
     * is opened (the system's, or the OpenBLAS shipped through Maven) is decided by {@link NativeBlas}.
     */
    public static NetlibBackend nativeOrNull() {
        if (NativeBlas.prepare().source() == NativeBlas.Source.NONE) {
            return null;
        }
        try {
            return new NetlibBackend(NativeBLAS.getInstance(), NativeLAPACK.getInstance(), true);
        } catch (RuntimeException | LinkageError e) {
            return null;
        }
    }

    public static NetlibBackend pureJava() {
        return new NetlibBackend(JavaBLAS.getInstance(), JavaLAPACK.getInstance(), false);
    }

    @Override
    public String name() {
        return isNative ? "netlib-native" : "netlib-java";
    }

    @Override
    public String description() {
        return name() + " (" + blas.getClass().getSimpleName() + " + " + lapack.getClass().getSimpleName() + ")"
                + (isNative ? ": " + NativeBlas.prepare().describe() : "");
    }

    @Override
    public boolean isNative() {
        return isNative;
    }

    @Override
    public void gemm(boolean transA, boolean transB, int m, int n, int k, double alpha, double[] a, int lda,
                     double[] b, int ldb, double beta, double[] c, int ldc) {
        if (m == 0 || n == 0) {
            return;
        }
        blas.dgemm(transA ? "T" : "N", transB ? "T" : "N", m, n, k, alpha, a, Math.max(1, lda), b,
                Math.max(1, ldb), beta, c, Math.max(1, ldc));
    }

    @Override
    public void syrkTransUpper(int n, int k, double alpha, double[] a, int lda, double beta, double[] c, int ldc) {
        if (n == 0) {
            return;
        }
        blas.dsyrk("U", "T", n, k, alpha, a, Math.max(1, lda), beta, c, Math.max(1, ldc));
    }

    @Override
    public void syrkUpper(int n, int k, double alpha, double[] a, int lda, double beta, double[] c, int ldc) {
        if (n == 0) {
            return;
        }
        blas.dsyrk("U", "N", n, k, alpha, a, Math.max(1, lda), beta, c, Math.max(1, ldc));
    }

    @Override
    public void gemv(boolean transA, int m, int n, double alpha, double[] a, int lda, double[] x, double beta,
                     double[] y) {
        if (m == 0 || n == 0) {
            return;
        }
        blas.dgemv(transA ? "T" : "N", m, n, alpha, a, Math.max(1, lda), x, 1, beta, y, 1);
    }

    @Override
    public void symmetricEigen(int n, double[] a, double[] w, boolean vectors) {
        if (n == 0) {
            return;
        }
        String jobz = vectors ? "V" : "N";
        intW info = new intW(0);
        double[] wq = new double[1];
        int[] iwq = new int[1];
        lapack.dsyevd(jobz, "U", n, a, n, w, wq, -1, iwq, -1, info);
        check("dsyevd (workspace query)", info);
        int lwork = Math.max(1, (int) wq[0]);
        int liwork = Math.max(1, iwq[0]);
        lapack.dsyevd(jobz, "U", n, a, n, w, new double[lwork], lwork, new int[liwork], liwork, info);
        check("dsyevd", info);
    }

    /**
     * LAPACK's dsyevr with range "I" (indices n-k+1..n): Householder tridiagonalisation (4/3 n^3), then, for a part of
     * the spectrum, bisection (dstebz) and inverse iteration (dstein) for the k wanted pairs, and a back-transformation
     * of k vectors only (2 n^2 k), where dsyevd back-transforms all n (2 n^3 more). Measured at n = 5000, k = 100 on
     * one core of this project's machine: 13.2 s against 24.0 s (docs/performance.md). For many wanted pairs it is
     * slower than dsyevd (about 2300 of 5000: 52 s against 26 s), so callers ask it for few. Inverse iteration can fail
     * to converge on tight clusters: that is an ArithmeticException here, and {@link LinAlg} falls back to the full
     * decomposition.
     */
    @Override
    public void largestEigenpairs(int n, double[] a, int k, double[] w, double[] z) {
        if (k < 1 || k > n) {
            throw new IllegalArgumentException("k=" + k + " outside [1, " + n + "]");
        }
        intW found = new intW(0);
        intW info = new intW(0);
        double[] out = new double[n]; // dsyevr writes up to n eigenvalues in general
        int[] isuppz = new int[2 * n];
        double[] wq = new double[1];
        int[] iwq = new int[1];
        lapack.dsyevr("V", "I", "U", n, a, n, 0.0, 0.0, n - k + 1, n, 0.0, found, out, z, n, isuppz, wq, -1,
                iwq, -1, info);
        check("dsyevr (workspace query)", info);
        int lwork = Math.max(1, (int) wq[0]);
        int liwork = Math.max(1, iwq[0]);
        lapack.dsyevr("V", "I", "U", n, a, n, 0.0, 0.0, n - k + 1, n, 0.0, found, out, z, n, isuppz,
                new double[lwork], lwork, new int[liwork], liwork, info);
        check("dsyevr", info);
        if (found.val != k) {
            throw new ArithmeticException("dsyevr returned " + found.val + " eigenpairs, " + k + " requested");
        }
        System.arraycopy(out, 0, w, 0, k);
    }

    @Override
    public double[] smallestEigenvalues(int n, double[] a, int count) {
        if (count < 1 || count > n) {
            throw new IllegalArgumentException("count " + count + " outside [1, " + n + "]");
        }
        // Eigenvalues only: the Householder tridiagonalisation (4/3 n^3) dominates either way, so a
        // partial-spectrum driver (dsyevr, range I) would save only O(n^2); dsyevd keeps one code path.
        double[] w = new double[n];
        symmetricEigen(n, a, w, false);
        return java.util.Arrays.copyOf(w, count);
    }

    @Override
    public int choleskyLower(int n, double[] a) {
        if (n == 0) {
            return 0;
        }
        intW info = new intW(0);
        lapack.dpotrf("L", n, a, n, info);
        if (info.val < 0) {
            throw new IllegalArgumentException("dpotrf: illegal argument " + (-info.val));
        }
        return info.val;
    }

    private static void check(String routine, intW info) {
        if (info.val < 0) {
            throw new IllegalArgumentException(routine + ": illegal argument " + (-info.val));
        }
        if (info.val > 0) {
            throw new ArithmeticException(routine + " failed to converge (info=" + info.val + ")");
        }
    }
}
