package org.privadapt.privacy.noise;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The two-word coins must be the same function of the random bits as the BigInteger ones: same decisions, same
 * number of words consumed (checked by comparing the next word of both streams afterwards).
 */
class ExactBernoulli128Test {
    private static final BigInteger MASK64 = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    private static long hi(BigInteger v) {
        return v.shiftRight(64).longValue();
    }

    private static long lo(BigInteger v) {
        return v.and(MASK64).longValue();
    }

    private static BigInteger random(SplittableRandom r, int bitsLength) {
        BigInteger v = BigInteger.ZERO;
        for (int i = 0; i < bitsLength; i += 32) {
            v = v.shiftLeft(32).or(BigInteger.valueOf(r.nextInt() & 0xffffffffL));
        }
        return v.shiftRight(Math.max(0, ((bitsLength + 31) / 32) * 32 - bitsLength));
    }

    @Test
    void uniformBitsDrawTheSameNumberFromTheSameWords() {
        for (int length = 0; length <= 128; length++) {
            for (long seed = 1; seed <= 20; seed++) {
                RandomBits a = new SeededRandomBits(seed * 1000 + length);
                RandomBits b = new SeededRandomBits(seed * 1000 + length);
                BigInteger expected = ExactBernoulli.uniformBits(a, length);
                long[] got = new long[2];
                ExactBernoulli128.uniformBits(b, length, got);
                assertThat(got).as("length %d seed %d", length, seed).containsExactly(hi(expected), lo(expected));
                assertThat(b.nextLong()).isEqualTo(a.nextLong());
            }
        }
    }

    @Test
    void coinsAgreeWithTheBigIntegerCoinsOnRandomRationals() {
        SplittableRandom r = new SplittableRandom(7);
        int trueCount = 0;
        for (int t = 0; t < 20_000; t++) {
            int dBits = 1 + r.nextInt(t % 3 == 0 ? 62 : 114);
            BigInteger d = random(r, dBits).max(BigInteger.ONE);
            // numerators below D (fraction), a few multiples of D, and up to 2^124
            BigInteger n = switch (t % 4) {
                case 0 -> random(r, dBits).mod(d);
                case 1 -> d.multiply(BigInteger.valueOf(r.nextInt(5))).add(random(r, dBits).mod(d));
                case 2 -> BigInteger.ZERO;
                default -> d.multiply(BigInteger.valueOf(r.nextInt(3)));
            };
            long seed = r.nextLong();
            RandomBits a = new SeededRandomBits(seed);
            RandomBits b = new SeededRandomBits(seed);
            boolean expected = ExactBernoulli.expMinus(a, n, d);
            boolean got = ExactBernoulli128.expMinus(b, hi(n), lo(n), hi(d), lo(d));
            assertThat(got).as("exp(-%s/%s)", n, d).isEqualTo(expected);
            assertThat(b.nextLong()).isEqualTo(a.nextLong());
            trueCount += got ? 1 : 0;
            if (n.compareTo(d) <= 0) {
                RandomBits c = new SeededRandomBits(seed + 1);
                RandomBits e = new SeededRandomBits(seed + 1);
                assertThat(ExactBernoulli128.ratio(e, hi(n), lo(n), hi(d), lo(d)))
                        .isEqualTo(ExactBernoulli.ratio(c, n, d));
                assertThat(e.nextLong()).isEqualTo(c.nextLong());
            }
        }
        // both outcomes occur (the comparison above is not vacuous)
        assertThat(trueCount).isBetween(2_000, 18_000);
    }

    @Test
    void largeNumeratorsNearTheSamplersBound() {
        BigInteger s = BigInteger.ONE.shiftLeft(56);
        BigInteger d = s.multiply(s).shiftLeft(1);
        BigInteger j = BigInteger.valueOf(33).multiply(BigInteger.valueOf(SecureGaussianSampler.blockWidth(1L << 56)));
        BigInteger n = j.multiply(j).subtract(d.multiply(BigInteger.valueOf(32)));
        assertThat(n.bitLength()).isLessThanOrEqualTo(124);
        for (long seed = 0; seed < 200; seed++) {
            RandomBits a = new SeededRandomBits(seed);
            RandomBits b = new SeededRandomBits(seed);
            assertThat(ExactBernoulli128.expMinus(b, hi(n), lo(n), hi(d), lo(d)))
                    .isEqualTo(ExactBernoulli.expMinus(a, n, d));
            assertThat(b.nextLong()).isEqualTo(a.nextLong());
        }
    }

    @Test
    void multiplySmallDetectsOverflow() {
        assertThat(ExactBernoulli128.multiplySmall(0, -1L, 2)).containsExactly(1, -2L);
        assertThat(ExactBernoulli128.multiplySmall(1L << 62, 0, 4)).isNull();
        assertThat(ExactBernoulli128.multiplySmall(-1L, -1L, 2)).isNull();
        assertThat(ExactBernoulli128.unsignedMultiplyHigh(-1L, -1L)).isEqualTo(-2L);
    }

    /** The previous BigInteger implementation of the sampler's loop, as the reference. */
    private static long referenceDiscreteGaussian(RandomBits bits, long s) {
        BigInteger twoS2 = BigInteger.valueOf(s).pow(2).shiftLeft(1);
        long m = SecureGaussianSampler.blockWidth(s);
        while (true) {
            int k = 0;
            while (k <= SecureGaussianSampler.MAX_BLOCK && ExactBernoulli.expMinusOne(bits)) {
                k++;
            }
            if (k > SecureGaussianSampler.MAX_BLOCK) {
                continue;
            }
            long i = k * m + bits.nextLong(m);
            long j = bits.nextLong() < 0 ? -(i + 1) : i;
            BigInteger jj = BigInteger.valueOf(j);
            BigInteger exponent = jj.multiply(jj).subtract(twoS2.multiply(BigInteger.valueOf(k)));
            if (ExactBernoulli.expMinus(bits, exponent, twoS2)) {
                return j;
            }
        }
    }

    @Test
    void discreteGaussianSamplesEqualTheBigIntegerReference() {
        long[] scales = {1, 2, 3, 1000, (1L << 31) + 5, (1L << 40) + 7, (1L << 55) + 1, 3L << 54, 1L << 56};
        for (long s : scales) {
            SecureGaussianSampler sampler = new SecureGaussianSampler(new SeededRandomBits(s ^ 99));
            RandomBits reference = new SeededRandomBits(s ^ 99);
            for (int t = 0; t < 3_000; t++) {
                assertThat(sampler.sampleDiscreteGaussian(s)).as("s = %d, draw %d", s, t)
                        .isEqualTo(referenceDiscreteGaussian(reference, s));
            }
        }
    }
}
