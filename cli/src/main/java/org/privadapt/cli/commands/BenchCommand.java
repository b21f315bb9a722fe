package org.privadapt.cli.commands;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.privadapt.cli.DataSpecs;
import org.privadapt.cli.ExitCodes;
import org.privadapt.cli.MethodOptions;
import org.privadapt.cli.OutputOptions;
import org.privadapt.cli.PrivacyOptions;
import org.privadapt.cli.UsageException;
import org.privadapt.cli.report.Report;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code privadapt bench SUITE}: methods x tasks x repetitions (x a parameter sweep) on a benchmark suite, with a
 * results table, JSON, Markdown and, for sweeps, a PNG plot. {@code privadapt bench linalg}: the linear-algebra
 * backends side by side.
 *
 * <p>This class holds the options and picks the bench: a suite's is {@link SuiteBench} (its privacy paragraphs
 * {@link BenchSummaries}), the others {@link LinalgBench}, {@link AccountingBench}, {@link DpSgdBench},
 * {@link DpotBench} and {@link ScaleBench}.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Benchmark methods on a suite of ../shared/data (all its tasks by default), or the "
            + "linear-algebra backends ('bench linalg').",
            "Example: privadapt bench office-caltech10 --methods source-only,coral --runs 1 --markdown results.md"})
public final class BenchCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SUITE",
            description = "A suite name (see 'privadapt datasets'), or 'linalg' (linear-algebra backends), 'accounting' "
                    + "(accountant speed), 'noise' (noise samplers' throughput) or 'dpsgd' (a DP-SGD epoch vs a non-private one), "
                    + "'dpot-wasserstein' (paper 002 Fig. 2: DPOT's Wasserstein error against sigma/w), 'sinkhorn' (OT solver speed), "
                    + "'scale' (target moments and ncm on 10^5..10^7 synthetic rows: load-everything, streaming, Spark local[2]; "
                    + "rows/s and peak memory, docs/spark.md).")
    String suiteName;

    @Option(names = "--methods", split = ",", paramLabel = "NAME", defaultValue = "source-only,coral",
            description = "Methods to compare (default: ${DEFAULT-VALUE}).")
    List<String> methods;

    @Option(names = "--tasks", split = ",", paramLabel = "S:T",
            description = "Tasks as SOURCE:TARGET (or 'SOURCE->TARGET', quoted for the shell) with domain names or short "
                    + "names, e.g. A:W,C:D (default: all ordered pairs).")
    List<String> tasks;

    @Option(names = "--preprocess", paramLabel = "STEPS",
            description = "Preprocessing steps, each fitted on its own party's data (default: l2,scale=floor(sqrt(d)) when a "
                    + "private method is compared, else by the kind of data, as for run; printed).")
    String preprocess;

    @Option(names = "--jobs", paramLabel = "N", defaultValue = "1",
            description = "Repetitions run at once (each has its own seed and noise, so results do not depend on N; default: ${DEFAULT-VALUE}).")
    int jobs;

    @Option(names = "--sweep", paramLabel = "NAME=V1,V2,...", description = "Sweep one method parameter over values (plotted with --plot).")
    String sweep;

    @Option(names = "--plot", paramLabel = "FILE.png", description = "Write a PNG plot: accuracy against the swept parameter "
            + "(--sweep, or several --epsilon values; methods without it as flat reference lines), or, for a plain bench, "
            + "grouped bars per task and method, with the run-to-run deviation as error bars.")
    Path plot;

    @Option(names = "--minibatches", defaultValue = "1000", paramLabel = "N",
            description = "dpot-wasserstein only: random pairs of 128-row batches per noise ratio (default: ${DEFAULT-VALUE}).")
    int minibatches;

    @Option(names = "--sizes", split = ",", paramLabel = "NxD",
            description = "scale only: the cells to run, e.g. 1e6x256,1e7x100 (default: n in 1e5, 1e6, 1e7 x d in 64, 256, 1024; a "
                    + "cell whose CSV would not fit in the temporary directory is listed as not run).")
    List<String> sizes;

    @Option(names = "--engines", split = ",", paramLabel = "NAME",
            description = "scale only: load, stream, spark (default: all three; spark runs when Spark and the spark-cli engine are on "
                    + "the classpath).")
    List<String> engines;

    @Option(names = "--quick", description = "linalg, sinkhorn and scale: small sizes, one repetition (a smoke test of a minute, not a "
            + "measurement; the full runs take over 10 minutes and print a line per finished row on standard error).")
    boolean quick;

    @Option(names = "--backends", split = ",", paramLabel = "NAME",
            description = "linalg only: backends to compare (default: native if present, netlib-java, ejml).")
    List<String> backends;

    @Option(names = "--checkpoint", paramLabel = "FILE.json",
            description = {"Save the results after every finished cell (task x method x swept value) to FILE, and reuse "
                    + "the cells FILE already holds: an interrupted bench resumes where it stopped. FILE must have been "
                    + "written with the same settings (classifier, runs, preprocessing, privacy, seed, ...; the lists of "
                    + "tasks, methods and swept values may differ). Repetition r is seeded with seed + r, so with --seed "
                    + "a resumed bench gives the numbers of an uninterrupted one."})
    Path checkpoint;

    @Mixin
    MethodOptions methodOptions;

    @Mixin
    PrivacyOptions privacy;

    @Mixin
    DataSpecs data;

    @Mixin
    OutputOptions output;

    private double regParam() {
        String v = methodOptions.params.getOrDefault("reg", "1e-2");
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new UsageException("--param reg: not a number: '" + v + "'");
        }
    }

    @Override
    public Integer call() throws Exception {
        if ("linalg".equals(suiteName)) {
            return new LinalgBench(quick, backends, spec.commandLine().getOut(), output).run();
        }
        if ("accounting".equals(suiteName)) {
            return new AccountingBench(spec.commandLine().getOut(), output).run();
        }
        if ("dpsgd".equals(suiteName)) {
            return new DpSgdBench(data.registry(), spec.commandLine().getOut(), output).run();
        }
        if ("dpot-wasserstein".equals(suiteName)) {
            if (minibatches < 1 || minibatches > 1_000_000) {
                throw new UsageException("--minibatches must be in [1, 1000000], got " + minibatches);
            }
            return new DpotBench(data.registry(), spec.commandLine().getOut(), output).wasserstein(
                    tasks == null || tasks.isEmpty() ? null : tasks.get(0), preprocess,
                    spec.commandLine().getParseResult().hasMatchedOption("--runs") ? methodOptions.runs : 20, // explicit --runs 1 honoured
                    minibatches, regParam(), plot, privacy.seeded() ? privacy.seedValue() : null);
        }
        if ("scale".equals(suiteName)) {
            return new ScaleBench(quick, sizes, engines, spec.commandLine().getOut(), spec.commandLine().getErr(), output).run();
        }
        if ("sinkhorn".equals(suiteName)) {
            return new DpotBench(data.registry(), spec.commandLine().getOut(), output).sinkhorn(quick);
        }
        if ("noise".equals(suiteName)) {
            org.privadapt.privacy.noise.NoiseBenchmark.main(new String[0]);
            return ExitCodes.OK;
        }
        return new SuiteBench(this).run();
    }

    /**
     * What each private method spent per cell, per party ({@link BenchSummaries#perMethodText}).
     */
    static String perMethodText(List<Report.TaskResult> results) {
        return BenchSummaries.perMethodText(results);
    }
}
