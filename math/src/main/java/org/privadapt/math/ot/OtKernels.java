package org.privadapt.math.ot;

import java.util.function.IntConsumer;
import java.util.stream.IntStream;
import org.privadapt.math.LinAlg;

/**
 * The elementwise O(n m) passes of the solvers (kernel rebuild, log-sum-exp half-steps, c-transforms, final
 * plan statistics), on column-major arrays. The passes that evaluate exponentials or logarithms run over
 * independent columns or row blocks in the common fork-join pool once the matrix is large enough to pay for it.
 */
final class OtKernels {
    /** Below this many entries the passes run on the calling thread. */
    static final long PARALLEL_ENTRIES = 1L << 16;
    private static final int ROW_BLOCK = 512;

    private OtKernels() {
    }

    static void forEach(int count, long entries, IntConsumer body) {
        if (entries < PARALLEL_ENTRIES || count < 2 || Runtime.getRuntime().availableProcessors() < 2) {
            for (int k = 0; k < count; k++) {
                body.accept(k);
            }
        } else {
            IntStream.range(0, count).parallel().forEach(body);
        }
    }

    /** {@code k_ij = exp((f_i + g_j - c_ij) / reg)}; exactly 0 where {@code c_ij = +Infinity}. */
    static void buildKernel(double[] c, int n, int m, double[] f, double[] g, double reg, double[] k) {
        double inv = 1.0 / reg;
        forEach(m, (long) n * m, j -> {
            int off = j * n;
            double gj = g[j];
            for (int i = 0; i < n; i++) {
                k[off + i] = Math.exp((f[i] + gj - c[off + i]) * inv);
            }
        });
    }

    /**
     * The exact column half-step in the log domain: {@code g_j = reg log b_j - reg LSE_i((f_i - c_ij)/reg)}, so that
     * the plan {@code exp((f_i + g_j - c_ij)/reg)} has column sums b. Every column must have a finite cost.
     */
    static void columnLogStep(double[] c, int n, int m, double[] f, double[] logB, double reg, double[] gOut) {
        double inv = 1.0 / reg;
        forEach(m, (long) n * m, j -> {
            int off = j * n;
            double mx = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < n; i++) {
                double t = f[i] - c[off + i];
                if (t > mx) {
                    mx = t;
                }
            }
            double s = 0;
            for (int i = 0; i < n; i++) {
                s += Math.exp((f[i] - c[off + i] - mx) * inv);
            }
            gOut[j] = reg * logB[j] - mx - reg * Math.log(s);
        });
    }

    /** The exact row half-step in the log domain: {@code f_i = reg log a_i - reg LSE_j((g_j - c_ij)/reg)}. */
    static void rowLogStep(double[] c, int n, int m, double[] g, double[] logA, double reg, double[] fOut) {
        double inv = 1.0 / reg;
        int blocks = (n + ROW_BLOCK - 1) / ROW_BLOCK;
        forEach(blocks, (long) n * m, blk -> {
            int lo = blk * ROW_BLOCK;
            int hi = Math.min(n, lo + ROW_BLOCK);
            int len = hi - lo;
            double[] mx = new double[len];
            java.util.Arrays.fill(mx, Double.NEGATIVE_INFINITY);
            for (int j = 0; j < m; j++) {
                int off = j * n;
                double gj = g[j];
                for (int i = lo; i < hi; i++) {
                    double t = gj - c[off + i];
                    if (t > mx[i - lo]) {
                        mx[i - lo] = t;
                    }
                }
            }
            double[] s = new double[len];
            for (int j = 0; j < m; j++) {
                int off = j * n;
                double gj = g[j];
                for (int i = lo; i < hi; i++) {
                    s[i - lo] += Math.exp((gj - c[off + i] - mx[i - lo]) * inv);
                }
            }
            for (int i = lo; i < hi; i++) {
                fOut[i] = reg * logA[i] - mx[i - lo] - reg * Math.log(s[i - lo]);
            }
        });
    }

    /**
     * Starting log-potentials by two c-transforms of zero: {@code f_i = min_j c_ij},
     * {@code g_j = min_i (c_ij - f_i)}. Then {@code f_i + g_j <= c_ij} everywhere with equality at least once in
     * every row and every column, so the first kernel has entries in [0, 1] and a 1 in each row and column, at
     * any regularisation: no row or column of it underflows to zero.
     */
    static void cTransformStart(double[] c, int n, int m, double[] f, double[] g) {
        java.util.Arrays.fill(f, Double.POSITIVE_INFINITY);
        for (int j = 0; j < m; j++) {
            int off = j * n;
            for (int i = 0; i < n; i++) {
                double v = c[off + i];
                if (v < f[i]) {
                    f[i] = v;
                }
            }
        }
        for (int j = 0; j < m; j++) {
            int off = j * n;
            double mn = Double.POSITIVE_INFINITY;
            for (int i = 0; i < n; i++) {
                double v = c[off + i] - f[i];
                if (v < mn) {
                    mn = v;
                }
            }
            g[j] = mn;
        }
    }

    /** {@code sum over finite c_ij of p_ij c_ij}. */
    static double finiteDot(double[] p, double[] c) {
        double s = 0;
        for (int k = 0; k < p.length; k++) {
            double v = c[k];
            if (v < Double.POSITIVE_INFINITY && p[k] != 0) {
                s += p[k] * v;
            }
        }
        return s;
    }

    /** {@code ||P 1 - a||_1 + ||P^T 1 - b||_1}, the sums by two matrix-vector products. */
    static double marginalError(double[] p, int n, int m, double[] a, double[] b) {
        if (n == 0 || m == 0) {
            return sumAbs(a) + sumAbs(b);
        }
        double[] onesM = new double[m];
        java.util.Arrays.fill(onesM, 1.0);
        double[] onesN = new double[n];
        java.util.Arrays.fill(onesN, 1.0);
        double[] rows = new double[n];
        double[] cols = new double[m];
        LinAlg.backend().gemv(false, n, m, 1.0, p, n, onesM, 0.0, rows);
        LinAlg.backend().gemv(true, n, m, 1.0, p, n, onesN, 0.0, cols);
        double e = 0;
        for (int i = 0; i < n; i++) {
            e += Math.abs(rows[i] - a[i]);
        }
        for (int j = 0; j < m; j++) {
            e += Math.abs(cols[j] - b[j]);
        }
        return e;
    }

    private static double sumAbs(double[] v) {
        double s = 0;
        for (double x : v) {
            s += Math.abs(x);
        }
        return s;
    }

    static double[] logOf(double[] w) {
        double[] r = new double[w.length];
        for (int i = 0; i < w.length; i++) {
            r[i] = Math.log(w[i]);
        }
        return r;
    }
}
