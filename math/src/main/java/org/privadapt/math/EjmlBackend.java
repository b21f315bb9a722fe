package org.privadapt.math;

import java.util.Arrays;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.CommonOps_MT_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.CholeskyDecomposition_F64;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;

/**
 * Pure-Java kernels from EJML (multithreaded products, its symmetric QR eigensolver and Cholesky). EJML is
 * row-major; a column-major m x n array read row-major is the n x m transpose, so products are computed as
 * {@code C^T = op(B)^T op(A)^T} on wrapped arrays without copying. Only the dense, tight layouts the library
 * itself creates are supported (leading dimension = number of rows).
 */
public final class EjmlBackend implements LinAlgBackend {
    private final String why;

    public EjmlBackend() {
        this(null);
    }

    /** @param why why the native backend is not used (shown by {@link #description()}), or null */
    public EjmlBackend(String why) {
        this.why = why;
    }

    @Override
    public String name() {
        return "ejml";
    }

    @Override
    public String description() {
        return "ejml (EJML 0.46 CommonOps_MT_DDRM + symmetric QR eigensolver, pure Java"
                + (why == null ? "" : "; native BLAS: " + why) + ")";
    }

    @Override
    public boolean isNative() {
        return false;
    }

    @Override
    public void gemm(boolean transA, boolean transB, int m, int n, int k, double alpha, double[] a, int lda,
                     double[] b, int ldb, double beta, double[] c, int ldc) {
        int aRows = transA ? k : m;
        int bRows = transB ? n : k;
        if (lda != Math.max(1, aRows) || ldb != Math.max(1, bRows) || ldc != Math.max(1, m)) {
            throw new IllegalArgumentException("ejml backend supports only tight leading dimensions");
        }
        if (m == 0 || n == 0) {
            return;
        }
        // row-major views of the column-major arrays: At = A^T (aCols x aRows), Bt = B^T
        DMatrixRMaj at = DMatrixRMaj.wrap(transA ? m : k, aRows, a);
        DMatrixRMaj bt = DMatrixRMaj.wrap(transB ? k : n, bRows, b);
        DMatrixRMaj prod = new DMatrixRMaj(n, m); // = C^T row-major = C column-major
        // C^T = op(B)^T op(A)^T; op(B)^T = Bt if !transB else Bt^T; op(A)^T = At if !transA else At^T
        if (!transB && !transA) {
            CommonOps_MT_DDRM.mult(alpha, bt, at, prod);
        } else if (transB && !transA) {
            CommonOps_MT_DDRM.multTransA(alpha, bt, at, prod);
        } else if (!transB) {
            CommonOps_MT_DDRM.multTransB(alpha, bt, at, prod);
        } else {
            CommonOps_MT_DDRM.multTransAB(alpha, bt, at, prod);
        }
        double[] p = prod.data;
        if (beta == 0) {
            System.arraycopy(p, 0, c, 0, m * n);
        } else {
            for (int t = 0; t < m * n; t++) {
                c[t] = beta * c[t] + p[t];
            }
        }
    }

    @Override
    public void syrkTransUpper(int n, int k, double alpha, double[] a, int lda, double beta, double[] c, int ldc) {
        if (lda != Math.max(1, k) || ldc != Math.max(1, n)) {
            throw new IllegalArgumentException("ejml backend supports only tight leading dimensions");
        }
        if (n == 0) {
            return;
        }
        // A is k x n column-major = At (n x k) row-major; A^T A = At At^T
        DMatrixRMaj at = DMatrixRMaj.wrap(n, k, a);
        DMatrixRMaj g = new DMatrixRMaj(n, n);
        CommonOps_MT_DDRM.multTransB(alpha, at, at, g);
        for (int j = 0; j < n; j++) {
            for (int i = 0; i <= j; i++) {
                int idx = i + j * n;
                c[idx] = beta * (beta == 0 ? 0 : c[idx]) + g.data[idx];
            }
        }
    }

    @Override
    public void syrkUpper(int n, int k, double alpha, double[] a, int lda, double beta, double[] c, int ldc) {
        if (lda != Math.max(1, n) || ldc != Math.max(1, n)) {
            throw new IllegalArgumentException("ejml backend supports only tight leading dimensions");
        }
        if (n == 0) {
            return;
        }
        // A is n x k column-major = R (k x n) row-major; A A^T = R^T R
        DMatrixRMaj r = DMatrixRMaj.wrap(k, n, a);
        DMatrixRMaj g = new DMatrixRMaj(n, n);
        CommonOps_MT_DDRM.multTransA(alpha, r, r, g);
        for (int j = 0; j < n; j++) {
            for (int i = 0; i <= j; i++) {
                int idx = i + j * n;
                c[idx] = beta * (beta == 0 ? 0 : c[idx]) + g.data[idx];
            }
        }
    }

    @Override
    public void gemv(boolean transA, int m, int n, double alpha, double[] a, int lda, double[] x, double beta,
                     double[] y) {
        if (lda != Math.max(1, m)) {
            throw new IllegalArgumentException("ejml backend supports only tight leading dimensions");
        }
        int outLen = transA ? n : m;
        double[] out = new double[outLen];
        if (transA) {
            for (int j = 0; j < n; j++) {
                double s = 0;
                int off = j * m;
                for (int i = 0; i < m; i++) {
                    s += a[off + i] * x[i];
                }
                out[j] = s;
            }
        } else {
            for (int j = 0; j < n; j++) {
                double xj = x[j];
                int off = j * m;
                for (int i = 0; i < m; i++) {
                    out[i] += a[off + i] * xj;
                }
            }
        }
        for (int i = 0; i < outLen; i++) {
            y[i] = alpha * out[i] + (beta == 0 ? 0 : beta * y[i]);
        }
    }

    @Override
    public void symmetricEigen(int n, double[] a, double[] w, boolean vectors) {
        if (n == 0) {
            return;
        }
        DMatrixRMaj s = DMatrixRMaj.wrap(n, n, a.clone());
        mirrorUpper(s, n); // the contract reads only the upper triangle
        EigenDecomposition_F64<DMatrixRMaj> eig = DecompositionFactory_DDRM.eig(n, vectors, true);
        if (!eig.decompose(s)) {
            throw new ArithmeticException("EJML symmetric eigendecomposition failed to converge");
        }
        Integer[] order = new Integer[n];
        double[] vals = new double[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
            vals[i] = eig.getEigenvalue(i).real;
        }
        Arrays.sort(order, (p, q) -> Double.compare(vals[p], vals[q]));
        for (int r = 0; r < n; r++) {
            w[r] = vals[order[r]];
            if (vectors) {
                DMatrixRMaj v = eig.getEigenVector(order[r]);
                System.arraycopy(v.data, 0, a, r * n, n);
            }
        }
    }

    @Override
    public double[] smallestEigenvalues(int n, double[] a, int count) {
        double[] w = new double[n];
        symmetricEigen(n, a, w, false);
        return Arrays.copyOf(w, count);
    }

    @Override
    public int choleskyLower(int n, double[] a) {
        if (n == 0) {
            return 0;
        }
        DMatrixRMaj s = DMatrixRMaj.wrap(n, n, a.clone());
        mirrorUpper(s, n);
        CholeskyDecomposition_F64<DMatrixRMaj> chol = DecompositionFactory_DDRM.chol(n, true);
        if (!chol.decompose(s)) {
            return 1; // EJML does not report the failing minor
        }
        DMatrixRMaj l = chol.getT(null);
        // row-major L read column-major is L^T; transpose back into column-major lower
        DMatrixRMaj lt = CommonOps_DDRM.transpose(l, null);
        System.arraycopy(lt.data, 0, a, 0, n * n);
        return 0;
    }

    private static void mirrorUpper(DMatrixRMaj s, int n) {
        // column-major upper (i <= j at i + j*n) is row-major lower; copy it to the other half
        double[] d = s.data;
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < j; i++) {
                d[j + i * n] = d[i + j * n];
            }
        }
    }
}
