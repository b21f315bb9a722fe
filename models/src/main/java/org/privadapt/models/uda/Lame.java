package org.privadapt.models.uda;

import java.util.Arrays;
import java.util.List;
import org.privadapt.math.CsrMatrix;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.Classifier;

/**
 * Output-only smoothing anchored to the received predictions: LAME (Boudiaf, Mueller, Ben Ayed and Bertinetto,
 * "Parameter-free online test-time adaptation", CVPR 2022). The model is not changed; the class assignments
 * {@code z} of a batch of rows minimise {@code sum_i KL(z_i || p_i) - sum_ij w_ij z_i . z_j}, the received
 * probabilities p anchoring z and a kNN affinity w pulling neighbours together, by the bound-optimisation fixed point
 * {@code z_i ∝ p_i exp(sum_j w_ij z_j)} (their Algorithm 1; the energy decreases at every step).
 *
 * <p>Affinity as in their kNN kernel: {@code w_ij = 1} when j is one of the k nearest rows of i by cosine (self
 * excluded; not symmetrised), 0 otherwise. k = 0 gives no affinity and returns p. The neighbours are found blockwise:
 * a block of B rows, densified and transposed, multiplies the L2-normalised rows (the project's FeatureMatrix kernels:
 * BLAS for dense rows, the CSR product for sparse ones), giving an n x B block of cosines from which each column keeps
 * its k largest; no n x n matrix is formed, and B keeps both the d x B block and the n x B cosines under 2^22 entries
 * (32 MB), so memory stays O((n + d) B + n k) for d up to 152,543 and n up to ~10^4. Iterations stop when the energy
 * changes by less than 1e-8 of its size, at most 100 (as the authors' code).
 */
public final class Lame {
    private Lame() {
    }

    public static final int DEFAULT_NEIGHBOURS = 5;
    public static final int MAX_ITERATIONS = 100;
    private static final long BLOCK_ENTRIES = 1L << 22;

    /** The smoothed assignments and the iterations run. */
    public record Result(DenseMatrix z, int iterations) {
    }

    /** The k nearest other rows of every row by cosine (n x min(k, n-1)), ties to the lower index. */
    public static int[][] neighbours(FeatureMatrix x, int k) {
        int n = x.rows();
        int kk = Math.max(0, Math.min(k, n - 1));
        int[][] nb = new int[n][kk];
        if (kk == 0) {
            return nb;
        }
        FeatureMatrix unit = TargetRefinement.unitRows(x);
        int d = unit.cols();
        int b = (int) Math.max(1, Math.min(512, Math.min(BLOCK_ENTRIES / Math.max(1, d), BLOCK_ENTRIES / Math.max(1, n))));
        double[] best = new double[kk];
        for (int start = 0; start < n; start += b) {
            int end = Math.min(n, start + b);
            DenseMatrix block = DenseMatrix.zeros(d, end - start); // the block's rows as columns
            double[] ba = block.data();
            for (int q = start; q < end; q++) {
                int off = (q - start) * d;
                if (unit instanceof CsrMatrix csr) {
                    for (int p = csr.rowStart(q); p < csr.rowEnd(q); p++) {
                        ba[off + csr.colIndexAt(p)] += csr.valueAt(p);
                    }
                } else {
                    System.arraycopy(unit.row(q), 0, ba, off, d);
                }
            }
            DenseMatrix cos = unit.multiply(block); // n x B
            double[] ca = cos.data();
            for (int q = start; q < end; q++) {
                int off = (q - start) * n;
                int[] idx = nb[q];
                Arrays.fill(best, Double.NEGATIVE_INFINITY);
                Arrays.fill(idx, -1);
                for (int i = 0; i < n; i++) {
                    if (i == q) {
                        continue;
                    }
                    double v = ca[off + i];
                    if (v > best[kk - 1]) { // insertion into the sorted top-k (strict: ties keep the lower index)
                        int pos = kk - 1;
                        while (pos > 0 && v > best[pos - 1]) {
                            best[pos] = best[pos - 1];
                            idx[pos] = idx[pos - 1];
                            pos--;
                        }
                        best[pos] = v;
                        idx[pos] = i;
                    }
                }
            }
        }
        return nb;
    }

    /** LAME's fixed point from probabilities p (n x K) and the kNN lists (w_ij = 1 for j in neighbours[i]). */
    public static Result smooth(DenseMatrix p, int[][] neighbours) {
        int n = p.rows();
        int k = p.cols();
        boolean any = false;
        for (int[] row : neighbours) {
            any |= row.length > 0;
        }
        if (!any) {
            return new Result(p.copy(), 0);
        }
        double[] logp = new double[n * k];
        double[] pa = p.data();
        for (int j = 0; j < logp.length; j++) {
            logp[j] = Math.log(pa[j] + 1e-10);
        }
        double[] z = pa.clone();
        double prev = Double.NaN;
        int it = 0;
        double[] row = new double[k];
        while (it < MAX_ITERATIONS) {
            it++;
            double[] next = new double[n * k];
            for (int i = 0; i < n; i++) {
                double max = Double.NEGATIVE_INFINITY;
                for (int c = 0; c < k; c++) {
                    double s = logp[i + c * n];
                    for (int j : neighbours[i]) {
                        s += z[j + c * n];
                    }
                    row[c] = s;
                    max = Math.max(max, s);
                }
                double sum = 0;
                for (int c = 0; c < k; c++) {
                    row[c] = Math.exp(row[c] - max);
                    sum += row[c];
                }
                for (int c = 0; c < k; c++) {
                    next[i + c * n] = row[c] / sum;
                }
            }
            z = next;
            double e = energy(z, logp, neighbours, n, k);
            if (!Double.isNaN(prev) && Math.abs(e - prev) <= 1e-8 * Math.max(1e-12, Math.abs(prev))) {
                break;
            }
            prev = e;
        }
        return new Result(new DenseMatrix(n, k, z), it);
    }

    private static double energy(double[] z, double[] logp, int[][] nb, int n, int k) {
        double e = 0;
        for (int i = 0; i < n; i++) {
            for (int c = 0; c < k; c++) {
                double v = z[i + c * n];
                if (v > 0) {
                    e += v * (Math.log(v) - logp[i + c * n]);
                }
                for (int j : nb[i]) {
                    e -= v * z[j + c * n];
                }
            }
        }
        return e;
    }

    /**
     * A classifier whose probabilities on a batch of rows are LAME's assignments for that batch (the received
     * model's probabilities smoothed over the batch's own kNN graph): transductive, as LAME is. The last batch's
     * result is kept, so predicting the target's rows again (or a copy of them) does not recompute the graph.
     */
    public static final class Smoothed implements Classifier {
        private final Classifier base;
        private final int k;
        private final double[] mean;
        private FeatureMatrix lastRows;
        private Result lastResult;

        public Smoothed(Classifier base, int k) {
            this(base, k, null);
        }

        /** The kNN graph on the rows centred on {@code mean} (null: as they are). */
        public Smoothed(Classifier base, int k, double[] mean) {
            if (k < 0) {
                throw new IllegalArgumentException("neighbours must be >= 0, got " + k);
            }
            this.base = base;
            this.k = k;
            this.mean = mean == null ? null : mean.clone();
        }

        public Classifier base() {
            return base;
        }

        public int neighbours() {
            return k;
        }

        @Override
        public int dimension() {
            return base.dimension();
        }

        @Override
        public List<String> classNames() {
            return base.classNames();
        }

        /** LAME on these rows (with the iterations it took). */
        public synchronized Result smoothRows(FeatureMatrix x) {
            if (lastRows != null && sameRows(lastRows, x)) {
                return lastResult;
            }
            Result r = smooth(base.predictProba(x), Lame.neighbours(mean == null ? x : new CentredRows(x, mean), k));
            lastRows = x;
            lastResult = r;
            return r;
        }

        @Override
        public DenseMatrix predictProba(FeatureMatrix x) {
            return smoothRows(x).z().copy();
        }
    }

    /** Whether two matrices hold the same rows (same object, or equal content). */
    static boolean sameRows(FeatureMatrix a, FeatureMatrix b) {
        if (a == b) {
            return true;
        }
        if (a.rows() != b.rows() || a.cols() != b.cols() || a.isSparse() != b.isSparse()) {
            return false;
        }
        if (a instanceof DenseMatrix da && b instanceof DenseMatrix db) {
            return Arrays.equals(da.data(), db.data());
        }
        if (a instanceof CsrMatrix ca && b instanceof CsrMatrix cb) {
            if (ca.storedEntries() != cb.storedEntries()) {
                return false;
            }
            for (int i = 0; i < ca.rows(); i++) {
                if (ca.rowStart(i) != cb.rowStart(i) || ca.rowEnd(i) != cb.rowEnd(i)) {
                    return false;
                }
                for (int p = ca.rowStart(i); p < ca.rowEnd(i); p++) {
                    if (ca.colIndexAt(p) != cb.colIndexAt(p) || ca.valueAt(p) != cb.valueAt(p)) {
                        return false;
                    }
                }
            }
            return true;
        }
        return false;
    }
}
