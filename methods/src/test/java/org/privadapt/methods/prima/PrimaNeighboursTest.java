package org.privadapt.methods.prima;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.privadapt.data.Dataset;
import org.privadapt.data.PublicFacts;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.neighbours.Neighbours;
import org.privadapt.methods.neighbours.ReleaseComparison;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * The neighbouring-dataset harness for PRIMA/PRISA (docs/privacy/testing.md, docs/privacy/prima.md): (a) the moment
 * vector each Gaussian release adds noise to (the forward-selection stage's full moments and the subspace moments
 * over several partitions) moves by at most {@link SecondMomentRelease#sensitivity} on every neighbour kind of
 * both relations; (b) the target's release, and the source's model, computed with the same seeded noise on
 * neighbours, differ only in DP outputs and what is computed from them, for every ablation.
 */
class PrimaNeighboursTest {
    static final ObjectMapper JSON = new ObjectMapper();

    /** The noiseless released vector: upper triangles of the blocks' Gram matrices, c * sums, c^2 * count. */
    static double[] momentVector(FeatureMatrix clipped, Partition p, double c) {
        List<Double> v = new ArrayList<>();
        for (int b = 0; b < p.size(); b++) {
            DenseMatrix g = clipped.selectColumns(p.block(b)).gram();
            for (int i = 0; i < g.rows(); i++) {
                for (int j = i; j < g.cols(); j++) {
                    v.add(g.get(i, j));
                }
            }
        }
        for (double s : SecondMomentRelease.columnSums(clipped)) {
            v.add(c * s);
        }
        v.add(c * c * clipped.rows());
        return v.stream().mapToDouble(Double::doubleValue).toArray();
    }

    static double[] released(Neighbours.Labelled d, PrimaConfig cfg, Partition p, double[] bounds, double c) {
        FeatureMatrix rows = Prima.clipRows(d.matrix(), cfg, null);
        return momentVector(BlockClipping.clip(rows, p, bounds), p, c);
    }

    @Test
    void momentReleasesMoveByAtMostTheirSensitivityOnEveryNeighbour() {
        int d = 12;
        PrimaConfig cfg = PrimaConfig.prima(PrimaConfig.Adaptation.CORAL);
        Neighbours.Labelled base = Neighbours.random(40, d, 3, 2 * cfg.rowBound(), 4);
        List<Partition> partitions = List.of(Partition.single(d), Partition.random(d, 4, 1), Partition.random(d, 5, 2));
        for (NeighbouringRelation rel : NeighbouringRelation.values()) {
            List<Neighbours.Pair> pairs = rel == NeighbouringRelation.REPLACE_ONE ? Neighbours.replaceOne(base, cfg.rowBound(), 2)
                    : Neighbours.addRemove(base, cfg.rowBound(), 2);
            for (Neighbours.Pair pair : pairs) {
                // stage 1 (forward selection): the full moments, one block, clipped to the row bound
                double c1 = cfg.momentWeight() * cfg.rowBound();
                Partition all = Partition.single(d);
                double[] b1 = {cfg.rowBound()};
                ReleaseComparison.assertWithin(ReleaseComparison.l2(released(pair.d(), cfg, all, b1, c1),
                        released(pair.dPrime(), cfg, all, b1, c1)),
                        SecondMomentRelease.sensitivity(rel, 1, cfg.rowBound(), cfg.rowBound(), c1), 1e-9, "stage 1 " + rel + " " + pair);
                // stage 2: subspace moments with per-block bounds
                for (Partition p : partitions) {
                    double[] bounds = cfg.blockBounds(p);
                    double c = cfg.momentWeight() * cfg.rowBound();
                    ReleaseComparison.assertWithin(ReleaseComparison.l2(released(pair.d(), cfg, p, bounds, c),
                            released(pair.dPrime(), cfg, p, bounds, c)), SecondMomentRelease.sensitivity(rel, bounds, cfg.rowBound(), c),
                            1e-9, "stage 2 (" + p.size() + " blocks) " + rel + " " + pair);
                }
            }
        }
    }

    static JsonNode targetRelease(Dataset t, PrimaConfig cfg, NeighbouringRelation rel) throws Exception {
        PrivacySession s = new PrivacySession("target", new PrivacyBudget(2.0, 1e-5), rel, NoiseSource.seeded(31), null);
        return JSON.readTree(Prima.release(t, cfg, "none", "prima", 1, "harness", s).toArtifact().toBytes());
    }

    /** Payload fields of the target's release that are DP outputs or computed from them alone. */
    static boolean targetReleaseDp(String path) {
        return ReleaseComparison.metadata(path) || path.startsWith("/payload/blocks") || path.matches("/payload/(mean|sd)/base64");
    }

    @Test
    void theTargetsReleaseDiffersBetweenNeighboursOnlyInDpOutputs() throws Exception {
        Neighbours.Labelled base = Neighbours.random(60, 10, 3, 1.0, 7);
        for (PrimaConfig.Partitioning part : PrimaConfig.Partitioning.values()) {
            for (boolean shrink : new boolean[] {true, false}) {
                // PRIMA and every ablation (partitioning x shrinking); PRISA's release is the same with SA settings
                PrimaConfig cfg = PrimaConfig.prima(shrink ? PrimaConfig.Adaptation.CORAL : PrimaConfig.Adaptation.SA).with(part, shrink);
                for (NeighbouringRelation rel : NeighbouringRelation.values()) {
                    List<Neighbours.Pair> pairs = rel == NeighbouringRelation.REPLACE_ONE ? Neighbours.replaceOne(base, 1.0, 3)
                            : Neighbours.addRemove(base, 1.0, 3);
                    for (Neighbours.Pair p : pairs) {
                        JsonNode a = targetRelease(p.d().dataset("t").withoutLabels(), cfg, rel);
                        JsonNode b = targetRelease(p.dPrime().dataset("t").withoutLabels(), cfg, rel);
                        ReleaseComparison.assertOnlyDeclaredDiffer(a, b, PrimaNeighboursTest::targetReleaseDp,
                                part + (shrink ? " shrink " : " ") + rel + " " + p);
                    }
                }
            }
        }
    }

    static JsonNode sourceModel(Dataset s, TargetRelease r, NeighbouringRelation rel) throws Exception {
        return sourceModel(s, r, rel, "dp-sgd");
    }

    static JsonNode sourceModel(Dataset s, TargetRelease r, NeighbouringRelation rel, String learner) throws Exception {
        PrivacySession ps = new PrivacySession("source", new PrivacyBudget(2.0, 1e-5), rel, NoiseSource.seeded(41), null);
        MethodConfig mc = new MethodConfig("lr", 1e-3, 1L, Map.of("epochs", "2", "batch", "16", "learner", learner));
        return JSON.readTree(Prima.train(s, r, mc, ps).toArtifact("harness").toBytes());
    }

    /** The model statement's fields that n determines (the DP-SGD plan, its event, the certified epsilon). */
    static boolean nDetermined(String path) {
        return path.matches("/privacy/training/(sample_rate|steps|noise_multiplier)")
                || path.matches("/privacy/events/\\d+/event/(q|count|event/noise_multiplier)") || path.equals("/privacy/epsilon_spent");
    }

    /**
     * The source's model on neighbours, same release and seeded noise: only the DP-SGD weights may differ, and, under
     * add/remove, the training plan's fields that n determines, which the source must have declared public
     * (without the declaration the release is refused).
     */
    @Test
    void theSourcesModelDiffersBetweenNeighboursOnlyInDpOutputsAndDeclaredN() throws Exception {
        Neighbours.Labelled base = Neighbours.random(60, 10, 3, 1.0, 9);
        for (PrimaConfig.Adaptation adaptation : PrimaConfig.Adaptation.values()) {
            sourceModelsOfNeighbours(base, PrimaConfig.prima(adaptation));
        }
    }

    void sourceModelsOfNeighbours(Neighbours.Labelled base, PrimaConfig cfg) throws Exception {
        PrivacySession ts = new PrivacySession("target", new PrivacyBudget(2.0, 1e-5), NeighbouringRelation.ADD_OR_REMOVE_ONE,
                NoiseSource.seeded(5), null);
        TargetRelease r = Prima.release(Neighbours.random(50, 10, 3, 1.0, 10).dataset("t").withoutLabels(), cfg, "none", "prima", 1,
                "harness", ts);
        PublicFacts declared = PublicFacts.parse(List.of("size", "classes"), "harness");
        for (Neighbours.Pair p : Neighbours.addRemove(base, 1.0, 4)) {
            // undeclared: refused
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> sourceModel(p.d().dataset("s"), r, NeighbouringRelation.ADD_OR_REMOVE_ONE))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("number of records");
            JsonNode a = sourceModel(p.d().dataset("s").withPublicFacts(declared), r, NeighbouringRelation.ADD_OR_REMOVE_ONE);
            JsonNode b = sourceModel(p.dPrime().dataset("s").withPublicFacts(declared), r, NeighbouringRelation.ADD_OR_REMOVE_ONE);
            // the model says what it carries because it was declared public
            assertThat(a.at("/privacy/declared_public").toString()).contains("size (harness)").contains("classes (harness)");
            ReleaseComparison.assertOnlyDeclaredDiffer(a, b, path -> ReleaseComparison.metadata(path)
                    || path.matches("/payload/groups/.*/(weights|bias)/base64")
                    || nDetermined(path), cfg.adaptation() + " add/remove " + p);
        }
    }

    /**
     * With the class-statistics learner (the default rule's choice) n is neither needed nor released: undeclared n is
     * accepted, and between neighbours only the model's weights (noisy class directions) and the certified epsilon's
     * bookkeeping-free fields may differ: nothing that n determines.
     */
    @Test
    void withTheClassStatisticsLearnerOnlyTheNoisyWeightsDifferAndNIsNotNeeded() throws Exception {
        Neighbours.Labelled base = Neighbours.random(60, 10, 3, 1.0, 9);
        PublicFacts declared = PublicFacts.parse(List.of("classes"), "harness");
        for (PrimaConfig.Adaptation adaptation : PrimaConfig.Adaptation.values()) {
            PrimaConfig cfg = PrimaConfig.prima(adaptation);
            PrivacySession ts = new PrivacySession("target", new PrivacyBudget(2.0, 1e-5), NeighbouringRelation.ADD_OR_REMOVE_ONE,
                    NoiseSource.seeded(5), null);
            TargetRelease r = Prima.release(Neighbours.random(50, 10, 3, 1.0, 10).dataset("t").withoutLabels(), cfg, "none", "prima", 1,
                    "harness", ts);
            for (NeighbouringRelation rel : NeighbouringRelation.values()) {
                List<Neighbours.Pair> pairs = rel == NeighbouringRelation.REPLACE_ONE ? Neighbours.replaceOne(base, 1.0, 4)
                        : Neighbours.addRemove(base, 1.0, 4);
                for (Neighbours.Pair p : pairs) {
                    JsonNode a = sourceModel(p.d().dataset("s").withPublicFacts(declared), r, rel, "ncm");
                    JsonNode b = sourceModel(p.dPrime().dataset("s").withPublicFacts(declared), r, rel, "ncm");
                    assertThat(a.at("/privacy/training/learner").asText()).isEqualTo("ncm");
                    ReleaseComparison.assertOnlyDeclaredDiffer(a, b, path -> ReleaseComparison.metadata(path)
                            || path.matches("/payload/groups/.*/(weights|bias)/base64"), adaptation + " " + rel + " " + p);
                }
            }
        }
    }
    /** Multi-label source rows of a neighbour: label j present when feature j is positive (a function of the row alone). */
    static Dataset multiLabelled(Neighbours.Labelled d, String domain, int labels) {
        DenseMatrix x = d.matrix();
        int[][] y = new int[x.rows()][labels];
        for (int i = 0; i < x.rows(); i++) {
            for (int j = 0; j < labels; j++) {
                y[i][j] = x.get(i, j) > 0 ? 1 : 0;
            }
        }
        List<String> names = new ArrayList<>();
        for (int j = 0; j < labels; j++) {
            names.add("label" + j);
        }
        return new Dataset(domain, x, new org.privadapt.data.MultiLabels(y, names), null,
                org.privadapt.data.Provenance.generated("neighbour harness"));
    }

    /**
     * Multi-label source rows (issue 47): one binary model per label, composed in the plan. On neighbours of both
     * relations, with the class-statistics learner and with DP-SGD (n declared), only the label models' noisy weights,
     * and under add/remove the DP-SGD plan's n-determined fields, may differ.
     */
    @Test
    void aMultiLabelSourcesLabelModelsDifferBetweenNeighboursOnlyInDpOutputs() throws Exception {
        Neighbours.Labelled base = Neighbours.random(60, 10, 3, 1.0, 9);
        PrimaConfig cfg = PrimaConfig.prima(PrimaConfig.Adaptation.CORAL);
        PrivacySession ts = new PrivacySession("target", new PrivacyBudget(2.0, 1e-5), NeighbouringRelation.ADD_OR_REMOVE_ONE,
                NoiseSource.seeded(5), null);
        TargetRelease r = Prima.release(Neighbours.random(50, 10, 3, 1.0, 10).dataset("t").withoutLabels(), cfg, "none", "prima", 1,
                "harness", ts);
        PublicFacts declared = PublicFacts.parse(List.of("size", "classes"), "harness");
        for (String learner : List.of("ncm", "dp-sgd")) {
            for (NeighbouringRelation rel : NeighbouringRelation.values()) {
                List<Neighbours.Pair> pairs = rel == NeighbouringRelation.REPLACE_ONE ? Neighbours.replaceOne(base, 1.0, 4)
                        : Neighbours.addRemove(base, 1.0, 4);
                for (Neighbours.Pair p : pairs) {
                    JsonNode a = sourceModel(multiLabelled(p.d(), "s", 3).withPublicFacts(declared), r, rel, learner);
                    JsonNode b = sourceModel(multiLabelled(p.dPrime(), "s", 3).withPublicFacts(declared), r, rel, learner);
                    assertThat(a.at("/payload/label_groups/0").size()).isEqualTo(3);
                    assertThat(a.at("/payload/groups").isMissingNode()).isTrue();
                    assertThat(a.at("/privacy/training/models").asText()).isEqualTo("3");
                    ReleaseComparison.assertOnlyDeclaredDiffer(a, b, path -> ReleaseComparison.metadata(path)
                            || path.matches("/payload/label_groups/.*/(weights|bias)/base64")
                            // the labels' runs compose, one level deeper than a single model's event
                            || (learner.equals("dp-sgd") && (nDetermined(path)
                                    || path.matches("/privacy/events/\\d+/event/event/(q|count|event/noise_multiplier)"))),
                            learner + " " + rel + " " + p);
                }
            }
        }
    }
}
