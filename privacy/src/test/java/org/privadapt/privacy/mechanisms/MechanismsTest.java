package org.privadapt.privacy.mechanisms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.noise.NoiseSource;

class MechanismsTest {
    static final NeighbouringRelation AR = NeighbouringRelation.ADD_OR_REMOVE_ONE;
    static final NeighbouringRelation REPLACE = NeighbouringRelation.REPLACE_ONE;

    @Test
    void analyticGaussianMeetsItsTargetWithTheGridAccounted() {
        GaussianMechanism m = GaussianMechanism.analytic(1.0, 1e-5, 2.0, AR, 1000);
        assertThat(m.deltaAt(1.0)).isLessThanOrEqualTo(1e-5 * (1 + 1e-9));
        assertThat(m.effectiveSensitivity()).isGreaterThan(2.0).isLessThan(2.0 * (1 + 1e-12));
        assertThat(m.event().noiseMultiplier()).isCloseTo(m.sigma() / m.effectiveSensitivity(), offset(1e-15));
        assertThat(m.sigma()).isCloseTo(GaussianCalibration.analyticSigma(1.0, 1e-5, 2.0), offset(1e-9));
        assertThat(m.calibration()).isEqualTo("analytic");
        assertThatThrownBy(() -> GaussianMechanism.classic(1.5, 1e-5, 1.0, AR, 1)).hasMessageContaining("epsilon < 1");
    }

    @Test
    void vectorReleaseHasTheStatedNoise() {
        GaussianMechanism m = GaussianMechanism.withSigma(2.0, 1.0, AR, 100_000);
        double[] zero = new double[100_000];
        double[] out = m.releaseVector(zero, NoiseSource.seeded(1));
        double s = 0;
        double s2 = 0;
        for (double v : out) {
            s += v;
            s2 += v * v;
        }
        double mean = s / out.length;
        double var = s2 / out.length - mean * mean;
        assertThat(mean).isCloseTo(0.0, offset(5 * 2.0 / Math.sqrt(out.length)));
        assertThat(var).isCloseTo(4.0, offset(5 * 4.0 * Math.sqrt(2.0 / out.length)));
        assertThatThrownBy(() -> m.releaseVector(new double[100_001], NoiseSource.seeded(1))).hasMessageContaining("exceeds");
    }

    @Test
    void symmetricReleaseIsSymmetricWithNoiseOnEveryUpperEntry() {
        DenseMatrix s = DenseMatrix.identity(40);
        GaussianMechanism m = GaussianMechanism.withSigma(0.5, 1.0, AR, 40 * 41 / 2);
        DenseMatrix out = m.releaseSymmetric(s, NoiseSource.seeded(2));
        assertThat(out.asymmetry()).isZero();
        double sq = 0;
        int k = 0;
        for (int j = 0; j < 40; j++) {
            for (int i = 0; i <= j; i++) {
                double noise = out.get(i, j) - s.get(i, j);
                sq += noise * noise;
                k++;
            }
        }
        assertThat(sq / k).isCloseTo(0.25, offset(5 * 0.25 * Math.sqrt(2.0 / k)));
    }

    @Test
    void gramUpperTriangleSensitivityIsTightAndHolds() {
        // add/remove: x = R e_1 gives exactly R^2
        assertThat(upperNorm(outer(new double[] {3, 0, 0}))).isCloseTo(Sensitivities.gramUpperTriangle(AR, 3), offset(1e-12));
        // replace: x = R e_1, y = R e_2 gives exactly sqrt(2) R^2
        DenseMatrix diff = outer(new double[] {3, 0, 0}).minus(outer(new double[] {0, 3, 0}));
        assertThat(upperNorm(diff)).isCloseTo(Sensitivities.gramUpperTriangle(REPLACE, 3), offset(1e-12));
        // random rows of norm <= R never exceed the bounds
        SplittableRandom rng = new SplittableRandom(3);
        for (int t = 0; t < 2000; t++) {
            double[] x = randomWithin(rng, 6, 1.7);
            double[] y = randomWithin(rng, 6, 1.7);
            assertThat(upperNorm(outer(x))).isLessThanOrEqualTo(Sensitivities.gramUpperTriangle(AR, 1.7) + 1e-12);
            assertThat(upperNorm(outer(x).minus(outer(y)))).isLessThanOrEqualTo(Sensitivities.gramUpperTriangle(REPLACE, 1.7) + 1e-12);
        }
        assertThat(Sensitivities.clippedSum(AR, 2)).isEqualTo(2);
        assertThat(Sensitivities.clippedSum(REPLACE, 2)).isEqualTo(4);
        assertThat(Sensitivities.histogramL1(REPLACE)).isEqualTo(2);
        assertThat(Sensitivities.histogramL2(REPLACE)).isEqualTo(Math.sqrt(2));
        assertThat(Sensitivities.count(REPLACE)).isZero();
    }

    @Test
    void laplaceReleaseAndEvent() {
        LaplaceMechanism m = new LaplaceMechanism(0.5, 1.0, AR);
        assertThat(m.event().epsilon()).isEqualTo(0.5);
        assertThat(m.effectiveSensitivity(10)).isGreaterThan(1.0).isLessThan(1.0 + 1e-9);
        double[] out = m.releaseVector(new double[50_000], NoiseSource.seeded(4));
        double s2 = 0;
        for (double v : out) {
            s2 += v * v;
        }
        // Var Lap(b) = 2 b^2 with b = 2
        assertThat(s2 / out.length).isCloseTo(8.0, offset(5 * Math.sqrt(20.0 * 16 / out.length) * 2));
        assertThatThrownBy(() -> new LaplaceMechanism(0, 1, AR)).hasMessageContaining("epsilon");
    }

    static DenseMatrix outer(double[] x) {
        DenseMatrix m = DenseMatrix.zeros(x.length, x.length);
        for (int i = 0; i < x.length; i++) {
            for (int j = 0; j < x.length; j++) {
                m.set(i, j, x[i] * x[j]);
            }
        }
        return m;
    }

    static double upperNorm(DenseMatrix m) {
        double s = 0;
        for (int j = 0; j < m.cols(); j++) {
            for (int i = 0; i <= j; i++) {
                s += m.get(i, j) * m.get(i, j);
            }
        }
        return Math.sqrt(s);
    }

    static double[] randomWithin(SplittableRandom rng, int d, double r) {
        double[] x = new double[d];
        double n = 0;
        for (int j = 0; j < d; j++) {
            x[j] = rng.nextDouble(-1, 1);
            n += x[j] * x[j];
        }
        double scale = r * rng.nextDouble() / Math.sqrt(n);
        for (int j = 0; j < d; j++) {
            x[j] *= scale;
        }
        return x;
    }
}
