package org.privadapt.cli.commands;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.privadapt.cli.ExitCodes;
import org.privadapt.cli.UsageException;
import org.privadapt.cli.report.Json;
import org.privadapt.methods.audit.ReleaseAudit;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.noise.NoiseSource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code privadapt audit}: an empirical lower bound on a release's epsilon beside its claim (docs/privacy/audit.md). */
@Command(name = "audit", mixinStandardHelpOptions = true,
        description = "Run a release many times on worst-case neighbouring datasets, attack each output, and print a lower "
                + "bound on its epsilon (Clopper-Pearson, at --confidence) beside the epsilon it claims.")
public final class AuditCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--release", defaultValue = "ncm", paramLabel = "NAMES",
            description = "The release(s) to audit, comma-separated, or 'all': ${COMPLETION-CANDIDATES}. Default: ${DEFAULT-VALUE}.",
            completionCandidates = AuditCommand.Names.class)
    String release;

    /** The auditable releases, for the help text. */
    static final class Names extends ArrayList<String> {
        Names() {
            super(ReleaseAudit.RELEASES);
        }
    }

    @Option(names = "--epsilon", defaultValue = "2", paramLabel = "E[,E...]",
            description = "The claimed epsilon(s), comma-separated (default: ${DEFAULT-VALUE}).")
    String epsilons;

    @Option(names = "--plot", paramLabel = "FILE.png",
            description = "Also write a plot of the lower bound against the claimed epsilon, one series per release and relation, "
                    + "beside the line where the bound would equal the claim.")
    java.nio.file.Path plot;

    @Option(names = "--delta", defaultValue = "1e-5", paramLabel = "D", description = "The claimed delta (default: ${DEFAULT-VALUE}).")
    double delta;

    @Option(names = "--relation", defaultValue = "both", paramLabel = "R",
            description = "add-remove, replace or both (default: ${DEFAULT-VALUE}).")
    String relation;

    @Option(names = "--trials", paramLabel = "T",
            description = "Outputs per dataset (half choose the attack's threshold, half are counted; default 1000000), or, for "
                    + "dp-sgd, canaries (in training runs of 1000; default 1000).")
    Long trialsOption;

    @Option(names = "--confidence", defaultValue = "0.95", paramLabel = "C",
            description = "Probability that the printed lower bound holds (default: ${DEFAULT-VALUE}).")
    double confidence;

    @Option(names = "--seed", paramLabel = "N", description = "Seeded noise (reproducible; the audited noise is then the seeded generator's).")
    Long seed;

    @Option(names = "--json", description = "Print JSON on standard output.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        List<String> names = "all".equals(release) ? ReleaseAudit.RELEASES : List.of(release.split(","));
        for (String n : names) {
            if (!ReleaseAudit.RELEASES.contains(n)) {
                throw new UsageException("--release: unknown release '" + n + "' (auditable: " + String.join(", ", ReleaseAudit.RELEASES)
                        + ", or all)");
            }
        }
        List<Double> eps = new ArrayList<>();
        for (String e : epsilons.split(",")) {
            try {
                eps.add(Double.parseDouble(e.trim()));
            } catch (NumberFormatException ex) {
                throw new UsageException("--epsilon: not a number: '" + e + "'");
            }
        }
        for (double e : eps) {
            org.privadapt.cli.PrivacyOptions.checkEpsilon("--epsilon", e);
        }
        if (plot != null && !plot.toString().endsWith(".png")) {
            throw new UsageException("--plot: the file name must end in .png, got '" + plot + "'");
        }
        if (plot != null) {
            org.privadapt.cli.PartyOptions.requireWritable(plot, "--plot");
        }
        if (eps.stream().anyMatch(e -> !(e > 0) || e.isInfinite()) || !(delta > 0 && delta < 1) || !(confidence > 0 && confidence < 1)
                || (trialsOption != null && (trialsOption < 4 || trialsOption > 200_000_000L))) {
            throw new UsageException("audit needs --epsilon > 0, 0 < --delta < 1, 0 < --confidence < 1 and 4 <= --trials <= 2e8");
        }
        List<NeighbouringRelation> asked = switch (relation) {
            case "both" -> List.of(NeighbouringRelation.ADD_OR_REMOVE_ONE, NeighbouringRelation.REPLACE_ONE);
            case "add-remove" -> List.of(NeighbouringRelation.ADD_OR_REMOVE_ONE);
            case "replace" -> List.of(NeighbouringRelation.REPLACE_ONE);
            default -> throw new UsageException("--relation must be add-remove, replace or both, got '" + relation + "'");
        };
        for (String n : names) {
            java.util.Set<NeighbouringRelation> stated = ReleaseAudit.release(n).relations();
            if (!"both".equals(relation) && !stated.contains(asked.get(0))) {
                throw new UsageException("--relation: " + n + " is stated under " + stated.stream().map(NeighbouringRelation::description)
                        .toList() + " only");
            }
        }
        List<Map<String, Object>> rows = new ArrayList<>();
        java.util.Set<String> noted = new java.util.HashSet<>();
        for (String n : names) {
            long trials = trialsOption != null ? trialsOption : ReleaseAudit.release(n).defaultTrials();
            for (double e : eps) {
                for (NeighbouringRelation rel : asked) {
                    if (!ReleaseAudit.release(n).relations().contains(rel)) {
                        continue;
                    }
                    NoiseSource noise = seed == null ? NoiseSource.secure() : NoiseSource.seeded(seed);
                    Map<String, Object> m = new LinkedHashMap<>(ReleaseAudit.audit(n, rel, e, delta, trials, 1 - confidence, noise));
                    m.put("noise", seed == null ? "secure" : "seeded (NOT PRIVATE)");
                    if (trialsOption != null && m.get("canaries") instanceof Number c && c.longValue() != trialsOption
                            && noted.add(n)) {
                        // a one-run audit trains on whole runs of canaries: say so rather than run more than asked silently
                        long runs = ((Number) m.get("training_runs")).longValue();
                        spec.commandLine().getErr().println("privadapt: note: " + n + " is audited in training runs of "
                                + (c.longValue() / runs) + " canaries: --trials " + trialsOption + " ran " + c.longValue()
                                + " canaries (" + runs + " run" + (runs == 1 ? "" : "s") + ")");
                    }
                    rows.add(m);
                }
            }
        }
        if (plot != null) {
            Map<String, double[][]> series = new LinkedHashMap<>();
            double top = eps.stream().mapToDouble(Double::doubleValue).max().orElse(1);
            series.put("claim (bound = claimed epsilon)", new double[][] {{0, top}, {0, top}});
            Map<String, List<double[]>> points = new LinkedHashMap<>();
            for (Map<String, Object> m : rows) {
                points.computeIfAbsent(m.get("release") + ", " + m.get("relation"), k -> new ArrayList<>())
                        .add(new double[] {(Double) m.get("claimed_epsilon"), (Double) m.get("empirical_epsilon_lower_bound")});
            }
            points.forEach((k, v) -> series.put(k, new double[][] {v.stream().mapToDouble(p -> p[0]).toArray(),
                    v.stream().mapToDouble(p -> p[1]).toArray()}));
            org.privadapt.cli.report.AtomicFiles.write(plot, org.privadapt.cli.report.Plots.linesPng("Empirical lower bound vs claimed epsilon"
                    + " (delta " + delta + ", " + Math.round(100 * confidence) + " % confidence)", "claimed epsilon",
                    "empirical lower bound on epsilon", series));
        }
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            Map<String, Object> all = new LinkedHashMap<>();
            all.put("command", "audit");
            all.put("audits", rows);
            out.println(Json.write(all));
            return ExitCodes.OK;
        }
        out.println("| release | relation | claimed epsilon | empirical lower bound | tightness | confidence | outputs per dataset (or canaries) | seconds |");
        out.println("|---|---|---:|---:|---:|---:|---:|---:|");
        for (Map<String, Object> m : rows) {
            double lb = (Double) m.get("empirical_epsilon_lower_bound");
            double claimed = (Double) m.get("claimed_epsilon");
            out.printf(Locale.ROOT, "| %s | %s | %.4g | %.4g | %.0f %% | %.3g | %d | %.1f |%n", m.get("release"), m.get("relation"), claimed, lb,
                    100 * lb / claimed, confidence, ((Number) m.getOrDefault("trials_per_dataset", m.get("canaries"))).longValue(),
                    (Double) m.get("seconds"));
        }
        if (plot != null) {
            out.println();
            out.println("plot: " + plot);
        }
        out.printf(Locale.ROOT, "%nat delta %.3g; the bound holds with probability %.3g; a bound above the claim means the release "
                + "leaks more than it states%n", delta, confidence);
        return ExitCodes.OK;
    }
}
