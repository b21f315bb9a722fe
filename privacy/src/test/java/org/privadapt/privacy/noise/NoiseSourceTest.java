package org.privadapt.privacy.noise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class NoiseSourceTest {
    @Test
    void secureSourceIsPrivateAndDescribesItsSamplers() {
        NoiseSource source = NoiseSource.secure();
        assertThat(source.isPrivate()).isTrue();
        assertThat(source.bits()).isInstanceOf(SecureRandomBits.class);
        assertThat(source.samplerDescription()).isEqualTo("AES-256-CTR keyed from SecureRandom(DRBG); "
                + NoiseSource.SAMPLERS);
        assertThat(source.samplerDescription()).contains("Laplace: exact two-sided geometric on 2^k grid")
                .contains("Gaussian: exact discrete Gaussian").contains("vectors: 4-draw hardened ziggurat");
        assertThat(source.split().isPrivate()).isTrue();
    }

    @Test
    void seededSourceIsNotPrivateAndSaysSo() {
        NoiseSource source = NoiseSource.seeded(7);
        assertThat(source.isPrivate()).isFalse();
        assertThat(source.samplerDescription()).startsWith("SplittableRandom(seed=7) NOT PRIVATE; ")
                .isEqualTo(NoiseSource.seeded(7).samplerDescription());
    }

    @Test
    void seededWarningIsPrintedAtMostOncePerProcess() {
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            NoiseSource.seeded(1);
            NoiseSource.seeded(2);
            NoiseSource.seeded(3);
        } finally {
            System.setErr(original);
        }
        String text = captured.toString(StandardCharsets.UTF_8);
        // earlier tests in this JVM may already have printed it; these three calls print it at most once
        assertThat(text.isEmpty() || text.equals(NoiseSource.SEEDED_WARNING + System.lineSeparator())).isTrue();
        assertThat(NoiseSource.SEEDED_WARNING)
                .isEqualTo("privadapt: WARNING: seeded noise requested; results are NOT differentially private");

        OnceWarning once = new OnceWarning("hello");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream stream = new PrintStream(out, true, StandardCharsets.UTF_8);
        assertThat(once.emit(stream)).isTrue();
        assertThat(once.emit(stream)).isFalse();
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("hello" + System.lineSeparator());
    }

    @Test
    void seededSourcesReproduceAcrossAllSamplers() {
        NoiseSource a = NoiseSource.seeded(99);
        NoiseSource b = NoiseSource.seeded(99);
        for (int i = 0; i < 20; i++) {
            assertThat(a.laplace().addNoise(1, 1, 1)).isEqualTo(b.laplace().addNoise(1, 1, 1));
            assertThat(a.gaussian().addNoise(1, 1)).isEqualTo(b.gaussian().addNoise(1, 1));
            assertThat(a.bernoulli(0.3)).isEqualTo(b.bernoulli(0.3));
        }
        double[] u = new double[10];
        double[] w = new double[10];
        a.vectors().addNoise(u, 1);
        b.vectors().addNoise(w, 1);
        assertThat(u).containsExactly(w);
        assertThat(a.split().bits().nextLong()).isNotEqualTo(a.bits().nextLong());
    }

    @Test
    void bernoulliRejectsInvalidRatesAndHasTheRightFrequency() {
        NoiseSource source = NoiseSource.seeded(5);
        assertThatThrownBy(() -> source.bernoulli(1.01)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("probability must be in [0, 1], got 1.01");
        int n = 100_000;
        long hits = 0;
        for (int i = 0; i < n; i++) {
            if (source.bernoulli(0.01)) {
                hits++;
            }
        }
        double se = Math.sqrt(0.01 * 0.99 / n);
        assertThat((double) hits / n).isBetween(0.01 - 5 * se, 0.01 + 5 * se);
    }
}
