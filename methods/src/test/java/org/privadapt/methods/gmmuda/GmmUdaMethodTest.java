package org.privadapt.methods.gmmuda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.privadapt.data.Dataset;
import org.privadapt.data.MultiLabels;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.core.AdaptationOutcome;
import org.privadapt.methods.core.AdaptationTask;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.Methods;
import org.privadapt.methods.core.PrivacyContext;
import org.privadapt.methods.testdata.MultiLabelShift;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.accounting.RdpAccountant;
import org.privadapt.privacy.events.ComposedEvent;
import org.privadapt.privacy.noise.NoiseSource;

/** Paper 004's pipeline end to end on a small synthetic multi-label shift (fixed seeds, stated tolerances). */
class GmmUdaMethodTest {
    static final List<String> LABELS = MultiLabelShift.LABELS;

    static Dataset data(String name, int n, int d, double shift, long seed) {
        return MultiLabelShift.data(name, n, d, shift, seed);
    }

    static AdaptationTask task() {
        Dataset s = data("s", 400, 12, 0, 1);
        Dataset t = data("t", 300, 12, 0.3, 2);
        return new AdaptationTask("s -> t", s, t.withoutLabels(), t);
    }

    static MethodConfig config() {
        return new MethodConfig("lr", 1e-3, 3L, Map.of("hidden", "16", "epochs", "30", "batch", "32", "components", "2",
                "em-iterations", "3", "adapt-epochs", "2", "disc-hidden", "16", "adversary", "dann"));
    }

    @Test
    void everySettingRunsOnMultiLabelTargetsAndScoresEachLabel() throws Exception {
        AdaptationTask task = task();
        for (String m : List.of("source-only", "uda-with-source", "uda-gmm", "dp-uda-gmm")) {
            AdaptationOutcome o = Methods.get(m).run(task, config(), PrivacyContext.seeded(8, 1e-5, 5));
            assertThat(o.isMultiLabel()).as(m).isTrue();
            assertThat(o.classNames()).isEqualTo(LABELS);
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> per = (List<Map<String, Object>>) o.diagnostics().get("per_label");
            assertThat(per).hasSize(3);
            double mean = per.stream().mapToDouble(p -> (Double) p.get("accuracy")).average().orElseThrow();
            assertThat(o.accuracy()).as(m).isEqualTo(mean, org.assertj.core.data.Offset.offset(1e-12));
            // each label is on for about 35 % of rows: the non-private settings must beat always-off (0.65) clearly
            if (!m.startsWith("dp")) {
                assertThat(o.accuracy()).as(m).isGreaterThan(0.8);
            }
        }
    }

    @Test
    void thePrivateReleaseChargesTheSourceOnceWithinItsTargetAndTheTargetNothing() throws Exception {
        AdaptationOutcome o = Methods.get("dp-uda-gmm").run(task(), config(), PrivacyContext.seeded(3, 1e-5, 5));
        assertThat(o.privacy().get("source").epsilon()).isLessThanOrEqualTo(3 + 1e-9).isGreaterThan(2.5);
        assertThat(o.privacy().get("target").epsilon()).isZero();
    }

    @Test
    void dpSourceOnlyOnMultiLabelTargetsIsPaper004sDpSgdModelAloneAtTheWholeBudget() throws Exception {
        PrivacyContext ctx = PrivacyContext.seeded(3, 1e-5, 5);
        AdaptationOutcome o = Methods.get("dp-source-only").run(task(), config(), ctx);
        assertThat(o.isMultiLabel()).isTrue();
        assertThat(o.classNames()).isEqualTo(LABELS);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> per = (List<Map<String, Object>>) o.diagnostics().get("per_label");
        assertThat(per).hasSize(3);
        // one DP-SGD release (no mixture), within the target and most of it
        assertThat(ctx.source().events()).hasSize(1);
        assertThat(o.diagnostics()).containsKey("dp_sgd_noise_multiplier").doesNotContainKey("dp_em_sigma");
        assertThat(o.privacy().get("source").epsilon()).isLessThanOrEqualTo(3 + 1e-9).isGreaterThan(2.5);
        assertThat(o.privacy().get("target").epsilon()).isZero();
        // the whole budget to DP-SGD: less noise than dp-uda-gmm's DP-SGD, which shares it with DP-EM
        GmmUdaConfig c = GmmUdaConfig.from(config());
        PrivacySession s = new PrivacySession("source", new PrivacyBudget(3, 1e-5), NeighbouringRelation.ADD_OR_REMOVE_ONE,
                NoiseSource.seeded(1), null);
        RdpAccountant acc = new RdpAccountant(NeighbouringRelation.ADD_OR_REMOVE_ONE, RdpAccountant.DEFAULT_ORDERS, w -> { });
        SourceRelease.Plan alone = SourceRelease.plan(400, c, s, false);
        assertThat(alone.em()).isNull();
        assertThat(acc.epsilon(alone.event(), 1e-5)).isLessThanOrEqualTo(3 + 1e-9).isGreaterThan(2.95);
        assertThat(alone.sgd().noiseMultiplier()).isLessThan(SourceRelease.plan(400, c, s, true).sgd().noiseMultiplier());
        assertThat((Double) o.diagnostics().get("dp_sgd_noise_multiplier")).isEqualTo(alone.sgd().noiseMultiplier());
    }

    @Test
    void dpSourceOnlyOnMultiLabelTargetsRefusesTheClassLearnersOptionsWithNothingSpent() {
        for (String[] p : new String[][] {{"learner", "ncm"}, {"refine", "map-prototypes"}}) {
            PrivacyContext ctx = PrivacyContext.seeded(3, 1e-5, 5);
            assertThatThrownBy(() -> Methods.get("dp-source-only").run(task(), config().withParam(p[0], p[1]), ctx))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(p[0] + "=" + p[1]);
            assertThat(ctx.source().events()).isEmpty();
        }
    }

    @Test
    void thePlanComposesDpSgdAndDpEmToExactlyTheTarget() {
        GmmUdaConfig c = GmmUdaConfig.from(config());
        PrivacySession s = new PrivacySession("source", new PrivacyBudget(2, 1e-5), NeighbouringRelation.ADD_OR_REMOVE_ONE,
                NoiseSource.seeded(1), null);
        SourceRelease.Plan p = SourceRelease.plan(400, c, s);
        RdpAccountant acc = new RdpAccountant(NeighbouringRelation.ADD_OR_REMOVE_ONE, RdpAccountant.DEFAULT_ORDERS, w -> { });
        double eps = acc.epsilon(p.event(), 1e-5);
        assertThat(eps).isLessThanOrEqualTo(2 + 1e-9).isGreaterThan(1.95);
        // the DP-EM part alone is calibrated to em-share * epsilon
        double em = acc.epsilon(org.privadapt.models.mixture.DpGaussianMixtureEm.event(p.em()), 1e-5);
        assertThat(em).isLessThanOrEqualTo(0.25 * 2 + 1e-9).isGreaterThan(0.45);
        assertThat(p.event()).isInstanceOf(ComposedEvent.class);
    }

    @Test
    void aPlanThatDoesNotFitIsRefusedWholeWithNothingSpent() throws Exception {
        GmmUdaConfig c = GmmUdaConfig.from(config());
        PrivacySession s = new PrivacySession("source", new PrivacyBudget(2, 1e-5), NeighbouringRelation.ADD_OR_REMOVE_ONE,
                NoiseSource.seeded(1), null);
        s.charge("earlier", "test", new org.privadapt.privacy.events.GaussianEvent(3.0), Map.of());
        double before = s.spent().epsilon();
        Dataset src = task().source();
        assertThatThrownBy(() -> SourceRelease.trainPrivate(src.features(), src.labels().orElseThrow(), c, s))
                .isInstanceOf(BudgetExceededException.class);
        assertThat(s.spent().epsilon()).isEqualTo(before);
        assertThat(s.events()).hasSize(1);
    }

    @Test
    void replaceOneIsRefusedBecauseDpEmsSensitivitiesAreForAddRemove() {
        GmmUdaConfig c = GmmUdaConfig.from(config());
        PrivacySession s = new PrivacySession("source", new PrivacyBudget(2, 1e-5), NeighbouringRelation.REPLACE_ONE,
                NoiseSource.seeded(1), null);
        Dataset src = task().source();
        assertThatThrownBy(() -> SourceRelease.trainPrivate(src.features(), src.labels().orElseThrow(), c, s))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("add/remove");
    }

    @Test
    void theMembershipAttackHoldsOutRowsAndReportsItsAucs() throws Exception {
        AdaptationOutcome o = Methods.get("uda-gmm").run(task(), config().withParam("attack-holdout", "0.25"),
                PrivacyContext.seeded(8, 1e-5, 5));
        assertThat(o.diagnostics().get("mia_members")).isEqualTo(300);
        assertThat(o.diagnostics().get("mia_non_members")).isEqualTo(100);
        assertThat((Double) o.diagnostics().get("mia_gmm_auc")).isBetween(0.0, 1.0);
        assertThat((Double) o.diagnostics().get("mia_model_auc")).isBetween(0.0, 1.0);
        // the private release on the members: their count follows from the declared n and the public share
        AdaptationOutcome p = Methods.get("dp-uda-gmm").run(task(), config().withParam("attack-holdout", "0.25"),
                PrivacyContext.seeded(8, 1e-5, 5));
        assertThat((Double) p.diagnostics().get("mia_gmm_auc")).isBetween(0.0, 1.0);
    }

    @Test
    void perExampleLossIsTheCrossEntropy() {
        DenseMatrix z = new DenseMatrix(1, 2, new double[] {0.5, -1.0});
        double[] l = GmmUdaMethod.perExampleLoss(z, new MultiLabels(new int[][] {{1, 0}}, List.of("a", "b")));
        assertThat(l[0]).isCloseTo(Math.log(1 + Math.exp(-0.5)) + Math.log(1 + Math.exp(-1.0)), org.assertj.core.data.Offset.offset(1e-12));
        double[] c = GmmUdaMethod.perExampleLoss(z, new org.privadapt.data.ClassLabels(new int[] {1}, List.of("a", "b")));
        assertThat(c[0]).isCloseTo(Math.log(Math.exp(0.5) + Math.exp(-1.0)) + 1.0, org.assertj.core.data.Offset.offset(1e-12));
    }

    @Test
    void rowsAreScaledToEightForThePrivateReleaseAndOneOtherwise() {
        assertThat(GmmUdaConfig.from(config()).rowNorm(true)).isEqualTo(8.0);
        assertThat(GmmUdaConfig.from(config()).rowNorm(false)).isEqualTo(1.0);
        assertThat(GmmUdaConfig.from(config().withParam("row-norm", "2")).rowNorm(true)).isEqualTo(2.0);
        assertThatThrownBy(() -> GmmUdaConfig.from(config().withParam("row-norm", "-1")).rowNorm(true))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("row-norm");
        DenseMatrix x = DenseMatrix.zeros(2, 2);
        x.set(0, 0, 3);
        x.set(0, 1, 4); // row 1 stays zero
        DenseMatrix y = GmmUdaMethod.rows(x, 8).toDense();
        assertThat(new double[] {y.get(0, 0), y.get(0, 1), y.get(1, 0), y.get(1, 1)}).containsExactly(new double[] {4.8, 6.4, 0, 0}, org.assertj.core.data.Offset.offset(1e-12));
    }

    @Test
    void parametersAreValidated() {
        assertThatThrownBy(() -> GmmUdaConfig.from(config().withParam("adversary", "gan")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dann, cdan");
        assertThatThrownBy(() -> GmmUdaConfig.from(config().withParam("em-share", "1")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("em-share");
        assertThatThrownBy(() -> GmmUdaConfig.from(config().withParam("covariance", "tied")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("diag or full");
    }
}
