package org.privadapt.cli.report;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Map;
import org.privadapt.data.Dataset;
import org.privadapt.data.Provenance;
import org.privadapt.privacy.PrivacyCost;

/**
 * The JSON result of a {@code run} or {@code bench}: tool and environment, the configuration, every dataset read
 * (with file hashes and preprocessing), and per task and method the accuracy over the runs and what each party
 * spent. Field names are part of the CLI's interface (scripts read them).
 */
@JsonPropertyOrder({"tool", "version", "command", "created", "environment", "config", "datasets", "results", "privacy_totals",
    "warnings"})
public record Report(String tool, String version, String command, String created, Environment environment,
                     Map<String, Object> config, List<DatasetInfo> datasets, List<TaskResult> results,
                     @com.fasterxml.jackson.annotation.JsonProperty("privacy_totals")
                     @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
                     List<DomainTotal> privacyTotals,
                     List<String> warnings) {

    public Report(String tool, String version, String command, String created, Environment environment,
                  Map<String, Object> config, List<DatasetInfo> datasets, List<TaskResult> results, List<String> warnings) {
        this(tool, version, command, created, environment, config, datasets, results, List.of(), warnings);
    }

    /**
     * What one party's domain spent over a whole bench: every cell (task x method x swept value, all repetitions)
     * that read it privately composes, because all of them are released about the same records. {@code cells}
     * counts them; a domain read without privacy in any cell is not private at all.
     */
    @com.fasterxml.jackson.annotation.JsonIgnoreProperties(value = "unprotected", allowGetters = true)
    public record DomainTotal(String party, String domain, @com.fasterxml.jackson.annotation.JsonProperty("private") boolean isPrivate,
                              @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.ALWAYS) Object epsilon,
                              Double delta, int cells, String note) {
        /** True when the party's data was read without differential privacy (epsilon is then null). */
        @com.fasterxml.jackson.annotation.JsonProperty("unprotected")
        public boolean unprotected() {
            return Report.unprotected(epsilon);
        }
    }

    /**
     * Whether an epsilon stands for "read without differential privacy": JSON null (reports since 0.1: epsilon null
     * with {@code "unprotected": true}), or the string "inf" of older reports and checkpoints.
     */
    public static boolean unprotected(Object epsilon) {
        return epsilon == null || "inf".equals(epsilon);
    }

    /** Where it ran. */
    public record Environment(String java, String os, String linalg, int cores) {
        public static Environment current(String linalg) {
            return new Environment(System.getProperty("java.version"), System.getProperty("os.name") + " "
                    + System.getProperty("os.arch"), linalg, Runtime.getRuntime().availableProcessors());
        }
    }

    /** One dataset as read, with its files and what was done to it. */
    public record DatasetInfo(String role, String domain, int rows, int cols, String labels,
                              List<Provenance.SourceFile> files, List<String> steps) {
        public static DatasetInfo of(String role, Dataset d) {
            String labels = d.labels().map(l -> l instanceof org.privadapt.data.ClassLabels c ? c.numClasses() + " classes"
                    : l instanceof org.privadapt.data.MultiLabels m ? m.numLabels() + " binary labels (multi-label)"
                    : "real-valued").orElse("none");
            return new DatasetInfo(role, d.domain(), d.size(), d.dimension(), labels, d.provenance().files(),
                    d.provenance().steps());
        }
    }

    /**
     * The score of one method on one task over {@code runs} repetitions, and the privacy each party spent.
     * {@code sweep} holds the swept parameter's value when the result is part of a sweep. A classification result
     * carries accuracies ({@code accuracy_mean}, {@code accuracy_std}, {@code accuracies}); a regression result carries
     * mean squared errors instead ({@code mse_mean}, {@code mse_std}, {@code mses}) and, when the bench also ran
     * {@code target-only} on the same splits, each run's MSE divided by target-only's ({@code relative_mse}, with its
     * mean and sd). On imbalanced evaluation rows ({@code Metrics.imbalanced}: the rarest class under a quarter of the
     * most frequent, landmine) a classification result also carries each run's balanced accuracy, the mean per-class
     * recall ({@code balanced_accuracies}, with its mean and sd).
     */
    @JsonPropertyOrder({"task", "source", "target", "method", "sweep", "runs", "accuracy_mean", "accuracy_std", "accuracies",
        "balanced_accuracy_mean", "balanced_accuracy_std", "balanced_accuracies",
        "mse_mean", "mse_std", "mses", "relative_mse_mean", "relative_mse_std", "relative_mse", "privacy", "diagnostics", "warnings"})
    @com.fasterxml.jackson.annotation.JsonIgnoreProperties(value = {"relative_mse_mean", "relative_mse_std", "balanced_accuracy_mean",
        "balanced_accuracy_std", "auc_mean", "auc_std"}, allowGetters = true)
    public record TaskResult(String task, String source, String target, String method, Map<String, String> sweep, int runs,
                             @com.fasterxml.jackson.annotation.JsonProperty("accuracy_mean")
                             @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                             Double accuracyMean,
                             @com.fasterxml.jackson.annotation.JsonProperty("accuracy_std")
                             @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                             Double accuracyStd,
                             @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                             List<Double> accuracies, Map<String, PartySpend> privacy,
                             @com.fasterxml.jackson.annotation.JsonProperty("mse_mean")
                             @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                             Double mseMean,
                             @com.fasterxml.jackson.annotation.JsonProperty("mse_std")
                             @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                             Double mseStd,
                             @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                             List<Double> mses,
                             @com.fasterxml.jackson.annotation.JsonProperty("relative_mse")
                             @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                             List<Double> relativeMse,
                             @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
                             List<Map<String, Object>> diagnostics,
                             @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
                             List<String> warnings,
                             @com.fasterxml.jackson.annotation.JsonProperty("balanced_accuracies")
                             @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                             List<Double> balancedAccuracies,
                             @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                             List<Double> aucs) {
        /** A result without AUCs (two-class tasks whose method gives scores only). */
        public TaskResult(String task, String source, String target, String method, Map<String, String> sweep, int runs,
                          Double accuracyMean, Double accuracyStd, List<Double> accuracies, Map<String, PartySpend> privacy,
                          Double mseMean, Double mseStd, List<Double> mses, List<Double> relativeMse,
                          List<Map<String, Object>> diagnostics, List<String> warnings, List<Double> balancedAccuracies) {
            this(task, source, target, method, sweep, runs, accuracyMean, accuracyStd, accuracies, privacy, mseMean, mseStd, mses,
                    relativeMse, diagnostics, warnings, balancedAccuracies, null);
        }

        /** A result without balanced accuracies (reported on imbalanced evaluation rows only). */
        public TaskResult(String task, String source, String target, String method, Map<String, String> sweep, int runs,
                          Double accuracyMean, Double accuracyStd, List<Double> accuracies, Map<String, PartySpend> privacy,
                          Double mseMean, Double mseStd, List<Double> mses, List<Double> relativeMse,
                          List<Map<String, Object>> diagnostics, List<String> warnings) {
            this(task, source, target, method, sweep, runs, accuracyMean, accuracyStd, accuracies, privacy, mseMean, mseStd, mses,
                    relativeMse, diagnostics, warnings, (List<Double>) null);
        }

        /** A result without warnings (the canonical constructor's last components empty). */
        public TaskResult(String task, String source, String target, String method, Map<String, String> sweep, int runs,
                          Double accuracyMean, Double accuracyStd, List<Double> accuracies, Map<String, PartySpend> privacy,
                          Double mseMean, Double mseStd, List<Double> mses, List<Double> relativeMse,
                          List<Map<String, Object>> diagnostics) {
            this(task, source, target, method, sweep, runs, accuracyMean, accuracyStd, accuracies, privacy, mseMean, mseStd, mses,
                    relativeMse, diagnostics, null);
        }

        /** A classification result. */
        public TaskResult(String task, String source, String target, String method, Map<String, String> sweep, int runs,
                          double accuracyMean, double accuracyStd, List<Double> accuracies, Map<String, PartySpend> privacy) {
            this(task, source, target, method, sweep, runs, accuracyMean, accuracyStd, accuracies, privacy, null, null, null, null,
                    null);
        }

        /** A regression result: each run's mean squared error. */
        public static TaskResult regression(String task, String source, String target, String method, Map<String, String> sweep,
                                            int runs, double mseMean, double mseStd, List<Double> mses,
                                            Map<String, PartySpend> privacy) {
            return new TaskResult(task, source, target, method, sweep, runs, null, null, null, privacy, mseMean, mseStd, mses, null,
                    null);
        }

        /** True when the result holds mean squared errors. */
        @com.fasterxml.jackson.annotation.JsonIgnore
        public boolean isRegression() {
            return mses != null;
        }

        /** Each run's score: accuracy (a fraction) or MSE. */
        @com.fasterxml.jackson.annotation.JsonIgnore
        public List<Double> scores() {
            return isRegression() ? mses : accuracies;
        }

        @com.fasterxml.jackson.annotation.JsonIgnore
        public double scoreMean() {
            return isRegression() ? mseMean : accuracyMean;
        }

        @com.fasterxml.jackson.annotation.JsonIgnore
        public double scoreStd() {
            return isRegression() ? mseStd : accuracyStd;
        }

        @com.fasterxml.jackson.annotation.JsonProperty("relative_mse_mean")
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
        public Double relativeMseMean() {
            return relativeMse == null ? null : Stats.mean(relativeMse);
        }

        @com.fasterxml.jackson.annotation.JsonProperty("relative_mse_std")
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
        public Double relativeMseStd() {
            return relativeMse == null ? null : Stats.std(relativeMse);
        }

        /** This result with each run's MSE relative to target-only's on the same split. */
        public TaskResult withRelativeMse(List<Double> relative) {
            return new TaskResult(task, source, target, method, sweep, runs, accuracyMean, accuracyStd, accuracies, privacy,
                    mseMean, mseStd, mses, relative == null ? null : List.copyOf(relative), diagnostics, warnings, balancedAccuracies, aucs);
        }

        /**
         * This result with each run's method diagnostics (chosen hyperparameters, calibration, solver): the provenance
         * of the numbers, one map per run.
         */
        public TaskResult withDiagnostics(List<Map<String, Object>> perRun) {
            return new TaskResult(task, source, target, method, sweep, runs, accuracyMean, accuracyStd, accuracies, privacy,
                    mseMean, mseStd, mses, relativeMse, perRun == null ? null : List.copyOf(perRun), warnings, balancedAccuracies, aucs);
        }

        /** This result with warnings about its predictions (e.g. one class for almost every row), read without labels. */
        public TaskResult withWarnings(List<String> list) {
            return new TaskResult(task, source, target, method, sweep, runs, accuracyMean, accuracyStd, accuracies, privacy,
                    mseMean, mseStd, mses, relativeMse, diagnostics, list == null || list.isEmpty() ? null : List.copyOf(list),
                    balancedAccuracies, aucs);
        }

        /** This result with each run's balanced accuracy (imbalanced evaluation rows); null for none. */
        public TaskResult withBalancedAccuracies(List<Double> perRun) {
            return new TaskResult(task, source, target, method, sweep, runs, accuracyMean, accuracyStd, accuracies, privacy,
                    mseMean, mseStd, mses, relativeMse, diagnostics, warnings, perRun == null ? null : List.copyOf(perRun), aucs);
        }

        /** This result with each run's AUC (two-class tasks whose method gives scores); null for none. */
        public TaskResult withAucs(List<Double> perRun) {
            return new TaskResult(task, source, target, method, sweep, runs, accuracyMean, accuracyStd, accuracies, privacy,
                    mseMean, mseStd, mses, relativeMse, diagnostics, warnings, balancedAccuracies, perRun == null ? null : List.copyOf(perRun));
        }

        @com.fasterxml.jackson.annotation.JsonProperty("auc_mean")
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
        public Double aucMean() {
            return aucs == null ? null : Stats.mean(aucs);
        }

        @com.fasterxml.jackson.annotation.JsonProperty("auc_std")
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
        public Double aucStd() {
            return aucs == null ? null : Stats.std(aucs);
        }

        @com.fasterxml.jackson.annotation.JsonProperty("balanced_accuracy_mean")
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
        public Double balancedAccuracyMean() {
            return balancedAccuracies == null ? null : Stats.mean(balancedAccuracies);
        }

        @com.fasterxml.jackson.annotation.JsonProperty("balanced_accuracy_std")
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
        public Double balancedAccuracyStd() {
            return balancedAccuracies == null ? null : Stats.std(balancedAccuracies);
        }
    }

    /**
     * One party's spend: epsilon and delta; {@code "private": false}, epsilon null and {@code "unprotected": true} when its data was read
     * without DP, or with the nominal epsilon and a note when the noise was seeded.
     */
    @JsonPropertyOrder({"private", "epsilon", "delta", "note"})
    /**
     * What one party spent on a result: {@code epsilon} is the total over all {@code runs} repetitions (their
     * releases compose: the reported mean depends on every run), {@code epsilonPerRun} one repetition's cost.
     */
    @com.fasterxml.jackson.annotation.JsonIgnoreProperties(value = "unprotected", allowGetters = true)
    public record PartySpend(@com.fasterxml.jackson.annotation.JsonProperty("private") boolean isPrivate,
                             @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.ALWAYS) Object epsilon,
                             Double delta, String note,
                             @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                             @com.fasterxml.jackson.annotation.JsonProperty("epsilon_per_run") Double epsilonPerRun,
                             @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                             Integer runs,
                             @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                             com.fasterxml.jackson.databind.JsonNode events,
                             @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                             @com.fasterxml.jackson.annotation.JsonProperty("epsilon_requested") Double epsilonRequested) {
        public PartySpend(boolean isPrivate, Object epsilon, Double delta, String note) {
            this(isPrivate, epsilon, delta, note, null, null, null, null);
        }

        public PartySpend(boolean isPrivate, Object epsilon, Double delta, String note, Double epsilonPerRun, Integer runs) {
            this(isPrivate, epsilon, delta, note, epsilonPerRun, runs, null, null);
        }

        /** One run's spend: {@code epsilon_per_run}, or {@code epsilon} for a single run; null when not a number. */
        @com.fasterxml.jackson.annotation.JsonIgnore
        public Double perRunEpsilon() {
            return epsilonPerRun != null ? epsilonPerRun : epsilon instanceof Number n ? n.doubleValue() : null;
        }

        /** The same spend with the epsilon each run was given (its session's target), to state what was left unspent. */
        public PartySpend withRequested(Double e) {
            return new PartySpend(isPrivate, epsilon, delta, note, epsilonPerRun, runs, events, e);
        }

        /** True when the party's data was read without differential privacy (epsilon is then null). */
        @com.fasterxml.jackson.annotation.JsonProperty("unprotected")
        public boolean unprotected() {
            return Report.unprotected(epsilon);
        }

        /** The same spend with the composed DP event of all its runs (so that bench totals can compose cells). */
        public PartySpend withEvents(com.fasterxml.jackson.databind.JsonNode e) {
            return new PartySpend(isPrivate, epsilon, delta, note, epsilonPerRun, runs, e, epsilonRequested);
        }

        public static PartySpend of(PrivacyCost c) {
            return of(c, 1, c);
        }

        /** Not private (no per-run cost to state). */
        public static PartySpend of(PrivacyCost notPrivate, int runs) {
            return of(notPrivate, runs, notPrivate);
        }

        /** {@code total} over {@code runs} repetitions, each costing {@code perRun}. */
        public static PartySpend of(PrivacyCost total, int runs, PrivacyCost perRun) {
            if (!Double.isFinite(total.epsilon())) {
                return new PartySpend(false, null, null, "data read without differential privacy");
            }
            Double per = runs > 1 && total.epsilon() > 0 ? perRun.epsilon() : null;
            Integer r = runs > 1 && total.epsilon() > 0 ? runs : null;
            if (total.seededNoise()) {
                return new PartySpend(false, total.epsilon(), total.delta(), "seeded noise (--seed): NOT PRIVATE", per, r);
            }
            return new PartySpend(true, total.epsilon(), total.delta(), null, per, r);
        }
    }
}
