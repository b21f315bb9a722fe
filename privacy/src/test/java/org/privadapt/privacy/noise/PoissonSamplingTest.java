package org.privadapt.privacy.noise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * {@link PoissonSampling}: the decisions are exactly "U below q" read a byte at a time (checked against the bytes of a
 * copy of the same seeded stream, for a q with one digit and for one whose first digit ties), q's digits are its exact
 * expansion, the batch sizes and each record's rate match q n and q within 5 standard errors (fixed seeds), and the
 * edge cases (q 0 and 1, n 0, bad q or n).
 */
class PoissonSamplingTest {
    /** The bytes of a stream as {@link PoissonSampling} reads them: each word's bytes, least significant first. */
    private static int[] bytes(RandomBits bits, int words) {
        int[] out = new int[words * 8];
        for (int w = 0; w < words; w++) {
            long v = bits.nextLong();
            for (int b = 0; b < 8; b++) {
                out[w * 8 + b] = (int) (v >>> (8 * b)) & 0xff;
            }
        }
        return out;
    }

    @Test
    void aOneDigitRateJoinsExactlyTheRecordsWhoseByteIsBelowIt() {
        double q = 3.0 / 256; // digits [3]: record i joins iff its byte is 0, 1 or 2
        int n = 3000;
        int[] batch = PoissonSampling.sample(new SeededRandomBits(11), n, q);
        int[] u = bytes(new SeededRandomBits(11), n / 8 + 1);
        assertThat(batch).containsExactly(IntStream.range(0, n).filter(i -> u[i] < 3).toArray());
    }

    @Test
    void aTieOnTheFirstDigitIsDecidedByTheNextBytes() {
        double q = (7 + 200.0 / 256) / 256; // digits [7, 200]
        int n = 20000;
        int[] batch = PoissonSampling.sample(new SeededRandomBits(5), n, q);
        int[] u = bytes(new SeededRandomBits(5), n / 8 + 64);
        int at = 0;
        int ties = 0;
        java.util.List<Integer> expected = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            int first = u[at++];
            boolean joins;
            if (first != 7) {
                joins = first < 7;
            } else {
                ties++;
                int second = u[at++];
                joins = second < 200; // a tie on the last digit: U >= q
            }
            if (joins) {
                expected.add(i);
            }
        }
        assertThat(ties).isGreaterThan(20);
        assertThat(batch).containsExactly(expected.stream().mapToInt(Integer::intValue).toArray());
    }

    @Test
    void theDigitsAreTheRatesExactExpansion() {
        for (double q : new double[] {0.5, 1e-3, 256.0 / 1_000_000, 0.999999, Double.MIN_VALUE, 1.0 / 3}) {
            int[] d = PoissonSampling.digits(q);
            BigDecimal sum = BigDecimal.ZERO;
            BigDecimal place = BigDecimal.ONE;
            for (int digit : d) {
                place = place.divide(BigDecimal.valueOf(256));
                assertThat(digit).isBetween(0, 255);
                sum = sum.add(place.multiply(BigDecimal.valueOf(digit)));
            }
            assertThat(sum).as("q = %s", q).isEqualByComparingTo(new BigDecimal(q));
            assertThat(d[d.length - 1]).isNotZero();
        }
    }

    @Test
    void batchSizesAndPerRecordRatesMatchQ() {
        int n = 200_000;
        double q = 256.0 / 1_000_000;
        SeededRandomBits bits = new SeededRandomBits(3);
        int runs = 200;
        long total = 0;
        int[] hitsFirst = new int[2];
        for (int r = 0; r < runs; r++) {
            int[] b = PoissonSampling.sample(bits, n, q);
            for (int i = 1; i < b.length; i++) {
                assertThat(b[i]).isGreaterThan(b[i - 1]);
            }
            total += b.length;
            hitsFirst[0] += b.length > 0 && b[0] < 1000 ? 1 : 0;
        }
        double mean = q * n * runs;
        assertThat((double) total).isCloseTo(mean, org.assertj.core.data.Offset.offset(5 * Math.sqrt(mean)));
        // the first 1,000 records hold at least one member with probability 1 - (1 - q)^1000
        double p = 1 - Math.pow(1 - q, 1000);
        assertThat((double) hitsFirst[0]).isCloseTo(p * runs, org.assertj.core.data.Offset.offset(5 * Math.sqrt(runs * p * (1 - p))));
        // a larger rate, on the tie path more often: q = 0.3
        int[] big = PoissonSampling.sample(new SeededRandomBits(4), 100_000, 0.3);
        assertThat((double) big.length).isCloseTo(30_000, org.assertj.core.data.Offset.offset(5 * Math.sqrt(100_000 * 0.3 * 0.7)));
    }

    /** exp(-x) to 60 digits (a Taylor series; x small and positive here). */
    static BigDecimal expMinus(BigDecimal x) {
        java.math.MathContext mc = new java.math.MathContext(60);
        BigDecimal term = BigDecimal.ONE;
        BigDecimal sum = BigDecimal.ONE;
        for (int k = 1; k < 200; k++) {
            term = term.multiply(x.negate(), mc).divide(BigDecimal.valueOf(k), mc);
            sum = sum.add(term, mc);
        }
        return sum;
    }

    @Test
    void theGapsRateIsJustBelowQ() {
        for (double q : new double[] {1e-9, 256.0 / 1e7, 256.0 / 1e6, 1e-3, 0.01, 0.3}) {
            double gamma = PoissonSampling.gapRate(q);
            BigDecimal rate = BigDecimal.ONE.subtract(expMinus(new BigDecimal(gamma)));
            BigDecimal exact = new BigDecimal(q);
            assertThat(rate).as("q = %s", q).isLessThan(exact);
            assertThat(exact.subtract(rate).divide(exact, new java.math.MathContext(20)).doubleValue()).as("q = %s", q)
                    .isLessThan(1e-14);
        }
        assertThatThrownBy(() -> PoissonSampling.gapRate(0.0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PoissonSampling.gapRate(1.0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theGapsGiveBatchesOfRateQ() {
        int n = 1_000_000;
        double q = 1e-3;
        SeededRandomBits bits = new SeededRandomBits(12);
        int runs = 300;
        long total = 0;
        int firstLate = 0; // runs whose first member is at index 693 or later: probability (1 - q)^693, about 1/2
        int lastEarly = 0; // runs whose last member is below n - 693: the same probability, from the other end
        for (int r = 0; r < runs; r++) {
            int[] b = PoissonSampling.sampleByGaps(bits, n, q);
            for (int i = 1; i < b.length; i++) {
                assertThat(b[i]).isGreaterThan(b[i - 1]);
            }
            assertThat(b.length == 0 || (b[0] >= 0 && b[b.length - 1] < n)).isTrue();
            total += b.length;
            firstLate += b.length == 0 || b[0] >= 693 ? 1 : 0;
            lastEarly += b.length == 0 || b[b.length - 1] < n - 693 ? 1 : 0;
        }
        double mean = q * n * runs;
        assertThat((double) total).isCloseTo(mean, org.assertj.core.data.Offset.offset(5 * Math.sqrt(mean)));
        double p = Math.pow(1 - q, 693);
        double sd = Math.sqrt(runs * p * (1 - p));
        assertThat((double) firstLate).isCloseTo(p * runs, org.assertj.core.data.Offset.offset(5 * sd));
        assertThat((double) lastEarly).isCloseTo(p * runs, org.assertj.core.data.Offset.offset(5 * sd));
        // a large rate and a tiny table go through the same path
        int[] big = PoissonSampling.sampleByGaps(new SeededRandomBits(4), 100_000, 0.3);
        assertThat((double) big.length).isCloseTo(30_000, org.assertj.core.data.Offset.offset(5 * Math.sqrt(100_000 * 0.3 * 0.7)));
        assertThat(PoissonSampling.sampleByGaps(new SeededRandomBits(4), 0, 0.3)).isEmpty();
        assertThat(PoissonSampling.sampleByGaps(new SeededRandomBits(4), 3, 1.0)).containsExactly(0, 1, 2);
    }

    @Test
    void edgeCases() {
        assertThat(PoissonSampling.sample(new SeededRandomBits(1), 10, 0.0)).isEmpty();
        assertThat(PoissonSampling.sample(new SeededRandomBits(1), 0, 0.5)).isEmpty();
        assertThat(PoissonSampling.sample(new SeededRandomBits(1), 4, 1.0)).containsExactly(0, 1, 2, 3);
        assertThatThrownBy(() -> PoissonSampling.sample(new SeededRandomBits(1), 4, Double.NaN)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PoissonSampling.sample(new SeededRandomBits(1), 4, 1.5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PoissonSampling.sample(new SeededRandomBits(1), -1, 0.5)).isInstanceOf(IllegalArgumentException.class);
        assertThat(NoiseSource.seeded(9).poissonSample(5000, 0.01)).containsExactly(PoissonSampling.sample(new SeededRandomBits(9), 5000, 0.01));
    }
}
