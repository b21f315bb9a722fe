package org.privadapt.methods.bassily;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.neighbours.Neighbours;
import org.privadapt.methods.neighbours.ReleaseComparison;
import org.privadapt.models.discrepancy.CnvxAdap;
import org.privadapt.models.discrepancy.LabelledDiscrepancy;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.accounting.Accountants;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.noise.NoiseSource;

class PCnvxAdapTest {
    static final PCnvxAdap.Settings SETTINGS = new PCnvxAdap.Settings(0.5, 0.1, 0.01, 0.01, 2, 1, 300, 0.5);

    /** Targets from the harness's class codes, spread over [-1, 1]; a harness row far beyond the bound gets y = 50. */
    static double[] targets(Neighbours.Labelled l) {
        double[] y = new double[l.n()];
        for (int i = 0; i < y.length; i++) {
            double norm = 0;
            for (double v : l.x()[i]) {
                norm += v * v;
            }
            y[i] = norm > 4 ? 50 : 2.0 * l.y()[i] / Math.max(1, l.classes() - 1) - 1;
        }
        return y;
    }

    static Object[] source(int m, int d, long seed) {
        Neighbours.Labelled s = Neighbours.random(m, d, 3, 1.0, seed);
        return new Object[] {s.matrix(), targets(s)};
    }

    /** The harness (docs/privacy/testing.md): each query moves by at most its declared sensitivity under replace-one. */
    @Test
    void theDiscrepancyAndTheDescentQueriesMoveByAtMostTheirSensitivities() {
        Object[] src = source(60, 4, 3);
        DenseMatrix xPub = PCnvxAdap.clipRows((DenseMatrix) src[0], 1);
        double[] yPub = PCnvxAdap.clipTargets((double[]) src[1]);
        Neighbours.Labelled base = Neighbours.random(25, 4, 3, 1.0, 4);
        SplittableRandom r = new SplittableRandom(5);
        for (Neighbours.Pair pair : Neighbours.replaceOne(base, 1.0, 6)) {
            DenseMatrix x1 = PCnvxAdap.clipRows(pair.d().matrix(), 1);
            DenseMatrix x2 = PCnvxAdap.clipRows(pair.dPrime().matrix(), 1);
            double[] y1 = PCnvxAdap.clipTargets(targets(pair.d()));
            double[] y2 = PCnvxAdap.clipTargets(targets(pair.dPrime()));
            CnvxAdap.Problem p = new CnvxAdap.Problem(xPub, yPub, x1, y1, 0, 0.5, 0.1, 0.01, 0.01, 2, 1);
            CnvxAdap.Problem q = new CnvxAdap.Problem(xPub, yPub, x2, y2, 0, 0.5, 0.1, 0.01, 0.01, 2, 1);
            double d1 = LabelledDiscrepancy.squaredLoss(xPub, yPub, x1, y1, 2);
            double d2 = LabelledDiscrepancy.squaredLoss(xPub, yPub, x2, y2, 2);
            ReleaseComparison.assertWithin(Math.abs(d1 - d2), p.lossBound() / p.n(), 1e-12, "discrepancy, " + pair);
            for (int k = 0; k < 5; k++) {
                double[] w = new double[4];
                double wn = 0;
                for (int j = 0; j < 4; j++) {
                    w[j] = r.nextDouble() * 2 - 1;
                    wn += w[j] * w[j];
                }
                for (int j = 0; j < 4; j++) {
                    w[j] *= 2 / Math.sqrt(wn);
                }
                double[] u = new double[p.m() + p.n()];
                for (int i = 0; i < u.length; i++) {
                    u[i] = (i < p.m() ? p.m() / 0.5 : p.n() / 0.5) * (1 + (r.nextBoolean() ? 0 : r.nextDouble()));
                }
                double[][] g1 = CnvxAdap.privateGradient(p, w, u);
                double[][] g2 = CnvxAdap.privateGradient(q, w, u);
                ReleaseComparison.assertWithin(ReleaseComparison.l2(g1[0], g2[0]), p.s1(), 1e-12, "grad_w, " + pair);
                ReleaseComparison.assertWithin(ReleaseComparison.l2(g1[1], g2[1]), p.s2(), 1e-15, "grad_u_priv, " + pair);
            }
        }
    }

    static PrivacySession session(double eps, NeighbouringRelation rel, long seed) {
        return new PrivacySession("target", new PrivacyBudget(eps, 1e-4), rel, NoiseSource.seeded(seed), null);
    }

    @Test
    void theCalibratedPlanMeetsEpsilonAndIsChargedWhole() throws Exception {
        Object[] src = source(300, 4, 1);
        Neighbours.Labelled t = Neighbours.random(200, 4, 3, 1.0, 2);
        PrivacySession s = session(2, NeighbouringRelation.REPLACE_ONE, 7);
        PCnvxAdap.Result res = PCnvxAdap.fit((DenseMatrix) src[0], (double[]) src[1], t.matrix(), targets(t), SETTINGS, s);
        double spent = s.spent().epsilon();
        assertThat(spent).isLessThanOrEqualTo(2 * (1 + 1e-9)).isGreaterThan(1.7); // basic composition calibrated, accountants certify a little less
        assertThat(s.events()).hasSize(2); // Laplace and the T Gaussian steps
        assertThat(res.discrepancy()).isBetween(0.0, 9.0); // clamped to [0, B], B = (2 + 1)^2
        double nu = (double) res.calibration().get("noise_multiplier");
        // the paper's split for comparison: its descent alone at nu would be a Gaussian with multiplier nu / sqrt(2T)
        double gaussOnly = Accountants.byName("pld", NeighbouringRelation.REPLACE_ONE)
                .epsilon(new GaussianEvent(nu / Math.sqrt(2 * 300)), 1e-4);
        assertThat(gaussOnly).isLessThan(2.0);
    }

    @Test
    void aPlanOverTheBudgetIsRefusedBeforeAnyNoiseAndAddRemoveIsRefused() throws Exception {
        Object[] src = source(100, 4, 1);
        Neighbours.Labelled t = Neighbours.random(50, 4, 3, 1.0, 2);
        PrivacySession s = session(1, NeighbouringRelation.REPLACE_ONE, 7);
        s.charge("earlier", "test", new GaussianEvent(6), Map.of()); // epsilon about 0.6 at delta 1e-4
        assertThatThrownBy(() -> PCnvxAdap.fit((DenseMatrix) src[0], (double[]) src[1], t.matrix(), targets(t), SETTINGS, s))
                .isInstanceOf(BudgetExceededException.class);
        assertThat(s.events()).hasSize(1);
        assertThatThrownBy(() -> PCnvxAdap.fit((DenseMatrix) src[0], (double[]) src[1], t.matrix(), targets(t), SETTINGS,
                session(1, NeighbouringRelation.ADD_OR_REMOVE_ONE, 7))).hasMessageContaining("replace");
    }

    @Test
    void atALargeEpsilonThePrivateFitApproachesTheNonPrivateOne() throws Exception {
        Object[] src = source(500, 4, 11);
        Neighbours.Labelled t = Neighbours.random(400, 4, 3, 1.0, 12);
        double[] yt = targets(t);
        PCnvxAdap.Result exact = PCnvxAdap.fitNonPrivate((DenseMatrix) src[0], (double[]) src[1], t.matrix(), yt, SETTINGS);
        PCnvxAdap.Result a = PCnvxAdap.fit((DenseMatrix) src[0], (double[]) src[1], t.matrix(), yt, SETTINGS,
                session(200, NeighbouringRelation.REPLACE_ONE, 3));
        PCnvxAdap.Result b = PCnvxAdap.fit((DenseMatrix) src[0], (double[]) src[1], t.matrix(), yt, SETTINGS,
                session(200, NeighbouringRelation.REPLACE_ONE, 3));
        assertThat(a.w()).containsExactly(b.w()); // seeded: reproducible
        assertThat(ReleaseComparison.l2(a.w(), exact.w())).isLessThan(0.1 * Math.max(1e-3, norm(exact.w())) + 0.05);
        assertThat(List.of(a.u().length)).containsExactly(900);
    }

    static double norm(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x * x;
        }
        return Math.sqrt(s);
    }
}
