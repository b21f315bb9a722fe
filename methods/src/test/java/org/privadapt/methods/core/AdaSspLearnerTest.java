package org.privadapt.methods.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.neighbours.Neighbours;
import org.privadapt.models.dp.AdaSsp;
import org.privadapt.models.dp.SessionRandomness;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * The {@code adassp} learner through {@link PrivateLearners}: it parses, plans as one Gaussian of the composed
 * multiplier, describes its public settings (the projection's seed and size, R, the shares), refuses bad settings
 * before anything is charged, and, in the neighbouring-dataset harness through the learner's own code (projection on:
 * d = 6 to p = 4), releases on neighbouring datasets with the same seeded noise that differ block by block by at
 * most the declared sensitivity, every other field identical.
 */
class AdaSspLearnerTest {
    static MethodConfig adassp() {
        return MethodConfig.defaults().withParam("learner", "adassp");
    }

    @Test
    void theLearnerParsesPlansAndDescribesItsPublicSettings() {
        assertThat(PrivateLearners.Kind.parse("adassp")).isEqualTo(PrivateLearners.Kind.ADASSP);
        assertThat(PrivateLearners.Kind.ADASSP.revealsSize()).isFalse();
        assertThat(PrivateLearners.Kind.ADASSP.gradientBased()).isFalse();
        assertThat(PrivateLearners.PARAMETERS).contains("adassp-sums-share", "adassp-eigen-share", "adassp-dim", "adassp-seed",
                "adassp-rows", "adassp-model", "adassp-lambda-scale");
        // the default rule is not changed by the new learner
        assertThat(PrivateLearners.choose(1024, 10, 2.0, true)).isEqualTo(PrivateLearners.Kind.NCM);
        PrivateLearners.Plan p = PrivateLearners.plan(adassp(), 500, 1024, 10, 2.0, 1e-5, NeighbouringRelation.ADD_OR_REMOVE_ONE, null, 1);
        PrivateLearners.Plan ncm = PrivateLearners.plan(MethodConfig.defaults().withParam("learner", "ncm"), 500, 1024, 10, 2.0, 1e-5,
                NeighbouringRelation.ADD_OR_REMOVE_ONE, null, 1);
        // one Gaussian of the same multiplier as ncm's: the blocks split its precision
        assertThat(p.noiseMultiplier()).isEqualTo(ncm.noiseMultiplier());
        Map<String, Object> m = p.describe();
        assertThat(m).containsEntry("learner", "adassp").containsEntry("row_bound", 32.0)
                .containsEntry("projection_dim_max", AdaSspReleases.DEFAULT_DIM)
                .containsEntry("sums_share", AdaSspReleases.DEFAULT_SUMS_SHARE)
                .containsEntry("eigen_share", AdaSspReleases.DEFAULT_EIGEN_SHARE)
                .containsKeys("projection", "moment_share", "lambda_scale", "model", "rows", "noise_multiplier");
        assertThat((String) m.get("projection")).contains("seed " + AdaSspReleases.DEFAULT_SEED);
        double shares = (double) m.get("sums_share") + (double) m.get("eigen_share") + (double) m.get("moment_share");
        assertThat(shares).isCloseTo(1.0, org.assertj.core.api.Assertions.within(1e-12));
        for (String[] bad : new String[][] {{"adassp-sums-share", "0.995"}, {"adassp-eigen-share", "0"}, {"adassp-dim", "0"},
            {"adassp-rows", "unit"}, {"adassp-seed", "1.5"}, {"adassp-model", "svm"}, {"adassp-lambda-scale", "-1"}}) {
            assertThatThrownBy(() -> PrivateLearners.plan(adassp().withParam(bad[0], bad[1]), 500, 1024, 10, 2.0, 1e-5,
                    NeighbouringRelation.ADD_OR_REMOVE_ONE, null, 1)).as(bad[0]).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void aWideInputIsProjectedAndTheModelLivesInTheInputSpace() {
        Neighbours.Labelled data = Neighbours.random(80, 300, 4, 17.0, 3);
        MethodConfig c = adassp().withParam("adassp-dim", "16");
        PrivateLearners.Plan p = PrivateLearners.plan(c, data.n(), 300, 4, 8.0, 1e-5, NeighbouringRelation.ADD_OR_REMOVE_ONE, null, 1);
        AdaSsp release = PrivateLearners.adasspRelease(p, data.matrix(), data.y(), 4, new SessionRandomness(NoiseSource.seeded(2)));
        assertThat(release.dimension()).isEqualTo(17);
        assertThat(PrivateLearners.adasspLambda(p, release)).isGreaterThanOrEqualTo(0.0);
        var net = PrivateLearners.train(p, data.matrix(), data.y(), data.classNames(), NoiseSource.seeded(2));
        assertThat(net.sizes()).containsExactly(300, 4);
    }

    @Test
    void neighbouringReleasesDifferByAtMostTheDeclaredSensitivityEveryOtherFieldIdentical() {
        double r = 2.0;
        Neighbours.Labelled base = Neighbours.random(30, 6, 4, 1.5 * r, 11);
        for (NeighbouringRelation rel : NeighbouringRelation.values()) {
            MethodConfig c = adassp().withParam("adassp-dim", "4").withParam("learner-row-bound", Double.toString(r));
            PrivateLearners.Plan p = PrivateLearners.plan(c, base.n(), 6, 4, 2.0, 1e-5, rel, null, 1);
            AdaSsp.Sensitivities sens = AdaSsp.sensitivities(rel, r);
            List<Neighbours.Pair> pairs = rel == NeighbouringRelation.REPLACE_ONE ? Neighbours.replaceOne(base, r, 12)
                    : Neighbours.addRemove(base, r, 12);
            double worstCross = 0;
            for (Neighbours.Pair pair : pairs) {
                String what = rel + ", " + pair;
                AdaSsp a = PrivateLearners.adasspRelease(p, pair.d().matrix(), pair.d().y(), 4, new SessionRandomness(NoiseSource.seeded(7)));
                AdaSsp b = PrivateLearners.adasspRelease(p, pair.dPrime().matrix(), pair.dPrime().y(), 4,
                        new SessionRandomness(NoiseSource.seeded(7)));
                AdaSsp ea = PrivateLearners.adasspExact(p, pair.d().matrix(), pair.d().y(), 4);
                AdaSsp eb = PrivateLearners.adasspExact(p, pair.dPrime().matrix(), pair.dPrime().y(), 4);
                assertThat(a.dimension()).as(what).isEqualTo(b.dimension()).isEqualTo(5);
                assertThat(a.classes()).as(what).isEqualTo(b.classes()).isEqualTo(4);
                double dm = a.moment().minus(b.moment()).frobeniusNorm();
                double dc = a.cross().minus(b.cross()).frobeniusNorm();
                double de = Math.abs(a.eigen() - b.eigen());
                assertThat(dm).as(what).isLessThanOrEqualTo(sens.moment() * (1 + 1e-9))
                        .isCloseTo(ea.moment().minus(eb.moment()).frobeniusNorm(), org.assertj.core.api.Assertions.within(1e-9 * (1 + dm)));
                assertThat(dc).as(what).isLessThanOrEqualTo(sens.cross() * (1 + 1e-9))
                        .isCloseTo(ea.cross().minus(eb.cross()).frobeniusNorm(), org.assertj.core.api.Assertions.within(1e-9 * (1 + dc)));
                assertThat(de).as(what).isLessThanOrEqualTo(sens.eigen() * (1 + 1e-9));
                worstCross = Math.max(worstCross, dc / sens.cross());
            }
            assertThat(worstCross).as("%s: some pair moves the cross moment by a sizeable part of its bound", rel).isGreaterThan(0.5);
        }
    }

    @Test
    void theSameRowsGiveTheSameModelAndTheExactReleaseIsTheRidgeInputs() {
        Neighbours.Labelled data = Neighbours.random(50, 5, 3, 2.0, 4);
        PrivateLearners.Plan p = PrivateLearners.plan(adassp().withParam("learner-row-bound", "2"), data.n(), 5, 3, 2.0, 1e-5,
                NeighbouringRelation.ADD_OR_REMOVE_ONE, null, 1);
        AdaSsp exact = PrivateLearners.adasspExact(p, data.matrix(), data.y(), 3);
        // d = 5 <= adassp-dim: no projection, rows within R = 2 unchanged; the corner of the moment is n
        assertThat(exact.moment().get(5, 5)).isEqualTo(50.0);
        DenseMatrix counts = exact.cross();
        double total = counts.get(5, 0) + counts.get(5, 1) + counts.get(5, 2);
        assertThat(total).isEqualTo(50.0);
        assertThat(PrivateLearners.adasspRowBound(p)).isEqualTo(2.0);
    }
}
