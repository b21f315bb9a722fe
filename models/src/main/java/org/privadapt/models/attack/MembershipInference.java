package org.privadapt.models.attack;

import java.util.Arrays;

/**
 * Membership-inference evaluation: how well an attacker's score separates records that were in a private training
 * set (members) from records of the same distribution that were not (non-members).
 *
 * <p>The attacks used here are likelihood-ratio tests: a member tends to be more likely under the released model than
 * under a reference model fitted on other data of the same population, so the score of a record x is
 * {@code log p_released(x) - log p_reference(x)} (for a classifier, the reference-normalised negative loss). The
 * attack's quality is the area under its ROC curve, the probability that a random member scores above a random
 * non-member (ties count one half): 0.5 is chance, 1 a perfect attack. An (epsilon, delta)-DP release bounds every
 * attack's true-positive rate at false-positive rate a by {@code e^epsilon a + delta}, hence its AUC.
 */
public final class MembershipInference {
    private MembershipInference() {
    }

    /**
     * The ROC AUC of scores where members should score higher: the Mann-Whitney U statistic over all member /
     * non-member pairs divided by their number, ties counted one half. O((m + n) log(m + n)).
     *
     * @throws IllegalArgumentException if either set is empty or a score is NaN
     */
    public static double auc(double[] members, double[] nonMembers) {
        if (members.length == 0 || nonMembers.length == 0) {
            throw new IllegalArgumentException("AUC needs at least one member and one non-member score");
        }
        int m = members.length;
        int n = nonMembers.length;
        double[] all = new double[m + n];
        boolean[] isMember = new boolean[m + n];
        Integer[] order = new Integer[m + n];
        for (int i = 0; i < m + n; i++) {
            all[i] = i < m ? members[i] : nonMembers[i - m];
            if (Double.isNaN(all[i])) {
                throw new IllegalArgumentException("AUC: score " + i + " is NaN");
            }
            isMember[i] = i < m;
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(all[a], all[b]));
        // rank sum of the members with mid-ranks for ties
        double memberRankSum = 0;
        int i = 0;
        while (i < order.length) {
            int j = i;
            while (j + 1 < order.length && all[order[j + 1]] == all[order[i]]) {
                j++;
            }
            double midRank = (i + j) / 2.0 + 1;
            for (int k = i; k <= j; k++) {
                if (isMember[order[k]]) {
                    memberRankSum += midRank;
                }
            }
            i = j + 1;
        }
        double u = memberRankSum - m * (m + 1) / 2.0;
        return u / ((double) m * n);
    }

    /** Per-record likelihood-ratio scores {@code released[i] - reference[i]} (log densities or negative losses). */
    public static double[] likelihoodRatio(double[] released, double[] reference) {
        if (released.length != reference.length) {
            throw new IllegalArgumentException("likelihood ratio: " + released.length + " released scores but "
                    + reference.length + " reference scores");
        }
        double[] s = new double[released.length];
        for (int i = 0; i < s.length; i++) {
            s[i] = released[i] - reference[i];
        }
        return s;
    }

    /**
     * The largest AUC any attack can reach against an (epsilon, delta)-DP mechanism: the area under the
     * hypothesis-testing region's boundary TPR(a) = min(1, e^eps a + delta, 1 - e^-eps (1 - a - delta)), integrated
     * numerically (a reference line for results tables).
     */
    public static double aucBound(double epsilon, double delta) {
        if (!(epsilon >= 0) || !(delta >= 0) || delta > 1) {
            throw new IllegalArgumentException("aucBound needs epsilon >= 0 and 0 <= delta <= 1");
        }
        int steps = 100_000;
        double e = Math.exp(epsilon);
        double area = 0;
        for (int s = 0; s < steps; s++) {
            double a = (s + 0.5) / steps;
            double tpr = Math.min(1.0, Math.min(e * a + delta, 1 - (1 - a - delta) / e));
            area += Math.max(tpr, a);
        }
        return area / steps;
    }
}
