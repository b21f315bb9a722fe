package org.privadapt.methods.prima;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.privadapt.data.DataException;
import org.privadapt.methods.artifacts.Artifact;
import org.privadapt.methods.artifacts.ArtifactException;
import org.privadapt.methods.core.AdaptationMethod;
import org.privadapt.methods.core.AdaptationOutcome;
import org.privadapt.methods.core.AdaptationTask;
import org.privadapt.methods.core.Classifiers;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.PrivacyContext;
import org.privadapt.models.Metrics;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.ledger.BudgetLedger;

/**
 * PRIMA, PRISA and the ablations of paper 000 §5.3 run in one process: the target's release, the source's training
 * and the target's prediction, with the artifacts serialised and read back in between, exactly as the two-party
 * commands exchange them (so both paths give the same numbers for the same seed).
 */
public final class PrimaMethod implements AdaptationMethod {
    private final String name;
    private final String description;
    private final PrimaConfig defaults;

    private PrimaMethod(String name, String description, PrimaConfig defaults) {
        this.name = name;
        this.description = description;
        this.defaults = defaults;
    }

    public static PrimaMethod prima() {
        return new PrimaMethod("prima", "PRIMA (paper 000): DP subspace covariances with forward selection and shrinking, "
                + "per-subspace CORAL, DP-SGD (both parties private)", PrimaConfig.prima(PrimaConfig.Adaptation.CORAL));
    }

    public static PrimaMethod prisa() {
        return new PrimaMethod("prisa", "PRISA (paper 000): as PRIMA with subspace alignment instead of CORAL (both parties "
                + "private)", PrimaConfig.prima(PrimaConfig.Adaptation.SA));
    }

    /** The ablations of §5.3: Basic, RSE+Basic, RSE+Basic+FS, Basic+Shrinking. */
    public static PrimaMethod ablation(String name) {
        PrimaConfig base = PrimaConfig.prima(PrimaConfig.Adaptation.CORAL);
        return switch (name) {
            case "prima-basic" -> new PrimaMethod(name, "ablation Basic: one noisy full covariance, CORAL, DP-SGD",
                    base.with(PrimaConfig.Partitioning.SINGLE, false));
            case "prima-rse" -> new PrimaMethod(name, "ablation RSE+Basic: random subspaces, no selection, no shrinking",
                    base.with(PrimaConfig.Partitioning.RANDOM, false));
            case "prima-rse-fs" -> new PrimaMethod(name, "ablation RSE+Basic+FS: forward-selected subspaces, no shrinking",
                    base.with(PrimaConfig.Partitioning.FORWARD, false));
            case "prima-basic-shrink" -> new PrimaMethod(name, "ablation Basic+Shrinking: one noisy full covariance, shrinking",
                    base.with(PrimaConfig.Partitioning.SINGLE, true));
            default -> throw new IllegalArgumentException("unknown PRIMA ablation '" + name + "'");
        };
    }

    /**
     * The method's settings for a run: its defaults overridden by {@code config}'s parameters; the row bound R, when
     * not given, is the bound the (row-local) preprocessing guarantees (e.g. {@code l2,scale=28} gives 28), else 1.
     */
    public PrimaConfig config(MethodConfig config, String preprocessing) {
        MethodConfig withBound = config;
        if (!config.params().containsKey("row-bound")) {
            double b = org.privadapt.data.preprocess.Preprocessing.parse(preprocessing).rowNormBound();
            withBound = config.withParam("row-bound", Double.toString(Double.isFinite(b) ? b : 1.0));
        }
        return PrimaConfig.from(defaults, withBound);
    }

    public PrimaConfig defaults() {
        return defaults;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public java.util.Set<String> parameters() {
        return org.privadapt.methods.core.MethodParameters.union(org.privadapt.methods.core.PrivateLearners.ALL, PrimaConfig.PARAMETERS,
                org.privadapt.methods.core.TargetRefinements.PARAMETERS);
    }

    /**
     * Multi-label targets: the source trains one binary model per label (and group) on its aligned rows, all in one
     * plan ({@link PrimaSource}); the target applies them as they are (no refinement).
     */
    @Override
    public boolean supportsMultiLabel(AdaptationTask task, MethodConfig config) {
        return true;
    }

    @Override
    public boolean isPrivate() {
        return true;
    }

    @Override
    public Set<String> protectedParties() {
        return Set.of("source", "target");
    }

    @Override
    public AdaptationOutcome run(AdaptationTask task, MethodConfig config, PrivacyContext privacy)
            throws DataException, BudgetExceededException, BudgetLedger.LedgerException {
        PrimaConfig cfg = config(config, task.preprocessing());
        String runId = "run-" + config.seed();
        org.privadapt.methods.core.TargetRefinements.mode(config); // a misspelt option fails before anything is spent
        boolean multi = task.source().labels().orElse(null) instanceof org.privadapt.data.MultiLabels;
        String refine = config.params().getOrDefault("refine", "none");
        if (multi && !refine.equals("none") && !refine.equals(org.privadapt.methods.core.TargetRefinements.DEFAULT)) {
            throw new IllegalArgumentException(name + " on multi-label targets applies the source's label models as they are: "
                    + "--param refine=" + refine + " does not apply");
        }
        // one run charges both parties, the source's plan depending on the target's release: stage both, and write
        // either ledger only once both plans passed their checks (a refusal of the source leaves the target untouched)
        privacy.target().stage();
        privacy.source().stage();
        boolean committed = false;
        try {
            TargetRelease release = Prima.release(task.target(), cfg, task.preprocessing(), name, config.seed(), runId,
                    privacy.target());
            Artifact releaseArtifact = Artifact.parse("release", release.toArtifact().toBytes(), "release");
            TargetRelease received = TargetRelease.fromArtifact(releaseArtifact, "release");
            SourceModel model = Prima.train(task.source(), received, config, privacy.source());
            SourceModel shipped = SourceModel.fromArtifact(Artifact.parse("model", model.toArtifact(runId).toBytes(), "model"), "model");
            if (multi) {
                int[][] labels = Prima.predictLabels(shipped, task.evaluation());
                PrivacySession.commitStaged(privacy.target(), privacy.source());
                committed = true;
                return org.privadapt.methods.core.MultiLabelScoring.outcome(name, labels, task.evaluation(), shipped.classNames(),
                        Map.of("source", privacy.source().spent(), "target", privacy.target().spent()),
                        new LinkedHashMap<>(Prima.describe(release)));
            }
            int[] pred = Prima.predict(shipped, task.evaluation());
            // the target's own adaptation of the model it received: its rows, its result, nothing released
            org.privadapt.methods.core.TargetRefinements.Refined refinement = org.privadapt.methods.core.TargetRefinements
                    .refinePredictions(config, Prima.predict(shipped, task.target()), shipped.classNames(), task.target().features());
            org.privadapt.models.Classifier refined = refinement.model();
            if (refined != null) {
                pred = refined.predict(task.evaluation().features());
            }
            PrivacySession.commitStaged(privacy.target(), privacy.source());
            committed = true;
            double acc = Metrics.accuracy(pred, Classifiers.truthFor(shipped.classNames(), task.evaluation()));
            Map<String, Object> diag = new LinkedHashMap<>(Prima.describe(release));
            diag.putAll(refinement.diagnostics());
            return new AdaptationOutcome(name, acc, pred, shipped.classNames(),
                    Map.of("source", privacy.source().spent(), "target", privacy.target().spent()), diag);
        } catch (ArtifactException e) {
            throw new IllegalStateException("artifact round trip failed: " + e.getMessage(), e);
        } finally {
            if (!committed) {
                privacy.target().abortStaged();
                privacy.source().abortStaged();
            }
        }
    }
}
