package org.privadapt.methods.bassily;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.LinAlg;
import org.privadapt.models.discrepancy.LabelledDiscrepancy;
import org.privadapt.models.dp.NoiseAndSampling;
import org.privadapt.models.dp.SessionRandomness;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.events.LaplaceEvent;
import org.privadapt.privacy.mechanisms.GaussianCalibration;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * Paper 003's noisy descent and pcnvxadap-stats' statistics release, split into an exact query over rows (a gradient
 * sum at w, a target source) and the shared noise steps, are the compositions they had before the split bit for bit
 * on the same seeded noise (the old code is copied below as the reference); and the row-local clipping an engine
 * applies row by row is the in-process matrix clipping, bit for bit.
 */
class BassilySplitReleasesTest {

    static DenseMatrix rows(int n, int d, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] x = new double[n][d];
        for (int i = 0; i < n; i++) {
            double scale = 0.1 + (i % 7) * 0.5;
            for (int j = 0; j < d; j++) {
                x[i][j] = scale * r.nextGaussian();
            }
        }
        return DenseMatrix.fromRows(x);
    }

    static double[] targets(DenseMatrix x, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] y = new double[x.rows()];
        for (int i = 0; i < y.length; i++) {
            y[i] = 0.8 * x.get(i, 0) - 0.3 * x.get(i, 1) + 0.5 * r.nextGaussian();
        }
        return y;
    }

    static PrivacySession session(long seed) {
        return new PrivacySession("target", new PrivacyBudget(2, 1e-5), NeighbouringRelation.REPLACE_ONE, NoiseSource.seeded(seed), null);
    }

    @Test
    void rowByRowClippingIsTheMatrixClipping() {
        DenseMatrix x = rows(40, 5, 1);
        double[] y = targets(x, 2);
        for (double r : new double[] {0.5, 1.0, 3.0}) {
            DenseMatrix c = PCnvxAdap.clipRows(x, r);
            double[] yc = PCnvxAdap.clipTargets(y);
            for (int i = 0; i < x.rows(); i++) {
                assertThat(PCnvxAdap.clipRow(x.row(i), r)).as("row %d at r=%s", i, r).isEqualTo(c.row(i));
                assertThat(PCnvxAdap.clipTarget(y[i])).isEqualTo(yc[i]);
            }
        }
    }

    /** The descent as it was before the split (the reference). */
    static double[] oldDescend(DenseMatrix x, double[] y, double radius, double rowBound, long iterations, double sigmaSum,
                               NoiseAndSampling rnd) {
        int n = x.rows();
        int d = x.cols();
        double step = 1.0 / (2 * rowBound * rowBound);
        double[] w = new double[d];
        double[] avg = new double[d];
        for (long t = 0; t < iterations; t++) {
            double[] res = LinAlg.multiply(x, w);
            for (int i = 0; i < n; i++) {
                res[i] = 2 * (res[i] - y[i]);
            }
            double[] grad = LinAlg.multiplyTransA(x, res);
            if (sigmaSum > 0) {
                rnd.addGaussian(grad, sigmaSum);
            }
            double norm = 0;
            for (int j = 0; j < d; j++) {
                w[j] -= step * grad[j] / n;
                norm += w[j] * w[j];
            }
            norm = Math.sqrt(norm);
            if (norm > radius) {
                for (int j = 0; j < d; j++) {
                    w[j] *= radius / norm;
                }
            }
            for (int j = 0; j < d; j++) {
                avg[j] += w[j] / iterations;
            }
        }
        return avg;
    }

    @Test
    void theSplitNoisyDescentIsTheOldCompositionBitForBit() throws Exception {
        DenseMatrix x = rows(120, 6, 3);
        double[] y = targets(x, 4);
        double radius = 2;
        double rowBound = 1.0;
        long t = 25;
        PrivacySession s = session(9);
        NoisyGradientDescent.Result split = NoisyGradientDescent.fitSquaredLoss(x, y, radius, rowBound, t, s);

        double nu = GaussianCalibration.analyticSigma(2, 1e-5, 1.0) * Math.sqrt(t);
        double g = 2 * rowBound * (radius * rowBound + 1);
        double[] old = oldDescend(PCnvxAdap.clipRows(x, rowBound), PCnvxAdap.clipTargets(y), radius, rowBound, t, nu * 2 * g,
                new SessionRandomness(NoiseSource.seeded(9)));
        assertThat(split.w()).isEqualTo(old);
        assertThat(split.calibration()).isEqualTo(Map.of("noise_multiplier", nu, "gradient_bound", g, "sigma_sum", nu * 2 * g,
                "iterations", t));
        assertThat(s.events()).containsExactly(new GaussianEvent(nu / Math.sqrt(t)));
        // the noise-free descent (the simulation's) too
        assertThat(NoisyGradientDescent.descend(x, y, radius, rowBound, t, 0.0, new SimulatedNoise(3)))
                .isEqualTo(oldDescend(x, y, radius, rowBound, t, 0.0, new SimulatedNoise(3)));
    }

    @Test
    void theSplitStatisticsReleaseIsTheOldCompositionBitForBit() throws Exception {
        DenseMatrix xPub = rows(50, 4, 5);
        double[] yPub = targets(xPub, 6);
        DenseMatrix xPriv = rows(90, 4, 7);
        double[] yPriv = targets(xPriv, 8);
        StatisticsPCnvxAdap.Settings st = new StatisticsPCnvxAdap.Settings(0.5, 1.0, 2.0, 0.2);
        double[] start = {0.3, -0.1, 0.0, 0.2};
        PrivacySession s = session(21);
        StatisticsPCnvxAdap.NoisyStatistics split = StatisticsPCnvxAdap.noisyStatistics(xPub, yPub, xPriv, yPriv, st, s, start);

        // the old composition
        NoiseSource noise = NoiseSource.seeded(21);
        double epsD = 0.2 * 2;
        double nu = GaussianCalibration.analyticSigma(2 - epsD, 1e-5, 1.0);
        double sens = StatisticsPCnvxAdap.sensitivity(1.0);
        DenseMatrix xs = PCnvxAdap.clipRows(xPub, 1.0);
        double[] ys = PCnvxAdap.clipTargets(yPub);
        DenseMatrix xt = PCnvxAdap.clipRows(xPriv, 1.0);
        double[] yt = PCnvxAdap.clipTargets(yPriv);
        double dRadius = StatisticsPCnvxAdap.discrepancyRadius(start, 2.0);
        double bound = (dRadius + 1) * (dRadius + 1);
        double dHat = LabelledDiscrepancy.squaredLoss(xs, ys, xt, yt, dRadius);
        double dDp = Math.max(0, Math.min(bound, noise.laplace().addNoise(dHat, bound / 90, epsD)));
        double[] stats = StatisticsPCnvxAdap.statistics(xt, yt);
        new SessionRandomness(noise).addGaussian(stats, nu * sens);

        assertThat(split.statistics()).isEqualTo(stats);
        assertThat(split.discrepancy()).isEqualTo(dDp);
        assertThat(split.n()).isEqualTo(90);
        assertThat(split.sourceRows().data()).isEqualTo(xs.data());
        assertThat(split.sourceTargets()).isEqualTo(ys);
        assertThat(split.calibration()).isEqualTo(Map.of("epsilon_discrepancy", epsD, "laplace_scale", bound / (90 * epsD),
                "noise_multiplier", nu, "statistics_sensitivity", sens, "sigma_statistics", nu * sens, "released_statistics", 14));
        assertThat(s.events()).isEqualTo(List.of(new LaplaceEvent(1.0 / epsD), new GaussianEvent(nu)));

        // the discrepancy from the private rows' sums is the rows' (full route) bit for bit
        double fromSums = LabelledDiscrepancy.squaredLoss(xs, ys, LinAlg.gram(xt), LinAlg.multiplyTransA(xt, yt),
                meanSquare(yt), xt.rows(), dRadius);
        assertThat(fromSums).isEqualTo(dHat);
    }

    static double meanSquare(double[] y) {
        double s = 0;
        for (double v : y) {
            s += v * v;
        }
        return s / y.length;
    }
}
