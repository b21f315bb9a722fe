package org.privadapt.models.dp;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.privadapt.privacy.noise.GaussianVectorSampler;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * Noise drawn ahead ({@link SessionRandomness#prefetchGaussian}, on by default for secure sources only): the values
 * added are {@code sigma (Z1+Z2+Z3+Z4)/2} from the background split's stream, exactly what the hardened sampler would
 * add from that stream; calls that do not match the announcement discard what was drawn (it is never used later, and
 * a second announcement draws new noise); a seeded source does not draw ahead unless asked (its one reproducible
 * order). Made reproducible here with a seeded source told to draw ahead.
 */
class SessionRandomnessAheadTest {

    @Test
    void theAnnouncedCallsGetTheHardenedNoiseOfTheBackgroundStream() {
        NoiseSource source = NoiseSource.seeded(5);
        SessionRandomness r = new SessionRandomness(source, true);
        NoiseSource expectedStream = NoiseSource.seeded(5).split(); // what the session's first split is
        int[] lengths = {70_000, 3, 12};
        r.prefetchGaussian(lengths);
        double[] w = new double[70_015];
        new GaussianVectorSampler(expectedStream.bits(), 1).addNoise(w, 1.0);
        double sigma = 1.7;
        double[][] arrays = {new double[70_000], new double[3], new double[12]};
        int off = 0;
        for (double[] a : arrays) {
            java.util.Arrays.fill(a, 0.25);
            r.addGaussian(a, sigma);
            for (int i = 0; i < a.length; i++) {
                assertThat(a[i]).isEqualTo(0.25 + sigma * w[off + i]);
            }
            off += a.length;
        }
        // the same values as the sampler's own (sigma/2)(Z1+...+Z4) on that stream
        double[] direct = new double[70_000];
        java.util.Arrays.fill(direct, 0.25);
        new GaussianVectorSampler(NoiseSource.seeded(5).split().bits(), 1).addNoise(direct, sigma);
        assertThat(arrays[0]).isEqualTo(direct);
        // a second announcement draws new noise, never the same again
        r.prefetchGaussian(new int[] {3});
        double[] again = new double[3];
        r.addGaussian(again, 1.0);
        assertThat(again[0]).isNotEqualTo(w[70_000]);
    }

    @Test
    void callsThatDoNotMatchTheAnnouncementDiscardWhatWasDrawn() {
        SessionRandomness r = new SessionRandomness(NoiseSource.seeded(6), true);
        r.prefetchGaussian(new int[] {10, 10});
        double[] first = new double[10];
        r.addGaussian(first, 1.0); // from the noise drawn ahead
        double[] other = new double[7]; // not announced: drawn directly, and the rest is discarded
        r.addGaussian(other, 1.0);
        double[] expectedOther = new double[7];
        NoiseSource replay = NoiseSource.seeded(6);
        replay.split(); // the background's split came first
        replay.vectors().addNoise(expectedOther, 1.0);
        assertThat(other).isEqualTo(expectedOther);
        double[] late = new double[10]; // the announced second array, now too late: direct draws again
        r.addGaussian(late, 1.0);
        double[] expectedLate = new double[10];
        replay.vectors().addNoise(expectedLate, 1.0);
        assertThat(late).isEqualTo(expectedLate);
    }

    @Test
    void aSeededSourceDoesNotDrawAheadByDefault() {
        SessionRandomness r = new SessionRandomness(NoiseSource.seeded(7));
        r.prefetchGaussian(new int[] {5});
        double[] v = new double[5];
        r.addGaussian(v, 1.0);
        double[] expected = new double[5];
        NoiseSource.seeded(7).vectors().addNoise(expected, 1.0);
        assertThat(v).isEqualTo(expected);
        assertThat(new SessionRandomness(NoiseSource.secure()).isPrivate()).isTrue();
    }
}
