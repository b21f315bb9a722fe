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
     * Noisy moments of rows already clipped to the bounds the mechanism's sensitivity was computed from.
     *
     * @param c weight of the first-moment and count coordinates
     */
    public static SecondMoments release(FeatureMatrix clipped, Partition p, double c, GaussianMechanism mechanism,
                                        NoiseSource noise) {
        if (mechanism.sensitivity() <= 0 || !(c > 0)) {
            throw new IllegalArgumentException("invalid release parameters");
        }
        List<DenseMatrix> grams = new ArrayList<>();
        for (int b = 0; b < p.size(); b++) {
            grams.add(mechanism.releaseSymmetric(clipped.selectColumns(p.block(b)).gram(), noise));
        }
        double[] sums = columnSums(clipped);
        double[] scaled = new double[sums.length];
        for (int j = 0; j < sums.length; j++) {
            scaled[j] = c * sums[j];
        }
        double[] noisySums = mechanism.releaseVector(scaled, noise);
        for (int j = 0; j < sums.length; j++) {
            noisySums[j] /= c;
        }
        double noisyCount = mechanism.releaseScalar(c * c * clipped.rows(), noise) / (c * c);
        return new SecondMoments(p, noisyCount, noisySums, grams, mechanism.sigma());
    }

    static double[] columnSums(FeatureMatrix x) {
        double[] ones = new double[x.rows()];
        java.util.Arrays.fill(ones, 1.0);
        return x.transposeMultiply(DenseMatrix.column(ones)).data();
    }
}
