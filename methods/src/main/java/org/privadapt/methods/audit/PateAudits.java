package org.privadapt.methods.audit;

import java.util.EnumSet;
import java.util.Set;
import org.privadapt.methods.pate.GnMax;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.accounting.LogMath;
import org.privadapt.privacy.audit.EpsilonLowerBound;
import org.privadapt.privacy.ledger.BudgetLedger;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * PATE's GNMax answer (docs/privacy/pate.md) through the code {@code PateMethod} runs: {@link GnMax#plan} for one query
 * of a two-class histogram in a session at the claimed (epsilon, delta) (the calibration against the session's
 * certificate, the grid-adjusted Gaussian mechanism), the plan's event charged to that session, and
 * {@link GnMax#noisyArgmax} with the audit's noise for every output. The released value is the label, one bit.
 *
 * <p><b>The pair.</b> D: m teachers all vote for class 0 (histogram (m, 0)). Add/remove: D' adds one record to one
 * teacher's partition, which then votes for class 1 (histogram (m - 1, 1)): the histogram moves by {@code -e_0 + e_1},
 * of norm sqrt 2, the add/remove sensitivity. Replace-one: the replaced and the new record change two teachers, both
 * switching to class 1 ((m - 2, 2)): {@code -2 e_0 + 2 e_1}, of norm 2 sqrt 2, the replace-one sensitivity (the case
 * issue 14's harness found). Both pairs attain the sensitivity the noise is calibrated for.
 *
 * <p><b>The test.</b> With two classes the label is 1 exactly when {@code z_1 - z_0 > n_0 - n_1}, a threshold on the
 * one-dimensional Gaussian {@code z_1 - z_0} (standard deviation sigma sqrt 2), whose mean the pair moves by 2 (add/remove)
 * or 4 (replace-one): in units of its standard deviation by {@code Delta / sigma}, the claimed Gaussian mechanism's
 * whole shift. The attack "label 1 means D'" is therefore a likelihood-ratio test of the claimed mechanism, but at the
 * one threshold the margin m fixes (the audit cannot choose it afterwards: the output has one bit). m is chosen before
 * any output is drawn, from the planned sigma alone, as the margin whose expected bound at
 * {@link #DESIGN_COUNTED} counted outputs per dataset (the CLI's default 1,000,000 outputs) is the largest; with
 * other numbers of outputs the threshold is slightly off their optimum. The discrete Gaussian on a grid of at most
 * 2^-55 sigma makes ties (which go to class 0) negligible.
 *
 * <p><b>The claim</b> is the epsilon the session reports after the charge ({@link PrivacySession#spent()}): the
 * calibration's result, at most the requested epsilon (the mechanism's grid term makes it a hair smaller).
 */
final class PateAudits {
    private PateAudits() {
    }

    /** Counted outputs per dataset the margin is chosen for: half of the CLI's default 1,000,000 outputs per dataset. */
    static final long DESIGN_COUNTED = 500_000;

    static final AuditedRelease GNMAX = new AuditedRelease() {
        @Override
        public String name() {
            return "pate";
        }

        @Override
        public String design() {
            return "one GNMax query, two classes; D' moves one teacher's vote (two under replace-one) to the losing class; "
                    + "the released label (a threshold at a margin fixed in advance)";
        }

        @Override
        public Set<NeighbouringRelation> relations() {
            return EnumSet.allOf(NeighbouringRelation.class);
        }

        @Override
        public Prepared prepare(double epsilon, double delta, NeighbouringRelation relation, double noiseScale) {
            if (noiseScale != 1.0) {
                throw new IllegalArgumentException("pate has no injected-bug mode");
            }
            int moved = relation == NeighbouringRelation.ADD_OR_REMOVE_ONE ? 1 : 2;
            // the noise does not depend on the number of teachers: plan once to read sigma, choose the margin, then plan
            // (and charge) the release with that many teachers
            double sigma = GnMax.plan(moved, 1, 2, session(epsilon, delta, relation)).sigma();
            int m = margin(sigma, moved, delta, DESIGN_COUNTED);
            PrivacySession s = session(epsilon, delta, relation);
            GnMax.Plan plan = GnMax.plan(m, 1, 2, s);
            try {
                s.charge("pate audit: 1 GNMax answer from " + m + " teachers", "GNMax, data-independent analysis", plan.event(),
                        plan.describe());
            } catch (BudgetExceededException | BudgetLedger.LedgerException e) {
                throw new IllegalStateException("pate audit: the plan does not fit its own budget: " + e.getMessage(), e);
            }
            double claimed = s.spent().epsilon();
            int[] hd = {m, 0};
            int[] hp = {m - moved, moved};
            return Prepared.statistic((neighbour, noise) -> GnMax.noisyArgmax(neighbour ? hp : hd, plan, noise), claimed);
        }
    };

    /** A session that only plans and charges (it draws nothing: every output's noise is the audit's). */
    private static PrivacySession session(double epsilon, double delta, NeighbouringRelation relation) {
        return new PrivacySession("source", new PrivacyBudget(epsilon, delta), relation, NoiseSource.secure(), null);
    }

    /**
     * The margin m (D's histogram (m, 0), D''s (m - moved, moved)) whose expected Clopper-Pearson bound at 95 % with
     * {@code counted} outputs per dataset is the largest, for GNMax noise sigma: label 1 has probability
     * {@code Phi(-m / (sigma sqrt 2))} on D and {@code Phi(-(m - 2 moved) / (sigma sqrt 2))} on D'. Public: it reads
     * the planned sigma only.
     */
    static int margin(double sigma, int moved, double delta, long counted) {
        double sd = sigma * Math.sqrt(2.0);
        int best = moved;
        double bestBound = -1;
        int last = moved + (int) Math.ceil(12 * sd);
        for (int m = moved; m <= last; m++) {
            double p0 = LogMath.phi(-m / sd);
            double p1 = LogMath.phi(-(m - 2.0 * moved) / sd);
            long fp = Math.round(counted * p0);
            long tp = Math.round(counted * p1);
            double b = EpsilonLowerBound.of(fp, counted, tp, counted, delta, 0.05).epsilon();
            if (b > bestBound) {
                bestBound = b;
                best = m;
            }
        }
        return best;
    }
}
