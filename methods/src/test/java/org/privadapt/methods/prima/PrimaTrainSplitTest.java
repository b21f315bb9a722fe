package org.privadapt.methods.prima;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.DataException;
import org.privadapt.data.Dataset;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.methods.artifacts.ArtifactException;
import org.privadapt.methods.coral.Coral;
import org.privadapt.methods.core.AdaptationTask;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.PrivateLearners;
import org.privadapt.methods.sa.SubspaceAlignment;
import org.privadapt.methods.prima.PsdShrinking;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.privadapt.models.nn.Network;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.events.DpEvent;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.ledger.BudgetLedger;

/**
 * {@link Prima#train} split into its plan ({@link Prima#sourceKind}, {@link Prima#sourcePlan}, {@link Prima#chargeSource}),
 * its per-row map ({@link Prima#sourceAlignment}, {@link Prima.SourceTransform}) and the artifact
 * ({@link Prima#sourceModel}) is the code it was before the split (copied below as {@code oldTrain}), bit for bit on
 * the same seeded noise: the model artifacts' bytes are equal but for the creation time, and the charges are equal;
 * for PRIMA and PRISA, voting, learners ncm, lda and dp-sgd. And {@link Prima.SourceTransform#rowFeatures} on one row
 * is the matrix map's row.
 */
class PrimaTrainSplitTest {

    static byte[] bytes(SourceModel m) {
        return Artifact2.withoutCreated(m.toArtifact("run").toBytes());
    }

    static final class Artifact2 {
        static byte[] withoutCreated(byte[] b) {
            return new String(b, java.nio.charset.StandardCharsets.UTF_8).replaceAll("\"created\"\\s*:\\s*\"[^\"]*\"", "")
                    .replaceAll("\"checksum\"\\s*:\\s*\"[^\"]*\"", "").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    @Test
    void theSplitTrainIsTheOldTrainBitForBit() throws Exception {
        AdaptationTask t = PrimaPipelineTest.task();
        int compared = 0;
        for (String method : new String[] {"prima", "prisa", "prima-rse"}) {
            PrimaMethod pm = method.equals("prima") ? PrimaMethod.prima() : method.equals("prisa") ? PrimaMethod.prisa()
                    : PrimaMethod.ablation(method);
            for (boolean vote : new boolean[] {false, true}) {
                PrimaConfig c = pm.config(PrimaPipelineTest.config("lr").withParam("ensemble", vote ? "vote" : "joint")
                        .withParam("partitioning", "random").withParam("block-size", "4"), t.preprocessing());
                PrivacySession ts = new PrivacySession("target", new PrivacyBudget(2.0, 1e-5), NeighbouringRelation.REPLACE_ONE,
                        org.privadapt.privacy.noise.NoiseSource.seeded(1), null);
                TargetRelease r = Prima.release(t.target(), c, t.preprocessing(), method, 1, "r", ts);
                for (String learner : new String[] {"ncm", "lda", "dp-sgd"}) {
                    MethodConfig mc = PrimaPipelineTest.config("lr").withParam("learner", learner);
                    PrivacySession a = session();
                    PrivacySession b = session();
                    SourceModel split = Prima.train(t.source(), r, mc, a);
                    SourceModel old = oldTrain(t.source(), r, mc, b);
                    assertThat(bytes(split)).as(method + " vote " + vote + " " + learner).isEqualTo(bytes(old));
                    assertThat(a.events()).isEqualTo(b.events());
                    compared++;
                }
            }
        }
        assertThat(compared).isEqualTo(18);
    }

    static PrivacySession session() {
        return new PrivacySession("source", new PrivacyBudget(4.0, 1e-5), NeighbouringRelation.REPLACE_ONE,
                org.privadapt.privacy.noise.NoiseSource.seeded(5), null);
    }

    @Test
    void rowFeaturesIsTheMatrixMapsRow() throws Exception {
        AdaptationTask t = PrimaPipelineTest.task();
        PrimaConfig cfg = PrimaMethod.prisa().config(PrimaPipelineTest.config("lr").withParam("ensemble", "vote")
                .withParam("partitioning", "random").withParam("block-size", "4"), t.preprocessing());
        TargetRelease r = Prima.release(t.target(), cfg, t.preprocessing(), "prisa", 1, "r", session());
        FeatureMatrix rows = Prima.clipRows(t.source().features(), cfg, r.partition());
        SecondMoments sm = Prima.sourceMomentsNoise(Prima.sourceExact(rows, r.partition()), cfg, 1.0, NeighbouringRelation.REPLACE_ONE,
                org.privadapt.privacy.noise.NoiseSource.seeded(2));
        Prima.SourceTransform tr = Prima.sourceAlignment(sm, r).transform();
        List<DenseMatrix> all = tr.blockFeatures(rows);
        DenseMatrix dense = rows.toDense();
        assertThat(tr.groups()).isGreaterThan(1);
        for (int g = 0; g < tr.groups(); g++) {
            DenseMatrix x = Prima.SourceTransform.group(all, g, true);
            for (int i = 0; i < 20; i++) {
                double[] one = tr.rowFeatures(dense.row(i), g);
                double[] expected = x.row(i);
                assertThat(one).hasSameSizeAs(expected);
                for (int j = 0; j < one.length; j++) {
                    assertThat(Math.abs(one[j] - expected[j])).isLessThanOrEqualTo(1e-12 * (1 + Math.abs(expected[j])));
                }
            }
        }
        // serializable: an engine ships it to where the rows are
        java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(new java.io.ByteArrayOutputStream());
        out.writeObject(tr);
    }

    // ------------------------------------------------------------------ the code before the split, verbatim

    static SourceModel oldTrain(Dataset source, TargetRelease release, MethodConfig mc, PrivacySession session)
            throws DataException, ArtifactException, BudgetExceededException, BudgetLedger.LedgerException {
        source.requireNonEmpty().requireFinite();
        if (source.dimension() != release.dimension()) {
            throw new DataException(source.firstFile(), null, "has " + source.dimension() + " features; the release is for "
                    + release.dimension());
        }
        PrimaConfig cfg = release.config();
        Partition partition = release.partition();
        NeighbouringRelation rel = session.relation();
        ClassLabels y = source.classLabels();
        int k = y.numClasses();
        int learnerDimension = Prima.learnerDimension(cfg, partition);
        double eps = session.target().epsilon() * (1 - 1e-9);
        PrivateLearners.Kind kind = PrivateLearners.kind(mc, learnerDimension, k, session.target().epsilon(),
                PrivateLearners.sizePublic(source, session));
        PrivateLearners.requireDisclosures(kind, source, session, "the source's model (" + kind.label() + ")");
        boolean ovr = cfg.oneVsRest() && k > 2 && kind.gradientBased();
        int groups = cfg.vote() ? partition.size() : 1;
        int runs = groups * (ovr ? k : 1);
        double delta = session.target().delta();
        double sMoments = Prima.sourceMomentsMultiplier(cfg, session);
        DpEvent moments = new GaussianEvent(sMoments);
        PrivateLearners.Plan plan = PrivateLearners.plan(PrivateLearners.resolved(mc, kind), source.size(), learnerDimension, k, eps, delta, rel, moments, runs);
        // one atomic charge for the moments and the model(s): a refusal leaves nothing spent (issue 14)
        session.chargeAll(List.of(
                new PrivacySession.Release(release.method() + " source: own subspace moments", "Gaussian (block second moments, sums, count)",
                        moments, Map.of("noise_multiplier", sMoments)),
                new PrivacySession.Release(release.method() + " source: " + kind.label() + " model" + (runs > 1 ? "s (" + runs + ")" : ""),
                        kind.label(), plan.event(), plan.describe())));
        FeatureMatrix rows = Prima.clipRows(source.features(), cfg, partition);
        SecondMoments sm = Prima.sourceMomentsNoise(Prima.sourceExact(rows, partition), cfg, sMoments, rel, session.noise());
        double[] sd = Prima.standardDeviations(sm, cfg);
        DenseMatrix z = Prima.standardized(rows, sm.mean(), sd, cfg);
        List<DenseMatrix> features = new ArrayList<>();
        List<DenseMatrix> targetBases = new ArrayList<>();
        for (int b = 0; b < partition.size(); b++) {
            int[] idx = partition.block(b);
            DenseMatrix cs = Prima.scaled(sm.blockCovariance(b, cfg.centred()), idx, sd);
            cs = cfg.shrink() ? Prima.shrink(cs, cfg).matrix() : PsdShrinking.floorEigenvalues(cs, 0.0);
            DenseMatrix ct = release.blocks().get(b);
            DenseMatrix zb = z.selectColumns(idx);
            if (cfg.adaptation() == PrimaConfig.Adaptation.CORAL) {
                features.add(Coral.apply(zb, Coral.alignmentMapRelative(cs, ct, cfg.lambda())));
                targetBases.add(null);
            } else {
                int kb = Math.max(1, (int) Math.ceil(cfg.saFraction() * idx.length));
                DenseMatrix ps = SubspaceAlignment.basis(cs, kb);
                DenseMatrix pt = SubspaceAlignment.basis(ct, kb);
                features.add(SubspaceAlignment.transformSource(zb, ps, pt));
                targetBases.add(pt);
            }
        }
        List<List<Network>> models = new ArrayList<>();
        int[] codes = y.codes();
        for (int g = 0; g < groups; g++) {
            DenseMatrix x = cfg.vote() ? features.get(g) : Prima.concat(features);
            List<Network> group = new ArrayList<>();
            if (ovr) {
                for (int cls = 0; cls < k; cls++) {
                    int[] binary = new int[codes.length];
                    for (int i = 0; i < codes.length; i++) {
                        binary[i] = codes[i] == cls ? 1 : 0;
                    }
                    group.add(PrivateLearners.train(plan, x, binary, List.of("rest", y.names().get(cls)), session.noise()));
                }
            } else {
                group.add(PrivateLearners.train(plan, x, codes, y.names(), session.noise()));
            }
            models.add(group);
        }
        ObjectNode privacy = Prima.statement(session, "source", delta);
        // what the model carries without noise because the source declared it public (neighbouring-relations.md)
        com.fasterxml.jackson.databind.node.ArrayNode declared = privacy.putArray("declared_public");
        source.publicFacts().describe().forEach(declared::add);
        Map<String, Object> d = plan.describe();
        ObjectNode training = privacy.putObject("training");
        d.forEach((key, v) -> training.put(key, String.valueOf(v)));
        training.put("models", runs);
        return new SourceModel(release.runId(), release.checksum(), release.method(), cfg, release.preprocessing(), partition,
                release.mean(), release.sd(), targetBases, models, y.names(), false, privacy);
    }
}
