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
import org.privadapt.data.preprocess.Preprocessing;
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
 * ({@link SyntheticShift}) and compares a source-only model with CORAL on the target. Needs no files.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Run the methods on a generated two-domain problem with a covariate shift (needs no files).",
            "The target domain is the source pushed through a stretch along random axes plus a shift; each domain is "
                + "centred with its own mean; a logistic regression is trained on the (adapted) source and tested on the target."})
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

    @Option(names = "--json", description = "Print the JSON result on standard output.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        if (dimension < 2 || classes < 2 || perClass < 2 || !(stretch >= 1)) {
            throw new UsageException("demo needs --dimension >= 2, --classes >= 2, --per-class >= 2 and --stretch >= 1");
        }
        SyntheticShift.Config c = new SyntheticShift.Config(dimension, classes, perClass, perClass, 3.0, stretch, 3.0);
        SyntheticShift.Problem p = SyntheticShift.generate(c, dataSeed);
        Preprocessing pre = Preprocessing.parse("center");
        AdaptationTask task = TaskPreparation.prepare("synthetic source -> synthetic target", p.source(), p.target(), p.target(), pre);
        MethodConfig config = MethodConfig.defaults();
        List<Report.TaskResult> results = new ArrayList<>();
        for (String m : List.of("source-only", "coral")) {
            results.add(Runs.repeat(Runs.method(m), task, config, 1, null, "synthetic/source", "synthetic/target", null,
                    run -> PrivacyContext.secure(1.0, 1e-5)));
        }
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            Map<String, Object> cfg = new LinkedHashMap<>();
            cfg.put("problem", c);
            cfg.put("data_seed", dataSeed);
            cfg.put("preprocess", pre.spec());
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
        out.printf(Locale.ROOT, "  %-14s %-16s %s%n", "method", "target accuracy", "privacy");
        for (Report.TaskResult r : results) {
            out.printf(Locale.ROOT, "  %-14s %-16s %s%n", r.method(), Runs.percent(r), Runs.privacySummary(r));
        }
        double gain = results.get(1).accuracyMean() - results.get(0).accuracyMean();
        out.println();
        out.printf(Locale.ROOT, "CORAL %s source-only by %.1f points on the target.%n", gain >= 0 ? "beats" : "trails", 100 * Math.abs(gain));
        return ExitCodes.OK;
    }
}
