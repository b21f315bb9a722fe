package org.privadapt.cli.commands;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.privadapt.cli.ExitCodes;
import org.privadapt.cli.OutputOptions;
import org.privadapt.cli.UsageException;
import org.privadapt.cli.Version;
import org.privadapt.cli.report.Json;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.LinAlg;
import org.privadapt.math.LinAlgBackend;
import org.privadapt.math.NetlibBackend;

/**
 * The linear-algebra backends side by side in one JVM: matrix product, covariance (X^T X), symmetric
 * eigendecomposition (all vectors, and the top 100 by the partial solver), SPD square root and inverse square root,
 * the principal axes of 2000 rows of 5000 features (SA on Amazon reviews), Cholesky, at the sizes the methods use.
 * Each cell is the median of {@code repeat} timed calls after one untimed warm-up call, with fresh inputs
 * generated from a fixed seed.
 */
final class LinalgBench {
    private final boolean quick;
    private final List<String> backendNames;
    private final PrintWriter out;
    private final OutputOptions output;

    LinalgBench(boolean quick, List<String> backendNames, PrintWriter out, OutputOptions output) {
        this.quick = quick;
        this.backendNames = backendNames;
        this.out = out;
        this.output = output;
    }

    /** One measured cell. */
    record Cell(String operation, String size, String backend, double medianMs, double minMs, Double gflops) {
    }

    int run() {
        List<LinAlgBackend> backends = new ArrayList<>();
        if (backendNames == null || backendNames.isEmpty()) {
            LinAlgBackend nat = NetlibBackend.nativeOrNull();
            if (nat != null) {
                backends.add(nat);
            }
            backends.add(LinAlg.select("netlib-java"));
            backends.add(LinAlg.select("ejml"));
        } else {
            for (String b : backendNames) {
                try {
                    backends.add(LinAlg.select(b.trim()));
                } catch (RuntimeException e) {
                    throw new UsageException("--backends: " + e.getMessage(), e);
                }
            }
        }
        int repeat = quick ? 1 : 3;
        int s = quick ? 8 : 1; // --quick: every cell at an eighth of its size, a smoke test of each backend
        List<Cell> cells = new ArrayList<>();
        LinAlgBackend previous = LinAlg.backend();
        try (org.privadapt.cli.Progress progress = org.privadapt.cli.Progress.startWithLines("linalg", backends.size(), !output.json)) {
            for (LinAlgBackend b : backends) {
                progress.message(b.name());
                LinAlg.useBackend(b);
                int n = 2048 / s;
                cells.add(time("gemm C = A B", n + "x" + n, b, repeat, 2.0 * n * n * n, () -> random(n, n, 1),
                        a -> LinAlg.multiply(a, a)));
                for (int[] xs : new int[][] {{1123 / s, 800 / s}, {2000 / s, 5000 / s}}) {
                    cells.add(time("covariance X^T X", xs[0] + "x" + xs[1], b, repeat, (double) xs[0] * xs[1] * xs[1],
                            () -> random(xs[0], xs[1], 2), LinAlg::gram));
                }
                for (int d : new int[] {800 / s, 2048 / s}) {
                    cells.add(time("eigendecomposition (vectors)", d + "x" + d, b, repeat, null, () -> spd(d), LinAlg::eigh));
                    int k = 100 / s;
                    cells.add(time("top " + k + " eigenvectors (partial solver)", d + "x" + d, b, repeat, null, () -> spd(d),
                            m -> LinAlg.leadingEigenvectors(m, k)));
                    cells.add(time("sqrtm S^(1/2)", d + "x" + d, b, repeat, null, () -> spd(d), m -> LinAlg.spdPower(m, 0.5)));
                    cells.add(time("inverse sqrtm S^(-1/2)", d + "x" + d, b, repeat, null, () -> spd(d), m -> LinAlg.spdPower(m, -0.5)));
                }
                int pn = 2000 / s;
                int pd = 5000 / s;
                int pk = 100 / s;
                cells.add(time("principal axes, k = " + pk + " (n x n Gram route)", pn + "x" + pd, b, repeat, null,
                        () -> random(pn, pd, 4), x -> LinAlg.principalAxes(x, pk)));
                int c = 2048 / s;
                cells.add(time("cholesky", c + "x" + c, b, repeat, (double) c * c * c / 3.0, () -> spd(c), LinAlg::cholesky));
                progress.step();
            }
        } finally {
            LinAlg.useBackend(previous);
        }
        String md = markdown(cells, backends, repeat);
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("tool", "privadapt");
        report.put("version", Version.get());
        report.put("command", "bench linalg");
        report.put("created", Instant.now().toString());
        report.put("java", System.getProperty("java.version"));
        report.put("cores", Runtime.getRuntime().availableProcessors());
        report.put("backends", backends.stream().map(LinAlgBackend::description).toList());
        report.put("default_backend", previous.description());
        report.put("repeat", repeat);
        report.put("quick", quick);
        report.put("cells", cells);
        output.write(report, md, null, null);
        if (output.json) {
            out.println(Json.write(report));
        } else {
            out.print(md);
        }
        return ExitCodes.OK;
    }

    private static <T> Cell time(String op, String size, LinAlgBackend b, int repeat, Double flops,
                                 Supplier<DenseMatrix> input, java.util.function.Function<DenseMatrix, T> f) {
        f.apply(input.get()); // warm-up
        double[] ms = new double[repeat];
        for (int r = 0; r < repeat; r++) {
            DenseMatrix in = input.get();
            long t0 = System.nanoTime();
            T result = f.apply(in);
            ms[r] = (System.nanoTime() - t0) / 1e6;
            if (result == null) {
                throw new IllegalStateException("no result");
            }
        }
        Arrays.sort(ms);
        double median = ms[repeat / 2];
        return new Cell(op, size, b.name(), median, ms[0], flops == null ? null : flops / (median * 1e6));
    }

    static DenseMatrix random(int r, int c, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        DenseMatrix m = DenseMatrix.zeros(r, c);
        double[] a = m.data();
        for (int k = 0; k < a.length; k++) {
            a[k] = rng.nextDouble() - 0.5;
        }
        return m;
    }

    /** A well-conditioned SPD matrix: X^T X / n + I. */
    static DenseMatrix spd(int d) {
        DenseMatrix x = random(d + 64, d, 3);
        DenseMatrix g = LinAlg.gram(x);
        g.scaleInPlace(1.0 / (d + 64));
        return g.plusIdentity(1.0);
    }

    private static String markdown(List<Cell> cells, List<LinAlgBackend> backends, int repeat) {
        Map<String, Map<String, Cell>> rows = new LinkedHashMap<>();
        for (Cell c : cells) {
            rows.computeIfAbsent(c.operation() + " | " + c.size(), k -> new LinkedHashMap<>()).put(c.backend(), c);
        }
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "Median of %d timed call%s after one warm-up, in ms (GFLOP/s where the flop count is standard); "
                + "%d cores, Java %s.%n%n", repeat, repeat > 1 ? "s" : "", Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version")));
        sb.append("| operation | size |");
        for (LinAlgBackend b : backends) {
            sb.append(' ').append(b.name()).append(" |");
        }
        sb.append("\n|---|---|").append("---:|".repeat(backends.size())).append('\n');
        for (Map.Entry<String, Map<String, Cell>> e : rows.entrySet()) {
            sb.append("| ").append(e.getKey()).append(" |");
            for (LinAlgBackend b : backends) {
                Cell c = e.getValue().get(b.name());
                sb.append(c == null ? " |" : c.gflops() == null
                        ? String.format(Locale.ROOT, " %.1f |", c.medianMs())
                        : String.format(Locale.ROOT, " %.1f (%.1f) |", c.medianMs(), c.gflops()));
            }
            sb.append('\n');
        }
        sb.append("\nBackends: ");
        for (int i = 0; i < backends.size(); i++) {
            sb.append(i == 0 ? "" : "; ").append(backends.get(i).description());
        }
        sb.append('\n');
        return sb.toString();
    }
}
