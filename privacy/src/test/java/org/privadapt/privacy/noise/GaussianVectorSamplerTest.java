package org.privadapt.privacy.noise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.SplittableRandom;
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
    void bulkReadingGivesTheReferenceNoiseFromTheSameWords() {
        // the words are read ahead in blocks, but exactly the ones the draws use: the doubles and the stream's
        // state afterwards equal one nextLong() per word (ReferenceHardenedNoise), bit for bit
        int chunk = GaussianVectorSampler.CHUNK;
        int block = GaussianVectorSampler.BLOCK;
        int[] lengths = {0, 1, 3, block - 1, block, block + 1, 5 * block + 7, chunk, chunk + 1, 3 * chunk + 17};
        for (int parallelism : new int[] {1, CORES}) {
            for (int length : lengths) {
                long seed = 1000L * parallelism + length;
                double[] fast = new double[length];
                double[] slow = new double[length];
                for (int i = 0; i < length; i++) {
                    fast[i] = slow[i] = 0.25 * i - 3.0;
                }
                SeededRandomBits fastBits = new SeededRandomBits(seed);
                SeededRandomBits slowBits = new SeededRandomBits(seed);
                new GaussianVectorSampler(fastBits, parallelism).addNoise(fast, 1.7);
                ReferenceHardenedNoise.addNoise(slowBits, slow, 1.7);
                for (int i = 0; i < length; i++) {
                    assertThat(Double.doubleToRawLongBits(fast[i])).as("length %d, coordinate %d", length, i)
                            .isEqualTo(Double.doubleToRawLongBits(slow[i]));
                }
                assertThat(fastBits.nextLong()).as("stream state after length %d", length)
                        .isEqualTo(slowBits.nextLong());
            }
        }
    }

    @Test
    void scalarDrawsGiveTheReferenceNoise() {
        SeededRandomBits fastBits = new SeededRandomBits(77);
        SeededRandomBits slowBits = new SeededRandomBits(77);
        GaussianVectorSampler sampler = new GaussianVectorSampler(fastBits, 1);
        for (int i = 0; i < 20_000; i++) { // about 1,200 rejections and 20 tail draws
            double reference = 0.5 * (ReferenceHardenedNoise.ziggurat(slowBits) + ReferenceHardenedNoise.ziggurat(
                    slowBits) + ReferenceHardenedNoise.ziggurat(slowBits) + ReferenceHardenedNoise.ziggurat(slowBits));
            assertThat(Double.doubleToRawLongBits(sampler.nextStandard())).as("draw %d", i)
                    .isEqualTo(Double.doubleToRawLongBits(reference));
        }
        assertThat(fastBits.nextLong()).isEqualTo(slowBits.nextLong());
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
    void secureBitsAreSharedOutAmongThreadsAndStayNormal() {
        // the secure path (pieces to whichever thread is free, helper streams kept between calls), made repeatable
        // by a seeded key source; two calls, so the second reuses the helper streams
        GaussianVectorSampler sampler = new GaussianVectorSampler(repeatableSecureBits(61), CORES);
        double sigma = 0.7;
        int n = 7 * GaussianVectorSampler.SECURE_PIECE + 11;
        double[] first = new double[n];
        double[] second = new double[n];
        sampler.addNoise(first, sigma);
        sampler.addNoise(second, sigma);
        assertIndependentNormals(first, second, sigma); // the second call replays no stream
    }

    /**
     * Two noise vectors, each N(0, sigma^2) by Kolmogorov-Smirnov, mean and variance (5 standard errors), and
     * uncorrelated (their mean product within 5 standard errors of 0: fresh noise, not replayed).
     */
    private static void assertIndependentNormals(double[] a, double[] b, double sigma) {
        int n = a.length;
        for (double[] v : new double[][] {a, b}) {
            Stats.assertKs(v, NormalDistribution.of(0, sigma)::cumulativeProbability);
            assertThat(Stats.mean(v)).isCloseTo(0.0, Offset.offset(5 * sigma / Math.sqrt(n)));
            assertThat(Stats.variance(v)).isCloseTo(sigma * sigma, Offset.offset(5 * sigma * sigma * Math.sqrt(2.0 / n)));
        }
        double dot = 0;
        for (int i = 0; i < n; i++) {
            dot += a[i] * b[i];
        }
        assertThat(dot / n).isCloseTo(0.0, Offset.offset(5 * sigma * sigma / Math.sqrt(n)));
    }

    /** Secure bits (the secure code paths) keyed from a seeded key source, so that a test is repeatable. */
    private static SecureRandomBits repeatableSecureBits(long seed) {
        return repeatableSecureBits(seed, SecureRandomBits.REQUEST_BYTES, SecureRandomBits.REQUESTS_PER_SEED);
    }

    /** {@link #repeatableSecureBits(long)} with the given request size and requests per key. */
    private static SecureRandomBits repeatableSecureBits(long seed, int requestBytes, int requestsPerSeed) {
        SecureRandom keys = new SecureRandom() {
            private static final long serialVersionUID = 1L;
            private final transient SplittableRandom random = new SplittableRandom(seed);

            @Override
            public void nextBytes(byte[] bytes) {
                for (int i = 0; i < bytes.length; i++) {
                    bytes[i] = (byte) random.nextInt();
                }
            }
        };
        return new SecureRandomBits(keys, requestBytes, requestsPerSeed);
    }

    @Test
    void secureKeystreamReadInPlaceGivesTheReferenceNoiseFromTheSameWords() {
        // secure bits are read where the cipher wrote them, four words a coordinate when all four fall in their
        // rectangles; the doubles and the stream's next word equal one nextLong() per word (the reference), bit for
        // bit, also when coordinates straddle requests (5-word requests: every one does) and across new keys
        for (int requestBytes : new int[] {SecureRandomBits.REQUEST_BYTES, 256, 40}) {
            for (int length : new int[] {0, 1, 7, 1000, 5000, 20_000}) {
                long seed = requestBytes + 31L * length;
                double[] fast = new double[length];
                double[] slow = new double[length];
                for (int i = 0; i < length; i++) {
                    fast[i] = slow[i] = 0.5 * i - 7.0;
                }
                SecureRandomBits fastBits = repeatableSecureBits(seed, requestBytes, 3);
                SecureRandomBits slowBits = repeatableSecureBits(seed, requestBytes, 3);
                new GaussianVectorSampler(fastBits, 1).addNoise(fast, 1.3);
                ReferenceHardenedNoise.addNoise(slowBits, slow, 1.3);
                for (int i = 0; i < length; i++) {
                    assertThat(Double.doubleToRawLongBits(fast[i])).as("request %d, length %d, coordinate %d",
                            requestBytes, length, i).isEqualTo(Double.doubleToRawLongBits(slow[i]));
                }
                assertThat(fastBits.nextLong()).as("stream state after length %d", length).isEqualTo(slowBits.nextLong());
            }
        }
    }

    private static double[][] filled(int[] lengths, double value) {
        double[][] v = new double[lengths.length][];
        for (int a = 0; a < lengths.length; a++) {
            v[a] = new double[lengths[a]];
            Arrays.fill(v[a], value);
        }
        return v;
    }

    /** All coordinates of {@code v} minus {@code value}, in one vector. */
    private static double[] pooledDeviations(double[][] v, double value) {
        return Arrays.stream(v).flatMapToDouble(Arrays::stream).map(x -> x - value).toArray();
    }

    @Test
    void noiseDrawnAheadIsOnlyForSecureBitsOnMoreThanOneThread() {
        int[] lengths = {10, 3};
        assertThat(new GaussianVectorSampler(new SeededRandomBits(63), CORES).drawAhead(lengths, 1.0)).isNull();
        assertThat(new GaussianVectorSampler(repeatableSecureBits(63), 1).drawAhead(lengths, 1.0)).isNull();
        GaussianVectorSampler sampler = new GaussianVectorSampler(repeatableSecureBits(63), CORES);
        assertThatThrownBy(() -> sampler.drawAhead(lengths, 0.0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> sampler.drawAhead(new int[] {-1}, 1.0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void noiseDrawnAheadIsNormalReachesEveryCoordinateAndIsAddedOnce() {
        assumeTrue(CORES >= 2, "drawing ahead needs a second core");
        GaussianVectorSampler sampler = new GaussianVectorSampler(repeatableSecureBits(62), CORES);
        int piece = GaussianVectorSampler.AHEAD_PIECE;
        int[] lengths = {3 * piece + 5, 17, 0, piece}; // several pieces, a partial one, an empty vector
        double sigma = 0.7;
        double[][] first = filled(lengths, 10.0);
        GaussianVectorSampler.Ahead a = sampler.drawAhead(lengths, sigma);
        a.addTo(first);
        double[][] afterFirst = Arrays.stream(first).map(double[]::clone).toArray(double[][]::new);
        assertThatThrownBy(() -> a.addTo(first)).isInstanceOf(IllegalStateException.class); // never the same noise twice
        double[][] second = filled(lengths, 10.0);
        GaussianVectorSampler.Ahead b = sampler.drawAhead(lengths, sigma); // the same buffers, drawn afresh
        assertThatThrownBy(() -> b.addTo(filled(new int[] {3 * piece + 5, 17, 0, piece + 1}, 0.0)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.addTo(filled(new int[] {3 * piece + 5}, 0.0)))
                .isInstanceOf(IllegalArgumentException.class);
        b.addTo(second);
        assertThat(first).isDeepEqualTo(afterFirst); // the second draw did not reach the first's targets
        double[] d1 = pooledDeviations(first, 10.0);
        double[] d2 = pooledDeviations(second, 10.0);
        for (double[] d : new double[][] {d1, d2}) {
            assertThat(Arrays.stream(d).filter(x -> x == 0.0).count()).isZero(); // every coordinate got noise
        }
        assertIndependentNormals(d1, d2, sigma); // fresh noise in the reused buffers, not replayed
        double[] firstPiece = Arrays.copyOfRange(d1, 0, 100); // the pieces come from distinct streams
        assertThat(firstPiece).isNotEqualTo(Arrays.copyOfRange(d1, piece, piece + 100));
    }

    @Test
    void noiseDrawnAheadIntoACallersBufferFillsItsPrefixOnceAndIsGivenUpByTheNextDraw() {
        assumeTrue(CORES >= 2, "drawing ahead needs a second core");
        GaussianVectorSampler sampler = new GaussianVectorSampler(repeatableSecureBits(66), CORES);
        int piece = GaussianVectorSampler.AHEAD_PIECE;
        int count = 5 * piece + 3; // several pieces and a partial one
        double sigma = 1.3;
        double[] first = new double[count + 1000];
        Arrays.fill(first, count, first.length, 7.0); // beyond the prefix: left alone
        GaussianVectorSampler.Ahead a = sampler.drawAheadInto(first, count, sigma);
        a.await();
        assertThatThrownBy(a::await).isInstanceOf(IllegalStateException.class); // never the same noise twice
        assertThatThrownBy(() -> a.addTo(new double[][] {new double[count]})).isInstanceOf(IllegalStateException.class);
        assertThat(Arrays.copyOfRange(first, count, first.length)).containsOnly(7.0);
        double[] second = new double[count];
        sampler.drawAheadInto(second, count, sigma).await();
        double[] d1 = Arrays.copyOf(first, count);
        assertThat(Arrays.stream(d1).filter(x -> x == 0.0).count()).isZero(); // every coordinate of the prefix drawn
        assertIndependentNormals(d1, second, sigma);
        // a draw not awaited is given up by the next one, which may use the same buffer
        GaussianVectorSampler.Ahead abandoned = sampler.drawAheadInto(first, count, sigma);
        sampler.drawAheadInto(first, count, sigma).await();
        assertThatThrownBy(abandoned::await).isInstanceOf(IllegalStateException.class);
        GaussianVectorSampler.Ahead nothing = sampler.drawAheadInto(new double[0], 0, 1.0);
        nothing.await(); // an empty draw (a probe) completes at once
        assertThatThrownBy(() -> sampler.drawAheadInto(second, count + 1, sigma)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> sampler.drawAheadInto(second, -1, sigma)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> sampler.drawAheadInto(second, 1, 0.0)).isInstanceOf(IllegalArgumentException.class);
        assertThat(new GaussianVectorSampler(new SeededRandomBits(67), CORES).drawAheadInto(second, 1, 1.0)).isNull();
        assertThat(new GaussianVectorSampler(repeatableSecureBits(68), 1).drawAheadInto(second, 1, 1.0)).isNull();
    }

    @Test
    void noiseAddedInPlaceWhileADrawAheadIsPendingComesFromOtherStreams() {
        // a draw ahead may still be running on a pool thread when the same sampler adds noise in place (a caller
        // that uses one source for two releases): the two must not share a stream, or they could read the same words
        assumeTrue(CORES >= 2, "drawing ahead needs a second core");
        GaussianVectorSampler sampler = new GaussianVectorSampler(repeatableSecureBits(65), CORES);
        int n = 6 * GaussianVectorSampler.SECURE_PIECE;
        GaussianVectorSampler.Ahead pending = sampler.drawAhead(new int[] {n}, 1.0);
        double[] inPlace = new double[n];
        sampler.addNoise(inPlace, 1.0);
        double[][] ahead = filled(new int[] {n}, 0.0);
        pending.addTo(ahead);
        assertIndependentNormals(inPlace, ahead[0], 1.0);
    }

    @Test
    void noiseDrawnAheadAndNotAddedIsGivenUpByTheNextDraw() {
        assumeTrue(CORES >= 2, "drawing ahead needs a second core");
        GaussianVectorSampler sampler = new GaussianVectorSampler(repeatableSecureBits(64), CORES);
        int[] lengths = {2 * GaussianVectorSampler.AHEAD_PIECE + 1};
        GaussianVectorSampler.Ahead abandoned = sampler.drawAhead(lengths, 1.0); // its caller failed, say
        GaussianVectorSampler.Ahead next = sampler.drawAhead(lengths, 1.0);
        double[][] v = filled(lengths, 0.0);
        next.addTo(v);
        // the abandoned draw's buffers now hold the next draw's noise: adding it would release that noise twice
        assertThatThrownBy(() -> abandoned.addTo(filled(lengths, 0.0))).isInstanceOf(IllegalStateException.class);
        assertThat(Stats.variance(v[0])).isCloseTo(1.0, Offset.offset(5 * Math.sqrt(2.0 / v[0].length)));
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
