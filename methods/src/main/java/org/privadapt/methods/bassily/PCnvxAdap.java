package org.privadapt.methods.bassily;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.privadapt.math.DenseMatrix;
import org.privadapt.models.discrepancy.CnvxAdap;
import org.privadapt.models.discrepancy.LabelledDiscrepancy;
import org.privadapt.models.dp.SessionRandomness;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.mechanisms.GaussianCalibration;
import org.privadapt.privacy.events.ComposedEvent;
import org.privadapt.privacy.events.DpEvent;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.events.LaplaceEvent;
import org.privadapt.privacy.ledger.BudgetLedger;

/**
 * Paper 003's PCnvxAdap (Algorithm 1) with an analysis that holds (docs/privacy/bassily.md): a public labelled
 * source, a private labelled target, linear regression with the squared loss.
 *
 * <ol>
 *   <li>Rows are clipped to ||x|| &lt;= r and targets to [-1, 1] (row-local, so nothing is fitted on private rows): the
 *       sensitivities below need those bounds.</li>
 *   <li>The labelled discrepancy d is computed exactly ({@link LabelledDiscrepancy}) and released as
 *       {@code clamp(d + Lap(B / (n eps_d)), 0, B)}: replacing one private row moves the supremum by at most B / n,
 *       so this is eps_d-DP (the paper's scale B / n gives epsilon 1 whatever it claims).</li>
 *   <li>T iterations of {@link CnvxAdap} with noise sigma_1 = nu s1 on grad_w and sigma_2 = nu s2 on grad_{u_priv}:
 *       each iteration is one Gaussian mechanism on the whitened pair with noise multiplier nu / sqrt(2), T of them
 *       compose exactly into a Gaussian with multiplier nu / sqrt(2 T) (charged as such); nu is the smallest for which
 *       that Gaussian is (eps - eps_d, delta)-DP exactly (analytic Gaussian mechanism), so with the Laplace release the
 *       plan is (eps, delta)-DP by basic composition, and the accountants certify it tighter (the paper: the same split,
 *       but sigma from a moments-accountant closed form that does not certify it, reported beside).</li>
 * </ol>
 *
 * The whole plan is charged to the target's session before any noise is drawn. n is public (replace-one).
 */
public final class PCnvxAdap {
    private PCnvxAdap() {
    }

    /**
     * @param alpha             weight of the public part in the reference distribution p0
     * @param kappa1            penalty on ||q - p0||_1 (its convex surrogate)
     * @param kappa2            penalty on ||q||_2
     * @param kappaInf          penalty on ||q||_inf
     * @param lambda            radius of the predictor ball
     * @param rowBound          r: every row is clipped to this L2 norm
     * @param iterations        T
     * @param discrepancyShare  fraction of epsilon given to the discrepancy's Laplace release (paper: 0.5)
     * @param smoothStep        the w block steps 1 / (2 r^2) instead of the notes' theory step (accuracy only)
     */
    public record Settings(double alpha, double kappa1, double kappa2, double kappaInf, double lambda, double rowBound,
                           long iterations, double discrepancyShare, boolean smoothStep) {
        /** With the notes' theory step sizes. */
        public Settings(double alpha, double kappa1, double kappa2, double kappaInf, double lambda, double rowBound,
                        long iterations, double discrepancyShare) {
            this(alpha, kappa1, kappa2, kappaInf, lambda, rowBound, iterations, discrepancyShare, false);
        }

        public Settings {
            if (!(discrepancyShare > 0 && discrepancyShare < 1)) {
                throw new IllegalArgumentException("discrepancy share must be in (0, 1), got " + discrepancyShare);
            }
            if (iterations < 1) {
                throw new IllegalArgumentException("iterations must be >= 1");
            }
        }
    }

    /** The released predictor, the weights, the released discrepancy and what was calibrated. */
    public record Result(double[] w, double[] u, double discrepancy, Map<String, Object> calibration) {
    }

    /**
     * The descent's event: T full-batch Gaussian steps at multiplier nu / sqrt(2) compose exactly into one Gaussian
     * mechanism with multiplier nu / sqrt(2 T) (the sum of T independent Gaussian vectors on queries whose differences
     * add up in whitened space), which is how it is charged and accounted.
     */
    public static DpEvent descentEvent(double nu, long iterations) {
        return new GaussianEvent(nu / Math.sqrt(2.0 * iterations));
    }

    /** The plan's DP event for noise multiplier nu: Laplace(d) and the descent. */
    public static DpEvent event(double epsDiscrepancy, double nu, long iterations) {
        return new ComposedEvent(List.of(new LaplaceEvent(1.0 / epsDiscrepancy), descentEvent(nu, iterations)));
    }

    /** Non-private CnvxAdap: the exact discrepancy and noise-free descent. */
    public static Result fitNonPrivate(DenseMatrix xPub, double[] yPub, DenseMatrix xPriv, double[] yPriv, Settings s) {
        return fitNonPrivate(xPub, yPub, xPriv, yPriv, s, null);
    }

    /**
     * The w block's step: the theory step of the notes (3.4, step 4) when {@code smoothStep} is false, else
     * 1 / (2 r^2), the inverse smoothness of the weighted squared loss (see {@link CnvxAdap#solve(CnvxAdap.Problem,
     * CnvxAdap.Config, org.privadapt.models.dp.NoiseAndSampling, double[], double)}).
     */
    static double stepW(Settings s) {
        return s.smoothStep() ? 1.0 / (2 * s.rowBound() * s.rowBound()) : Double.NaN;
    }

    /** As above from a public start w_0 (e.g. ridge on the public source; null for 0). */
    public static Result fitNonPrivate(DenseMatrix xPub, double[] yPub, DenseMatrix xPriv, double[] yPriv, Settings s,
                                       double[] start) {
        DenseMatrix[] x = {clipRows(xPub, s.rowBound()), clipRows(xPriv, s.rowBound())};
        double[][] y = {clipTargets(yPub), clipTargets(yPriv)};
        double d = LabelledDiscrepancy.squaredLoss(x[0], y[0], x[1], y[1], s.lambda());
        CnvxAdap.Problem p = problem(x, y, d, s);
        CnvxAdap.Result r = CnvxAdap.solve(p, CnvxAdap.Config.nonPrivate(s.iterations()), null, start, stepW(s));
        return new Result(r.w(), r.u(), d, Map.of("private", false, "solver", "descent", "objective", r.objective()));
    }

    /**
     * Non-private CnvxAdap solved to its optimum ({@link CnvxAdap#solveExact}: closed-form u, exact weighted least
     * squares on the ball, alternated to a relative decrease below 1e-10); needs kappa_2 = kappa_inf = 0.
     */
    public static Result fitExact(DenseMatrix xPub, double[] yPub, DenseMatrix xPriv, double[] yPriv, Settings s,
                                  double[] start) {
        // no clipping: the bounds are the private analysis' assumptions, and this fit is not private
        DenseMatrix[] x = {xPub, xPriv};
        double[][] y = {yPub, yPriv};
        double d = LabelledDiscrepancy.squaredLoss(x[0], y[0], x[1], y[1], s.lambda());
        CnvxAdap.Result r = CnvxAdap.solveExact(problem(x, y, d, s), start, 500, 1e-10);
        return new Result(r.w(), r.u(), d, Map.of("private", false, "solver", "exact", "objective", r.objective()));
    }

    /** PCnvxAdap: charges the target's session, then releases d_DP and runs the noisy descent. */
    public static Result fit(DenseMatrix xPub, double[] yPub, DenseMatrix xPriv, double[] yPriv, Settings s, PrivacySession target)
            throws BudgetExceededException, BudgetLedger.LedgerException {
        return fit(xPub, yPub, xPriv, yPriv, s, target, null);
    }

    /**
     * As above from a start w_0 computed from public data only (e.g. ridge on the public source; null for 0): the
     * start is a free choice of Algorithm 1 and, being public, changes nothing in the analysis.
     */
    public static Result fit(DenseMatrix xPub, double[] yPub, DenseMatrix xPriv, double[] yPriv, Settings s, PrivacySession target,
                             double[] start) throws BudgetExceededException, BudgetLedger.LedgerException {
        if (target.relation() != NeighbouringRelation.REPLACE_ONE) {
            throw new IllegalArgumentException("PCnvxAdap protects the target under replace-one (the weights u hold one entry "
                    + "per private row, so add/remove is undefined): use --relation replace");
        }
        double eps = target.target().epsilon();
        double delta = target.target().delta();
        double epsD = s.discrepancyShare() * eps;
        long t = s.iterations();
        // the descent gets eps - eps_d at delta, calibrated exactly for its single composed Gaussian (Balle and Wang's
        // analytic Gaussian mechanism); the session's accountants then compose it with the Laplace release, which can
        // only certify less than the sum
        double nu = GaussianCalibration.analyticSigma(eps - epsD, delta, 1.0) * Math.sqrt(2.0 * t);
        DenseMatrix[] x = {clipRows(xPub, s.rowBound()), clipRows(xPriv, s.rowBound())};
        double[][] y = {clipTargets(yPub), clipTargets(yPriv)};
        int n = x[1].rows();
        CnvxAdap.Problem p0 = problem(x, y, 0, s);
        double bound = p0.lossBound();
        Map<String, Object> cal = new LinkedHashMap<>();
        cal.put("epsilon_discrepancy", epsD);
        cal.put("laplace_scale", bound / (n * epsD));
        cal.put("noise_multiplier", nu);
        cal.put("sigma_w", nu * p0.s1());
        cal.put("sigma_u", nu * p0.s2());
        cal.put("s1", p0.s1());
        cal.put("s2", p0.s2());
        cal.put("iterations", t);
        // the paper's closed form (eps' = eps / 2 for the T steps): sigma = 2 s sqrt(T log(2 / delta)) / eps'
        cal.put("paper_sigma_w", 2 * p0.s1() * Math.sqrt(t * Math.log(2 / delta)) / (eps / 2));
        target.chargeAll(List.of(
                new PrivacySession.Release("pcnvxadap discrepancy", "Laplace (sensitivity B/n, exact supremum)",
                        new LaplaceEvent(1.0 / epsD), Map.of("B", bound, "n", n)),
                new PrivacySession.Release("pcnvxadap descent", "Gaussian on (grad_w, grad_u_priv), T full-batch steps composed "
                        + "exactly (one Gaussian, multiplier nu / sqrt(2 T))", descentEvent(nu, t),
                        Map.of("s1", p0.s1(), "s2", p0.s2(), "T", t, "nu", nu))));
        double d = LabelledDiscrepancy.squaredLoss(x[0], y[0], x[1], y[1], s.lambda());
        double dDp = target.noise().laplace().addNoise(d, bound / n, epsD);
        dDp = Math.max(0, Math.min(bound, dDp));
        CnvxAdap.Problem p = problem(x, y, dDp, s);
        double logTerm = Math.log(2 / delta) / ((eps / 2) * (eps / 2));
        CnvxAdap.Result r = CnvxAdap.solve(p, new CnvxAdap.Config(t, nu * p.s1(), nu * p.s2(), logTerm),
                new SessionRandomness(target.noise()), start, stepW(s));
        return new Result(r.w(), r.u(), dDp, cal);
    }

    static CnvxAdap.Problem problem(DenseMatrix[] x, double[][] y, double d, Settings s) {
        return new CnvxAdap.Problem(x[0], y[0], x[1], y[1], d, s.alpha(), s.kappa1(), s.kappa2(), s.kappaInf(), s.lambda(),
                s.rowBound());
    }

    /** Each row scaled down to L2 norm at most r (row-local). */
    public static DenseMatrix clipRows(DenseMatrix x, double r) {
        double[] sq = x.rowSquaredNorms();
        double[] f = new double[sq.length];
        for (int i = 0; i < f.length; i++) {
            double norm = Math.sqrt(sq[i]);
            f[i] = norm > r ? r / norm : 1.0;
        }
        return x.scaleRows(f);
    }

    /**
     * One row as {@link #clipRows} maps it (row-local; bit for bit on a dense row): scaled to L2 norm at most r. A new
     * array.
     */
    public static double[] clipRow(double[] row, double r) {
        double sq = 0;
        for (double v : row) {
            sq += v * v;
        }
        double norm = Math.sqrt(sq);
        double f = norm > r ? r / norm : 1.0;
        double[] out = row.clone();
        for (int j = 0; j < out.length; j++) {
            out[j] *= f;
        }
        return out;
    }

    /** One target as {@link #clipTargets} maps it: clipped to [-1, 1]; NaN refused. */
    public static double clipTarget(double y) {
        if (Double.isNaN(y)) {
            throw new IllegalArgumentException("a target is not a number");
        }
        return Math.max(-1, Math.min(1, y));
    }

    /** Targets clipped to [-1, 1]. */
    public static double[] clipTargets(double[] y) {
        double[] out = new double[y.length];
        for (int i = 0; i < y.length; i++) {
            if (Double.isNaN(y[i])) {
                throw new IllegalArgumentException("target " + i + " is not a number");
            }
            out[i] = Math.max(-1, Math.min(1, y[i]));
        }
        return out;
    }
}
