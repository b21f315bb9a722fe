package org.privadapt.methods.bassily;

import java.util.List;
import java.util.Map;
import org.privadapt.math.DenseMatrix;
import org.privadapt.models.discrepancy.NCnvxAdap;
import org.privadapt.models.dp.SessionRandomness;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.ledger.BudgetLedger;
import org.privadapt.privacy.mechanisms.GaussianCalibration;

/**
 * PNCnvxAdap's private step (paper 003's Algorithm 2 with noise; docs/privacy/bassily.md): the plan charged to the
 * target's session, then T noisy full-batch steps of {@link NCnvxAdap#solve}. What {@code pncnvxadap} runs once its
 * settings are chosen on public rows ({@link NCnvxAdapMethod}), and what {@code privadapt audit --release pncnvxadap}
 * attacks.
 *
 * <p>Frozen private weights: only grad_W is released at each step, sensitivity s1 under replace-one; T Gaussians at
 * sigma = nu s1 compose exactly into one with multiplier nu / sqrt(T). Free ones: the whitened pair (grad_W, grad_u_priv)
 * at multiplier nu / sqrt(2) per step, nu / sqrt(2 T) composed. nu is the smallest for which that Gaussian is
 * (epsilon, delta)-DP (analytic Gaussian mechanism). The iterate returned is chosen by a public seed.
 */
public final class PNCnvxAdap {
    private PNCnvxAdap() {
    }

    /** The noise multiplier nu for T steps at (eps, delta), frozen or free private weights. */
    public static double multiplier(double eps, double delta, long t, boolean frozen) {
        return GaussianCalibration.analyticSigma(eps, delta, 1.0) * Math.sqrt((frozen ? 1.0 : 2.0) * t);
    }

    /**
     * Charges the plan to {@code target} (its epsilon and delta), then runs the noisy descent from the public start
     * {@code start}; the private rows of {@code prob} must already be clipped to its row bound.
     */
    public static NCnvxAdap.Result fit(NCnvxAdap.Problem prob, long t, boolean frozen, long iterateSeed, DenseMatrix start,
                                       PrivacySession target) throws BudgetExceededException, BudgetLedger.LedgerException {
        if (target.relation() != NeighbouringRelation.REPLACE_ONE) {
            throw new IllegalArgumentException("pncnvxadap protects the target under replace-one (the weights u hold one entry "
                    + "per private row): use --relation replace");
        }
        double nu = multiplier(target.target().epsilon(), target.target().delta(), t, frozen);
        target.chargeAll(List.of(frozen
                ? new PrivacySession.Release("pncnvxadap descent", "Gaussian on grad_W (private weights held at p0), T "
                        + "full-batch steps composed exactly (one Gaussian, multiplier nu / sqrt(T))",
                        new GaussianEvent(nu / Math.sqrt(t)), Map.of("s1", prob.s1(), "T", t, "nu", nu))
                : new PrivacySession.Release("pncnvxadap descent", "Gaussian on (grad_W, grad_u_priv), T "
                        + "full-batch steps composed exactly (one Gaussian, multiplier nu / sqrt(2 T))", PCnvxAdap.descentEvent(nu, t),
                        Map.of("s1", prob.s1(), "s2", prob.s2(), "T", t, "nu", nu))));
        return NCnvxAdap.solve(prob, new NCnvxAdap.Config(t, nu * prob.s1(), nu * prob.s2(), true, iterateSeed, frozen),
                new SessionRandomness(target.noise()), start, Double.NaN);
    }
}
