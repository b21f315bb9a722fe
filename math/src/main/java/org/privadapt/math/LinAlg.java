package org.privadapt.math;

import java.util.Locale;

/**
 * Matrix operations on {@link DenseMatrix}, dispatched to one {@link LinAlgBackend} chosen at first use.
 *
 * <p>Backend choice (system property {@code privadapt.linalg}, or environment variable
 * {@code PRIVADAPT_LINALG}): {@code auto} (default) uses native BLAS/LAPACK when the machine provides
 * {@code libblas.so.3}/{@code liblapack.so.3} and otherwise EJML, the faster of the measured pure-Java options
 * (docs/performance.md); {@code native}, {@code netlib-java} and {@code ejml} force one. No operation mutates
 * its inputs.
 */
public final class LinAlg {
    private static volatile LinAlgBackend backend;

    private LinAlg() {
    }

    /** The active backend (selected on first call). */
    public static LinAlgBackend backend() {
        LinAlgBackend b = backend;
        if (b == null) {
            synchronized (LinAlg.class) {
                b = backend;
                if (b == null) {
                    b = select(choice());
                    backend = b;
                }
            }
        }
        return b;
    }

    /** Replaces the active backend (benchmarks and tests); returns the previous one. */
    public static synchronized LinAlgBackend useBackend(LinAlgBackend b) {
        LinAlgBackend old = backend();
        backend = b;
        return old;
    }

    static String choice() {
        String p = System.getProperty("privadapt.linalg");
        if (p == null || p.isBlank()) {
            p = System.getenv("PRIVADAPT_LINALG");
        }
        return p == null || p.isBlank() ? "auto" : p.trim().toLowerCase(Locale.ROOT);
    }

    /** Creates the backend named by {@code choice} (auto, native, netlib-java, ejml). */
    public static LinAlgBackend select(String choice) {
        switch (choice) {
            case "native": {
                LinAlgBackend b = NetlibBackend.nativeOrNull();
                if (b == null) {
                    throw new IllegalStateException("native BLAS/LAPACK requested (privadapt.linalg=native) but "
                            + "none could be loaded: " + NativeBlas.prepare().describe());
                }
                return b;
            }
            case "netlib-java":
            case "java":
                return NetlibBackend.pureJava();
            case "ejml":
                return new EjmlBackend();
            case "auto": {
                LinAlgBackend b = NetlibBackend.nativeOrNull();
                return b != null ? b : new EjmlBackend(NativeBlas.prepare().describe()); // fastest pure-Java option
            }
            default:
                throw new IllegalArgumentException("unknown linear-algebra backend '" + choice
                        + "' (expected auto, native, netlib-java or ejml)");
        }
    }

    // ---------------------------------------------------------------- products

    /** {@code A * B}. */
    public static DenseMatrix multiply(DenseMatrix a, DenseMatrix b) {
        return gemm(a, false, b, false);
    }

    /** {@code A^T * B}. */
    public static DenseMatrix multiplyTransA(DenseMatrix a, DenseMatrix b) {
        return gemm(a, true, b, false);
    }

    /** {@code A * B^T}. */
    public static DenseMatrix multiplyTransB(DenseMatrix a, DenseMatrix b) {
        return gemm(a, false, b, true);
    }

    /** {@code op(A) * op(B)}. */
    public static DenseMatrix gemm(DenseMatrix a, boolean transA, DenseMatrix b, boolean transB) {
        DenseMatrix c = DenseMatrix.zeros(transA ? a.cols() : a.rows(), transB ? b.rows() : b.cols());
        gemmInto(a, transA, b, transB, c);
        return c;
    }

    /**
     * {@code c = op(A) * op(B)}, written over {@code c}: the same call as {@link #gemm} (beta 0), into a given
     * matrix.
     *
     * @throws IllegalArgumentException if the shapes do not match
     */
    public static void gemmInto(DenseMatrix a, boolean transA, DenseMatrix b, boolean transB, DenseMatrix c) {
        int m = transA ? a.cols() : a.rows();
        int k = transA ? a.rows() : a.cols();
        int kb = transB ? b.cols() : b.rows();
        int n = transB ? b.rows() : b.cols();
        if (k != kb) {
            throw new IllegalArgumentException("inner dimensions differ: " + shape(a, transA) + " * " + shape(b, transB));
        }
        if (c.rows() != m || c.cols() != n) {
            throw new IllegalArgumentException("output is " + c.rows() + "x" + c.cols() + ", product " + m + "x" + n);
        }
        if (k == 0 || m == 0 || n == 0) {
            java.util.Arrays.fill(c.data(), 0.0);
            return;
        }
        backend().gemm(transA, transB, m, n, k, 1.0, a.data(), a.rows(), b.data(), b.rows(), 0.0, c.data(), m);
    }

    private static String shape(DenseMatrix a, boolean t) {
        return t ? a.cols() + "x" + a.rows() : a.rows() + "x" + a.cols();
    }

    /** {@code A * x}. */
    public static double[] multiply(DenseMatrix a, double[] x) {
        if (x.length != a.cols()) {
            throw new IllegalArgumentException("vector length " + x.length + " != " + a.cols());
        }
        double[] y = new double[a.rows()];
        backend().gemv(false, a.rows(), a.cols(), 1.0, a.data(), a.rows(), x, 0.0, y);
        return y;
    }

    /** {@code A^T * x}. */
    public static double[] multiplyTransA(DenseMatrix a, double[] x) {
        if (x.length != a.rows()) {
            throw new IllegalArgumentException("vector length " + x.length + " != " + a.rows());
        }
        double[] y = new double[a.cols()];
        backend().gemv(true, a.rows(), a.cols(), 1.0, a.data(), a.rows(), x, 0.0, y);
        return y;
    }

    /** The Gram matrix {@code X^T X} (d x d, exactly symmetric), by a symmetric rank-k update. */
    public static DenseMatrix gram(DenseMatrix x) {
        int d = x.cols();
        DenseMatrix g = DenseMatrix.zeros(d, d);
        if (x.rows() > 0) {
            backend().syrkTransUpper(d, x.rows(), 1.0, x.data(), x.rows(), 0.0, g.data(), d);
            g.mirrorUpperInPlace();
        }
        return g;
    }

    /**
     * The Gram matrix {@code X^T X} (d x d, exactly symmetric) of the m rows of X stored row by row in {@code rowMajor}
     * (length at least m d): a symmetric rank-m update on the rows as they are, with no transposing copy.
     */
    public static DenseMatrix gramOfRows(double[] rowMajor, int m, int d) {
        DenseMatrix g = DenseMatrix.zeros(d, d);
        if (m > 0) {
            backend().syrkUpper(d, m, 1.0, rowMajor, d, 0.0, g.data(), d);
            g.mirrorUpperInPlace();
        }
        return g;
    }

    /**
     * The sample covariance {@code (X - mean)^T (X - mean) / (n - 1)} (MATLAB's {@code cov}, as used by
     * CORAL); n = 1 gives the zero matrix.
     */
    public static DenseMatrix covariance(FeatureMatrix x) {
        int n = x.rows();
        if (n == 0) {
            throw new IllegalArgumentException("covariance of an empty matrix");
        }
        DenseMatrix xd = x.toDense();
        DenseMatrix centered = xd.minusRowVector(xd.columnMeans());
        DenseMatrix g = gram(centered);
        if (n > 1) {
            g.scaleInPlace(1.0 / (n - 1));
        } else {
            g.scaleInPlace(0.0);
        }
        return g;
    }

    // ---------------------------------------------------------------- decompositions

    /** Symmetric eigendecomposition (input not modified; only its upper triangle is read). */
    public static SymmetricEigen eigh(DenseMatrix s) {
        requireSquare(s);
        int n = s.rows();
        double[] a = s.data().clone();
        double[] w = new double[n];
        backend().symmetricEigen(n, a, w, true);
        return new SymmetricEigen(w, new DenseMatrix(n, n, a));
    }

    /**
     * The eigenvectors of the {@code k} largest eigenvalues of a symmetric matrix, largest first, as a d x k matrix
     * (input not modified; only its upper triangle is read). Spans the same subspace as
     * {@code eigh(s).topVectors(k)} (up to rotations within a repeated eigenvalue), with the signs of
     * {@link #withCanonicalSigns}; native backends compute only these k pairs, which costs about half of the full
     * decomposition.
     */
    public static DenseMatrix leadingEigenvectors(DenseMatrix s, int k) {
        requireSquare(s);
        int n = s.rows();
        if (k < 1 || k > n) {
            throw new IllegalArgumentException("k=" + k + " outside [1, " + n + "]");
        }
        double[] w = new double[k];
        double[] z = new double[n * k];
        largestEigenpairs(s, k, w, z);
        // ascending from the backend; largest first here, as SymmetricEigen.topVectors
        DenseMatrix out = DenseMatrix.zeros(n, k);
        for (int t = 0; t < k; t++) {
            System.arraycopy(z, (k - 1 - t) * n, out.data(), t * n, n);
        }
        return withCanonicalSigns(out);
    }

    /**
     * The backend's partial solver on a copy of {@code s}; if it fails to converge (LAPACK's inverse iteration can, on
     * tight clusters), the full decomposition's last k pairs instead.
     */
    static void largestEigenpairs(DenseMatrix s, int k, double[] w, double[] z) {
        int n = s.rows();
        try {
            backend().largestEigenpairs(n, s.data().clone(), k, w, z);
        } catch (ArithmeticException partialFailed) {
            SymmetricEigen e = eigh(s);
            for (int t = 0; t < k; t++) {
                w[t] = e.value(n - k + t);
            }
            DenseMatrix v = e.vectors();
            System.arraycopy(v.data(), (n - k) * n, z, 0, n * k);
        }
    }

    /**
     * The columns of {@code v} (a copy), each multiplied by -1 where needed so that its entry of largest magnitude
     * (the first such, on ties) is positive: an eigenvector's sign is arbitrary and differs between LAPACK drivers,
     * backends and routes, and a model trained on {@code X V} (e.g. a network from a given initialisation) depends
     * on it. As scikit-learn's {@code svd_flip} for PCA, and with its limit: a column whose two largest entries have
     * opposite signs and equal magnitudes to rounding can still come out either way.
     */
    public static DenseMatrix withCanonicalSigns(DenseMatrix v) {
        DenseMatrix out = v.copy();
        double[] a = out.data();
        int n = out.rows();
        for (int j = 0; j < out.cols(); j++) {
            int arg = j * n;
            for (int i = j * n; i < (j + 1) * n; i++) {
                if (Math.abs(a[i]) > Math.abs(a[arg])) {
                    arg = i;
                }
            }
            if (n > 0 && a[arg] < 0) {
                for (int i = j * n; i < (j + 1) * n; i++) {
                    a[i] = -a[i];
                }
            }
        }
        return out;
    }

    /**
     * The principal axes of the rows of {@code x}: the eigenvectors of the {@code k} largest eigenvalues of
     * {@link #covariance(FeatureMatrix)}, largest first, as a d x k matrix. With fewer rows than columns (n &lt; d, e.g.
     * 2000 reviews of 5000 words) they come from the n x n Gram matrix of the centred rows
     * ({@link CovarianceSpectrum}), in O(n^2 d + n^3) instead of O(d^3), when k &lt;= n - 1 and the k-th eigenvalue is
     * clearly nonzero ({@code > 1e-8} times the largest, so that the division by its square root loses no accuracy);
     * otherwise from the covariance with the partial solver. The two routes span the same subspace (up to rounding
     * and to rotations within a repeated eigenvalue); signs as {@link #withCanonicalSigns}.
     */
    public static DenseMatrix principalAxes(FeatureMatrix x, int k) {
        int n = x.rows();
        int d = x.cols();
        if (n == 0) {
            throw new IllegalArgumentException("principal axes of an empty matrix");
        }
        if (k < 1 || k > d) {
            throw new IllegalArgumentException("k=" + k + " outside [1, " + d + "]");
        }
        if (n < d && k <= n - 1) {
            CovarianceSpectrum s = CovarianceSpectrum.leading(x, k);
            double[] w = s.values(); // ascending
            if (s.rank() == k && w[0] > 1e-8 * w[k - 1]) {
                return withCanonicalSigns(s.principalAxes());
            }
        }
        return leadingEigenvectors(covariance(x), k);
    }

    /** Eigenvalues only, ascending (input not modified). */
    public static double[] eigenvalues(DenseMatrix s) {
        requireSquare(s);
        int n = s.rows();
        double[] w = new double[n];
        backend().symmetricEigen(n, s.data().clone(), w, false);
        return w;
    }

    /** The smallest eigenvalue of a symmetric matrix (input not modified). */
    public static double smallestEigenvalue(DenseMatrix s) {
        requireSquare(s);
        if (s.rows() == 0) {
            throw new IllegalArgumentException("smallest eigenvalue of an empty matrix");
        }
        return backend().smallestEigenvalues(s.rows(), s.data().clone(), 1)[0];
    }

    /**
     * Cholesky factor L (lower triangular, A = L L^T) of a symmetric positive definite matrix.
     *
     * @throws NotPositiveDefiniteException if A is not numerically positive definite
     */
    public static DenseMatrix cholesky(DenseMatrix s) {
        requireSquare(s);
        int n = s.rows();
        double[] a = s.data().clone();
        int info = backend().choleskyLower(n, a);
        if (info != 0) {
            throw new NotPositiveDefiniteException("matrix is not positive definite (leading minor " + info + ")");
        }
        for (int j = 1; j < n; j++) {
            for (int i = 0; i < j; i++) {
                a[i + j * n] = 0.0;
            }
        }
        return new DenseMatrix(n, n, a);
    }

    /**
     * {@code S^p} for a symmetric positive semi-definite S, through one eigendecomposition
     * ({@code V diag(w^p) V^T}); p may be negative (then S must be positive definite). Eigenvalues below
     * {@code -tol * max|w|} are rejected; smaller negative ones (rounding) are treated as zero.
     */
    public static DenseMatrix spdPower(DenseMatrix s, double p) {
        SymmetricEigen e = eigh(s);
        return e.powerOfPsd(p);
    }

    private static void requireSquare(DenseMatrix s) {
        if (s.rows() != s.cols()) {
            throw new IllegalArgumentException("square matrix required, got " + s.rows() + "x" + s.cols());
        }
    }

    /** Thrown when a factorisation needs a positive definite matrix and did not get one. */
    public static final class NotPositiveDefiniteException extends ArithmeticException {
        private static final long serialVersionUID = 1L;

        public NotPositiveDefiniteException(String message) {
            super(message);
        }
    }
}
