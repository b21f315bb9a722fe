package org.privadapt.cli.commands;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.privadapt.cli.ExitCodes;
import org.privadapt.cli.Runs;
import org.privadapt.cli.UsageException;
import org.privadapt.cli.Version;
import org.privadapt.cli.report.Json;
import org.privadapt.cli.report.Report;
import org.privadapt.data.preprocess.DefaultPreprocessing;
import org.privadapt.data.synthetic.SyntheticShift;
import org.privadapt.math.LinAlg;
import org.privadapt.methods.core.AdaptationTask;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.PrivacyContext;
import org.privadapt.methods.core.TaskPreparation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code privadapt demo}: the embedded default. Generates a two-domain problem with a real covariate shift
 * ({@link SyntheticShift}) and runs, on the target: source-only and CORAL (not private), then DP source-only and
 * PRIMA at epsilon 2 per party, each with its privacy statement. Needs no files; secure noise unless {@code --seed}.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Run the main job on a generated two-domain problem with a covariate shift (needs no files):",
            "source-only and CORAL (not private), DP source-only and PRIMA (differentially private, epsilon 2 per party "
                + "by default), each with its privacy statement.",
            "The target domain is the source pushed through a stretch along random axes plus a shift; a logistic "
                + "regression is trained on the (adapted) source and tested on the target. Preprocessing follows the "
                + "default policy (README) for the private methods (rows to a fixed L2 norm); the non-private ones centre "
                + "each domain with its own mean."})
public final class DemoCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--data-seed", defaultValue = "42", description = "Seed of the generated problem (default: ${DEFAULT-VALUE}).")
    long dataSeed;

    @Option(names = "--dimension", defaultValue = "10", description = "Number of features (default: ${DEFAULT-VALUE}).")
    int dimension;

    @Option(names = "--classes", defaultValue = "4", description = "Number of classes (default: ${DEFAULT-VALUE}).")
    int classes;

    @Option(names = "--per-class", defaultValue = "150", description = "Examples per class in each domain (default: ${DEFAULT-VALUE}).")
    int perClass;

    @Option(names = "--stretch", defaultValue = "8", description = "Largest stretch factor of the target map (default: ${DEFAULT-VALUE}).")
    double stretch;

    @Option(names = "--epsilon", defaultValue = "2", paramLabel = "E",
            description = "What each party may spend in the private methods (default: ${DEFAULT-VALUE}).")
    double epsilon;

    @Option(names = "--delta", defaultValue = "1e-5", paramLabel = "D", description = "delta of each party (default: ${DEFAULT-VALUE}).")
    double delta;

    @Option(names = "--seed", paramLabel = "N",
            description = "Seeded noise for a reproducible demo: the private methods' results are then NOT PRIVATE.")
    Long seed;

    @Option(names = "--json", description = "Print the JSON result on standard output.")
    boolean json;

    @Option(names = "--refine", defaultValue = "default", paramLabel = "R",
            description = "The target's refinement of the private methods' models (default: the rule of docs/results/defaults.md, "
                    + "map-prototypes where the target has at most about 2 rows per class per feature, else none; none, auto, "
                    + "centroids, self-training; docs/privacy/target-refinements.md; default: ${DEFAULT-VALUE}).")
    String refine;

    static final List<String> NON_PRIVATE = List.of("source-only", "coral");

    @Option(names = "--private-methods", defaultValue = "dp-source-only,prima", paramLabel = "M[,M...]",
            description = "The private methods to run beside the two non-private ones (any of `privadapt run`'s private "
                    + "methods, e.g. dp-uda-gmm, dpda, pate; default: ${DEFAULT-VALUE}).")
    String privateMethods;

    @Override
    public Integer call() throws Exception {
        if (dimension < 2 || classes < 2 || perClass < 2 || !(stretch >= 1)) {
            throw new UsageException("demo needs --dimension >= 2, --classes >= 2, --per-class >= 2 and --stretch >= 1");
        }
        if (dimension > 10_000 || classes > 1_000 || perClass > 1_000_000 || (long) classes * perClass * dimension > 10_000_000L) {
            throw new UsageException("demo needs --dimension <= 10000, --classes <= 1000, --per-class <= 1000000 and at most 10^7 "
                    + "values per domain (--classes x --per-class x --dimension), got " + classes + " x " + perClass + " x " + dimension);
        }
        SyntheticShift.Config c = new SyntheticShift.Config(dimension, classes, perClass, perClass, 3.0, stretch, 3.0);
        org.privadapt.cli.PrivacyOptions.checkEpsilon("--epsilon", epsilon);
        if (!(delta > 0 && delta < 1)) {
            throw new UsageException("demo needs 0 < --delta < 1");
        }
        SyntheticShift.Problem p = SyntheticShift.generate(c, dataSeed);
        // the non-private methods centre each domain with its own mean (a mean shift is the part of this problem
        // anything centred removes; CORAL's gain is then the covariance alignment); the private ones take the
        // default policy's row-local steps, since centring a protected party would read its rows outside the accounting
        DefaultPreprocessing.Choice plain = new DefaultPreprocessing.Choice("center", "each domain centred with its own mean");
        DefaultPreprocessing.Choice priv = DefaultPreprocessing.choose(p.source(), true);
        String name = "synthetic source -> synthetic target";
        AdaptationTask plainTask = TaskPreparation.prepare(name, p.source(), p.target(), p.target(), plain.preprocessing());
        if (!List.of("default", "none", "auto", "centroids", "self-training").contains(refine)) {
            throw new UsageException("--refine must be default, none, auto, centroids or self-training (PRIMA's model takes no other), got '"
                    + refine + "'");
        }
        MethodConfig config = MethodConfig.defaults();
        MethodConfig privateConfig = config.withParam("refine", refine);
        List<Report.TaskResult> results = new ArrayList<>();
        for (String m : NON_PRIVATE) {
            results.add(Runs.repeat(Runs.method(m), plainTask, config, 1, null, "synthetic/source", "synthetic/target", null,
                    run -> PrivacyContext.secure(epsilon, delta)));
        }
        List<String> privateList = List.of(privateMethods.split(","));
        for (String m : privateList) {
            try {
                Runs.method(m);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--private-methods: " + e.getMessage());
            }
        }
        for (String m : privateList) {
            var method = Runs.method(m);
            AdaptationTask task = TaskPreparation.prepare(name, p.source(), p.target(), p.target(), priv.preprocessing(),
                    method.protectedParties());
            results.add(Runs.repeat(method, task, privateConfig, 1, null, "synthetic/source", "synthetic/target", null,
                    run -> seed == null ? PrivacyContext.secure(epsilon, delta) : PrivacyContext.seeded(epsilon, delta, seed + run)));
        }
        AdaptationTask task = plainTask;
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            Map<String, Object> cfg = new LinkedHashMap<>();
            cfg.put("problem", c);
            cfg.put("data_seed", dataSeed);
            cfg.put("preprocess", plain.spec());
            cfg.put("preprocess_private", priv.spec());
            cfg.put("epsilon", epsilon);
            cfg.put("delta", delta);
            cfg.put("seeded_noise", seed != null);
            cfg.put("classifier", config.classifier());
            cfg.put("l2", config.l2());
            Report r = new Report("privadapt", Version.get(), "demo", Instant.now().toString(),
                    Report.Environment.current(LinAlg.backend().description()), cfg,
                    List.of(Report.DatasetInfo.of("source", task.source()), Report.DatasetInfo.of("target", task.evaluation())),
                    results, List.of());
            out.println(Json.write(r));
            return ExitCodes.OK;
        }
        out.printf(Locale.ROOT, "privadapt demo: %d classes in %d dimensions, %d source and %d target examples (data seed %d)%n",
                classes, dimension, p.source().size(), p.target().size(), dataSeed);
        out.printf(Locale.ROOT, "target domain = source pushed through x -> A x + b (A stretches by up to %.0fx along random axes)%n", stretch);
        out.println();
        out.printf(Locale.ROOT, "  %-15s %-16s %s%n", "method", "target accuracy", "privacy");
        for (Report.TaskResult r : results) {
            out.printf(Locale.ROOT, "  %-15s %-16s %s%n", r.method(), Runs.percent(r), Runs.privacySummary(r));
        }
        double gain = results.get(1).accuracyMean() - results.get(0).accuracyMean();
        out.println();
        out.printf(Locale.ROOT, "CORAL %s source-only by %.1f points on the target, reading both parties' data in the clear.%n",
                gain >= 0 ? "beats" : "trails", 100 * Math.abs(gain));
        int dpso = privateList.indexOf("dp-source-only");
        int prima = privateList.indexOf("prima");
        if (dpso >= 0 && prima >= 0) {
            double a = results.get(2 + prima).accuracyMean();
            double b = results.get(2 + dpso).accuracyMean();
            out.printf(Locale.ROOT, "PRIMA adapts under differential privacy: each party spends at most epsilon %s (delta %s) and "
                    + "only DP releases cross between them;%nDP source-only trains the same model privately without adapting "
                    + "(PRIMA %s it by %.1f points).%n", Runs.formatNumber(epsilon), Runs.formatNumber(delta),
                    a >= b ? "beats" : "trails", 100 * Math.abs(a - b));
        }
        Report.TaskResult best = results.get(2);
        for (Report.TaskResult r : results.subList(2, results.size())) {
            if (r.accuracyMean() > best.accuracyMean()) {
                best = r;
            }
        }
        out.printf(Locale.ROOT, "Best private pipeline in this run: %s (%s); one run of one seed: compare several seeds before "
                + "choosing (--seed, --data-seed), and --private-methods tries others.%n", best.method(), Runs.percent(best));
        out.printf(Locale.ROOT, "Preprocessing: %s for the non-private methods (each domain centred with its own mean);%n"
                + "%s for the private ones (row-local: centring a protected party's rows would read them outside the "
                + "privacy accounting).%nWith %d rows per domain the private rows vary from run to run; --per-class 1000 "
                + "gives steadier numbers.%n", plain.spec(), priv.spec(), p.source().size());
        out.println(seed == null ? "Noise is drawn from a secure source, so the private rows change from run to run."
                : "NOT PRIVATE: --seed makes the noise reproducible, and reproducible noise protects nothing.");
        return ExitCodes.OK;
    }
}
