package org.privadapt.privacy.noise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

class GaussianVectorSamplerTest {
    private static final int CORES = Runtime.getRuntime().availableProcessors();

    private static double[] noise(long seed, int length, int parallelism, double sigma) {
        double[] v = new double[length];
        new GaussianVectorSampler(new SeededRandomBits(seed), parallelism).addNoise(v, sigma);
        return v;
    }

    @Test
    void coordinatesAreNormalWithTheRequestedSigma() {
        double sigma = 1.5;
        int n = 5 * GaussianVectorSampler.CHUNK + 123; // several chunks, a partial last one
        double[] v = noise(51, n, CORES, sigma);
        Stats.assertKs(v, NormalDistribution.of(0, sigma)::cumulativeProbability);
        assertThat(Stats.mean(v)).isCloseTo(0.0, Offset.offset(5 * sigma / Math.sqrt(n)));
        assertThat(Stats.variance(v)).isCloseTo(sigma * sigma, Offset.offset(5 * sigma * sigma * Math.sqrt(2.0 / n)));
    }

    @Test
    void noiseIsAddedInPlace() {
        double[] v = new double[100_000];
        Arrays.fill(v, 10.0);
        new GaussianVectorSampler(new SeededRandomBits(52), CORES).addNoise(v, 0.1);
        assertThat(Stats.mean(v)).isCloseTo(10.0, Offset.offset(5 * 0.1 / Math.sqrt(v.length)));
        assertThat(Stats.variance(v)).isCloseTo(0.01, Offset.offset(5 * 0.01 * Math.sqrt(2.0 / v.length)));
    }

    @Test
    void seededNoiseIsIdenticalForAnyThreadCountAndRun() {
        int n = 4 * GaussianVectorSampler.CHUNK + 7;
        double[] sequential = noise(53, n, 1, 1.0);
        for (int run = 0; run < 3; run++) {
            assertThat(Arrays.equals(noise(53, n, CORES, 1.0), sequential)).isTrue(); // bitwise, O(n)
        }
        assertThat(Arrays.equals(noise(54, n, CORES, 1.0), sequential)).isFalse();
        double[] shortVector = noise(53, 1000, CORES, 1.0);
        assertThat(noise(53, 1000, 1, 1.0)).containsExactly(shortVector);
    }

    @Test
    void chunksUseDistinctStreams() {
        int chunk = GaussianVectorSampler.CHUNK;
        double[] v = noise(55, 2 * chunk, CORES, 1.0);
        assertThat(Arrays.copyOfRange(v, 0, 100)).isNotEqualTo(Arrays.copyOfRange(v, chunk, chunk + 100));
    }

    @Test
    void hardenedStandardDrawsHaveUnitVariance() {
        GaussianVectorSampler sampler = new GaussianVectorSampler(new SeededRandomBits(56), 1);
        int n = 100_000;
        double[] z = new double[n];
        for (int i = 0; i < n; i++) {
            z[i] = sampler.nextStandard();
        }
        assertThat(Stats.variance(z)).isCloseTo(1.0, Offset.offset(5 * Math.sqrt(2.0 / n)));
        Stats.assertKs(z, NormalDistribution.of(0, 1)::cumulativeProbability);
    }

    @Test
    void invalidArgumentsAreRejected() {
        GaussianVectorSampler sampler = new GaussianVectorSampler(new SeededRandomBits(1));
        assertThat(sampler.parallelism()).isEqualTo(CORES);
        for (double sigma : new double[] {0.0, -1.0, Double.NaN, Double.POSITIVE_INFINITY}) {
            assertThatThrownBy(() -> sampler.addNoise(new double[3], sigma))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("sigma must be finite and > 0, got " + sigma);
        }
        assertThatThrownBy(() -> sampler.addNoise(null, 1.0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("vector must not be null");
        assertThatThrownBy(() -> new GaussianVectorSampler(new SeededRandomBits(1), 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("parallelism must be in [1, ");
        assertThatThrownBy(() -> new GaussianVectorSampler(new SeededRandomBits(1), CORES + 1))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
