package org.privadapt.methods.dpot;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.DataException;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.core.AdaptationMethod;
import org.privadapt.methods.core.AdaptationOutcome;
import org.privadapt.methods.core.AdaptationTask;
import org.privadapt.methods.core.Classifiers;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.PrivacyContext;
import org.privadapt.models.Classifier;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.PrivacyCost;
import org.privadapt.privacy.ledger.BudgetLedger;

/**
 * {@code dpot-da}: the differentially private domain adaptation of paper 002 (its Alg. 2, which the paper calls
 * "DPDA"; renamed so that it cannot be confused with paper 001's DPDA). The source releases, once, the DPOT artifact
 * ({@link Dpot#release}); the target transports the released rows onto its own ({@link Dpot#adapt}) and trains its own
 * classifier (non-private: it is the target's data and the target releases nothing) on the barycentric images,
 * plus its labelled rows in the semi-supervised setting.
 */
public final class DpotDaMethod implements AdaptationMethod {
    @Override
    public String name() {
        return "dpot-da";
    }

    @Override
    public String description() {
        return "DP optimal transport (JL + Gaussian release of the source, group-lasso OT, barycentric mapping; source private)";
    }

    @Override
    public java.util.Set<String> parameters() {
        return org.privadapt.methods.core.MethodParameters.union(org.privadapt.methods.core.MethodParameters.CLASSIFIER, DpotConfig.PARAMETERS,
                org.privadapt.methods.core.TargetRefinements.PARAMETERS);
    }

    @Override
    public boolean isPrivate() {
        return true;
    }

    @Override
    public Set<String> protectedParties() {
        return Set.of("source");
    }

    @Override
    public AdaptationOutcome run(AdaptationTask task, MethodConfig config, PrivacyContext privacy)
            throws DataException, BudgetExceededException, BudgetLedger.LedgerException {
        DpotConfig cfg = DpotConfig.from(config);
        org.privadapt.methods.core.TargetRefinements.mode(config); // a misspelt option fails before anything is spent
        ClassLabels ys = task.source().classLabels();
        Dpot.requirePublicFacts(task.source(), privacy.source());
        DpotRelease release = Dpot.release(task.source().features(), ys.codes(), ys.names(), cfg, privacy.source(),
                "run-" + config.seed(), task.preprocessing());
        return targetSide(release, task, config, privacy.target().noise().bits());
    }

    /** The target's part, shared with the two-party command: transport, train, evaluate. */
    public static AdaptationOutcome targetSide(DpotRelease release, AdaptationTask task, MethodConfig config,
                                               org.privadapt.privacy.noise.RandomBits bits) throws DataException {
        TargetLabels tl = TargetLabels.pick(task, release.classNames(), release.config().targetLabelsPerClass(), config.seed());
        Dpot.Transported tr = Dpot.adapt(release, task.target().features(), tl.any() ? tl.codes() : null, bits);
        Classifier trained = trainOn(tr.features(), tr.labels(), release.classNames(), task, tl, config, release.config());
        // the target's own refinement on its rows, in the model's space: nothing released
        org.privadapt.methods.core.TargetRefinements.Refined refined = org.privadapt.methods.core.TargetRefinements.refine(config,
                trained, Dpot.targetRows(task.target().features(), release.config()));
        Classifier model = refined.model();
        int[] pred = new int[tl.unlabelled().length];
        double acc = Classifiers.accuracy(model, Dpot.targetRows(task.evaluation().features(), release.config()).selectRows(tl.unlabelled()),
                task.evaluation().selectRows(tl.unlabelled(), "unlabelled target rows"), pred);
        Map<String, Object> diag = new LinkedHashMap<>(tr.diagnostics());
        diag.putAll(refined.diagnostics());
        diag.put("level", release.config().level().name().toLowerCase(java.util.Locale.ROOT));
        diag.put("source_epsilon_spent", release.privacy().path("epsilon_spent").asDouble());
        diag.put("target_labelled_rows", task.target().size() - tl.unlabelled().length);
        PrivacyCost sourceCost = new PrivacyCost(release.privacy().path("epsilon_spent").asDouble(),
                release.privacy().path("delta").asDouble());
        if (!release.privacy().path("private").asBoolean(true)) {
            sourceCost = sourceCost.withSeededNoise();
        }
        return new AdaptationOutcome("dpot-da", acc, pred, model.classNames(), Map.of("source", sourceCost, "target", PrivacyCost.NONE),
                diag);
    }

    /** Trains on the transported rows plus the target's labelled rows (if any). */
    static Classifier trainOn(DenseMatrix x, int[] y, java.util.List<String> classes, AdaptationTask task, TargetLabels tl,
                              MethodConfig config, DpotConfig dpot) {
        if (!tl.any()) {
            return Classifiers.train(config, x, new ClassLabels(y, classes));
        }
        TargetLabels.TrainingSet t = tl.withLabelledRows(x, y, Dpot.targetRows(task.target().features(), dpot).toDense());
        return Classifiers.train(config, t.features(), new ClassLabels(t.labels(), classes));
    }
}
