package org.privadapt.math.ot;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.LinAlg;

/**
 * Benchmark entry used by the CLI: times {@link Sinkhorn#solve} (stabilised, default options but up to
 * {@link #MAX_ITERATIONS} sweeps) on random n x n problems: two independent samples of n standard Gaussian points
 * in R^64, squared Euclidean cost divided by its maximum, uniform weights.
 *
 * <p>Each repeat solves the same seeded problem; the reported times are medians over the repeats.
 * {@code millisToConvergence} is the wall time of the whole solve (validation, starting potentials, kernel
 * builds, sweeps, final plan); {@code millisPerIteration} is that time divided by the sweeps, so it includes the
 * amortised kernel rebuilds. The first repeat includes JIT warm-up; use at least 3 repeats.
 */
public final class SinkhornBenchmark {
    public static final int DIMENSION = 64;
    public static final int MAX_ITERATIONS = 10_000;

    private SinkhornBenchmark() {
    }

    public record Result(int n, double reg, int iterations, double millisPerIteration, double millisToConvergence,
                         boolean converged, String backend) {
    }

    /** Random points in R^d (d=64), squared Euclidean cost normalised to max 1, uniform weights; seeded; median of repeats. */
    public static Result run(int n, double reg, int repeats, long seed) {
        if (n < 1) {
            throw new IllegalArgumentException("n must be >= 1, got " + n);
        }
        if (repeats < 1) {
            throw new IllegalArgumentException("repeats must be >= 1, got " + repeats);
        }
        DenseMatrix cost = problem(n, seed);
        double[] w = CostMatrices.uniform(n);
        SinkhornOptions options = SinkhornOptions.defaults().withMaxIterations(MAX_ITERATIONS);
        double[] total = new double[repeats];
        double[] perIteration = new double[repeats];
        Coupling last = null;
        for (int r = 0; r < repeats; r++) {
            long t0 = System.nanoTime();
            last = Sinkhorn.solve(w, w, cost, reg, options);
            double ms = (System.nanoTime() - t0) / 1e6;
            total[r] = ms;
            perIteration[r] = ms / Math.max(1, last.iterations());
        }
        return new Result(n, reg, last.iterations(), median(perIteration), median(total), last.converged(),
                LinAlg.backend().name());
    }

    /** The benchmark's cost matrix: n x n squared Euclidean distances of Gaussian points in R^64, max 1. */
    static DenseMatrix problem(int n, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        DenseMatrix xs = gaussian(n, rng);
        DenseMatrix xt = gaussian(n, rng);
        DenseMatrix cost = CostMatrices.squaredEuclidean(xs, xt);
        double max = cost.maxAbs();
        if (max > 0) {
            cost.scaleInPlace(1.0 / max);
        }
        return cost;
    }

    private static DenseMatrix gaussian(int n, SplittableRandom rng) {
        double[] d = new double[n * DIMENSION];
        for (int k = 0; k < d.length; k++) {
            d[k] = rng.nextGaussian();
        }
        return new DenseMatrix(n, DIMENSION, d);
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        int h = s.length / 2;
        return s.length % 2 == 1 ? s[h] : 0.5 * (s[h - 1] + s[h]);
    }

    /** {@code java ... SinkhornBenchmark n reg [repeats] [seed]}: prints one result. */
    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        double reg = args.length > 1 ? Double.parseDouble(args[1]) : 0.01;
        int repeats = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        long seed = args.length > 3 ? Long.parseLong(args[3]) : 1L;
        System.out.println(run(n, reg, repeats, seed));
    }
}
