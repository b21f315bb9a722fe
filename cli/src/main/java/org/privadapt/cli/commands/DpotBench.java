package org.privadapt.cli.commands;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.privadapt.cli.ExitCodes;
import org.privadapt.cli.OutputOptions;
import org.privadapt.cli.Runs;
import org.privadapt.cli.UsageException;
import org.privadapt.cli.report.Json;
import org.privadapt.cli.report.Plots;
import org.privadapt.data.Dataset;
import org.privadapt.data.registry.BenchmarkRegistry;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.ot.SinkhornBenchmark;
import org.privadapt.methods.dpot.WassersteinError;

/**
 * {@code bench dpot-wasserstein}: paper 002 §5.1 / Figure 2, the relative error of DPOT's Wasserstein estimate against
 * the noise ratio sigma / w, whole batch (20 repetitions) and minibatch (batches of 128, 1000 random pairs of
 * batches by default), on an Office-Caltech10 pair (default C -> A, the two largest domains; the paper used
 * Office-Home Clipart -> Product, not available here). {@code bench sinkhorn}: time per Sinkhorn iteration and to
 * convergence.
 */
final class DpotBench {
    private final BenchmarkRegistry registry;
    private final PrintWriter out;
    private final OutputOptions output;

    private static org.privadapt.privacy.noise.NoiseSource noise(Long seed, int offset) {
        return seed == null ? org.privadapt.privacy.noise.NoiseSource.secure() : org.privadapt.privacy.noise.NoiseSource.seeded(seed + offset);
    }

    DpotBench(BenchmarkRegistry registry, PrintWriter out, OutputOptions output) {
        this.registry = registry;
        this.out = out;
        this.output = output;
    }

    /** @param seed seeded noise (reproducible, NOT PRIVATE) when not null; secure noise otherwise */
    int wasserstein(String task, String preprocess, int runs, int minibatches, double reg, Path plot, Long seed) throws Exception {
        String[] st = (task == null ? "caltech:amazon" : task).split(":");
        if (!(reg > 0 && reg < 1)) {
            throw new UsageException("--param reg: the entropic regularisation (relative to the cost's range) must be in (0, 1), got " + reg);
        }
        if (st.length != 2) {
            throw new UsageException("--tasks: one pair SOURCE:TARGET of office-caltech10 domains, got '" + task + "'");
        }
        if (!registry.present(registry.suite("office-caltech10"))) {
            throw new UsageException("office-caltech10 is not under the data root " + registry.root());
        }
        String s = domain(st[0]);
        String t = domain(st[1]);
        // default: the rows of Table 1 (L2 norm 28, features of order one, the scale at which an attribute change of
        // at most 1, the paper's relation, is meaningful); row-local, so nothing is fitted across rows
        String steps = preprocess == null ? "l2,scale=28" : preprocess;
        org.privadapt.data.preprocess.Preprocessing pre = Runs.preprocessing(steps);
        DenseMatrix xs = pre.fitAndApply(registry.load("office-caltech10", s, null)).denseFeatures();
        DenseMatrix xt = pre.fitAndApply(registry.load("office-caltech10", t, null)).denseFeatures();
        int l = Math.max(1, Math.round(xs.cols() / 10f));
        double[] ratios = {0.0, 0.1, 0.25, 0.5, 0.7, 1.0, 1.3, 1.6}; // 0: the JL projection's own error
        List<Map<String, Object>> rows = new ArrayList<>();
        double[][] whole = new double[2][ratios.length];
        double[][] mini = new double[2][ratios.length];
        StringBuilder md = new StringBuilder(String.format(Locale.ROOT,
                "DPOT Wasserstein error, office-caltech10 %s -> %s (%d x %d rows, k = %d, l = %d, preprocessing %s); "
                        + "Err = |W~ - W| / W, mean ± sd; whole batch over %d runs, minibatch (128) over %d random batch pairs; "
                        + "entropic OT at reg %.0e of the true cost's range; sigma/w = 0 is the error of the projection alone.%n%n"
                        + "| sigma/w | whole batch | minibatch |%n|---:|---:|---:|%n", s, t, xs.rows(), xt.rows(), xs.cols(), l, steps, runs, minibatches, reg));
        org.privadapt.cli.Progress progress = org.privadapt.cli.Progress.start("dpot-wasserstein", 2L * ratios.length, !output.json);
        for (int i = 0; i < ratios.length; i++) {
            progress.message("sigma/w " + ratios[i]);
            double[] ew = WassersteinError.errors(xs, xt, ratios[i], l, runs, 0, reg, noise(seed, i));
            progress.step();
            double[] em = WassersteinError.errors(xs, xt, ratios[i], l, minibatches, 128, reg, noise(seed, 100 + i));
            progress.step();
            whole[0][i] = ratios[i];
            whole[1][i] = mean(ew);
            mini[0][i] = ratios[i];
            mini[1][i] = mean(em);
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("noise_ratio", ratios[i]);
            r.put("whole_mean", mean(ew));
            r.put("whole_sd", sd(ew));
            r.put("minibatch_mean", mean(em));
            r.put("minibatch_sd", sd(em));
            rows.add(r);
            md.append(String.format(Locale.ROOT, "| %.2f | %.3f ± %.3f | %.3f ± %.3f |%n", ratios[i], mean(ew), sd(ew), mean(em), sd(em)));
        }
        progress.close();
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("command", "bench dpot-wasserstein");
        report.put("whole_batch_runs", runs);
        report.put("minibatch_runs", minibatches);
        report.put("noise", seed == null ? "secure" : "seeded " + seed + " (reproducible)");
        report.put("source", s);
        report.put("target", t);
        report.put("projection_dim", l);
        report.put("reg", reg);
        report.put("preprocess", steps);
        report.put("rows", rows);
        Map<String, double[][]> series = new LinkedHashMap<>();
        series.put("whole batch", whole);
        series.put("minibatch (128)", mini);
        byte[] png = plot == null ? null : Plots.linesPng("DPOT: Wasserstein error, " + s + " -> " + t, "noise ratio sigma / w",
                "relative error |W~ - W| / W", series);
        output.write(report, md.toString(), plot, png);
        out.print(output.json ? Json.write(report) + "\n" : md);
        return ExitCodes.OK;
    }

    int sinkhorn(boolean quick) {
        int[] sizes = quick ? new int[] {200} : new int[] {1000, 3000};
        double[] regs = {1e-2, 1e-3};
        List<SinkhornBenchmark.Result> results = new ArrayList<>();
        StringBuilder md = new StringBuilder("Sinkhorn (stabilised scaling) on n x n random problems (d = 64, squared Euclidean cost scaled "
                + "to max 1, uniform weights); median of 3.\n\n| n | reg | iterations | ms / iteration | ms to convergence | converged | backend |\n"
                + "|---:|---:|---:|---:|---:|---|---|\n");
        org.privadapt.cli.Progress progress = org.privadapt.cli.Progress.startWithLines("sinkhorn", (long) sizes.length * regs.length, !output.json);
        for (int n : sizes) {
            for (double reg : regs) {
                progress.message("n " + n + ", reg " + reg);
                SinkhornBenchmark.Result r = SinkhornBenchmark.run(n, reg, quick ? 1 : 3, 1L);
                progress.step();
                results.add(r);
                md.append(String.format(Locale.ROOT, "| %d | %.0e | %d | %.3f | %.1f | %s | %s |%n", r.n(), r.reg(), r.iterations(),
                        r.millisPerIteration(), r.millisToConvergence(), r.converged(), r.backend()));
            }
        }
        progress.close();
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("command", "bench sinkhorn");
        report.put("results", results);
        output.write(report, md.toString(), null, null);
        out.print(output.json ? Json.write(report) + "\n" : md);
        return ExitCodes.OK;
    }

    private static String domain(String x) {
        return switch (x.toLowerCase(Locale.ROOT)) {
            case "a", "amazon" -> "amazon";
            case "c", "caltech" -> "caltech";
            case "d", "dslr" -> "dslr";
            case "w", "webcam" -> "webcam";
            default -> throw new UsageException("unknown office-caltech10 domain '" + x + "'");
        };
    }

    private static double mean(double[] a) {
        return Arrays.stream(a).average().orElse(Double.NaN);
    }

    private static double sd(double[] a) {
        double m = mean(a);
        return Math.sqrt(Arrays.stream(a).map(v -> (v - m) * (v - m)).sum() / Math.max(1, a.length - 1));
    }
}
