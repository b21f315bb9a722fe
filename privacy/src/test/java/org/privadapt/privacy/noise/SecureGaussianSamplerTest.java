package org.privadapt.privacy.noise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.commons.numbers.gamma.LogGamma;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

class SecureGaussianSamplerTest {
    @Test
    void granularityIsTheSmallestPowerOfTwoAboveTwoSigmaOver2Pow57() {
        assertThat(SecureGaussianSampler.granularity(1.0)).isEqualTo(0x1.0p-56);
        assertThat(SecureGaussianSampler.granularity(3.0)).isEqualTo(0x1.0p-54); // 6 / 2^57 -> 8 / 2^57
        assertThat(SecureGaussianSampler.granularity(0.7)).isEqualTo(0x1.0p-56); // 1.4 / 2^57 -> 2 / 2^57
        for (double sigma : new double[] {1.0, 3.0, 0.7, 12345.678, 1e-9}) {
            double s = sigma / SecureGaussianSampler.granularity(sigma);
            assertThat(s).isEqualTo(Math.rint(s)).isGreaterThan(0x1.0p55).isLessThanOrEqualTo(0x1.0p56);
        }
    }

    @Test
    void blockWidthIsTheCeilingOfRootTwoTimesS() {
        for (long s : new long[] {1, 2, 3, 1000, (1L << 55) + 8, (1L << 56) - 8, 1L << 56}) {
            long m = SecureGaussianSampler.blockWidth(s);
            java.math.BigInteger mm = java.math.BigInteger.valueOf(m).pow(2);
            java.math.BigInteger twoS2 = java.math.BigInteger.valueOf(s).pow(2).shiftLeft(1);
            assertThat(mm.compareTo(twoS2)).as("s = %d", s).isGreaterThanOrEqualTo(0);
            java.math.BigInteger below = java.math.BigInteger.valueOf(m - 1).pow(2);
            assertThat(below.compareTo(twoS2)).as("s = %d", s).isLessThan(0); // m = ceil(sqrt(2) s)
        }
    }

    @Test
    void outputsLieOnTheGridAroundTheSnappedInput() {
        SecureGaussianSampler sampler = new SecureGaussianSampler(new SeededRandomBits(31));
        for (double x : new double[] {0.0, 0.3, -1234.56789, 1e6, 1e20}) {
            for (double sigma : new double[] {1.0, 0.05, 300.0}) {
                double g = SecureGaussianSampler.granularity(sigma);
                for (int i = 0; i < 30; i++) {
                    double steps = sampler.addNoise(x, sigma) / g;
                    assertThat(steps).isEqualTo(Math.rint(steps));
                }
            }
        }
    }

    @Test
    void theGridSumIsRoundedOnceNotPerTerm() {
        double g = 0x1.0p-56;
        // k = 2^54 + 2 alone would round to 2^54 (ties to even); r + k = 2^54 + 4 is representable
        assertThat(Lattice.shiftedPoint(2.0, (1L << 54) + 2, g)).isEqualTo(((1L << 54) + 4) * g);
        assertThat(2.0 * g + ((1L << 54) + 2) * g).isEqualTo(((1L << 54) + 2) * g); // what per-term rounding gives
        // beyond 2^62 the exact sum goes through BigInteger
        assertThat(Lattice.shiftedPoint(0x1.0p70, 5, 1.0)).isEqualTo(0x1.0p70);
        assertThat(Lattice.shiftedPoint(0x1.0p70, (1L << 62) + 1, 1.0))
                .isEqualTo(new java.math.BigInteger("1180591620717411303424").add(
                        java.math.BigInteger.valueOf((1L << 62) + 1)).doubleValue());
    }

    @Test
    void meanAndVarianceMatchSigma() {
        double sigma = 2.0;
        double x = -1.5;
        int n = 50_000;
        double[] out = new double[n];
        SecureGaussianSampler sampler = new SecureGaussianSampler(new SeededRandomBits(32));
        for (int i = 0; i < n; i++) {
            out[i] = sampler.addNoise(x, sigma);
        }
        assertThat(Stats.mean(out)).isCloseTo(x, Offset.offset(5 * sigma / Math.sqrt(n)));
        assertThat(Stats.variance(out)).isCloseTo(sigma * sigma, Offset.offset(5 * sigma * sigma * Math.sqrt(2.0 / n)));
    }

    @Test
    void distributionPassesKolmogorovSmirnovAgainstNormal() {
        SecureGaussianSampler sampler = new SecureGaussianSampler(new SeededRandomBits(33));
        int n = 50_000;
        double[] out = new double[n];
        for (int i = 0; i < n; i++) {
            out[i] = sampler.addNoise(10.0, 0.75);
        }
        NormalDistribution normal = NormalDistribution.of(10.0, 0.75);
        Stats.assertKs(out, normal::cumulativeProbability);
    }

    @Test
    void discreteGaussianMatchesTheExactPmfOnSmallScales() {
        SecureGaussianSampler sampler = new SecureGaussianSampler(new SeededRandomBits(34));
        for (long s : new long[] {1, 3, 6}) {
            int range = (int) (3 * s);
            double z = 0;
            for (long k = -60 * s; k <= 60 * s; k++) {
                z += Math.exp(-0.5 * k * k / (double) (s * s));
            }
            double[] p = new double[2 * range + 3];
            double inside = 0;
            for (int k = -range; k <= range; k++) {
                p[k + range + 1] = Math.exp(-0.5 * k * k / (double) (s * s)) / z;
                inside += p[k + range + 1];
            }
            p[0] = (1 - inside) / 2;
            p[p.length - 1] = (1 - inside) / 2;
            long[] counts = new long[p.length];
            for (int i = 0; i < 150_000; i++) {
                long k = sampler.sampleDiscreteGaussian(s);
                counts[k < -range ? 0 : k > range ? p.length - 1 : (int) k + range + 1]++;
            }
            Stats.assertChiSquare(counts, p);
        }
    }

    @Test
    void symmetricBinomialIsWithinPointTwelveOverNOfTheDiscreteGaussianInTotalVariation() {
        // the documented bound TV(Binomial(n, 1/2) - n/2, N_Z(0, n/4)) ~ 0.117 / n, checked exactly for small n
        for (int s : new int[] {4, 8, 16, 32}) {
            int n = 4 * s * s;
            int h = n / 2;
            double z = 0;
            for (int k = -40 * s; k <= 40 * s; k++) {
                z += Math.exp(-0.5 * k * k / ((double) s * s));
            }
            double tv = 0;
            for (int j = -h; j <= h; j++) {
                double binomial = Math.exp(LogGamma.value(n + 1.0) - LogGamma.value(h + j + 1.0)
                        - LogGamma.value(h - j + 1.0) - n * Math.log(2));
                double gaussian = Math.exp(-0.5 * (double) j * j / ((double) s * s)) / z;
                tv += 0.5 * Math.abs(binomial - gaussian);
            }
            assertThat(tv * n).as("n = %d", n).isBetween(0.11, 0.125);
        }
    }

    @Test
    void seededSamplersReproduce() {
        SecureGaussianSampler a = new SecureGaussianSampler(new SeededRandomBits(35));
        SecureGaussianSampler b = new SecureGaussianSampler(new SeededRandomBits(35));
        for (int i = 0; i < 100; i++) {
            assertThat(a.addNoise(1.0, 1.0)).isEqualTo(b.addNoise(1.0, 1.0));
        }
    }

    @Test
    void invalidArgumentsAreRejectedWithClearMessages() {
        SecureGaussianSampler sampler = new SecureGaussianSampler(new SeededRandomBits(1));
        for (double sigma : new double[] {0.0, -1.0, Double.NaN, Double.POSITIVE_INFINITY}) {
            assertThatThrownBy(() -> sampler.addNoise(0, sigma)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("sigma must be finite and > 0, got " + sigma);
        }
        assertThatThrownBy(() -> sampler.addNoise(Double.NaN, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("x must be finite, got NaN");
        assertThatThrownBy(() -> sampler.addNoise(0, 1e-300)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("outside the supported range");
        assertThatThrownBy(() -> sampler.sampleDiscreteGaussian(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("s must be in [1, 2^56], got 0");
    }
}
