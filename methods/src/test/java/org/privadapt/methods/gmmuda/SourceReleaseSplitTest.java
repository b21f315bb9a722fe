package org.privadapt.methods.gmmuda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.Labels;
import org.privadapt.data.MultiLabels;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.models.dp.SessionRandomness;
import org.privadapt.models.dp.StackDpSgdTrainer;
import org.privadapt.models.mixture.DpGaussianMixtureEm;
import org.privadapt.models.mixture.GaussianMixture;
import org.privadapt.models.nn.graph.DenseLayer;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.ledger.BudgetLedger;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * {@link SourceRelease#trainPrivate} split into {@link SourceRelease#plan} / {@link SourceRelease#charge} / the
 * training / {@link SourceRelease#privateRelease} (the parts an engine holding the rows elsewhere reuses) is the old
 * method, copied below as the reference: bit for bit the same encoder, classifier and mixture on the same seeded noise,
 * the same event, parameters and charges, for class labels (both covariance types) and multi-labels; a session under
 * replace-one is refused before anything is charged (issue 31).
 */
class SourceReleaseSplitTest {

    /** The old {@code SourceRelease.trainPrivate}, before the split, copied. */
    static SourceRelease oldTrainPrivate(FeatureMatrix x, Labels y, GmmUdaConfig c, PrivacySession s)
            throws BudgetExceededException, BudgetLedger.LedgerException {
        if (s.relation() != NeighbouringRelation.ADD_OR_REMOVE_ONE) {
            throw new IllegalArgumentException("dp-uda-gmm: DP-EM's sensitivities (1, R, R^2) are stated for add/remove-one "
                    + "neighbours; run under the default relation with the source's n declared public");
        }
        int n = x.rows();
        SourceRelease.Plan plan = SourceRelease.plan(n, c, s);
        Map<String, Object> sp = new LinkedHashMap<>();
        sp.put("clip", c.clip());
        sp.put("noise_multiplier", plan.sgd().noiseMultiplier());
        sp.put("sample_rate", StackDpSgdTrainer.samplingRate(plan.sgd(), n));
        sp.put("steps", plan.sgd().iterations());
        Map<String, Object> ep = new LinkedHashMap<>();
        ep.put("K", c.components());
        ep.put("covariance", c.covariance().name().toLowerCase());
        ep.put("R", c.featureClip());
        ep.put("T", c.emIterations());
        ep.put("sigma", plan.em().noiseMultiplier());
        s.chargeAll(List.of(
                new PrivacySession.Release("dp-sgd encoder + classifier", "DP-SGD (Poisson sampling, joint clipping, Gaussian noise)",
                        StackDpSgdTrainer.event(plan.sgd(), n), sp),
                new PrivacySession.Release("dp-em gmm of the DP encoder's features", "Gaussian on per-component (count, sum, "
                        + "second moment), sensitivities (1, R, R^2), T + 1 releases", DpGaussianMixtureEm.event(plan.em()), ep)));
        SessionRandomness rnd = new SessionRandomness(s.noise());
        StackDpSgdTrainer.Result r = StackDpSgdTrainer.train(SourceRelease.init(x.cols(), SourceRelease.outputs(y), c), x,
                SourceRelease.targets(y), plan.sgd(), rnd);
        DenseMatrix z = r.model().features(x);
        DpGaussianMixtureEm.Result em = DpGaussianMixtureEm.fit(z, plan.em(), rnd);
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("source_model", "encoder " + java.util.Arrays.toString(c.hidden()) + " " + c.activation().name().toLowerCase()
                + ", linear classifier, DP-SGD");
        sp.forEach((k, v) -> p.put("dp_sgd_" + k, v));
        ep.forEach((k, v) -> p.put("dp_em_" + k, v));
        return new SourceRelease(r.model(), em.model(), plan.event(), p);
    }

    static GmmUdaConfig config(String covariance) {
        return GmmUdaConfig.from(new MethodConfig("lr", 1e-3, 3L, Map.of("hidden", "6", "epochs", "3", "batch", "24",
                "components", "2", "em-iterations", "3", "covariance", covariance, "clip", "0.7")));
    }

    static PrivacySession session(NeighbouringRelation relation) {
        return new PrivacySession("source", new PrivacyBudget(4, 1e-5), relation, NoiseSource.seeded(13), null);
    }

    static void assertSame(SourceRelease a, SourceRelease b, String what) {
        List<DenseLayer> la = a.model().layers();
        List<DenseLayer> lb = b.model().layers();
        assertThat(la).hasSameSizeAs(lb);
        for (int l = 0; l < la.size(); l++) {
            assertThat(la.get(l).weights().data()).as("%s layer %d", what, l).isEqualTo(lb.get(l).weights().data());
            assertThat(la.get(l).bias()).as("%s layer %d bias", what, l).isEqualTo(lb.get(l).bias());
        }
        GaussianMixture ga = a.mixture();
        GaussianMixture gb = b.mixture();
        assertThat(ga.covarianceType()).isEqualTo(gb.covarianceType());
        assertThat(ga.weights()).as(what + " weights").isEqualTo(gb.weights());
        assertThat(ga.means().data()).as(what + " means").isEqualTo(gb.means().data());
        for (int k = 0; k < gb.components(); k++) {
            assertThat(ga.covariance(k).data()).as(what + " covariance").isEqualTo(gb.covariance(k).data());
        }
        assertThat(a.event()).isEqualTo(b.event());
        assertThat(a.parameters()).isEqualTo(b.parameters());
    }

    @Test
    void theSplitReleaseIsTheOldOneBitForBit() throws Exception {
        SplittableRandom r = new SplittableRandom(3);
        int n = 90;
        int d = 5;
        DenseMatrix x = DenseMatrix.zeros(n, d);
        int[] codes = new int[n];
        int[][] multi = new int[n][3];
        for (int i = 0; i < n; i++) {
            codes[i] = r.nextInt(3);
            for (int j = 0; j < d; j++) {
                x.set(i, j, r.nextGaussian() * (1 + i % 3) + (j == codes[i] ? 2 : 0));
            }
            for (int j = 0; j < 3; j++) {
                multi[i][j] = x.get(i, j) > 0.5 ? 1 : 0;
            }
        }
        List<String> names = List.of("a", "b", "c");
        for (Labels y : List.of(new ClassLabels(codes, names), new MultiLabels(multi, names))) {
            for (String cov : new String[] {"diag", "full"}) {
                GmmUdaConfig c = config(cov);
                PrivacySession split = session(NeighbouringRelation.ADD_OR_REMOVE_ONE);
                PrivacySession old = session(NeighbouringRelation.ADD_OR_REMOVE_ONE);
                SourceRelease a = SourceRelease.trainPrivate(x, y, c, split);
                SourceRelease b = oldTrainPrivate(x, y, c, old);
                assertSame(a, b, y.getClass().getSimpleName() + " " + cov);
                assertThat(split.events()).isEqualTo(old.events()).hasSize(2);
                assertThat(split.spent()).isEqualTo(old.spent());
            }
        }
    }

    @Test
    void replaceOneIsRefusedBeforeAnythingIsCharged() {
        PrivacySession s = session(NeighbouringRelation.REPLACE_ONE);
        assertThatThrownBy(() -> SourceRelease.charge(100, config("diag"), s)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("add/remove");
        assertThatThrownBy(() -> SourceRelease.requireAddOrRemove(s)).hasMessageContaining("add/remove");
        assertThat(s.events()).isEmpty();
    }
}
