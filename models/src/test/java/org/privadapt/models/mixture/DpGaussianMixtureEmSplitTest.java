package org.privadapt.models.mixture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;
import org.privadapt.models.dp.NoiseAndSampling;
import org.privadapt.models.dp.SessionRandomness;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * The split of DP-EM into a {@link DpGaussianMixtureEm.StatisticsSource} (exact statistics) and the noisy loop changes
 * nothing: the fit equals, bit for bit, the loop as it was before the split (copied here as the reference), for both
 * covariance types; {@link DpGaussianMixtureEm#clipRow} is {@link DpGaussianMixtureEm#clipRows} on one row, bit for
 * bit; {@link SufficientStatistics#ofExact} rebuilds the statistics it is given.
 */
class DpGaussianMixtureEmSplitTest {

    /** Rows at scales 0.1 to 10 (R = 3 clips some), one zero row. */
    static DenseMatrix rows(int n, int d, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] x = new double[n][d];
        for (int i = 0; i < n; i++) {
            int c = r.nextInt(3);
            double s = Math.pow(10, r.nextDouble(-1, 1));
            for (int j = 0; j < d; j++) {
                x[i][j] = s * (r.nextDouble(-1, 1) + (j % 3 == c ? 1.5 : 0));
            }
        }
        java.util.Arrays.fill(x[n / 3], 0.0);
        return DenseMatrix.fromRows(x);
    }

    /** The fit loop before the split, verbatim but for the names. */
    static GaussianMixture reference(DenseMatrix rows, DpGaussianMixtureEm.Config c, NoiseAndSampling noise) {
        DenseMatrix z = DpGaussianMixtureEm.clipRows(rows, c.clipNorm());
        double sigma = c.noiseMultiplier();
        double r = c.clipNorm();
        SufficientStatistics init = DpGaussianMixtureEm.initialStatistics(z, c.covarianceType()).withNoise(sigma, r, noise);
        GaussianMixture model = DpGaussianMixtureEm.initialModel(DpGaussianMixtureEm.fromNoisyStatistics(init, c), c);
        for (int t = 1; t <= c.iterations(); t++) {
            SufficientStatistics noisy = DpGaussianMixtureEm.statistics(z, model).withNoise(sigma, r, noise);
            model = DpGaussianMixtureEm.fromNoisyStatistics(noisy, c);
        }
        return model;
    }

    static void assertBitForBit(GaussianMixture a, GaussianMixture b) {
        assertThat(a.weights()).containsExactly(b.weights());
        assertThat(a.means().data()).containsExactly(b.means().data());
        for (int k = 0; k < a.components(); k++) {
            assertThat(a.covariance(k).data()).containsExactly(b.covariance(k).data());
        }
    }

    @Test
    void theSplitFitEqualsTheOldLoopBitForBit() {
        DenseMatrix x = rows(300, 5, 1);
        for (CovarianceType type : CovarianceType.values()) {
            DpGaussianMixtureEm.Config c = DpGaussianMixtureEm.Config.of(3, type, 3.0, 5, 0.5, 11);
            GaussianMixture split = DpGaussianMixtureEm.fit(x, c, new SessionRandomness(NoiseSource.seeded(4))).model();
            GaussianMixture old = reference(x, c, new SessionRandomness(NoiseSource.seeded(4)));
            assertBitForBit(split, old);
            // and through a source made of the same rows, with an observer seeing T + 1 releases
            List<Integer> seen = new ArrayList<>();
            GaussianMixture viaSource = DpGaussianMixtureEm.fit(DpGaussianMixtureEm.inProcess(x, c.clipNorm()), c,
                    new SessionRandomness(NoiseSource.seeded(4)), (i, in, s) -> seen.add(i)).model();
            assertBitForBit(viaSource, old);
            assertThat(seen).containsExactly(0, 1, 2, 3, 4, 5);
        }
    }

    @Test
    void clipRowIsClipRowsOnOneRowBitForBit() {
        DenseMatrix x = rows(200, 7, 2);
        DenseMatrix z = DpGaussianMixtureEm.clipRows(x, 2.0);
        int clipped = 0;
        for (int i = 0; i < x.rows(); i++) {
            double[] one = DpGaussianMixtureEm.clipRow(x.row(i), 2.0);
            assertThat(one).containsExactly(z.row(i));
            if (!java.util.Arrays.equals(one, x.row(i))) {
                clipped++;
            }
        }
        assertThat(clipped).isBetween(1, x.rows() - 1);
        assertThatThrownBy(() -> DpGaussianMixtureEm.clipRow(new double[] {1, Double.NaN}, 1.0))
                .hasMessageContaining("non-finite");
    }

    @Test
    void ofExactRebuildsTheStatisticsItIsGiven() {
        DenseMatrix z = DpGaussianMixtureEm.clipRows(rows(100, 4, 3), 3.0);
        GaussianMixture m = DpGaussianMixtureEm.fit(rows(100, 4, 3), DpGaussianMixtureEm.Config.of(2, CovarianceType.FULL, 3.0, 1, 0.5, 1),
                new SessionRandomness(NoiseSource.seeded(1))).model();
        for (CovarianceType type : CovarianceType.values()) {
            SufficientStatistics s = SufficientStatistics.of(z, m.responsibilities(z), type);
            DenseMatrix sums = DenseMatrix.fromRowMajor(2, 4, s.sumVector());
            SufficientStatistics rebuilt = type == CovarianceType.FULL
                    ? SufficientStatistics.ofExact(type, s.countVector(), sums, null, new DenseMatrix[] {s.secondMoment(0), s.secondMoment(1)})
                    : SufficientStatistics.ofExact(type, s.countVector(), sums,
                            DenseMatrix.fromRows(new double[][] {s.secondMomentDiagonal(0), s.secondMomentDiagonal(1)}), null);
            assertThat(rebuilt.countVector()).containsExactly(s.countVector());
            assertThat(rebuilt.sumVector()).containsExactly(s.sumVector());
            assertThat(rebuilt.secondMomentVector()).containsExactly(s.secondMomentVector());
        }
        assertThatThrownBy(() -> SufficientStatistics.ofExact(CovarianceType.FULL, new double[2], DenseMatrix.zeros(2, 4),
                DenseMatrix.zeros(2, 4), null)).isInstanceOf(IllegalArgumentException.class);
    }
}
