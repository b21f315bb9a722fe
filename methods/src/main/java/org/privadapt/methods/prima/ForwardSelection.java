package org.privadapt.methods.prima;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
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
        int[] order = new int[d];
        for (int j = 0; j < d; j++) {
            order[j] = j;
        }
        SplittableRandom rng = new SplittableRandom(seed);
        for (int j = d - 1; j > 0; j--) {
            int k = rng.nextInt(j + 1);
            int t = order[j];
            order[j] = order[k];
            order[k] = t;
        }
        double[] a = m.data();
        List<int[]> blocks = new ArrayList<>();
        List<Integer> current = new ArrayList<>();
        // Cholesky factor rows of the current subspace (L, lower) and B = L^{-1} M_{S,:} rows
        List<double[]> lRows = new ArrayList<>();
        List<double[]> bRows = new ArrayList<>();
        int next = 0;
        while (next < d) {
            int f = order[next];
            double gain;
            double[] l = new double[current.size()];
            double lff2;
            // l = L^{-1} M_{S,f}
            for (int r = 0; r < current.size(); r++) {
                double s = a[current.get(r) + f * d];
                double[] lr = lRows.get(r);
                for (int c = 0; c < r; c++) {
                    s -= lr[c] * l[c];
                }
                l[r] = s / lr[r];
            }
            double ll = 0;
            for (double v : l) {
                ll += v * v;
            }
            lff2 = a[f + f * d] - ll;
            double[] bNew = null;
            if (lff2 > 1e-12 * Math.max(1e-300, a[f + f * d])) {
                double lff = Math.sqrt(lff2);
                // b_f = (M_{f,:} - sum_r l_r b_r) / l_ff, row by row (M is symmetric: its column f, contiguous)
                bNew = java.util.Arrays.copyOfRange(a, f * d, f * d + d);
                for (int r = 0; r < current.size(); r++) {
                    double lr = l[r];
                    double[] br = bRows.get(r);
                    for (int j = 0; j < d; j++) {
                        bNew[j] -= lr * br[j];
                    }
                }
                double inv = 1.0 / lff;
                gain = 0;
                for (int j = 0; j < d; j++) {
                    bNew[j] *= inv;
                    gain += bNew[j] * bNew[j];
                }
                double[] lRow = new double[current.size() + 1];
                System.arraycopy(l, 0, lRow, 0, l.length);
                lRow[current.size()] = lff;
                if (current.isEmpty() || (gain > kappa && current.size() < maxBlock)) {
                    current.add(f);
                    lRows.add(lRow);
                    bRows.add(bNew);
                    next++;
                    continue;
                }
            } else if (current.isEmpty()) {
                // a feature with no variance left: a block of its own
                blocks.add(new int[] {f});
                next++;
                continue;
            }
            // f does not pay for itself in S: close S; f starts the next subspace
            blocks.add(current.stream().mapToInt(Integer::intValue).toArray());
            current.clear();
            lRows.clear();
            bRows.clear();
        }
        if (!current.isEmpty()) {
            blocks.add(current.stream().mapToInt(Integer::intValue).toArray());
        }
        return new Partition(d, blocks);
    }
}
