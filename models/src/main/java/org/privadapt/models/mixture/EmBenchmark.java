package org.privadapt.models.mixture;

import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.LinAlg;

/**
 * Benchmark entry (not a test): the time of one non-private EM iteration ({@link GaussianMixtureEm#fit}, an E-step
 * and an M-step) on seeded synthetic data, n rows drawn from a random K-component diagonal mixture in R^d.
 *
 * <p>Per iteration = (time of a fit with {@code 1 + iterations} M-steps - time of a fit with 1) / iterations, both
 * with {@code tol = 0} (EM's log-likelihood does not decrease, so neither stops early: checked, the iteration
 * counts are printed), so the k-means++ seeding and the first hard M-step cancel out. Median over repeats, after
 * one warm-up pair; also the process's CPU time per iteration the same way (all threads: on a shared machine it
 * moves less than the wall time). Only public API is called, so the same class measures an older build (compile it against that
 * jar).
 *
 * <p>{@code java -cp cli/target/privadapt.jar org.privadapt.models.mixture.EmBenchmark [n d K iterations repeats]}
 * (defaults 20000 512 10 10 5: issue 32's shape).
 */
public final class EmBenchmark {
    private EmBenchmark() {
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 20000;
        int d = args.length > 1 ? Integer.parseInt(args[1]) : 512;
        int k = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        int iterations = args.length > 3 ? Integer.parseInt(args[3]) : 10;
        int repeats = args.length > 4 ? Integer.parseInt(args[4]) : 5;
        DenseMatrix x = data(n, d, k, 1L);
        double[] per = new double[repeats];
        double[] cpu = new double[repeats];
        int[] its = new int[2];
        double ll = Double.NaN;
        for (int r = -1; r < repeats; r++) {
            long c0 = processCpuNanos();
            long t0 = System.nanoTime();
            GaussianMixtureEm.Result one = GaussianMixtureEm.fit(x, new GaussianMixtureEm.Config(k, CovarianceType.DIAGONAL, 1, 0.0, 1e-6),
                    new SplittableRandom(7));
            long t1 = System.nanoTime();
            long c1 = processCpuNanos();
            GaussianMixtureEm.Result many = GaussianMixtureEm.fit(x, new GaussianMixtureEm.Config(k, CovarianceType.DIAGONAL,
                    1 + iterations, 0.0, 1e-6), new SplittableRandom(7));
            long t2 = System.nanoTime();
            long c2 = processCpuNanos();
            its[0] = one.iterations();
            its[1] = many.iterations();
            ll = many.meanLogLikelihood();
            if (r >= 0) {
                per[r] = ((t2 - t1) - (t1 - t0)) / 1e6 / Math.max(1, its[1] - its[0]);
                cpu[r] = ((c2 - c1) - (c1 - c0)) / 1e6 / Math.max(1, its[1] - its[0]);
            }
        }
        double[] s = per.clone();
        Arrays.sort(s);
        double[] sc = cpu.clone();
        Arrays.sort(sc);
        System.out.printf(Locale.ROOT, "em diag n=%d d=%d K=%d: %.1f ms per iteration (median of %d; min %.1f, max %.1f), "
                        + "process CPU %.1f ms per iteration (median); iterations %d vs %d; mean log-likelihood %.12g; backend %s%n",
                n, d, k, s[s.length / 2], repeats, s[0], s[s.length - 1], sc[sc.length / 2], its[1], its[0], ll,
                LinAlg.backend().name());
    }

    /** CPU time of the whole process (all threads, BLAS's included), or -1 where the JVM does not say. */
    static long processCpuNanos() {
        java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean s ? s.getProcessCpuTime() : -1;
    }

    /** n rows of a seeded random K-component diagonal mixture in R^d (means N(0, 4), standard deviations in [0.5, 1.5]). */
    static DenseMatrix data(int n, int d, int k, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        double[][] mu = new double[k][d];
        double[][] sd = new double[k][d];
        for (int c = 0; c < k; c++) {
            for (int j = 0; j < d; j++) {
                mu[c][j] = 2 * rng.nextGaussian();
                sd[c][j] = 0.5 + rng.nextDouble();
            }
        }
        double[] a = new double[n * d];
        for (int i = 0; i < n; i++) {
            int c = rng.nextInt(k);
            for (int j = 0; j < d; j++) {
                a[i + j * n] = mu[c][j] + sd[c][j] * rng.nextGaussian();
            }
        }
        return new DenseMatrix(n, d, a);
    }
}
