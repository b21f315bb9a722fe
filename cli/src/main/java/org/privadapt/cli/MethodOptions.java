package org.privadapt.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import org.privadapt.methods.core.MethodConfig;
import picocli.CommandLine.Option;

/** Method settings shared by {@code run} and {@code bench}. */
public final class MethodOptions {
    @Option(names = "--param", paramLabel = "NAME=VALUE", description = "Method parameter, e.g. lambda=1 for coral (repeatable).")
    public Map<String, String> params = new LinkedHashMap<>();

    @Option(names = "--classifier", defaultValue = "lr", paramLabel = "lr|dnn",
            description = "Downstream classifier: lr (multinomial logistic regression) or dnn (a network, --param hidden=...; default: ${DEFAULT-VALUE}).")
    public String classifier;

    @Option(names = "--l2", defaultValue = "1e-3", description = "L2 penalty of the classifier (default: ${DEFAULT-VALUE}).")
    public double l2;

    @Option(names = "--task", paramLabel = "auto|classification|regression", defaultValue = "auto",
            description = "What the labels are: auto (as the data say: a suite's declared task, real-valued or class labels in a "
                    + "file), classification, or regression (class labels become real targets: numeric class names as numbers, "
                    + "two non-numeric classes as -1 / +1 in their sorted order; reports MSE). Default: ${DEFAULT-VALUE}.")
    public String task;

    /** The dataset with labels of the kind {@code --task} asks for. */
    public org.privadapt.data.Dataset withTask(org.privadapt.data.Dataset d) throws org.privadapt.data.DataException {
        if (!d.hasLabels() || task.equals("auto")) {
            return d;
        }
        org.privadapt.data.Labels y = d.labels().orElseThrow();
        switch (task) {
            case "regression" -> {
                if (y instanceof org.privadapt.data.ClassLabels c) {
                    return d.withLabels(org.privadapt.data.RealTargets.fromClasses(c, d.firstFile()), "class labels as real targets (--task regression)");
                }
                if (y instanceof org.privadapt.data.MultiLabels) {
                    throw new org.privadapt.data.DataException(d.firstFile(), null, "domain '" + d.domain() + "' has multi-label "
                            + "targets; --task regression does not support multi-label targets");
                }
                return d;
            }
            case "classification" -> {
                if (y instanceof org.privadapt.data.RealTargets) {
                    throw new org.privadapt.data.DataException(d.firstFile(), null, "domain '" + d.domain() + "' has real-valued "
                            + "targets; --task classification needs class labels");
                }
                return d;
            }
            default -> throw new org.privadapt.cli.UsageException("--task must be auto, classification or regression, got '" + task + "'");
        }
    }

    /** The most repetitions a run or bench cell takes (each run's result is held until the cell's summary). */
    public static final int MAX_RUNS = 10_000;

    @Option(names = "--runs", defaultValue = "1", description = "Repetitions, at most 10000 (default: ${DEFAULT-VALUE}).")
    public int runs;

    /** Checks the values and builds the configuration, with {@code extra} parameters added. */
    /**
     * Checks every {@code --param} name (and {@code extra}, e.g. a swept parameter) against what the methods read.
     *
     * @throws UsageException naming the unknown parameter and the valid ones
     */
    public void checkNames(java.util.List<? extends org.privadapt.methods.core.AdaptationMethod> methods, java.util.Set<String> extra) {
        Map<String, String> all = new LinkedHashMap<>(params);
        all.remove(DataSpecs.ENCODER_PARAM); // read by the data loader for the text suites, whichever the method
        extra.forEach(e -> all.put(e, ""));
        try {
            org.privadapt.methods.core.MethodParameters.check(methods, all);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage(), e);
        }
    }

    public MethodConfig config(Map<String, String> extra) {
        if (runs < 1 || runs > MAX_RUNS) {
            // every run's result is held for the table's mean and deviation: a billion runs ran 75 s to an OutOfMemoryError
            throw new UsageException("--runs must be in [1, " + MAX_RUNS + "], got " + runs);
        }
        if (!(l2 >= 0)) {
            throw new UsageException("--l2 must be >= 0, got " + l2);
        }
        if (!"lr".equals(classifier) && !"dnn".equals(classifier)) {
            throw new UsageException("--classifier must be lr or dnn, got '" + classifier + "'");
        }
        Map<String, String> p = new LinkedHashMap<>(params);
        p.putAll(extra);
        return new MethodConfig(classifier, l2, 1L, p);
    }

    public Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("classifier", classifier);
        m.put("l2", l2);
        m.put("params", params);
        m.put("runs", runs);
        return m;
    }
}
