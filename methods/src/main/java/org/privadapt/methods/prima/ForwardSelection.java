package org.privadapt.methods.prima;

import java.util.ArrayList;
import java.util.List;
import org.privadapt.math.DenseMatrix;

/**
 * Forward selection of the subspaces (paper 000, §4.2, criterion (3)) on a symmetric positive semi-definite matrix M
 * (a per-record covariance, d x d). Features are drawn in a random order (data-independent, seeded); the current
 * subspace S grows by the next feature f while that lowers {@code R(S) + G(S)}, where
 * <ul>
 *   <li>{@code R(S) = tr(M) - tr(M_{S,:}^T M_{S,S}^{-1} M_{S,:})}, the mean squared error of reconstructing every
 *       feature from those in S (the paper's {@code ||X - P_S X||_F^2}, divided by n so both terms share units);</li>
 *   <li>{@code G(S) = |S| kappa}, the noise error of releasing S's covariance ({@code kappa}: expected Frobenius
 *       error per feature, {@code sigma / n} for noise sigma per Gram entry).</li>
 * </ul>
 * Adding f lowers R by the squared norm of f's new Cholesky row, so f joins S iff that gain exceeds kappa;
 * otherwise S is closed and f starts the next subspace (the paper stops "once the errors of current S are larger
 * than the previous one"). Incremental Cholesky: O(|S| d) per step.
 *
 * <p>Privacy: M must be a DP release (or public); the partition is then post-processing. Run on the private data,
 * this selection would leak it through the partition sent to the other party.
 */
public final class ForwardSelection {
    private ForwardSelection() {
    }

    /**
     * @param m     symmetric PSD d x d matrix (a noisy estimate should be made PSD first)
     * @param kappa noise cost per feature added to a subspace (>= 0)
     * @param maxBlock largest subspace allowed
     * @param seed  order in which features are drawn
     */
    public static Partition partition(DenseMatrix m, double kappa, int maxBlock, long seed) {
        int d = m.rows();
        return new Selection(m.data(), d, kappa, maxBlock).run(Partition.shuffledFeatures(d, seed));
    }

    /**
     * The selection's state: the current subspace S (features {@code cur[0..s)}), the rows of its Cholesky factor L
     * ({@code lRows}, row r of length r + 1) and the rows of {@code B = L^{-1} M_{S,:}} ({@code bRows}), each
     * allocated once per call, when S first reaches that size. The pass over B for each candidate (s d numbers) is nearly all of the time. A first version
     * allocated a new row per candidate (200 MB per call at d = 5000) and ran 0.7-4.7 s per call on a 5000 x 5000
     * matrix depending on the JIT's state, this one 0.6 s (docs/performance.md); every number is computed by the same
     * operations in the same order, so the partitions are identical (PrimaComponentsTest checks it against that
     * version).
     */
    private static final class Selection {
        private final double[] a;
        private final int d;
        private final double kappa;
        private final int maxBlock;
        private final int[] cur;
        private final double[][] lRows;
        private final double[][] bRows;
        private final double[] l;
        private final double[] b;
        private int s;

        Selection(double[] a, int d, double kappa, int maxBlock) {
            this.a = a;
            this.d = d;
            this.kappa = kappa;
            this.maxBlock = Math.max(1, Math.min(maxBlock, d)); // S never exceeds d features: same rule, bounded storage
            this.cur = new int[this.maxBlock];
            this.lRows = new double[this.maxBlock][];
            this.bRows = new double[this.maxBlock][];
            this.l = new double[this.maxBlock];
            this.b = new double[d];
        }

        Partition run(int[] order) {
            List<int[]> blocks = new ArrayList<>();
            int next = 0;
            while (next < d) {
                int f = order[next];
                // l = L^{-1} M_{S,f}, by forward substitution
                for (int r = 0; r < s; r++) {
                    double v = a[cur[r] + f * d];
                    double[] lr = lRows[r];
                    for (int q = 0; q < r; q++) {
                        v -= lr[q] * l[q];
                    }
                    l[r] = v / lr[r];
                }
                double ll = 0;
                for (int r = 0; r < s; r++) {
                    ll += l[r] * l[r];
                }
                double aff = a[f + f * d];
                double lff2 = aff - ll;
                if (lff2 > 1e-12 * Math.max(1e-300, aff)) {
                    double lff = Math.sqrt(lff2);
                    // b_f = (M_{f,:} - sum_r l_r b_r) / l_ff (M is symmetric: its column f, contiguous)
                    System.arraycopy(a, f * d, b, 0, d);
                    for (int r = 0; r < s; r++) {
                        axpyMinus(b, l[r], bRows[r]);
                    }
                    double inv = 1.0 / lff;
                    double gain = 0;
                    for (int j = 0; j < d; j++) {
                        b[j] *= inv;
                        gain += b[j] * b[j];
                    }
                    if (s == 0 || (gain > kappa && s < maxBlock)) {
                        if (bRows[s] == null) {
                            lRows[s] = new double[s + 1];
                            bRows[s] = new double[d];
                        }
                        System.arraycopy(l, 0, lRows[s], 0, s);
                        lRows[s][s] = lff;
                        System.arraycopy(b, 0, bRows[s], 0, d);
                        cur[s++] = f;
                        next++;
                        continue;
                    }
                } else if (s == 0) {
                    blocks.add(new int[] {f}); // a feature with no variance left: a block of its own
                    next++;
                    continue;
                }
                // f does not pay for itself in S: close S; f starts the next subspace
                blocks.add(java.util.Arrays.copyOf(cur, s));
                s = 0;
            }
            if (s > 0) {
                blocks.add(java.util.Arrays.copyOf(cur, s));
            }
            return new Partition(d, blocks);
        }

        /** {@code y -= alpha x}, elementwise (same index in both: the loop the JIT vectorises). */
        private static void axpyMinus(double[] y, double alpha, double[] x) {
            for (int j = 0; j < y.length; j++) {
                y[j] -= alpha * x[j];
            }
        }
    }
}
