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

    @Option(names = "--release", defaultValue = "ncm", paramLabel = "NAME",
            description = "The release to audit: ${COMPLETION-CANDIDATES}. Default: ${DEFAULT-VALUE}.", completionCandidates = AuditCommand.Names.class)
    String release;

    /** The auditable releases, for the help text. */
    static final class Names extends ArrayList<String> {
        Names() {
            super(ReleaseAudit.RELEASES);
        }
    }

    @Option(names = "--epsilon", defaultValue = "2", paramLabel = "E", description = "The claimed epsilon (default: ${DEFAULT-VALUE}).")
    double epsilon;

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
        long trials = trialsOption != null ? trialsOption : ReleaseAudit.RELEASES.contains(release)
                ? ReleaseAudit.release(release).defaultTrials() : 1;
        if (!ReleaseAudit.RELEASES.contains(release)) {
            throw new UsageException("--release: unknown release '" + release + "' (auditable: " + String.join(", ", ReleaseAudit.RELEASES)
                    + ")");
        }
        if (!(epsilon > 0) || Double.isInfinite(epsilon) || !(delta > 0 && delta < 1) || !(confidence > 0 && confidence < 1)
                || trials < 4 || trials > 200_000_000L) {
            throw new UsageException("audit needs --epsilon > 0, 0 < --delta < 1, 0 < --confidence < 1 and 4 <= --trials <= 2e8");
        }
        List<NeighbouringRelation> rels = switch (relation) {
            case "both" -> List.of(NeighbouringRelation.ADD_OR_REMOVE_ONE, NeighbouringRelation.REPLACE_ONE);
            case "add-remove" -> List.of(NeighbouringRelation.ADD_OR_REMOVE_ONE);
            case "replace" -> List.of(NeighbouringRelation.REPLACE_ONE);
            default -> throw new UsageException("--relation must be add-remove, replace or both, got '" + relation + "'");
        };
        java.util.Set<NeighbouringRelation> stated = ReleaseAudit.release(release).relations();
        if ("both".equals(relation)) {
            rels = rels.stream().filter(stated::contains).toList();
        } else if (!stated.contains(rels.get(0))) {
            throw new UsageException("--relation: " + release + " is stated under " + stated.stream().map(NeighbouringRelation::description)
                    .toList() + " only");
        }
        List<Map<String, Object>> rows = new ArrayList<>();
        for (NeighbouringRelation rel : rels) {
            NoiseSource noise = seed == null ? NoiseSource.secure() : NoiseSource.seeded(seed);
            Map<String, Object> m = new LinkedHashMap<>(ReleaseAudit.audit(release, rel, epsilon, delta, trials, 1 - confidence, noise));
            m.put("noise", seed == null ? "secure" : "seeded (NOT PRIVATE)");
            rows.add(m);
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
        out.printf(Locale.ROOT, "%nat delta %.3g; the bound holds with probability %.3g; a bound above the claim means the release "
                + "leaks more than it states%n", delta, confidence);
        return ExitCodes.OK;
    }
}
