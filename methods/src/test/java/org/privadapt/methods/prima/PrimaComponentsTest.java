package org.privadapt.methods.prima;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.math.LinAlg;
import org.privadapt.privacy.NeighbouringRelation;

/** Partition, block clipping, the joint sensitivity of the moment release, forward selection, PSD recovery. */
class PrimaComponentsTest {

    @Test
    void partitionsMustCoverEveryFeatureExactlyOnce() {
        assertThatThrownBy(() -> new Partition(4, List.of(new int[] {0, 1}, new int[] {1, 2, 3})))
                .hasMessageContaining("feature 1 is in two blocks");
        assertThatThrownBy(() -> new Partition(4, List.of(new int[] {0, 1}, new int[] {2})))
                .hasMessageContaining("feature 3 is in no block");
        Partition p = Partition.random(803, 20, 5);
        assertThat(p.size()).isEqualTo(41);
        assertThat(p.largestBlock()).isLessThanOrEqualTo(20);
        assertThat(p.blocks().stream().mapToInt(b -> b.length).sum()).isEqualTo(803);
        // data-independent and reproducible: the same seed gives the same partition
        assertThat(Partition.random(803, 20, 5).blocks()).usingRecursiveComparison().isEqualTo(p.blocks());
    }

    @Test
    void blockClippingBoundsEverySubRowAndLeavesSmallOnesAlone() {
        SplittableRandom r = new SplittableRandom(3);
        DenseMatrix x = DenseMatrix.zeros(50, 12);
        for (int i = 0; i < 50; i++) {
            for (int j = 0; j < 12; j++) {
                x.set(i, j, r.nextGaussian() * (i % 5));
            }
        }
        Partition p = Partition.random(12, 5, 1);
        double[] bounds = {1.0, 2.0, 0.5};
        FeatureMatrix c = BlockClipping.clip(x, p, bounds);
        for (int i = 0; i < 50; i++) {
            for (int b = 0; b < p.size(); b++) {
                double before = norm(x.row(i), p.block(b));
                double after = norm(c.toDense().row(i), p.block(b));
                assertThat(after).isLessThanOrEqualTo(bounds[b] * (1 + 1e-12));
                if (before <= bounds[b]) {
                    assertThat(after).isCloseTo(before, within(1e-12));
                } else {
                    assertThat(after).isCloseTo(bounds[b], within(1e-9)); // scaled, not zeroed
                }
            }
        }
        assertThat(x.get(1, 0)).isEqualTo(x.copy().get(1, 0)); // input untouched
    }

    /** The record's contribution to the released vector: every block's upper triangle, c x, c^2. */
    static double[] contribution(double[] x, Partition p, double c, boolean withCount) {
        List<Double> v = new ArrayList<>();
        for (int[] b : p.blocks()) {
            for (int q = 0; q < b.length; q++) {
                for (int s = 0; s <= q; s++) {
                    v.add(x[b[s]] * x[b[q]]);
                }
            }
        }
        for (double xi : x) {
            v.add(c * xi);
        }
        if (withCount) {
            v.add(c * c);
        }
        return v.stream().mapToDouble(Double::doubleValue).toArray();
    }

    @Test
    void jointSensitivityBoundsEveryNeighbourAndIsAttainedUnderAddRemove() {
        int d = 16;
        Partition p = Partition.random(d, 4, 9);
        double rowBound = 2.0;
        double c = 0.5;
        double[] bounds = new double[p.size()];
        for (int b = 0; b < bounds.length; b++) {
            bounds[b] = 0.6 + 0.1 * b; // sum of squares < R^2: the block bounds bind
        }
        double add = SecondMomentRelease.sensitivity(NeighbouringRelation.ADD_OR_REMOVE_ONE, bounds, rowBound, c);
        double rep = SecondMomentRelease.sensitivity(NeighbouringRelation.REPLACE_ONE, bounds, rowBound, c);
        SplittableRandom r = new SplittableRandom(11);
        for (int trial = 0; trial < 2000; trial++) {
            double[] x = clipped(randomRow(r, d, trial % 3 == 0), p, bounds, rowBound);
            double[] y = clipped(randomRow(r, d, trial % 2 == 0), p, bounds, rowBound);
            assertThat(norm(contribution(x, p, c, true))).isLessThanOrEqualTo(add * (1 + 1e-12));
            double[] cx = contribution(x, p, c, false);
            double[] cy = contribution(y, p, c, false);
            double diff = 0;
            for (int k = 0; k < cx.length; k++) {
                diff += (cx[k] - cy[k]) * (cx[k] - cy[k]);
            }
            assertThat(Math.sqrt(diff)).isLessThanOrEqualTo(rep * (1 + 1e-12));
        }
        // attained: one coordinate per block at the block's bound
        double[] worst = new double[d];
        for (int b = 0; b < p.size(); b++) {
            worst[p.block(b)[0]] = bounds[b];
        }
        assertThat(norm(contribution(worst, p, c, true))).isCloseTo(add, within(1e-12));
        // with loose block bounds the whole-row bound R^2 takes over (never above the full covariance's sensitivity)
        double[] loose = new double[p.size()];
        java.util.Arrays.fill(loose, 10.0);
        assertThat(SecondMomentRelease.sensitivity(NeighbouringRelation.ADD_OR_REMOVE_ONE, loose, rowBound, c))
                .isCloseTo(Math.sqrt(Math.pow(rowBound, 4) + Math.pow(c * rowBound, 2) + Math.pow(c * c, 2)), within(1e-12));
    }

    @Test
    void blockScaledBoundsShrinkTheJointSensitivityBelowTheFullCovariance() {
        PrimaConfig cfg = PrimaConfig.prima(PrimaConfig.Adaptation.CORAL);
        Partition single = Partition.single(800);
        Partition blocks = Partition.random(800, 20, 1);
        double full = SecondMomentRelease.sensitivity(NeighbouringRelation.ADD_OR_REMOVE_ONE, cfg.blockBounds(single), 1, 0.25);
        double split = SecondMomentRelease.sensitivity(NeighbouringRelation.ADD_OR_REMOVE_ONE, cfg.blockBounds(blocks), 1, 0.25);
        // 40 blocks of 20 features, each clipped to sqrt(4 * 20 / 800) = 0.316: sqrt(40) * 0.1 = 0.63 < 1
        assertThat(split).isLessThan(0.7 * full);
    }

    @Test
    void forwardSelectionGrowsBlocksOnlyWhileTheGainBeatsTheNoiseCost() {
        SplittableRandom r = new SplittableRandom(2);
        int d = 30;
        DenseMatrix a = DenseMatrix.zeros(60, d);
        for (int i = 0; i < 60; i++) {
            for (int j = 0; j < d; j++) {
                a.set(i, j, r.nextGaussian());
            }
        }
        DenseMatrix m = a.gram().scale(1.0 / 60);
        Partition free = ForwardSelection.partition(m, 0.0, 8, 4);
        assertThat(free.largestBlock()).isEqualTo(8);
        assertThat(free.size()).isEqualTo(4); // 8 + 8 + 8 + 6
        Partition costly = ForwardSelection.partition(m, 1e6, 8, 4);
        assertThat(costly.size()).isEqualTo(d);
        Partition mid = ForwardSelection.partition(m, 0.5, 30, 4);
        assertThat(mid.size()).isBetween(2, d - 1);
    }

    @Test
    void forwardSelectionEqualsItsFirstVersion() {
        // the rewritten selection (rows allocated once per call) must give the very same partition: same operations in
        // the same order. Matrices with zero-variance and duplicated features (singletons, rank loss), a range of noise
        // costs (blocks closed early and at maxBlock), maxBlock above d
        SplittableRandom r = new SplittableRandom(11);
        int cases = 0;
        for (int d : new int[] {1, 7, 9, 40, 123}) {
            for (int trial = 0; trial < 3; trial++) {
                int n = 5 + r.nextInt(60);
                DenseMatrix x = DenseMatrix.zeros(n, d);
                for (int j = 0; j < d; j++) {
                    int kind = r.nextInt(10);
                    for (int i = 0; i < n; i++) {
                        double v = kind == 0 ? 0.0 : kind == 1 && j > 0 ? x.get(i, j - 1) : r.nextGaussian() * (1 + j % 3);
                        x.set(i, j, v);
                    }
                }
                DenseMatrix m = x.gram().scale(1.0 / n);
                double scale = m.trace() / d;
                for (double kappa : new double[] {0.0, 1e-3 * scale, 0.1 * scale, scale, 10 * scale}) {
                    for (int maxBlock : new int[] {1, 3, 8, 9, 50, 1000}) {
                        long seed = r.nextLong();
                        Partition expected = oneAtATime(m, kappa, maxBlock, seed);
                        Partition got = ForwardSelection.partition(m, kappa, maxBlock, seed);
                        assertThat(got.size()).as("d %d kappa %s maxBlock %d", d, kappa, maxBlock).isEqualTo(expected.size());
                        for (int b = 0; b < expected.size(); b++) {
                            assertThat(got.block(b)).as("d %d kappa %s maxBlock %d block %d", d, kappa, maxBlock, b)
                                    .containsExactly(expected.block(b));
                        }
                        cases++;
                    }
                }
            }
        }
        assertThat(cases).isEqualTo(5 * 3 * 5 * 6);
    }

    /** The selection as first written (a new row per candidate): the reference the current version must equal. */
    private static Partition oneAtATime(DenseMatrix m, double kappa, int maxBlock, long seed) {
        int d = m.rows();
        int[] order = Partition.shuffledFeatures(d, seed);
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

    @Test
    void shrinkingFindsTheSmallestWeightThatMakesThePsdRecovery() {
        SplittableRandom r = new SplittableRandom(7);
        for (PrimaConfig.ShrinkTarget t : PrimaConfig.ShrinkTarget.values()) {
            int p = 12;
            DenseMatrix noisy = DenseMatrix.zeros(p, p);
            for (int i = 0; i < p; i++) {
                for (int j = 0; j <= i; j++) {
                    double v = r.nextGaussian() + (i == j ? 1.5 : 0);
                    noisy.set(i, j, v);
                    noisy.set(j, i, v);
                }
            }
            assertThat(LinAlg.smallestEigenvalue(noisy)).isNegative();
            DenseMatrix target = t == PrimaConfig.ShrinkTarget.DIAGONAL ? PsdShrinking.diagonalTarget(noisy)
                    : PsdShrinking.defaultTarget(noisy);
            assertThat(target.frobeniusNorm()).isLessThanOrEqualTo(noisy.frobeniusNorm()); // paper's condition
            PsdShrinking.Result res = PsdShrinking.shrink(noisy, target);
            assertThat(res.alpha()).isBetween(0.0, 1.0);
            assertThat(LinAlg.smallestEigenvalue(res.matrix())).isGreaterThan(-1e-9);
            assertThat(LinAlg.smallestEigenvalue(PsdShrinking.combine(res.alpha() - 1e-6, target, noisy))).isNegative();
            assertThat(noisy.get(0, 1)).isEqualTo(noisy.get(1, 0)); // input not mutated into the result
        }
    }

    @Test
    void aNegativeNoisyVarianceForcesTheDiagonalTargetItself() {
        SplittableRandom r = new SplittableRandom(11);
        int p = 10;
        DenseMatrix noisy = DenseMatrix.zeros(p, p);
        for (int i = 0; i < p; i++) {
            for (int j = 0; j <= i; j++) {
                double v = 0.3 * r.nextGaussian() + (i == j ? 2.0 : 0);
                noisy.set(i, j, v);
                noisy.set(j, i, v);
            }
        }
        noisy.set(3, 3, -0.05); // one noisy variance below zero: its target entry is 0
        DenseMatrix target = PsdShrinking.diagonalTarget(noisy);
        assertThat(target.get(3, 3)).isZero();
        assertThat(PsdShrinking.forcedToTarget(noisy, target)).isTrue();
        PsdShrinking.Result res = PsdShrinking.shrink(noisy, target);
        assertThat(res.alpha()).isEqualTo(1.0);
        assertThat(res.matrix().minus(target).frobeniusNorm()).isZero();
        // what the bisection would find: every alpha < 1 leaves the negative diagonal entry, so nothing below 1 is PSD
        for (double alpha : new double[] {0.5, 0.9, 0.999999}) {
            assertThat(LinAlg.smallestEigenvalue(PsdShrinking.combine(alpha, target, noisy))).isNegative();
        }
        // with the variance at zero instead, the target is not forced and a weight below 1 is found
        noisy.set(3, 3, 0.5);
        DenseMatrix positive = PsdShrinking.diagonalTarget(noisy);
        assertThat(PsdShrinking.forcedToTarget(noisy, positive)).isFalse();
        assertThat(PsdShrinking.forcedToTarget(noisy, PsdShrinking.defaultTarget(noisy))).isFalse();
        // a diagonal target with a negative entry is not PSD: never taken as the answer
        noisy.set(3, 3, -0.05);
        DenseMatrix bad = PsdShrinking.diagonalTarget(noisy);
        bad.set(5, 5, -1.0);
        assertThat(PsdShrinking.forcedToTarget(noisy, bad)).isFalse();
        assertThatThrownBy(() -> PsdShrinking.shrink(noisy, bad)).isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * Paper 000's Theorem 2 claims that for any alpha in (0, 1) the shrunk matrix is strictly closer to the true
     * covariance than the noisy one whenever the target has a smaller Frobenius norm. Counterexample: C = diag(1,0,0,0),
     * noise Z = diag(0,0,0,-e). The projection onto the PSD cone (eigenvalue flooring) does satisfy the claim.
     */
    @Test
    void theoremTwoIsFalseButTheProjectionOntoThePsdConeIsNeverFarther() {
        double e = 0.01;
        DenseMatrix truth = DenseMatrix.diagonal(new double[] {1, 0, 0, 0});
        DenseMatrix noisy = DenseMatrix.diagonal(new double[] {1, 0, 0, -e});
        DenseMatrix target = PsdShrinking.defaultTarget(noisy); // (tr/p) I = (1 - e)/4 I
        assertThat(target.frobeniusNorm()).isLessThan(noisy.frobeniusNorm()); // the theorem's premise holds
        PsdShrinking.Result res = PsdShrinking.shrink(noisy, target);
        double before = noisy.minus(truth).frobeniusNorm();
        double after = res.matrix().minus(truth).frobeniusNorm();
        assertThat(before).isCloseTo(e, within(1e-15));
        assertThat(after).isGreaterThan(3 * before); // ~3.3 e: shrinking moved it away from the truth
        // the theorem fails for every alpha in (0, 1) here, not only the bisection's
        for (double alpha : new double[] {0.01, 0.1, 0.5, 0.9}) {
            assertThat(PsdShrinking.combine(alpha, target, noisy).minus(truth).frobeniusNorm()).isGreaterThan(before);
        }
        // the Frobenius projection onto the PSD cone is non-expansive and the truth lies in the cone
        SplittableRandom r = new SplittableRandom(5);
        for (int trial = 0; trial < 20; trial++) {
            DenseMatrix a = DenseMatrix.zeros(6, 3);
            for (int i = 0; i < 6; i++) {
                for (int j = 0; j < 3; j++) {
                    a.set(i, j, r.nextGaussian());
                }
            }
            DenseMatrix c = a.multiply(a.transpose()); // rank 3: on the cone's boundary
            DenseMatrix z = DenseMatrix.zeros(6, 6);
            for (int i = 0; i < 6; i++) {
                for (int j = 0; j <= i; j++) {
                    double v = r.nextGaussian();
                    z.set(i, j, v);
                    z.set(j, i, v);
                }
            }
            DenseMatrix n = c.plus(z);
            assertThat(PsdShrinking.floorEigenvalues(n, 0).minus(c).frobeniusNorm())
                    .isLessThanOrEqualTo(n.minus(c).frobeniusNorm() + 1e-9);
        }
    }

    private static double[] randomRow(SplittableRandom r, int d, boolean sparse) {
        double[] x = new double[d];
        for (int j = 0; j < d; j++) {
            x[j] = sparse && r.nextInt(4) != 0 ? 0 : r.nextGaussian() * 3;
        }
        return x;
    }

    private static double[] clipped(double[] x, Partition p, double[] bounds, double rowBound) {
        DenseMatrix m = DenseMatrix.fromRows(new double[][] {x});
        FeatureMatrix c = BlockClipping.clip(BlockClipping.clip(m, Partition.single(x.length), rowBound), p, bounds);
        return c.toDense().row(0);
    }

    private static double norm(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x * x;
        }
        return Math.sqrt(s);
    }

    private static double norm(double[] v, int[] idx) {
        double s = 0;
        for (int j : idx) {
            s += v[j] * v[j];
        }
        return Math.sqrt(s);
    }
    /**
     * The row-local clipping an engine applies row by row ({@link Prima#clipRow}) is the in-process matrix clipping
     * (row bound, then per block), bit for bit on a dense matrix; and the exact statistic plus the noise step is the
     * release on the same seeded noise, bit for bit.
     */
    @Test
    void rowByRowClippingAndTheTwoStepReleaseAreTheInProcessOnes() {
        SplittableRandom r = new SplittableRandom(11);
        int n = 60;
        int d = 9;
        double[][] rows = new double[n][d];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                rows[i][j] = r.nextGaussian() * (1 + i % 3);
            }
        }
        DenseMatrix x = DenseMatrix.fromRows(rows);
        Partition p = Partition.random(d, 4, 2);
        double[] bounds = {1.5, 0.7, 2.0};
        DenseMatrix inProcess = BlockClipping.clip(BlockClipping.clip(x, Partition.single(d), 3.0), p, bounds).toDense();
        int[] blockOf = Prima.blockIndex(p);
        for (int i = 0; i < n; i++) {
            assertThat(Prima.clipRow(rows[i], 3.0, blockOf, bounds)).as("row %d", i).isEqualTo(inProcess.row(i));
        }
        DenseMatrix rowOnly = BlockClipping.clip(x, Partition.single(d), 3.0).toDense();
        assertThat(Prima.clipRow(rows[4], 3.0, null, null)).isEqualTo(rowOnly.row(4));

        org.privadapt.privacy.mechanisms.GaussianMechanism m = org.privadapt.privacy.mechanisms.GaussianMechanism.forNoiseMultiplier(1.3,
                SecondMomentRelease.sensitivity(NeighbouringRelation.ADD_OR_REMOVE_ONE, bounds, 3.0, 0.5),
                NeighbouringRelation.ADD_OR_REMOVE_ONE, SecondMomentRelease.coordinates(p));
        SecondMoments one = SecondMomentRelease.release(inProcess, p, 0.5, m, org.privadapt.privacy.noise.NoiseSource.seeded(5));
        SecondMoments two = SecondMomentRelease.addNoise(SecondMomentRelease.exactStatistic(inProcess, p), 0.5, m,
                org.privadapt.privacy.noise.NoiseSource.seeded(5));
        assertThat(two.mean()).isEqualTo(one.mean());
        assertThat(two.effectiveCount()).isEqualTo(one.effectiveCount());
        for (int b = 0; b < p.size(); b++) {
            assertThat(two.blockCovariance(b, true).data()).isEqualTo(one.blockCovariance(b, true).data());
        }
    }
}
