package org.privadapt.methods.audit;

import java.util.EnumSet;
import java.util.Set;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.bassily.PNCnvxAdap;
import org.privadapt.models.discrepancy.NCnvxAdap;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.ledger.BudgetLedger;
import org.privadapt.privacy.noise.NoiseSource;

/** Paper 003's PNCnvxAdap (Algorithm 2 with noise, {@code pncnvxadap}), through {@link PNCnvxAdap#fit}. */
final class NCnvxAdapAudits {
    private NCnvxAdapAudits() {
    }

    /** The canary's component along the feature the test reads; the rest of its unit norm is the constant feature. */
    static final double CANARY_A = 0.95;

    /** The public start's logit gap on the constant feature, times the canary's constant component: 20. */
    static final double START_GAP = 20;

    /** Private rows (the canary and zero rows). */
    static final int N = 200;

    /**
     * pncnvxadap's release, the weights W after its noisy descent ({@link PNCnvxAdap#fit}: the method's calibration,
     * charge and noise, in a fresh session per output), with frozen private weights (only grad_W is released; the
     * method chooses frozen or free on public rows, and free adds noise on grad_u, which is not output), T = 1, two
     * classes, two features, rows of norm at most r = 1, alpha = 0.5, a ball of radius 100.
     *
     * <p><b>The pair.</b> One public row and N - 1 private rows are zero (no gradient). The canary, class 0, is
     * (a, c) in D and (-a, c) in D', a = {@link #CANARY_A}, c = sqrt(1 - a^2). The public start W_0 puts a logit gap
     * of {@link #START_GAP} for class 1 on the constant feature c, none on the first: both canaries are predicted
     * class 1 with probability 1 - 2e-9, so their gradients (1 - alpha)/n x (p - e_0)^T differ by
     * (1 - alpha)/n (2a, 0)^T (p - e_0)^T, of norm 2 sqrt 2 a (1 - alpha)/n to within 2e-9: a = 95 % of the stated
     * sensitivity s1 = 2 (1 - alpha) sqrt 2 r / n. (The full s1 needs two rows whose gradients are opposite, each at
     * norm sqrt 2: both predicted wrongly with certainty, x' = -x, which a linear model without the constant feature
     * cannot do; the constant feature's share c of the unit norm is what this pair gives up.)
     *
     * <p><b>The test.</b> With T = 1 the output is W_1 = W_0 - eta (gradient + N(0, sigma_1^2 I)), the projection
     * idle (|W_1| about 45 of the 100 allowed), a Gaussian with a mean shift in the first feature's row, (+g, -g) in D
     * and (-g, +g) in D': the likelihood-ratio test is {@code W_1[0][1] - W_1[0][0]}. T = 1 also makes the returned
     * iterate (uniform in 1..T) the only one. The test can reach a Gaussian of 0.95 times the claimed shift.
     *
     * <p><b>The claim</b> is the session's epsilon after the method's own charge (a run on D, output discarded).
     */
    static final AuditedRelease PNCNVXADAP = new AuditedRelease() {
        @Override
        public String name() {
            return "pncnvxadap";
        }

        @Override
        public String design() {
            return "pncnvxadap's noisy descent (frozen private weights, T = 1); D' mirrors the canary's first feature, both "
                    + "predicted wrongly with certainty by the public start (95 % of s1); likelihood ratio on W";
        }

        @Override
        public long defaultTrials() {
            return 2_000_000;
        }

        @Override
        public Set<NeighbouringRelation> relations() {
            return EnumSet.of(NeighbouringRelation.REPLACE_ONE);
        }

        @Override
        public Prepared prepare(double epsilon, double delta, NeighbouringRelation relation, double noiseScale) {
            if (noiseScale != 1.0) {
                throw new IllegalArgumentException("pncnvxadap has no injected-bug mode");
            }
            BassilyAudits.requireReplaceOne(relation);
            NCnvxAdap.Problem d = problem(+1);
            NCnvxAdap.Problem dPrime = problem(-1);
            DenseMatrix start = start();
            PrivacySession plan = BassilyAudits.session(epsilon, delta, relation, NoiseSource.secure());
            fit(d, start, plan);
            double claimed = plan.spent().epsilon();
            return Prepared.statistic((neighbour, noise) -> {
                DenseMatrix w = fit(neighbour ? dPrime : d, start, BassilyAudits.session(epsilon, delta, relation, noise)).w();
                return w.get(0, 1) - w.get(0, 0);
            }, claimed);
        }
    };

    /** The pair's problem: the canary (sign a, c) in class 0, then zero rows; one zero public row. */
    static NCnvxAdap.Problem problem(double sign) {
        double c = Math.sqrt(1 - CANARY_A * CANARY_A);
        DenseMatrix priv = DenseMatrix.zeros(N, 2);
        priv.set(0, 0, sign * CANARY_A);
        priv.set(0, 1, c);
        return new NCnvxAdap.Problem(DenseMatrix.zeros(1, 2), new int[1], priv, new int[N], 2, 0.0, 0.5, 0.0, 0, 0,
                Math.sqrt(N + 1.0), 100, 1.0);
    }

    /** W_0: a logit gap of {@link #START_GAP} for class 1 on the canary's constant feature. */
    static DenseMatrix start() {
        double b = START_GAP / Math.sqrt(1 - CANARY_A * CANARY_A);
        DenseMatrix w = DenseMatrix.zeros(2, 2);
        w.set(1, 0, -b / 2);
        w.set(1, 1, b / 2);
        return w;
    }

    static NCnvxAdap.Result fit(NCnvxAdap.Problem p, DenseMatrix start, PrivacySession s) {
        try {
            return PNCnvxAdap.fit(p, 1, true, 1L, start, s);
        } catch (BudgetExceededException | BudgetLedger.LedgerException e) {
            throw new IllegalStateException("pncnvxadap audit: " + e.getMessage(), e);
        }
    }
}
