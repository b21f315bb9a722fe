package org.privadapt.privacy.noise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

class SecureLaplaceSamplerTest {
    private static double laplaceCdf(double x, double mean, double b) {
        double z = (x - mean) / b;
        return z < 0 ? 0.5 * Math.exp(z) : 1 - 0.5 * Math.exp(-z);
    }

    @Test
    void granularityIsTheSmallestPowerOfTwoAboveScaleOver2Pow40() {
        assertThat(SecureLaplaceSampler.granularity(1.0, 1.0)).isEqualTo(0x1.0p-40);
        assertThat(SecureLaplaceSampler.granularity(3.0, 0.5)).isEqualTo(0x1.0p-37); // 6 / 2^40 -> 8 / 2^40
        assertThat(SecureLaplaceSampler.granularity(1024.0, 1.0)).isEqualTo(0x1.0p-30);
        assertThat(SecureLaplaceSampler.granularity(1.0, 0.1)).isEqualTo(0x1.0p-36); // 10 / 2^40 -> 16 / 2^40
    }

    @Test
    void outputsLieOnTheGridAroundTheSnappedInput() {
        SecureLaplaceSampler sampler = new SecureLaplaceSampler(new SeededRandomBits(21));
        for (double x : new double[] {0.0, 0.3, -1234.56789, 1e6, 1e20, -7e-300}) {
            for (double[] params : new double[][] {{1.0, 1.0}, {3.0, 0.5}, {0.01, 2.0}}) {
                double g = SecureLaplaceSampler.granularity(params[0], params[1]);
                for (int i = 0; i < 50; i++) {
                    double out = sampler.addNoise(x, params[0], params[1]);
                    double steps = out / g;
                    assertThat(steps).isEqualTo(Math.rint(steps));
                    double noiseSteps = steps - Lattice.roundedQuotient(x, g);
                    if (Math.abs(steps) < 0x1.0p53) {
                        assertThat(noiseSteps).isEqualTo(Math.rint(noiseSteps));
                    }
                }
            }
        }
    }

    @Test
    void inputsSnapToTheNearestGridPointTiesToEven() {
        double g = 0x1.0p-40;
        assertThat(Lattice.roundedQuotient(2.5 * g, g)).isEqualTo(2.0);
        assertThat(Lattice.roundedQuotient(3.5 * g, g)).isEqualTo(4.0);
        assertThat(Lattice.roundedQuotient(-2.5 * g, g)).isEqualTo(-2.0);
        assertThat(Lattice.roundedQuotient(2.4999 * g, g)).isEqualTo(2.0);
        assertThat(Lattice.roundedQuotient(1e-300, g)).isEqualTo(0.0);
        assertThat(Lattice.roundedQuotient(1e300, g)).isEqualTo(1e300 / g);
    }

    @Test
    void meanAndVarianceMatchTheTwoSidedGeometric() {
        double sensitivity = 1.0;
        double epsilon = 0.5;
        double x = 3.25;
        double g = SecureLaplaceSampler.granularity(sensitivity, epsilon);
        double lambda = SecureLaplaceSampler.lambda(sensitivity, epsilon, g);
        double q = Math.exp(-lambda);
        double variance = 2 * q / ((1 - q) * (1 - q)) * g * g; // about 2 (Delta / epsilon)^2 = 8
        assertThat(variance).isCloseTo(8.0, Offset.offset(1e-6));
        int n = 100_000;
        double[] out = new double[n];
        SecureLaplaceSampler sampler = new SecureLaplaceSampler(new SeededRandomBits(22));
        for (int i = 0; i < n; i++) {
            out[i] = sampler.addNoise(x, sensitivity, epsilon);
        }
        // standard errors: sqrt(var / n) for the mean; sqrt((mu4 - var^2) / n) = sqrt(5 var^2 / n) for the variance
        assertThat(Stats.mean(out)).isCloseTo(x, Offset.offset(5 * Math.sqrt(variance / n)));
        assertThat(Stats.variance(out)).isCloseTo(variance, Offset.offset(5 * Math.sqrt(5 * variance * variance / n)));
    }

    @Test
    void distributionPassesKolmogorovSmirnovAgainstLaplace() {
        SecureLaplaceSampler sampler = new SecureLaplaceSampler(new SeededRandomBits(23));
        int n = 50_000;
        double[] out = new double[n];
        for (int i = 0; i < n; i++) {
            out[i] = sampler.addNoise(-2.0, 2.0, 1.5);
        }
        Stats.assertKs(out, v -> laplaceCdf(v, -2.0, 2.0 / 1.5));
    }

    @Test
    void twoSidedGeometricMatchesTheExactPmfOnSmallRates() {
        SecureLaplaceSampler sampler = new SecureLaplaceSampler(new SeededRandomBits(24));
        for (double lambda : new double[] {0.3, 0.5, 1.7}) {
            int range = (int) Math.ceil(4 / lambda);
            double q = Math.exp(-lambda);
            double[] p = new double[2 * range + 3]; // [tail < -range], -range..range, [tail > range]
            double tail = (1 - q) / (1 + q) * Math.pow(q, range + 1) / (1 - q);
            p[0] = tail;
            p[p.length - 1] = tail;
            for (int k = -range; k <= range; k++) {
                p[k + range + 1] = (1 - q) / (1 + q) * Math.pow(q, Math.abs(k));
            }
            long[] counts = new long[p.length];
            for (int i = 0; i < 200_000; i++) {
                long k = sampler.sampleTwoSidedGeometric(lambda);
                counts[k < -range ? 0 : k > range ? p.length - 1 : (int) k + range + 1]++;
            }
            Stats.assertChiSquare(counts, p);
        }
    }

    @Test
    void seededSamplersReproduce() {
        SecureLaplaceSampler a = new SecureLaplaceSampler(new SeededRandomBits(25));
        SecureLaplaceSampler b = new SecureLaplaceSampler(new SeededRandomBits(25));
        for (int i = 0; i < 100; i++) {
            assertThat(a.addNoise(1.0, 1.0, 1.0)).isEqualTo(b.addNoise(1.0, 1.0, 1.0));
        }
    }

    @Test
    void invalidArgumentsAreRejectedWithClearMessages() {
        SecureLaplaceSampler sampler = new SecureLaplaceSampler(new SeededRandomBits(1));
        assertThatThrownBy(() -> sampler.addNoise(Double.NaN, 1, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("x must be finite, got NaN");
        assertThatThrownBy(() -> sampler.addNoise(Double.POSITIVE_INFINITY, 1, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("x must be finite, got Infinity");
        for (double epsilon : new double[] {0.0, -1.0, Double.NaN, Double.POSITIVE_INFINITY}) {
            assertThatThrownBy(() -> sampler.addNoise(0, 1, epsilon)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("epsilon must be finite and > 0, got " + epsilon);
        }
        assertThatThrownBy(() -> sampler.addNoise(0, 1, 1e-13)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("epsilon must be >= 2^-40 (about 9.1e-13), got 1.0E-13");
        for (double sensitivity : new double[] {0.0, -2.0, Double.NaN}) {
            assertThatThrownBy(() -> sampler.addNoise(0, sensitivity, 1))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("l1Sensitivity must be finite and > 0, got " + sensitivity);
        }
        assertThatThrownBy(() -> sampler.addNoise(0, 1e-300, 1e10)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("outside the supported range");
        assertThatThrownBy(() -> new SecureLaplaceSampler(null)).isInstanceOf(IllegalArgumentException.class);
    }
}
