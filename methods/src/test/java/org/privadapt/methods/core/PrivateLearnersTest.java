package org.privadapt.methods.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.Dataset;
import org.privadapt.data.PublicFacts;
import org.privadapt.data.preprocess.Preprocessing;
import org.privadapt.data.synthetic.SyntheticShift;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.neighbours.Neighbours;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.Network;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacyCost;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.accounting.Accountants;
import org.privadapt.privacy.accounting.NoiseCalibration;
import org.privadapt.privacy.events.ComposedEvent;
import org.privadapt.privacy.events.DpEvent;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.events.SelfComposedEvent;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * {@link PrivateLearners}: the learner option, the plan's calibration (its event, composed with a prior, certifies at
 * most the target epsilon), the facts each learner's release carries, and training; and dp-source-only end to end with
 * a non-gradient learner and a target refinement.
 */
class PrivateLearnersTest {
    static final List<PrivateLearners.Kind> ALL = List.of(PrivateLearners.Kind.values());

    static MethodConfig config(PrivateLearners.Kind kind) {
        // small gradient runs (lr classifier, few epochs), so that every plan and fit is quick
        return new MethodConfig("lr", 0, 1, Map.of("learner", kind.label(), "epochs", "3", "batch", "64", "lr", "0.1"));
    }

    // ----------------------------------------------------------------------------------------------------- parsing

    @Test
    void kindParsingAndErrors() {
        for (PrivateLearners.Kind k : ALL) {
            assertThat(PrivateLearners.Kind.parse(k.label())).isEqualTo(k);
        }
        assertThat(ALL.stream().map(PrivateLearners.Kind::label)).containsExactly("dp-sgd", "dp-gd", "ncm", "lda", "output-perturbation",
                "objective-perturbation", "adassp");
        for (String bad : new String[] {"auto", "NCM", "dp_sgd", "", "op"}) {
            assertThatThrownBy(() -> PrivateLearners.Kind.parse(bad)).as("'%s'", bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("unknown learner '" + bad + "'").hasMessageContaining("output-perturbation");
        }
        // auto (also the default) resolves to the rule's choice, which reads public quantities only
        MethodConfig none = MethodConfig.defaults();
        assertThat(PrivateLearners.kind(none, 10, 3, 1.0)).isEqualTo(PrivateLearners.choose(10, 3, 1.0));
        assertThat(PrivateLearners.kind(none.withParam("learner", "auto"), 10, 3, 1.0)).isEqualTo(PrivateLearners.choose(10, 3, 1.0));
        assertThat(PrivateLearners.kind(none.withParam("learner", "lda"), 10, 3, 1.0)).isEqualTo(PrivateLearners.Kind.LDA);
        assertThatThrownBy(() -> PrivateLearners.kind(none.withParam("learner", "svm"), 10, 3, 1.0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'svm'");
        // a network asked for: auto means DP-SGD (the only learner that trains one); an explicit learner still wins
        MethodConfig dnn = new MethodConfig("dnn", 1e-3, 1L, java.util.Map.of());
        assertThat(PrivateLearners.kind(dnn, 10, 3, 1.0, false)).isEqualTo(PrivateLearners.Kind.DP_SGD);
        assertThat(PrivateLearners.kind(dnn.withParam("learner", "ncm"), 10, 3, 1.0, false)).isEqualTo(PrivateLearners.Kind.NCM);
        // the rule: class statistics up to epsilon 4 and whenever n is not public; DP-SGD above 4 with n public
        for (double eps : new double[] {0.1, 1, 2, 4}) {
            assertThat(PrivateLearners.choose(1024, 10, eps, true)).as("eps %s", eps).isEqualTo(PrivateLearners.Kind.NCM);
        }
        for (double eps : new double[] {4.01, 8, 100}) {
            assertThat(PrivateLearners.choose(1024, 10, eps, true)).as("eps %s", eps).isEqualTo(PrivateLearners.Kind.DP_SGD);
            assertThat(PrivateLearners.choose(1024, 10, eps, false)).as("eps %s, n private", eps).isEqualTo(PrivateLearners.Kind.NCM);
            assertThat(PrivateLearners.kind(none, 1024, 10, eps)).as("unresolved auto: n treated as private")
                    .isEqualTo(PrivateLearners.Kind.NCM);
        }
        // only the gradient learners reveal n and take one-vs-rest
        for (PrivateLearners.Kind k : ALL) {
            boolean gradient = k == PrivateLearners.Kind.DP_SGD || k == PrivateLearners.Kind.DP_GD;
            assertThat(k.revealsSize()).as(k.label()).isEqualTo(gradient);
            assertThat(k.gradientBased()).as(k.label()).isEqualTo(gradient);
        }
        assertThat(PrivateLearners.ALL).contains("learner", "learner-row-bound", "learner-lambda", "lda-shrinkage", "lda-count-share", "lda-moment-share", "clip",
                "epochs");
    }

    // ------------------------------------------------------------------------------------------------- calibration

    static DpEvent whole(DpEvent prior, DpEvent runs) {
        return prior == null ? runs : ComposedEvent.of(prior, runs);
    }

    @Test
    void everyPlanCertifiesAtMostTheTargetEpsilonWithAndWithoutAPriorAndForSeveralRuns() {
        // priors that leave room within the smaller target (eps of the Gaussian prior alone: about 0.4 at delta 1e-5)
        DpEvent dpSgdPrior = NoiseCalibration.dpSgdEvent(5.0, 0.01, 20);
        List<DpEvent> priors = Arrays.asList(null, new GaussianEvent(10.0), dpSgdPrior);
        List<String> report = new ArrayList<>();
        for (PrivateLearners.Kind kind : ALL) {
            for (NeighbouringRelation rel : NeighbouringRelation.values()) {
                for (double eps : new double[] {1.0, 4.0}) {
                    for (DpEvent prior : priors) {
                        for (int runs : new int[] {1, 3}) {
                            if (prior == dpSgdPrior && (eps != 1.0 || runs != 3)) {
                                continue; // its calibration runs the PLD accountant per step: one combination suffices
                            }
                            String what = kind.label() + ", " + rel + ", eps " + eps + ", prior " + (prior == null ? "none" : prior.describe())
                                    + ", runs " + runs;
                            PrivateLearners.Plan p = PrivateLearners.plan(config(kind), 400, 5, 3, eps, 1e-5, rel, prior, runs);
                            assertThat(p.kind()).isEqualTo(kind);
                            assertThat(p.relation()).isEqualTo(rel);
                            assertThat(p.runs()).isEqualTo(runs);
                            Accountants.Certified c = Accountants.certify(rel, whole(prior, p.event()), 1e-5);
                            assertThat(c).as(what).isNotNull();
                            assertThat(c.epsilon()).as(what).isLessThanOrEqualTo(eps);
                            if (kind == PrivateLearners.Kind.OBJECTIVE_PERTURBATION) {
                                // one bare (eps1, delta1) guarantee per model, eps1 the largest that fits, and the
                                // calibration certifies exactly that pair
                                assertThat(p.objective()).as(what).isNotNull();
                                assertThat(p.gradient()).isNull();
                                org.privadapt.privacy.events.ApproximateDpEvent one = (org.privadapt.privacy.events.ApproximateDpEvent)
                                        (runs == 1 ? p.event() : ((SelfComposedEvent) p.event()).event());
                                assertThat(p.objective().guarantee().epsilon()).as(what).isLessThanOrEqualTo(one.epsilon() * (1 + 1e-12));
                                assertThat(p.objective().guarantee().delta()).as(what).isLessThanOrEqualTo(one.delta());
                                if (prior == null && runs == 1) {
                                    assertThat(one).isEqualTo(new org.privadapt.privacy.events.ApproximateDpEvent(eps, 1e-5));
                                }
                                assertThat(c.epsilon()).as(what).isGreaterThan(0.97 * eps);
                                report.add(String.format("%s: certified %.4f", what, c.epsilon()));
                                continue;
                            }
                            assertThat(p.noiseMultiplier()).as(what).isPositive();
                            if (!kind.gradientBased()) {
                                // one Gaussian (or runs of it) at the multiplier the plan states; calibrated to the target,
                                // not far below it (the smallest noise that fits)
                                DpEvent g = new GaussianEvent(p.noiseMultiplier());
                                assertThat(p.event()).as(what).isEqualTo(runs == 1 ? g : new SelfComposedEvent(g, runs));
                                assertThat(p.gradient()).isNull();
                                assertThat(c.epsilon()).as(what).isGreaterThan(0.97 * eps);
                            } else {
                                assertThat(p.gradient()).as(what).isNotNull();
                                assertThat(p.noiseMultiplier()).isEqualTo(p.gradient().config().noiseMultiplier());
                            }
                            report.add(String.format("%s: certified %.4f", what, c.epsilon()));
                        }
                    }
                }
            }
        }
        assertThat(report).hasSize(ALL.size() * 2 * (2 * 2 * 2 + 1));
    }

    @Test
    void aSingleGaussianReleaseIsCalibratedExactlyAndMoreRunsOrAPriorNeedMoreNoise() {
        MethodConfig c = config(PrivateLearners.Kind.NCM);
        double alone = PrivateLearners.plan(c, 100, 5, 3, 1.0, 1e-5, NeighbouringRelation.ADD_OR_REMOVE_ONE, null, 1).noiseMultiplier();
        assertThat(alone).isCloseTo(org.privadapt.privacy.mechanisms.GaussianCalibration.analyticSigma(1.0 * (1 - 1e-9), 1e-5, 1.0),
                within(1e-12));
        double three = PrivateLearners.plan(c, 100, 5, 3, 1.0, 1e-5, NeighbouringRelation.ADD_OR_REMOVE_ONE, null, 3).noiseMultiplier();
        double afterPrior = PrivateLearners.plan(c, 100, 5, 3, 1.0, 1e-5, NeighbouringRelation.ADD_OR_REMOVE_ONE, new GaussianEvent(10.0), 1)
                .noiseMultiplier();
        // three Gaussians of multiplier s compose into one of s / sqrt 3: three runs need sqrt 3 times the noise
        assertThat(three / alone).isCloseTo(Math.sqrt(3), within(1e-3));
        assertThat(afterPrior).isGreaterThan(alone);
        assertThatThrownBy(() -> PrivateLearners.plan(c, 100, 5, 3, 1.0, 1e-5, NeighbouringRelation.ADD_OR_REMOVE_ONE, null, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theNonGradientPlansDoNotDependOnN() {
        // under add/remove n is private: the plan (its event and what it describes) of ncm, lda and output perturbation
        // is the same for n and n + 1 (and for any n)
        for (PrivateLearners.Kind kind : List.of(PrivateLearners.Kind.NCM, PrivateLearners.Kind.LDA, PrivateLearners.Kind.OUTPUT_PERTURBATION,
                PrivateLearners.Kind.OBJECTIVE_PERTURBATION)) {
            for (int runs : new int[] {1, 2}) {
                PrivateLearners.Plan a = PrivateLearners.plan(config(kind), 100, 6, 3, 2.0, 1e-5, NeighbouringRelation.ADD_OR_REMOVE_ONE,
                        new GaussianEvent(4.0), runs);
                PrivateLearners.Plan b = PrivateLearners.plan(config(kind), 101, 6, 3, 2.0, 1e-5, NeighbouringRelation.ADD_OR_REMOVE_ONE,
                        new GaussianEvent(4.0), runs);
                PrivateLearners.Plan c = PrivateLearners.plan(config(kind), 5000, 6, 3, 2.0, 1e-5, NeighbouringRelation.ADD_OR_REMOVE_ONE,
                        new GaussianEvent(4.0), runs);
                assertThat(a.event()).as(kind.label()).isEqualTo(b.event()).isEqualTo(c.event());
                assertThat(a.describe()).as(kind.label()).isEqualTo(b.describe()).isEqualTo(c.describe());
                assertThat(a.config()).isEqualTo(b.config());
                assertThat(a.describe()).containsEntry("learner", kind.label());
                if (runs > 1) {
                    assertThat(a.describe()).containsEntry("models", runs);
                }
            }
        }
        // DP-SGD's plan does depend on n (its sampling rate B / n; hence the disclosure below)
        PrivateLearners.Plan g1 = PrivateLearners.plan(config(PrivateLearners.Kind.DP_SGD), 100, 6, 3, 2.0, 1e-5,
                NeighbouringRelation.ADD_OR_REMOVE_ONE, null, 1);
        PrivateLearners.Plan g2 = PrivateLearners.plan(config(PrivateLearners.Kind.DP_SGD), 101, 6, 3, 2.0, 1e-5,
                NeighbouringRelation.ADD_OR_REMOVE_ONE, null, 1);
        assertThat(g1.describe()).isNotEqualTo(g2.describe());
    }

    @Test
    void defaultsFilledInFromPublicQuantities() {
        MethodConfig c = MethodConfig.defaults();
        assertThat(PrivateLearners.withDefaults(c, PrivateLearners.Kind.NCM, 100, 10).params()).containsEntry("learner-row-bound", "3.0");
        assertThat(PrivateLearners.withDefaults(c, PrivateLearners.Kind.NCM, 100, 1).params()).containsEntry("learner-row-bound", "1.0");
        assertThat(PrivateLearners.withDefaults(c.withParam("learner-row-bound", "0.5"), PrivateLearners.Kind.LDA, 100, 10).params())
                .containsEntry("learner-row-bound", "0.5");
        MethodConfig gd = PrivateLearners.withDefaults(c, PrivateLearners.Kind.DP_GD, 123, 10);
        assertThat(gd.params()).containsEntry("batch", "123").containsEntry("epochs", "100").containsEntry("lr", "0.05");
        MethodConfig op = PrivateLearners.withDefaults(c.withParam("learner-row-bound", "2"), PrivateLearners.Kind.OUTPUT_PERTURBATION, 100, 10);
        assertThat(Double.parseDouble(op.params().get("learner-lambda"))).isCloseTo(50.0, within(1e-12));
        assertThat(PrivateLearners.defaultLambda(3)).isCloseTo(100, within(1e-12));
        MethodConfig obj = PrivateLearners.withDefaults(c.withParam("learner-row-bound", "2"), PrivateLearners.Kind.OBJECTIVE_PERTURBATION,
                100, 10);
        assertThat(Double.parseDouble(obj.params().get("learner-lambda"))).isCloseTo(125.0, within(1e-12));
        // a DP-GD plan is full batch: sampling rate 1
        PrivateLearners.Plan p = PrivateLearners.plan(config(PrivateLearners.Kind.DP_GD), 77, 4, 3, 1.0, 1e-5,
                NeighbouringRelation.REPLACE_ONE, null, 1);
        assertThat(p.gradient().config().samplingRate()).isEqualTo(1.0);
        assertThat(p.gradient().config().steps()).isEqualTo(3); // epochs = 3 given
    }

    // ------------------------------------------------------------------------------------------------- disclosures

    static PrivacySession session(NeighbouringRelation r) {
        return new PrivacySession("source", new PrivacyBudget(1, 1e-5), r, NoiseSource.seeded(1), null);
    }

    @Test
    void nIsRequiredPublicOnlyForTheGradientLearnersUnderAddRemove() {
        Dataset file = Neighbours.random(30, 4, 3, 1.0, 2).dataset("file.csv");
        Dataset classesAndSchema = file.withPublicFacts(PublicFacts.parse(List.of("classes", "schema"), "test"));
        assertThat(classesAndSchema.publicFacts().sizePublic()).isFalse();
        for (PrivateLearners.Kind kind : ALL) {
            if (kind.revealsSize()) {
                assertThatThrownBy(() -> PrivateLearners.requireDisclosures(kind, classesAndSchema,
                        session(NeighbouringRelation.ADD_OR_REMOVE_ONE), "the source's model"))
                        .as(kind.label()).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--source-public size");
            } else {
                PrivateLearners.requireDisclosures(kind, classesAndSchema, session(NeighbouringRelation.ADD_OR_REMOVE_ONE), "the source's model");
            }
            // under replace-one n is public by the relation
            PrivateLearners.requireDisclosures(kind, classesAndSchema, session(NeighbouringRelation.REPLACE_ONE), "the source's model");
            // every learner's model carries the class set: refused when it was read from the rows
            assertThatThrownBy(() -> PrivateLearners.requireDisclosures(kind, file, session(NeighbouringRelation.REPLACE_ONE), "m"))
                    .as(kind.label()).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("class set");
            // and the feature layout, when it was read from the rows
            Dataset vocabulary = file.withPublicFacts(PublicFacts.parse(List.of("classes"), "test")).withSchemaFromRows();
            assertThatThrownBy(() -> PrivateLearners.requireDisclosures(kind, vocabulary, session(NeighbouringRelation.REPLACE_ONE), "m"))
                    .as(kind.label()).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("feature layout");
        }
        Dataset all = file.withPublicFacts(PublicFacts.parse(List.of("size", "classes", "schema"), "test"));
        for (PrivateLearners.Kind kind : ALL) {
            PrivateLearners.requireDisclosures(kind, all, session(NeighbouringRelation.ADD_OR_REMOVE_ONE), "m");
        }
    }

    // ---------------------------------------------------------------------------------------------------- training

    /** Three well-separated classes in R^4 (plus an offset), norms around 3. */
    static Object[] separated(int perClass, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int n = 3 * perClass;
        DenseMatrix x = DenseMatrix.zeros(n, 4);
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = i % 3;
            for (int j = 0; j < 4; j++) {
                double g = Math.sqrt(-2 * Math.log(1 - r.nextDouble())) * Math.cos(2 * Math.PI * r.nextDouble());
                x.set(i, j, (j == y[i] ? 3 : 0) + (j == 3 ? 0.5 : 0) + 0.5 * g);
            }
        }
        return new Object[] {x, y};
    }

    @Test
    void trainReturnsALinearNetworkOverTheDeclaredClassesForEveryLearner() {
        Object[] tr = separated(100, 1);
        Object[] te = separated(200, 2);
        DenseMatrix x = (DenseMatrix) tr[0];
        int[] y = (int[]) tr[1];
        ClassLabels truth = new ClassLabels((int[]) te[1], List.of("a", "b", "c"));
        List<String> classes = List.of("a", "b", "c");
        for (PrivateLearners.Kind kind : ALL) {
            for (NeighbouringRelation rel : NeighbouringRelation.values()) {
                String what = kind.label() + ", " + rel;
                PrivateLearners.Plan p = PrivateLearners.plan(config(kind), x.rows(), 4, 3, 8.0, 1e-5, rel, null, 1);
                Network m = PrivateLearners.train(p, x, y, classes, NoiseSource.seeded(5));
                assertThat(m.layers()).as(what).isEqualTo(1);
                assertThat(m.sizes()).as(what).containsExactly(4, 3);
                assertThat(m.classNames()).as(what).isEqualTo(classes);
                if (!kind.gradientBased()) {
                    assertThat(m.hiddenActivation()).as(what).isEqualTo(Activation.IDENTITY);
                }
                // at epsilon 8 on separated classes each learner is far above chance (1/3)
                double acc = org.privadapt.models.Metrics.accuracy(m.predict((DenseMatrix) te[0]), truth);
                assertThat(acc).as(what).isGreaterThan(0.8);
                // the same seed gives the same model; another seed another one (the noise is really drawn)
                Network again = PrivateLearners.train(p, x, y, classes, NoiseSource.seeded(5));
                Network other = PrivateLearners.train(p, x, y, classes, NoiseSource.seeded(6));
                assertThat(again.weights(0).data()).as(what).containsExactly(m.weights(0).data());
                assertThat(other.weights(0).minus(m.weights(0)).maxAbs()).as(what).isGreaterThan(0);
            }
        }
        // a class set larger than the rows' (a declared class no row holds) is kept
        List<String> four = List.of("a", "b", "c", "d");
        for (PrivateLearners.Kind kind : ALL) {
            PrivateLearners.Plan p = PrivateLearners.plan(config(kind), x.rows(), 4, 4, 8.0, 1e-5, NeighbouringRelation.REPLACE_ONE, null, 1);
            assertThat(PrivateLearners.train(p, x, y, four, NoiseSource.seeded(5)).classNames()).as(kind.label()).isEqualTo(four);
        }
    }

    @Test
    void invalidSettingsAreRefusedAtPlanningBeforeAnyCharge() {
        String[][] bad = {{"output-perturbation", "learner-lambda", "-1"}, {"output-perturbation", "learner-lambda", "0"},
            {"lda", "learner-row-bound", "-2"}, {"ncm", "learner-row-bound", "NaN"}, {"lda", "lda-shrinkage", "1.5"},
            {"output-perturbation", "learner-row-bound", "Infinity"}, {"objective-perturbation", "learner-lambda", "-1"},
            {"objective-perturbation", "learner-lambda", "Infinity"}, {"objective-perturbation", "learner-row-bound", "0"}};
        for (String[] b : bad) {
            MethodConfig c = MethodConfig.defaults().withParam("learner", b[0]).withParam(b[1], b[2]);
            assertThatThrownBy(() -> PrivateLearners.plan(c, 60, 4, 3, 1.0, 1e-5, NeighbouringRelation.ADD_OR_REMOVE_ONE, null, 1))
                    .as(java.util.Arrays.toString(b)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void ldaRefusesSharesThatDoNotLeaveRoomForTheSums() {
        Object[] tr = separated(20, 3);
        for (String[] shares : new String[][] {{"0.5", "0.5"}, {"0", "0.5"}, {"0.3", "0"}, {"0.6", "0.6"}}) {
            MethodConfig c = config(PrivateLearners.Kind.LDA).withParam("lda-count-share", shares[0]).withParam("lda-moment-share", shares[1]);
            // refused at planning, before anything is charged
            assertThatThrownBy(() -> PrivateLearners.plan(c, 60, 4, 3, 1.0, 1e-5, NeighbouringRelation.REPLACE_ONE, null, 1))
                    .as(Arrays.toString(shares)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lda-count-share");
        }
    }

    // ------------------------------------------------------------------------------------------ dp-source-only

    @Test
    void dpSourceOnlyWithNcmAndCentroidRefinementEndToEnd() throws Exception {
        var problem = SyntheticShift.generate(new SyntheticShift.Config(6, 3, 150, 100, 4.0, 1.0, 0.0), 3);
        AdaptationTask t = TaskPreparation.prepare("syn", problem.source(), problem.target(), problem.target(),
                Preprocessing.parse("clip=10"), Set.of("source"));
        AdaptationMethod method = Methods.get("dp-source-only");
        assertThat(method.parameters()).contains("learner", "refine", "refine-iterations", "learner-row-bound");
        String[] refine = {"none", "centroids"};
        for (int i = 0; i < 2; i++) {
            MethodConfig c = new MethodConfig("lr", 0, 3, Map.of("learner", "ncm", "refine", refine[i]));
            AdaptationOutcome o = method.run(t, c, PrivacyContext.seeded(2.0, 1e-5, 7));
            assertThat(o.accuracy()).as(refine[i]).isGreaterThan(0.75); // 3 classes: chance 1/3
            assertThat(o.classNames()).hasSize(3);
            PrivacyCost source = o.privacy().get("source");
            assertThat(source.epsilon()).as(refine[i]).isLessThanOrEqualTo(2.0).isGreaterThan(1.9); // one Gaussian, calibrated
            assertThat(source.seededNoise()).isTrue();
            assertThat(o.privacy().get("target")).isEqualTo(PrivacyCost.NONE);
            assertThat(o.diagnostics()).containsEntry("learner", "ncm").containsEntry("rows", "unit L2 norm")
                    .doesNotContainKeys("sample_rate", "steps");
            if (i == 1) {
                assertThat((String) o.diagnostics().get("refine")).startsWith("centroids");
            } else {
                assertThat(o.diagnostics()).doesNotContainKey("refine");
            }
        }
        // a misspelt refinement fails before anything is spent
        PrivacyContext ctx = PrivacyContext.seeded(2.0, 1e-5, 7);
        assertThatThrownBy(() -> method.run(t, new MethodConfig("lr", 0, 3, Map.of("learner", "ncm", "refine", "centroid")), ctx))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown refine 'centroid'");
        assertThat(ctx.source().spent().epsilon()).isZero();
    }
}
