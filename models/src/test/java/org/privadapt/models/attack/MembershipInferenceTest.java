package org.privadapt.models.attack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class MembershipInferenceTest {
    /** Brute force over all pairs, ties one half. */
    private static double pairs(double[] m, double[] n) {
        double s = 0;
        for (double a : m) {
            for (double b : n) {
                s += a > b ? 1 : a == b ? 0.5 : 0;
            }
        }
        return s / (m.length * (double) n.length);
    }

    @Test
    void aucMatchesThePairCountWithTies() {
        assertEquals(1.0, MembershipInference.auc(new double[] {3, 4}, new double[] {1, 2}), 0);
        assertEquals(0.0, MembershipInference.auc(new double[] {1, 2}, new double[] {3, 4}), 0);
        assertEquals(0.5, MembershipInference.auc(new double[] {1, 1}, new double[] {1, 1, 1}), 0);
        // hand count: members {2, 3, 3}, non-members {1, 3}: pairs (2>1), (2<3), (3>1), (3=3), (3>1), (3=3) -> 4 / 6
        assertEquals(4.0 / 6, MembershipInference.auc(new double[] {2, 3, 3}, new double[] {1, 3}), 1e-15);
        SplittableRandom r = new SplittableRandom(7);
        double[] m = new double[300];
        double[] n = new double[200];
        for (int i = 0; i < m.length; i++) {
            m[i] = Math.floor(r.nextDouble() * 20) + 1; // many ties
        }
        for (int i = 0; i < n.length; i++) {
            n[i] = Math.floor(r.nextDouble() * 20);
        }
        assertEquals(pairs(m, n), MembershipInference.auc(m, n), 1e-12);
    }

    @Test
    void aucOfTwoGaussiansMatchesTheClosedForm() {
        // members ~ N(1, 1), non-members ~ N(0, 1): AUC = Phi(1 / sqrt 2) = 0.76025 (fixed seed, tolerance 0.01 ~ 4 sd)
        SplittableRandom r = new SplittableRandom(3);
        double[] m = new double[20_000];
        double[] n = new double[20_000];
        for (int i = 0; i < m.length; i++) {
            m[i] = 1 + gauss(r);
            n[i] = gauss(r);
        }
        assertEquals(0.76025, MembershipInference.auc(m, n), 0.01);
    }

    private static double gauss(SplittableRandom r) {
        return Math.sqrt(-2 * Math.log(1 - r.nextDouble())) * Math.cos(2 * Math.PI * r.nextDouble());
    }

    @Test
    void boundIsChanceAtZeroAndGrowsWithEpsilon() {
        assertEquals(0.5, MembershipInference.aucBound(0, 0), 1e-9);
        // delta = 0: the region's boundary is min(e a, 1 - (1 - a) / e); AUC = e / (e + 1) at epsilon 1 (symmetric kink
        // at a = 1 / (e + 1)): area = 1 - 1 / (e + 1) + ... computed by hand: 0.7311 = e / (1 + e)
        assertEquals(Math.E / (1 + Math.E), MembershipInference.aucBound(1, 0), 1e-6);
        assertTrue(MembershipInference.aucBound(2, 1e-5) > MembershipInference.aucBound(1, 1e-5));
        assertEquals(1.0, MembershipInference.aucBound(50, 0), 1e-6);
    }

    @Test
    void refusesEmptyAndNaN() {
        assertThrows(IllegalArgumentException.class, () -> MembershipInference.auc(new double[0], new double[] {1}));
        assertThrows(IllegalArgumentException.class, () -> MembershipInference.auc(new double[] {Double.NaN}, new double[] {1}));
        assertThrows(IllegalArgumentException.class, () -> MembershipInference.likelihoodRatio(new double[2], new double[3]));
    }
}
