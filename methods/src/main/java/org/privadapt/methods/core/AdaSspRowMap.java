package org.privadapt.methods.core;

import java.lang.ref.SoftReference;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.privadapt.math.CsrMatrix;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.dp.AdaSsp;
import org.privadapt.models.dp.RandomProjection;

/**
 * The {@code adassp} release's map from a row to what it sums, as public settings only: the public random projection
 * (seed, d, p; the identity when p = d), then the bound R ({@link AdaSsp#boundRows}: clipped, or scaled to R). The
 * in-process release applies it to the whole matrix ({@link #apply}); it is serializable so that an engine's executors
 * apply the same map where the rows are, block by block ({@link #applyRows}; the map is row-local, so blocks give the
 * same rows up to the order of the products' sums). Built from a plan by {@link PrivateLearners#adasspRowMap}.
 */
public record AdaSspRowMap(long seed, int inputDim, int outputDim, double rowBound, boolean clip) implements java.io.Serializable {
    /** The largest P (d x p doubles) {@link #applyRows} keeps per JVM between blocks: 256 MB. */
    static final long KEPT_PROJECTION_DOUBLES = 1L << 25;

    /** P per (seed, d, p), softly held, shared by the blocks (and tasks) of one JVM. */
    private static final Map<String, SoftReference<DenseMatrix>> KEPT = new ConcurrentHashMap<>();

    /** The rows mapped: n x p. */
    public FeatureMatrix apply(FeatureMatrix x) {
        return AdaSsp.boundRows(projection().apply(x), rowBound, clip);
    }

    /**
     * Rows {@code rows[0..m)} of length d mapped, as {@link #apply} maps them: held sparse when at most a quarter of their
     * entries are non-zero (the projection's work is then their non-zeros times p), and projected by P kept for the JVM
     * when it has at most {@value #KEPT_PROJECTION_DOUBLES} entries (drawn again per call above that, as {@link #apply}
     * draws it). A new array of m rows of length p.
     */
    public double[][] applyRows(double[][] rows, int m) {
        long nnz = 0;
        for (int i = 0; i < m; i++) {
            for (double v : rows[i]) {
                nnz += v != 0 ? 1 : 0;
            }
        }
        boolean sparse = 4 * nnz <= (long) m * inputDim;
        RandomProjection projection = projection();
        boolean keep = !projection.identity() && (long) inputDim * outputDim <= KEPT_PROJECTION_DOUBLES;
        FeatureMatrix z;
        if (keep && sparse) {
            z = sparseTimesP(rows, m, kept(projection, true));
        } else {
            FeatureMatrix x = sparse ? csr(rows, m, (int) nnz) : DenseMatrix.fromRows(java.util.Arrays.copyOf(rows, m));
            z = projection.identity() ? x : keep ? x.multiply(kept(projection, false)) : projection.apply(x);
        }
        DenseMatrix bounded = AdaSsp.boundRows(z, rowBound, clip).toDense();
        double[][] out = new double[m][];
        for (int i = 0; i < m; i++) {
            out[i] = bounded.row(i);
        }
        return out;
    }

    private RandomProjection projection() {
        return new RandomProjection(seed, inputDim, outputDim);
    }

    /** P (d x p) or, {@code transposed}, P^T (p x d: its column j is P's row j, contiguous), kept for the JVM. */
    private DenseMatrix kept(RandomProjection projection, boolean transposed) {
        String key = seed + "/" + inputDim + "/" + outputDim + (transposed ? "/T" : "");
        SoftReference<DenseMatrix> ref = KEPT.get(key);
        DenseMatrix p = ref == null ? null : ref.get();
        if (p == null) {
            p = transposed ? projection.matrix().transpose() : projection.matrix();
            KEPT.put(key, new SoftReference<>(p));
        }
        return p;
    }

    /** Sparse rows times P: each non-zero x_j adds x_j times P's row j (a contiguous column of P^T) to its row's image. */
    private DenseMatrix sparseTimesP(double[][] rows, int m, DenseMatrix pt) {
        int p = outputDim;
        double[] pd = pt.data();
        double[][] out = new double[m][p];
        for (int i = 0; i < m; i++) {
            double[] r = rows[i];
            double[] z = out[i];
            for (int j = 0; j < r.length; j++) {
                double v = r[j];
                if (v != 0) {
                    for (int c = 0, off = j * p; c < p; c++) {
                        z[c] += v * pd[off + c];
                    }
                }
            }
        }
        return DenseMatrix.fromRows(out);
    }

    private CsrMatrix csr(double[][] rows, int m, int nnz) {
        int[] start = new int[m + 1];
        int[] col = new int[nnz];
        double[] val = new double[nnz];
        int e = 0;
        for (int i = 0; i < m; i++) {
            double[] r = rows[i];
            for (int j = 0; j < r.length; j++) {
                if (r[j] != 0) {
                    col[e] = j;
                    val[e++] = r[j];
                }
            }
            start[i + 1] = e;
        }
        return new CsrMatrix(m, inputDim, start, col, val);
    }
}
