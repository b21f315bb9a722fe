package org.privadapt.methods.prima;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.DataException;
import org.privadapt.data.Dataset;
import org.privadapt.data.MultiLabels;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.methods.artifacts.ArtifactException;
import org.privadapt.methods.coral.Coral;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.PrivateLearners;
import org.privadapt.methods.sa.SubspaceAlignment;
import org.privadapt.models.nn.Network;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.events.DpEvent;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.ledger.BudgetLedger;
import org.privadapt.privacy.mechanisms.GaussianMechanism;

/**
 * The source's step of PRIMA ({@link Prima#train}): the plan of its own moment release and its learner(s), their one
 * charge, the noisy moments, the per-block CORAL or SA alignment to the target's release, the training of one model
 * per group (per class when one-vs-rest), and the model artifact. {@link Prima} keeps the public entry points and
 * delegates here.
 */
final class PrimaSource {
    private PrimaSource() {
    }

    static SourceModel train(Dataset source, TargetRelease release, MethodConfig mc, PrivacySession session)
            throws DataException, ArtifactException, BudgetExceededException, BudgetLedger.LedgerException {
        source.requireNonEmpty().requireFinite();
        if (source.dimension() != release.dimension()) {
            throw new DataException(source.firstFile(), null, "has " + source.dimension() + " features; the release is for "
                    + release.dimension());
        }
        PrimaConfig cfg = release.config();
        Partition partition = release.partition();
        NeighbouringRelation rel = session.relation();
        MultiLabels multi = source.labels().orElse(null) instanceof MultiLabels m ? m : null;
        ClassLabels y = multi == null ? source.classLabels() : null;
        // multi-label targets: one binary model (absent, present) per label and group, all composed in one plan
        int k = multi == null ? y.numClasses() : 2;
        List<String> names = multi == null ? y.names() : multi.names();
        PrivateLearners.Kind kind = Prima.sourceKind(release, mc, k, PrivateLearners.sizePublic(source, session), session);
        PrivateLearners.requireDisclosures(kind, source, session, "the source's model (" + kind.label() + ")");
        Prima.SourcePlan sp = sourcePlan(release, mc, kind, source.size(), k, multi == null ? 0 : multi.numLabels(), session);
        chargeSource(sp, release, session);
        FeatureMatrix rows = Prima.clipRows(source.features(), cfg, partition);
        SecondMoments sm = sourceMomentsNoise(Prima.sourceExact(rows, partition), cfg, sp.momentsMultiplier(), rel, session.noise());
        Prima.SourceAlignment alignment = sourceAlignment(sm, release);
        List<DenseMatrix> features = alignment.transform().blockFeatures(rows);
        List<List<Network>> models = new ArrayList<>();
        int[] codes = multi == null ? y.codes() : null;
        for (int g = 0; g < sp.groups(); g++) {
            DenseMatrix x = Prima.SourceTransform.group(features, g, cfg.vote());
            List<Network> group = new ArrayList<>();
            if (multi != null) {
                for (int l = 0; l < multi.numLabels(); l++) {
                    group.add(PrivateLearners.train(sp.plan(), x, multi.column(l), List.of(SourceModel.ABSENT, names.get(l)),
                            session.noise()));
                }
            } else if (sp.oneVsRest()) {
                for (int cls = 0; cls < k; cls++) {
                    int[] binary = new int[codes.length];
                    for (int i = 0; i < codes.length; i++) {
                        binary[i] = codes[i] == cls ? 1 : 0;
                    }
                    group.add(PrivateLearners.train(sp.plan(), x, binary, List.of("rest", y.names().get(cls)), session.noise()));
                }
            } else {
                group.add(PrivateLearners.train(sp.plan(), x, codes, y.names(), session.noise()));
            }
            models.add(group);
        }
        return sourceModel(release, sp, alignment, models, names, multi != null, source.publicFacts().describe(), session);
    }

    /**
     * The plan for k classes, or ({@code labels > 0}) for that many binary labels of a multi-label source: one binary
     * model per label and group, {@code groups x labels} runs composed (the labels are functions of the same rows).
     */
    static Prima.SourcePlan sourcePlan(TargetRelease release, MethodConfig mc, PrivateLearners.Kind kind, int n, int k, int labels,
                                       PrivacySession session) {
        PrimaConfig cfg = release.config();
        Partition partition = release.partition();
        double eps = session.target().epsilon() * (1 - 1e-9);
        boolean ovr = labels == 0 && cfg.oneVsRest() && k > 2 && kind.gradientBased();
        int groups = cfg.vote() ? partition.size() : 1;
        int runs = groups * (labels > 0 ? labels : ovr ? k : 1);
        double delta = session.target().delta();
        double sMoments = Prima.sourceMomentsMultiplier(cfg, session);
        DpEvent moments = new GaussianEvent(sMoments);
        PrivateLearners.Plan plan = PrivateLearners.plan(PrivateLearners.resolved(mc, kind), n, learnerDimension(cfg, partition), k, eps,
                delta, session.relation(), moments, runs);
        return new Prima.SourcePlan(kind, sMoments, plan, groups, ovr, runs);
    }

    static void chargeSource(Prima.SourcePlan sp, TargetRelease release, PrivacySession session)
            throws BudgetExceededException, BudgetLedger.LedgerException {
        session.chargeAll(List.of(
                new PrivacySession.Release(release.method() + " source: own subspace moments", "Gaussian (block second moments, sums, count)",
                        new GaussianEvent(sp.momentsMultiplier()), Map.of("noise_multiplier", sp.momentsMultiplier())),
                new PrivacySession.Release(release.method() + " source: " + sp.kind().label() + " model"
                        + (sp.runs() > 1 ? "s (" + sp.runs() + ")" : ""), sp.kind().label(), sp.plan().event(), sp.plan().describe())));
    }

    static Prima.SourceAlignment sourceAlignment(SecondMoments sm, TargetRelease release) {
        PrimaConfig cfg = release.config();
        Partition partition = release.partition();
        double[] sd = PrimaScaling.standardDeviations(sm, cfg);
        double[] inv = new double[sd.length];
        for (int j = 0; j < sd.length; j++) {
            inv[j] = 1.0 / sd[j];
        }
        int[][] blocks = new int[partition.size()][];
        int[] cols = new int[partition.size()];
        double[][] maps = new double[partition.size()][];
        List<DenseMatrix> targetBases = new ArrayList<>();
        for (int b = 0; b < partition.size(); b++) {
            int[] idx = partition.block(b);
            DenseMatrix cs = PrimaScaling.scaled(sm.blockCovariance(b, cfg.centred()), idx, sd);
            cs = cfg.shrink() ? PrimaScaling.shrink(cs, cfg).matrix() : PsdShrinking.floorEigenvalues(cs, 0.0);
            DenseMatrix ct = release.blocks().get(b);
            DenseMatrix map;
            if (cfg.adaptation() == PrimaConfig.Adaptation.CORAL) {
                map = Coral.alignmentMapRelative(cs, ct, cfg.lambda());
                targetBases.add(null);
            } else {
                int kb = Math.max(1, (int) Math.ceil(cfg.saFraction() * idx.length));
                DenseMatrix ps = SubspaceAlignment.basis(cs, kb);
                DenseMatrix pt = SubspaceAlignment.basis(ct, kb);
                map = SubspaceAlignment.sourceMap(ps, pt);
                targetBases.add(pt);
            }
            blocks[b] = idx.clone();
            cols[b] = map.cols();
            maps[b] = map.data().clone();
        }
        return new Prima.SourceAlignment(new Prima.SourceTransform(cfg.standardize(), sm.mean().clone(), inv, blocks, cols, maps, cfg.vote()),
                targetBases);
    }

    static SourceModel sourceModel(TargetRelease release, Prima.SourcePlan sp, Prima.SourceAlignment alignment,
                                   List<List<Network>> models, List<String> classNames, boolean multiLabel, List<String> declaredPublic,
                                   PrivacySession session) {
        ObjectNode privacy = Prima.statement(session, "source", session.target().delta());
        // what the model carries without noise because the source declared it public (neighbouring-relations.md)
        com.fasterxml.jackson.databind.node.ArrayNode declared = privacy.putArray("declared_public");
        declaredPublic.forEach(declared::add);
        Map<String, Object> d = sp.plan().describe();
        ObjectNode training = privacy.putObject("training");
        d.forEach((key, v) -> training.put(key, String.valueOf(v)));
        training.put("models", sp.runs());
        return new SourceModel(release.runId(), release.checksum(), release.method(), release.config(), release.preprocessing(),
                release.partition(), release.mean(), release.sd(), alignment.targetBases(), models, classNames, multiLabel, privacy);
    }

    static SecondMoments sourceMomentsNoise(SecondMomentRelease.ExactMoments exact, PrimaConfig cfg, double noiseMultiplier,
                                            NeighbouringRelation rel, org.privadapt.privacy.noise.NoiseSource noise) {
        Partition partition = exact.partition();
        double c = cfg.momentWeight() * cfg.rowBound();
        GaussianMechanism m = GaussianMechanism.forNoiseMultiplier(noiseMultiplier,
                SecondMomentRelease.sensitivity(rel, cfg.blockBounds(partition), cfg.rowBound(), c), rel,
                SecondMomentRelease.coordinates(partition));
        return SecondMomentRelease.addNoise(exact, c, m, noise);
    }

    /** The dimension of the features the source's learner sees (per group when voting): public, from the config. */
    static int learnerDimension(PrimaConfig cfg, Partition partition) {
        int total = 0;
        int largest = 0;
        for (int b = 0; b < partition.size(); b++) {
            int len = partition.block(b).length;
            int kb = cfg.adaptation() == PrimaConfig.Adaptation.CORAL ? len : Math.max(1, (int) Math.ceil(cfg.saFraction() * len));
            total += kb;
            largest = Math.max(largest, kb);
        }
        return cfg.vote() ? largest : total;
    }
}
