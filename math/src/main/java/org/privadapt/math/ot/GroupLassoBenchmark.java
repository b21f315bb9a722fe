package org.privadapt.math.ot;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.Locale;

/**
 * Benchmark entry (not a test): one {@link GroupLassoOt#solve} on the {@link SinkhornBenchmark} problem (two
 * samples of n Gaussian points in R^64, squared Euclidean cost scaled to max 1, uniform weights), source labels
 * {@code i mod classes}, regEntropic 0.01 and regGroup 0.1 (paper 002's), 10 outer iterations, default inner
 * options. Prints the wall time, the coupling's marginal error and transport cost, and the JVM's peak heap (sum of
 * the heap pools' peaks); the process's peak resident memory is for {@code /usr/bin/time -v} or farm-bench.
 *
 * <p>{@code java -cp cli/target/privadapt.jar org.privadapt.math.ot.GroupLassoBenchmark [n classes]} (default 3000 10).
 */
public final class GroupLassoBenchmark {
    private GroupLassoBenchmark() {
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 3000;
        int classes = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        org.privadapt.math.DenseMatrix cost = SinkhornBenchmark.problem(n, 1L);
        int[] labels = new int[n];
        for (int i = 0; i < n; i++) {
            labels[i] = i % classes;
        }
        double[] w = CostMatrices.uniform(n);
        long t0 = System.nanoTime();
        Coupling g = GroupLassoOt.solve(w, w, cost, labels, 0.01, 0.1, 10, SinkhornOptions.defaults());
        double ms = (System.nanoTime() - t0) / 1e6;
        long peak = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP && p.getPeakUsage() != null) {
                peak += p.getPeakUsage().getUsed();
            }
        }
        System.out.printf(Locale.ROOT, "group-lasso OT n=%d classes=%d: %.0f ms, %d steps, marginal error %.3e, cost %.17g, "
                + "peak heap %.0f MiB (max heap %.0f MiB)%n", n, classes, ms, g.iterations(), g.marginalError(), g.transportCost(),
                peak / 1048576.0, Runtime.getRuntime().maxMemory() / 1048576.0);
    }
}
