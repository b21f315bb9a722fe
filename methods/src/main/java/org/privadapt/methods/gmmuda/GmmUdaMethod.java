package org.privadapt.methods.gmmuda;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.DataException;
import org.privadapt.data.Dataset;
import org.privadapt.data.Labels;
import org.privadapt.data.MultiLabels;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.methods.core.AdaptationMethod;
import org.privadapt.methods.core.AdaptationOutcome;
import org.privadapt.methods.core.AdaptationTask;
import org.privadapt.methods.core.Classifiers;
import org.privadapt.methods.core.Disclosures;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.NonPrivate;
import org.privadapt.methods.core.PrivacyContext;
import org.privadapt.models.mixture.DpGaussianMixtureEm;
import org.privadapt.models.mixture.GaussianMixture;
import org.privadapt.models.mixture.GaussianMixtureEm;
import org.privadapt.models.nn.Losses;
import org.privadapt.models.uda.AdaptedModel;
import org.privadapt.models.uda.Adversary;
import org.privadapt.models.uda.OutputMode;
import org.privadapt.models.uda.SourceFeatureSampler;
import org.privadapt.models.uda.SourceFreeAdaptation;
import org.privadapt.models.uda.WithSourceAdaptation;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.PrivacyCost;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.ledger.BudgetLedger;

/**
 * Paper 004 (An et al. 2022), its four settings on one pipeline (Table I's columns):
 * <ul>
 *   <li>{@code source-only} under this pipeline ("no adapt"): the source's encoder + classifier, trained without DP,
 *       applied to the target;
 *   <li>{@code uda-with-source} ("with source"): DANN or CDAN on the real source features and labels, plus KD, from
 *       the non-DP source model (not private: the target sees the source's rows);
 *   <li>{@code uda-gmm} ("w/o source"): the target adapts against features sampled from a Gaussian mixture fitted
 *       by plain EM on the non-DP source model's features (not private: the paper's "post-processing" claim fails,
 *       docs/privacy/dp-em.md);
 *   <li>{@code dp-uda-gmm} ("w/o source + DP"): encoder + classifier by DP-SGD, then the mixture by DP-EM on the DP
 *       encoder's clipped source features, both charged to the source as one plan; the target adapts at no cost.
 * </ul>
 * The target's adaptation (Eq. 7) is {@link SourceFreeAdaptation}: E_t from E_s, classifier fixed, adversarial loss
 * against sampled source features, KD at temperature t from the source model on the target's rows, IM. Multi-label
 * targets are scored by per-label accuracy (the paper's P = R = F1 cells) with positive-class F1 beside it.
 */
public final class GmmUdaMethod implements AdaptationMethod {
    /** The four settings. */
    /** {@code DP_NO_ADAPT}: the DP-SGD source model alone at the whole budget, reached through {@code dp-source-only}. */
    public enum Setting { NO_ADAPT, WITH_SOURCE, GMM, DP_GMM, DP_NO_ADAPT }

    private final Setting setting;

    public GmmUdaMethod(Setting setting) {
        this.setting = setting;
    }

    /** The registry's methods (no-adapt is reached through {@code source-only}: {@link #handles}). */
    public static List<AdaptationMethod> all() {
        return List.of(new GmmUdaMethod(Setting.WITH_SOURCE), new GmmUdaMethod(Setting.GMM), new GmmUdaMethod(Setting.DP_GMM));
    }

    /** Whether {@code source-only} runs this pipeline's no-adapt setting: multi-label tasks, or {@code pipeline=gmm-uda}. */
    public static boolean handles(AdaptationTask task, MethodConfig config) {
        return "gmm-uda".equals(config.params().get("pipeline"))
                || task.source().labels().orElse(null) instanceof MultiLabels;
    }

    @Override
    public String name() {
        return switch (setting) {
            case NO_ADAPT -> "source-only";
            case DP_NO_ADAPT -> "dp-source-only";
            case WITH_SOURCE -> "uda-with-source";
            case GMM -> "uda-gmm";
            case DP_GMM -> "dp-uda-gmm";
        };
    }

    @Override
    public String description() {
        return switch (setting) {
            case NO_ADAPT -> "paper 004 no adapt: source encoder + classifier on the target (non-private)";
            case DP_NO_ADAPT -> "paper 004 no adapt + DP: the DP-SGD source encoder + classifier at the whole budget, no mixture (source private)";
            case WITH_SOURCE -> "paper 004 with source: DANN/CDAN + KD on real source features (non-private)";
            case GMM -> "paper 004 w/o source: adaptation against a non-DP GMM of source features (non-private)";
            case DP_GMM -> "paper 004 w/o source + DP: DP-SGD encoder + DP-EM GMM released by the source; target adapts (source private)";
        };
    }

    @Override
    public boolean isPrivate() {
        return setting == Setting.DP_GMM || setting == Setting.DP_NO_ADAPT;
    }

    @Override
    public Set<String> protectedParties() {
        return isPrivate() ? Set.of("source") : Set.of();
    }

    @Override
    public boolean supportsMultiLabel(AdaptationTask task, MethodConfig config) {
        return true;
    }

    @Override
    public Set<String> parameters() {
        return GmmUdaConfig.PARAMETERS;
    }

    /**
     * The diagnostics are the plan's public parameters and scores on the target's labelled evaluation rows (the target
     * is not protected here), and the membership-inference AUCs only when the experimenter asks for them
     * (docs/privacy/gmm-uda.md, "What reports carry").
     */
    @Override
    public boolean diagnosticsArePublic() {
        return true;
    }

    @Override
    public AdaptationOutcome run(AdaptationTask task, MethodConfig config, PrivacyContext privacy)
            throws DataException, BudgetExceededException, BudgetLedger.LedgerException {
        GmmUdaConfig c = GmmUdaConfig.from(config);
        Dataset src = task.source();
        Dataset given = src;
        Labels ys = given.labels().orElseThrow(() -> new DataException(given.firstFile(), null,
                "domain '" + given.domain() + "' has no labels; paper 004's source model needs labelled source rows"));
        boolean multi = ys instanceof MultiLabels;
        List<String> names = multi ? ((MultiLabels) ys).names() : src.classLabels().names();
        Map<String, Object> diag = new LinkedHashMap<>();
        // every row to unit L2 norm (row-local, so no record's features depend on another's): the network sees the same
        // scale whatever --preprocess multiplied the rows by
        double norm = c.rowNorm(isPrivate());
        FeatureMatrix xs = rows(src.features(), norm);
        FeatureMatrix xt = rows(task.target().features(), norm);
        // membership-inference evaluation (attack-holdout > 0): a seeded share of the source rows is held out of
        // training as non-members; the release is made from the rest (the members)
        double holdout = config.param("attack-holdout", 0);
        int[] nonMembers = null;
        FeatureMatrix xAll = xs;
        Labels yAll = ys;
        if (holdout > 0) {
            if (!(holdout < 1)) {
                throw new IllegalArgumentException("attack-holdout must be in [0, 1), got " + holdout);
            }
            int n = xs.rows();
            int[] perm = new java.util.SplittableRandom(c.seed() ^ 0xA77ACCL).ints(0, n).distinct().limit(n).toArray();
            int h = (int) Math.round(holdout * n);
            nonMembers = java.util.Arrays.copyOfRange(perm, 0, h);
            int[] members = java.util.Arrays.copyOfRange(perm, h, n);
            java.util.Arrays.sort(nonMembers);
            java.util.Arrays.sort(members);
            xs = xs.selectRows(members);
            ys = ys.selectRows(members);
            // the members' count is a function of the public n and the public holdout share: the declared facts carry over
            src = src.selectRows(members, "members of the membership-inference evaluation").withPublicFacts(given.publicFacts());
            diag.put("mia_members", members.length);
            diag.put("mia_non_members", h);
        }
        SourceRelease release;
        Map<String, PrivacyCost> spent;
        if (isPrivate()) {
            PrivacySession s = privacy.source();
            Disclosures.requireForDpSgdModel(src, s, name() + ": the source's DP-SGD encoder and classifier");
            release = SourceRelease.trainPrivate(xs, ys, c, s, setting == Setting.DP_GMM);
            spent = Map.of("source", s.spent(), "target", PrivacyCost.NONE);
        } else {
            release = SourceRelease.trainNonPrivate(xs, ys, c, setting == Setting.GMM);
            spent = setting == Setting.NO_ADAPT ? NonPrivate.sourceOnly() : NonPrivate.both();
        }
        diag.putAll(release.describe());
        AdaptedModel adapted = switch (setting) {
            case NO_ADAPT, DP_NO_ADAPT -> null;
            case WITH_SOURCE -> withSource(release, xs, ys, xt, c, multi);
            case GMM, DP_GMM -> adapt(release, xt, c, multi);
        };
        if (nonMembers != null) {
            attack(release, xAll, yAll, nonMembers, c, diag);
        }
        FeatureMatrix xe = rows(task.evaluation().features(), norm);
        DenseMatrix logits = adapted == null ? release.model().logits(xe) : adapted.logits(xe);
        return score(name(), logits, names, task.evaluation(), multi, spent, diag);
    }

    /** The target's side: adaptation against the release's mixture (spends nothing; reads only the target's rows). */
    public static AdaptedModel adapt(SourceRelease release, FeatureMatrix target, GmmUdaConfig c, boolean multi) {
        GaussianMixture gmm = release.mixture();
        SourceFeatureSampler sampler = gmm::sample;
        return SourceFreeAdaptation.adapt(release.model().encoder(), release.model().classifier(), target, sampler,
                c.adaptation(c.adversary(), multi));
    }

    /**
     * Membership inference against the release: members are the training rows, non-members the held-out rows of the
     * same source. Against the mixture, the score is the log density of the released encoder's (clipped) feature; against
     * the model, the negative loss of (x, y). AUC 0.5 is chance (models/attack/MembershipInference).
     */
    static void attack(SourceRelease release, FeatureMatrix xAll, Labels yAll, int[] nonMembers, GmmUdaConfig c,
                       Map<String, Object> diag) {
        boolean[] out = new boolean[xAll.rows()];
        for (int i : nonMembers) {
            out[i] = true;
        }
        double[] loss = perExampleLoss(release.model().logits(xAll), yAll);
        List<Double> mIn = new ArrayList<>();
        List<Double> mOut = new ArrayList<>();
        double[] logp = null;
        if (release.mixture() != null) {
            logp = release.mixture().logDensities(DpGaussianMixtureEm.clipRows(release.model().features(xAll), c.featureClip()));
        }
        List<Double> gIn = new ArrayList<>();
        List<Double> gOut = new ArrayList<>();
        for (int i = 0; i < out.length; i++) {
            (out[i] ? mOut : mIn).add(-loss[i]);
            if (logp != null) {
                (out[i] ? gOut : gIn).add(logp[i]);
            }
        }
        diag.put("mia_model_auc", org.privadapt.models.attack.MembershipInference.auc(toArray(mIn), toArray(mOut)));
        if (logp != null) {
            diag.put("mia_gmm_auc", org.privadapt.models.attack.MembershipInference.auc(toArray(gIn), toArray(gOut)));
        }
    }

    private static double[] toArray(List<Double> v) {
        return v.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /**
     * Each row's training loss ({@link Losses}): summed binary cross-entropies (multi-label) or softmax cross-entropy
     * (classes).
     */
    static double[] perExampleLoss(DenseMatrix logits, Labels y) {
        if (!(y instanceof MultiLabels m)) {
            return Losses.softmaxCrossEntropy(logits, ((ClassLabels) y).codes());
        }
        double[] l = new double[logits.rows()];
        for (int i = 0; i < l.length; i++) {
            for (int k = 0; k < logits.cols(); k++) {
                l[i] += Losses.sigmoidCrossEntropy(logits.get(i, k), m.has(i, k));
            }
        }
        return l;
    }

    /** Each row scaled to unit L2 norm (zero rows left zero). */
    public static FeatureMatrix unit(FeatureMatrix x) {
        return rows(x, 1);
    }

    /** Each row scaled to L2 norm {@code norm} (zero rows left zero; row-local). */
    public static FeatureMatrix rows(FeatureMatrix x, double norm) {
        double[] sq = x.rowSquaredNorms();
        double[] f = new double[sq.length];
        for (int i = 0; i < f.length; i++) {
            f[i] = sq[i] > 0 ? norm / Math.sqrt(sq[i]) : 1;
        }
        return x.scaleRows(f);
    }

    private static AdaptedModel withSource(SourceRelease release, FeatureMatrix xs, Labels ys, FeatureMatrix target, GmmUdaConfig c,
                                           boolean multi) {
        var a = c.adaptation(c.adversary(), multi);
        if (a.mode() == OutputMode.SIGMOID) {
            return WithSourceAdaptation.adapt(release.model().encoder(), release.model().classifier(), xs,
                    SourceRelease.zeroOne(ys), target, a);
        }
        if (multi) {
            throw new IllegalArgumentException("uda-with-source: mode=softmax needs single-label source classes; use mode=sigmoid "
                    + "for multi-label targets");
        }
        return WithSourceAdaptation.adapt(release.model().encoder(), release.model().classifier(), xs,
                ((ClassLabels) ys).codes(), target, a);
    }

    /** Scores logits on the evaluation rows: class accuracy, or per-label accuracy (multi-label, threshold 0.5). */
    public static AdaptationOutcome score(String method, DenseMatrix logits, List<String> names, Dataset eval, boolean multi,
                                   Map<String, PrivacyCost> spent, Map<String, Object> diag) throws DataException {
        if (!multi) {
            int[] pred = new int[logits.rows()];
            for (int i = 0; i < pred.length; i++) {
                int best = 0;
                for (int k = 1; k < logits.cols(); k++) {
                    if (logits.get(i, k) > logits.get(i, best)) {
                        best = k;
                    }
                }
                pred[i] = best;
            }
            double acc = org.privadapt.models.Metrics.accuracy(pred, Classifiers.truthFor(names, eval));
            return new AdaptationOutcome(method, acc, pred, names, spent, diag);
        }
        int[][] pred = new int[logits.rows()][logits.cols()];
        for (int i = 0; i < pred.length; i++) {
            for (int k = 0; k < logits.cols(); k++) {
                pred[i][k] = logits.get(i, k) > 0 ? 1 : 0; // sigmoid > 0.5
            }
        }
        return org.privadapt.methods.core.MultiLabelScoring.outcome(method, pred, eval, names, spent, diag);
    }

}
