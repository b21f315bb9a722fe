package org.privadapt.privacy.noise;

import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.LongUnaryOperator;

/**
 * Throughput of the generators and samplers: for each, warm-up repetitions (at least {@value #WARMUP}, and at least
 * {@value #WARMUP_SECONDS} s, so that the cipher's compiled intrinsic is in use as it is in any training run of more
 * than a few steps), then the median of {@value #REPETITIONS} timed repetitions of a fixed amount of work, printed as
 * a Markdown table. Run with {@code privadapt bench noise} or
 * {@code java -cp <classpath> org.privadapt.privacy.noise.NoiseBenchmark}.
 */
public final class NoiseBenchmark {
    static final int WARMUP = 3;
    static final int REPETITIONS = 7;
    static final double WARMUP_SECONDS = 2.0;
    /** The parameters of paper 001's shallow network (5000-50-2): one DP-SGD step's noise. */
    private static final int STEP = 250_152;
    private static final int VECTOR = 1_000_000;

    private static volatile double sink;

    private NoiseBenchmark() {
    }

    public static void main(String[] args) throws NoSuchAlgorithmException {
        System.out.printf(Locale.ROOT, "# privadapt noise benchmark: %s %s, %d cores, median of %d after at least %d warm-up "
                + "repetitions and %.0f s%n%n", System.getProperty("java.vm.name"), System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(), REPETITIONS, WARMUP, WARMUP_SECONDS);
        System.out.println("| what | work per repetition | median time | throughput |");
        System.out.println("|---|---:|---:|---:|");

        SecureRandom platform = new SecureRandom();
        longs("SecureRandom.nextLong (default: " + platform.getAlgorithm() + ")", 200_000, n -> drain(platform, n));
        SecureRandom drbg = SecureRandom.getInstance("DRBG");
        longs("SecureRandom.nextLong (DRBG)", 200_000, n -> drain(drbg, n));
        SecureRandomBits secure = new SecureRandomBits();
        longs("SecureRandomBits.nextLong (AES-256-CTR)", 50_000_000, n -> drain(secure, n));
        SeededRandomBits seeded = new SeededRandomBits(1);
        longs("SeededRandomBits.nextLong (SplittableRandom, NOT PRIVATE)", 50_000_000, n -> drain(seeded, n));

        SplittableRandom naive = new SplittableRandom(1);
        double[] vector = new double[VECTOR];
        vectors("naive SplittableRandom.nextGaussian (NOT PRIVATE), 1 thread", vector, () -> {
            for (int i = 0; i < vector.length; i++) {
                vector[i] += naive.nextGaussian();
            }
        });
        GaussianVectorSampler one = new GaussianVectorSampler(new SecureRandomBits(), 1);
        vectors("hardened 4-draw ziggurat, SecureRandomBits, 1 thread", vector, () -> one.addNoise(vector, 1.0));
        int cores = Runtime.getRuntime().availableProcessors();
        GaussianVectorSampler all = new GaussianVectorSampler(new SecureRandomBits(), cores);
        vectors("hardened 4-draw ziggurat, SecureRandomBits, " + cores + " threads", vector,
                () -> all.addNoise(vector, 1.0));
        GaussianVectorSampler seededAll = new GaussianVectorSampler(new SeededRandomBits(2), cores);
        vectors("hardened 4-draw ziggurat, SeededRandomBits, " + cores + " threads", vector,
                () -> seededAll.addNoise(vector, 1.0));
        double[] step = new double[STEP];
        vectors("hardened 4-draw ziggurat, SecureRandomBits, " + cores + " threads, one DP-SGD step of a 5000-50-2 "
                + "network", step, () -> all.addNoise(step, 1.0));

        SecureLaplaceSampler laplace = new SecureLaplaceSampler(new SecureRandomBits());
        samples("SecureLaplaceSampler.addNoise (exact geometric), 1 thread", 200_000, n -> {
            double s = 0;
            for (long i = 0; i < n; i++) {
                s += laplace.addNoise(1.0, 1.0, 1.0);
            }
            return (long) s;
        });
        SecureGaussianSampler gaussian = new SecureGaussianSampler(new SecureRandomBits());
        samples("SecureGaussianSampler.addNoise (exact discrete Gaussian), 1 thread", 100_000, n -> {
            double s = 0;
            for (long i = 0; i < n; i++) {
                s += gaussian.addNoise(1.0, 1.0);
            }
            return (long) s;
        });
    }

    private static long drain(SecureRandom random, long n) {
        long x = 0;
        for (long i = 0; i < n; i++) {
            x ^= random.nextLong();
        }
        return x;
    }

    private static long drain(RandomBits bits, long n) {
        long x = 0;
        for (long i = 0; i < n; i++) {
            x ^= bits.nextLong();
        }
        return x;
    }

    private static double medianSeconds(Runnable work) {
        long warmupStart = System.nanoTime();
        for (int i = 0; i < WARMUP || System.nanoTime() - warmupStart < WARMUP_SECONDS * 1e9; i++) {
            work.run();
        }
        double[] seconds = new double[REPETITIONS];
        for (int i = 0; i < REPETITIONS; i++) {
            long start = System.nanoTime();
            work.run();
            seconds[i] = (System.nanoTime() - start) * 1e-9;
        }
        Arrays.sort(seconds);
        return seconds[REPETITIONS / 2];
    }

    private static void longs(String what, long n, LongUnaryOperator work) {
        double t = medianSeconds(() -> sink += work.applyAsLong(n));
        System.out.printf(Locale.ROOT, "| %s | %,d longs | %.1f ms | %.3g longs/s (%.0f MB/s) |%n", what, n, t * 1e3,
                n / t, 8 * n / t / 1e6);
    }

    private static void samples(String what, long n, LongUnaryOperator work) {
        double t = medianSeconds(() -> sink += work.applyAsLong(n));
        System.out.printf(Locale.ROOT, "| %s | %,d samples | %.1f ms | %.3g samples/s (%.2f us each) |%n", what, n,
                t * 1e3, n / t, t / n * 1e6);
    }

    private static void vectors(String what, double[] vector, Runnable work) {
        double t = medianSeconds(() -> {
            work.run();
            sink += vector[vector.length / 2];
        });
        System.out.printf(Locale.ROOT, "| %s | %,d coordinates | %.1f ms | %.3g coordinates/s |%n", what,
                vector.length, t * 1e3, vector.length / t);
    }
}
