package org.privadapt.privacy.noise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The derived methods of {@link RandomBits} and {@link SeededRandomBits}; tolerances 5 standard errors. */
class RandomBitsTest {
    private static long[] draw(RandomBits bits, int n) {
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = bits.nextLong();
        }
        return out;
    }

    @Test
    void seededStreamsReproduceAndDifferBySeed() {
        assertThat(draw(new SeededRandomBits(42), 1000)).containsExactly(draw(new SeededRandomBits(42), 1000));
        assertThat(draw(new SeededRandomBits(42), 1000)).isNotEqualTo(draw(new SeededRandomBits(43), 1000));
    }

    @Test
    void seededSplitsAreDeterministicAndDistinct() {
        SeededRandomBits a = new SeededRandomBits(7);
        SeededRandomBits b = new SeededRandomBits(7);
        RandomBits a1 = a.split();
        RandomBits a2 = a.split();
        RandomBits b1 = b.split();
        long[] first = draw(a1, 100);
        assertThat(first).containsExactly(draw(b1, 100));
        assertThat(first).isNotEqualTo(draw(a2, 100));
        assertThat(first).isNotEqualTo(draw(a, 100));
        assertThat(a1.isSecure()).isFalse();
        assertThat(a1.name()).contains("NOT PRIVATE").contains("seed=7").contains("split depth 1");
    }

    @Test
    void seededIsMarkedNotPrivate() {
        SeededRandomBits bits = new SeededRandomBits(3);
        assertThat(bits.isSecure()).isFalse();
        assertThat(bits.name()).isEqualTo("SplittableRandom(seed=3) NOT PRIVATE");
        assertThat(bits.seed()).isEqualTo(3);
    }

    @Test
    void nextIntIsUniform() {
        RandomBits bits = new SeededRandomBits(11);
        for (int bound : new int[] {7, 10}) {
            long[] counts = new long[bound];
            int n = 20_000 * bound;
            for (int i = 0; i < n; i++) {
                counts[bits.nextInt(bound)]++;
            }
            double[] p = new double[bound];
            Arrays.fill(p, 1.0 / bound);
            Stats.assertChiSquare(counts, p);
        }
        assertThat(bits.nextInt(1)).isZero();
    }

    @Test
    void nextIntWithLargeBoundIsUniformAcrossThirds() {
        // bound = 3 * 2^29 rejects a quarter of the draws; the top, middle and bottom thirds must be equally likely
        RandomBits bits = new SeededRandomBits(12);
        int bound = 3 << 29;
        long[] counts = new long[3];
        for (int i = 0; i < 300_000; i++) {
            counts[bits.nextInt(bound) >>> 29]++;
        }
        Stats.assertChiSquare(counts, new double[] {1.0 / 3, 1.0 / 3, 1.0 / 3});
    }

    @Test
    void nextLongBoundIsUniform() {
        RandomBits bits = new SeededRandomBits(13);
        long bound = 3L << 61; // 3/4 of the 63-bit range: the rejection path is exercised
        long[] counts = new long[3];
        for (int i = 0; i < 300_000; i++) {
            long v = bits.nextLong(bound);
            assertThat(v).isBetween(0L, bound - 1);
            counts[(int) (v >>> 61)]++;
        }
        Stats.assertChiSquare(counts, new double[] {1.0 / 3, 1.0 / 3, 1.0 / 3});
        long[] small = new long[5];
        for (int i = 0; i < 100_000; i++) {
            small[(int) bits.nextLong(5)]++;
        }
        Stats.assertChiSquare(small, new double[] {0.2, 0.2, 0.2, 0.2, 0.2});
        assertThat(bits.nextLong(1L << 40)).isBetween(0L, (1L << 40) - 1);
    }

    @Test
    void nextDoubleIsInUnitIntervalWithMeanOneHalf() {
        RandomBits bits = new SeededRandomBits(14);
        int n = 200_000;
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = bits.nextDouble();
            assertThat(x[i]).isGreaterThanOrEqualTo(0.0).isLessThan(1.0);
            assertThat(x[i] * 0x1.0p53).isEqualTo(Math.rint(x[i] * 0x1.0p53)); // 53-bit grid
        }
        assertThat(Stats.mean(x)).isCloseTo(0.5, org.assertj.core.data.Offset.offset(5 * Math.sqrt(1.0 / 12 / n)));
        Stats.assertKs(x, u -> Math.min(1, Math.max(0, u)));
    }

    @Test
    void nextBernoulliHasTheRequestedRate() {
        RandomBits bits = new SeededRandomBits(15);
        int n = 200_000;
        for (double p : new double[] {0.3, 0.5, 1e-3, 0.999}) {
            long hits = 0;
            for (int i = 0; i < n; i++) {
                if (bits.nextBernoulli(p)) {
                    hits++;
                }
            }
            double se = Math.sqrt(p * (1 - p) / n);
            assertThat((double) hits / n).as("p = %s", p).isBetween(p - 5 * se, p + 5 * se);
        }
        for (int i = 0; i < 1000; i++) {
            assertThat(bits.nextBernoulli(0.0)).isFalse();
            assertThat(bits.nextBernoulli(1.0)).isTrue();
        }
    }

    @Test
    void nextBernoulliIsExactForDyadicProbabilities() {
        // p = 1/4 = binary 0.01: true exactly when the first two uniform bits are 00
        RandomBits a = new SeededRandomBits(16);
        RandomBits b = new SeededRandomBits(16);
        for (int i = 0; i < 10_000; i++) {
            assertThat(a.nextBernoulli(0.25)).isEqualTo((b.nextLong() >>> 61) < 2);
        }
    }

    @Test
    void invalidArgumentsAreRejected() {
        RandomBits bits = new SeededRandomBits(1);
        assertThatThrownBy(() -> bits.nextInt(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("bound must be > 0, got 0");
        assertThatThrownBy(() -> bits.nextLong(-3)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("bound must be > 0, got -3");
        for (double p : new double[] {Double.NaN, -0.1, 1.5}) {
            assertThatThrownBy(() -> bits.nextBernoulli(p)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("probability must be in [0, 1], got " + p);
        }
    }
}
