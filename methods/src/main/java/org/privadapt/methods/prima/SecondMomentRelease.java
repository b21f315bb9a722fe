package org.privadapt.methods.prima;

import java.util.ArrayList;
import java.util.List;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.mechanisms.GaussianMechanism;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * The Gaussian release of a party's moments over a partition: one vector per record made of the upper triangle
 * (diagonal included) of {@code x_S x_S^T} for every block S, the row scaled by c ({@code c x}, giving the sums),
 * and {@code c^2} (giving the count); noise of one standard deviation sigma on every coordinate of the sum over
 * records.
 *
 * <p><b>Sensitivity</b> (L2, for one record; each block's sub-row has norm at most R_b after
 * {@link BlockClipping}, the whole row at most R, m blocks; with one bound per block, {@code sqrt(m) R_b^2} below
 * becomes {@code sqrt(sum_i R_i^4)}). The upper triangle of a symmetric M has norm at most
 * {@code ||M||_F} (gaussian-mechanism.md), so:
 * <ul>
 *   <li>add/remove: blocks {@code sqrt(sum_S ||x_S||^4) <= min(sqrt(m) R_b^2, R^2)}; sums {@code c min(R, sqrt(m) R_b)};
 *       count {@code c^2};</li>
 *   <li>replace-one: blocks {@code min(sqrt(2m) R_b^2, sqrt(2) R^2)} (per block {@code ||x x^T - y y^T||_F^2 <= 2 R_b^4});
 *       sums {@code 2 c min(R, sqrt(m) R_b)}; count 0;</li>
 * </ul>
 * and the release's sensitivity is the root of the sum of the squares. This is one Gaussian mechanism on the whole
 * vector: the blocks read the same records, so they are not composed in parallel (paper 000 §4.5 says they are;
 * they are not), but neither do they compose as m separate releases: their joint sensitivity is bounded above,
 * and with per-block clipping it is {@code sqrt(m) R_b^2}, below the full covariance's {@code R^2} when blocks are
 * clipped tighter than {@code R / m^(1/4)}.
 */
public final class SecondMomentRelease {
    private SecondMomentRelease() {
    }

    /** The L2 sensitivity of the released vector with one bound for every block (see the class comment). */
    public static double sensitivity(NeighbouringRelation r, int blocks, double blockBound, double rowBound, double c) {
        double[] b = new double[blocks];
        java.util.Arrays.fill(b, blockBound);
        return sensitivity(r, b, rowBound, c);
    }

    /**
     * The L2 sensitivity with a bound R_i per block: blocks part {@code min(sqrt(sum_i R_i^4), R^2)} (add/remove) or
     * {@code min(sqrt(2 sum_i R_i^4), sqrt(2) R^2)} (replace-one); sums part {@code c min(R, sqrt(sum_i R_i^2))}, doubled
     * under replace-one; count part {@code c^2} under add/remove, 0 under replace-one.
     */
    public static double sensitivity(NeighbouringRelation r, double[] blockBounds, double rowBound, double c) {
        double sum4 = 0;
        double sum2 = 0;
        for (double b : blockBounds) {
            sum4 += b * b * b * b;
            sum2 += b * b;
        }
        double norm = Math.min(rowBound, Math.sqrt(sum2));
        if (r == NeighbouringRelation.ADD_OR_REMOVE_ONE) {
            double b = Math.min(Math.sqrt(sum4), rowBound * rowBound);
            double s = c * norm;
            double k = c * c;
            return Math.sqrt(b * b + s * s + k * k);
        }
        double b = Math.min(Math.sqrt(2 * sum4), Math.sqrt(2) * rowBound * rowBound);
        double s = 2 * c * norm;
        return Math.sqrt(b * b + s * s);
    }

    /** Number of released coordinates: the blocks' upper triangles, d sums, one count. */
    public static long coordinates(Partition p) {
        return p.upperTriangleEntries() + p.dimension() + 1;
    }

    /** Exact moments (no privacy): for non-private baselines and tests. */
    public static SecondMoments exact(FeatureMatrix x, Partition p) {
        List<DenseMatrix> grams = new ArrayList<>();
        for (int b = 0; b < p.size(); b++) {
            grams.add(x.selectColumns(p.block(b)).gram());
        }
        return new SecondMoments(p, x.rows(), columnSums(x), grams, 0.0);
    }

    /**
     * The exact statistic the release adds noise to: per block of the partition the Gram matrix {@code x_S^T x_S} of
     * the (already clipped) rows, the column sums and the number of rows. A sum over rows: an engine that sums the rows
     * elsewhere (the spark module) builds one itself and passes it to {@link #addNoise}.
     */
    public record ExactMoments(Partition partition, List<DenseMatrix> grams, double[] sums, long count) {
        public ExactMoments {
            if (grams.size() != partition.size() || sums.length != partition.dimension() || count < 0) {
                throw new IllegalArgumentException("moments do not fit the partition: " + grams.size() + " blocks for "
                        + partition.size() + ", " + sums.length + " sums for dimension " + partition.dimension());
            }
            for (int b = 0; b < grams.size(); b++) {
                int len = partition.block(b).length;
                if (grams.get(b).rows() != len || grams.get(b).cols() != len) {
                    throw new IllegalArgumentException("block " + b + " has " + len + " features, its Gram matrix is "
                            + grams.get(b).rows() + " x " + grams.get(b).cols());
                }
            }
            grams = List.copyOf(grams);
        }
    }

    /** The exact statistic of rows already clipped (block Gram matrices, column sums, row count). */
    public static ExactMoments exactStatistic(FeatureMatrix clipped, Partition p) {
        List<DenseMatrix> grams = new ArrayList<>();
        for (int b = 0; b < p.size(); b++) {
            grams.add(clipped.selectColumns(p.block(b)).gram());
        }
        return new ExactMoments(p, grams, columnSums(clipped), clipped.rows());
    }

    /**
     * Noisy moments of rows already clipped to the bounds the mechanism's sensitivity was computed from:
     * {@link #addNoise} on {@link #exactStatistic}.
     *
     * @param c weight of the first-moment and count coordinates
     */
    public static SecondMoments release(FeatureMatrix clipped, Partition p, double c, GaussianMechanism mechanism,
                                        NoiseSource noise) {
        checkRelease(c, mechanism);
        return addNoise(exactStatistic(clipped, p), c, mechanism, noise);
    }

    /**
     * The release's noise step: the mechanism's Gaussian noise on every block's upper triangle (block by block), then
     * on the scaled sums {@code c S}, then on the scaled count {@code c^2 n}, in that order of draws.
     */
    public static SecondMoments addNoise(ExactMoments exact, double c, GaussianMechanism mechanism, NoiseSource noise) {
        checkRelease(c, mechanism);
        Partition p = exact.partition();
        List<DenseMatrix> grams = new ArrayList<>();
        for (int b = 0; b < p.size(); b++) {
            grams.add(mechanism.releaseSymmetric(exact.grams().get(b), noise));
        }
        double[] sums = exact.sums();
        double[] scaled = new double[sums.length];
        for (int j = 0; j < sums.length; j++) {
            scaled[j] = c * sums[j];
        }
        double[] noisySums = mechanism.releaseVector(scaled, noise);
        for (int j = 0; j < sums.length; j++) {
            noisySums[j] /= c;
        }
        double noisyCount = mechanism.releaseScalar(c * c * exact.count(), noise) / (c * c);
        return new SecondMoments(p, noisyCount, noisySums, grams, mechanism.sigma());
    }

    private static void checkRelease(double c, GaussianMechanism mechanism) {
        if (mechanism.sensitivity() <= 0 || !(c > 0)) {
            throw new IllegalArgumentException("invalid release parameters");
        }
    }

    static double[] columnSums(FeatureMatrix x) {
        double[] ones = new double[x.rows()];
        java.util.Arrays.fill(ones, 1.0);
        return x.transposeMultiply(DenseMatrix.column(ones)).data();
    }
}
