package org.privadapt.methods.bassily;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.LinAlg;
import org.privadapt.models.discrepancy.CnvxAdap;
import org.privadapt.models.discrepancy.LabelledDiscrepancy;
import org.privadapt.models.dp.NoiseAndSampling;
import org.privadapt.models.dp.SessionRandomness;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.events.LaplaceEvent;
import org.privadapt.privacy.ledger.BudgetLedger;
import org.privadapt.privacy.mechanisms.GaussianCalibration;

/**
 * A private CnvxAdap through sufficient statistics ({@code pcnvxadap-stats}; ours, not the paper's): instead of T
 * noisy gradients, the private rows are released once as their second moments, and problem (6) is then solved
 * exactly as post-processing.
 *
 * <ol>
 *   <li>Rows clipped to ||x|| &lt;= r, targets to [-1, 1] (row-local).</li>
 *   <li>d released as in {@link PCnvxAdap}: Laplace at B / (n eps_d), clamped to [0, B], over the zero-centred ball
 *       that contains the trust region below (radius ||w_0|| + Lambda, B = (that r + 1)^2).</li>
 *   <li>The statistics {@code s = (upper(X^T X), X^T y)} (the d (d + 1) / 2 entries of the upper triangle with the
 *       diagonal, then d) released with Gaussian noise. Replacing one row (x, y) by (x', y') moves the first block
 *       by {@code xx^T - x'x'^T}, whose upper triangle has squared norm at most its Frobenius norm squared
 *       {@code ||x||^4 + ||x'||^4 - 2 (x.x')^2 <= 2 r^4}, and the second by {@code xy - x'y'}, of norm at most 2r: the
 *       L2 sensitivity is {@code sqrt(2 r^4 + 4 r^2)} (sqrt 6 at r = 1). The noise is calibrated for (eps - eps_d,
 *       delta) exactly (analytic Gaussian mechanism).</li>
 *   <li>Post-processing: A = symmetrised noisy statistics / n, b likewise, and problem (6) with the private rows'
 *       weights held at p0 ({@link CnvxAdap#solveExactFixedPrivate}), the public rows re-weighted, w sought in the ball
 *       of radius Lambda around the public start w_0 (ridge on the source) rather than around 0, which shrinks towards
 *       the source's fit when the statistics are noisy; the trust-region step is exact even when the noisy A is
 *       indefinite.</li>
 * </ol>
 *
 * What it gives up against Algorithm 1: the private rows cannot be re-weighted one by one (their weights stay at p0,
 * which Claim 1's box allows); what it gains: one release whose noise does not grow with T, and an exact optimiser.
 * For small d (the regression sets here have d &lt;= 13) the d^2 / 2 released numbers are few.
 */
public final class StatisticsPCnvxAdap {
    private StatisticsPCnvxAdap() {
    }

    /**
     * alpha, kappa_1, Lambda (the radius of the ball around the public start in which w is sought), the Laplace share of
     * epsilon.
     */
    public record Settings(double alpha, double kappa1, double lambda, double discrepancyShare) {
        public Settings {
            if (!(alpha > 0 && alpha < 1) || !(kappa1 > 0) || !(lambda > 0) || !(discrepancyShare > 0 && discrepancyShare < 1)) {
                throw new IllegalArgumentException("need 0 < alpha < 1, kappa1 > 0, radius > 0, 0 < discrepancy-share < 1");
            }
        }
    }

    /** The released predictor, the released discrepancy and what was calibrated. */
    public record Result(double[] w, double discrepancy, Map<String, Object> calibration) {
    }

    /** L2 sensitivity of {@link #statistics} under replace-one for rows of norm &lt;= r and targets in [-1, 1]. */
    public static double sensitivity(double r) {
        return Math.sqrt(2 * r * r * r * r + 4 * r * r);
    }

    /** The query: (upper triangle of X^T X row by row, with the diagonal; then X^T y). */
    public static double[] statistics(DenseMatrix x, double[] y) {
        int d = x.cols();
        DenseMatrix g = LinAlg.gram(x);
        double[] xty = LinAlg.multiplyTransA(x, y);
        double[] out = new double[d * (d + 1) / 2 + d];
        int k = 0;
        for (int i = 0; i < d; i++) {
            for (int j = i; j < d; j++) {
                out[k++] = g.get(i, j);
            }
        }
        System.arraycopy(xty, 0, out, k, d);
        return out;
    }

    /** (A, b) = the symmetric matrix and vector that {@code stats} encodes, each divided by n. */
    static Object[] quadratic(double[] stats, int d, double n) {
        DenseMatrix a = DenseMatrix.zeros(d, d);
        int k = 0;
        for (int i = 0; i < d; i++) {
            for (int j = i; j < d; j++) {
                a.set(i, j, stats[k] / n);
                a.set(j, i, stats[k] / n);
                k++;
            }
        }
        double[] b = new double[d];
        for (int j = 0; j < d; j++) {
            b[j] = stats[k + j] / n;
        }
        return new Object[] {a, b};
    }

    /**
     * Solves from released (noisy) statistics: the post-processing step, shared with the simulation that chooses
     * hyperparameters on public rows.
     */
    static double[] solve(DenseMatrix xPub, double[] yPub, double[] noisyStats, double n, double d, Settings s, double[] center) {
        Object[] q = quadratic(noisyStats, xPub.cols(), n);
        q[0] = psd((DenseMatrix) q[0]);
        return CnvxAdap.solveExactFixedPrivate(xPub, yPub, d, s.alpha(), s.kappa1(), s.lambda(), (DenseMatrix) q[0],
                (double[]) q[1], center, 500, 1e-10).w();
    }

    /**
     * The nearest positive semi-definite matrix in Frobenius norm (negative eigenvalues set to 0): the noiseless A is a
     * second-moment matrix, so this projection can only bring the noisy one closer to it (post-processing).
     */
    static DenseMatrix psd(DenseMatrix a) {
        org.privadapt.math.SymmetricEigen e = LinAlg.eigh(a);
        double[] lam = e.values().clone();
        boolean neg = false;
        for (int i = 0; i < lam.length; i++) {
            if (lam[i] < 0) {
                lam[i] = 0;
                neg = true;
            }
        }
        if (!neg) {
            return a;
        }
        DenseMatrix v = e.vectors();
        return LinAlg.multiply(v.scaleColumnsCopy(lam), v.transpose());
    }

    /**
     * The radius of the zero-centred ball over which d is taken: the smallest containing the trust region
     * {@code ||w - center|| <= Lambda} (public: the center is computed from public rows).
     */
    static double discrepancyRadius(double[] center, double lambda) {
        double norm = 0;
        if (center != null) {
            for (double v : center) {
                norm += v * v;
            }
        }
        return Math.sqrt(norm) + lambda;
    }

    /** The noise multiplier (sigma / sensitivity) that makes the statistics' release (eps, delta)-DP. */
    static double multiplier(double eps, double delta) {
        return GaussianCalibration.analyticSigma(eps, delta, 1.0);
    }

    /** Charges the target's session (Laplace for d, one Gaussian for the statistics), then releases and solves. */
    public static Result fit(DenseMatrix xPub, double[] yPub, DenseMatrix xPriv, double[] yPriv, Settings s, PrivacySession target,
                             double[] start) throws BudgetExceededException, BudgetLedger.LedgerException {
        return fit(xPub, yPub, inProcess(PCnvxAdap.clipRows(xPriv, 1.0), PCnvxAdap.clipTargets(yPriv)), s, target, start);
    }

    /** {@link #fit(DenseMatrix, double[], DenseMatrix, double[], Settings, PrivacySession, double[])} over {@code priv}'s exact quantities. */
    public static Result fit(DenseMatrix xPub, double[] yPub, TargetSource priv, Settings s, PrivacySession target, double[] start)
            throws BudgetExceededException, BudgetLedger.LedgerException {
        NoisyStatistics noisy = noisyStatistics(xPub, yPub, priv, s, target, start);
        return new Result(solve(noisy.sourceRows(), noisy.sourceTargets(), noisy.statistics(), noisy.n(), noisy.discrepancy(), s,
                start), noisy.discrepancy(), noisy.calibration());
    }

    /**
     * The target's two DP releases before post-processing: the released discrepancy d_DP and the noisy statistics
     * {@code statistics(clipped private rows) + N(0, (nu sensitivity)^2 I)}, with n, the calibration and the clipped
     * public source (rows and targets) the solver post-processes them with. {@link #fit}
     * charges and draws through this method and solves from its output alone; {@code privadapt audit --release
     * bassily-statistics} attacks the statistics.
     */
    public record NoisyStatistics(double[] statistics, double discrepancy, int n, Map<String, Object> calibration,
                                  DenseMatrix sourceRows, double[] sourceTargets) {
    }

    /** Charges the target's session (Laplace for d, one Gaussian for the statistics), then draws both releases. */
    public static NoisyStatistics noisyStatistics(DenseMatrix xPub, double[] yPub, DenseMatrix xPriv, double[] yPriv, Settings s,
                                                  PrivacySession target, double[] start)
            throws BudgetExceededException, BudgetLedger.LedgerException {
        if (target.relation() != NeighbouringRelation.REPLACE_ONE) {
            throw new IllegalArgumentException("pcnvxadap-stats protects the target under replace-one (n public): use --relation replace");
        }
        double r = 1.0;
        DenseMatrix xt = PCnvxAdap.clipRows(xPriv, r);
        double[] yt = PCnvxAdap.clipTargets(yPriv);
        return noisyStatistics(xPub, yPub, inProcess(xt, yt), s, target, start);
    }

    /**
     * Where the target's exact quantities come from, over its rows clipped to ||x|| &lt;= 1 and targets to [-1, 1]: n
     * (public under replace-one), the exact discrepancy against the clipped public source, and the exact statistics
     * {@link #statistics}. In process: {@link #inProcess}; the spark module sums the same clipped rows on a cluster.
     */
    public interface TargetSource {
        /** The number of private rows (public: the relation is replace-one). */
        int n();

        /** The number of features. */
        int dimension();

        /** The exact discrepancy (before the Laplace noise) between the clipped public rows and the private ones. */
        double discrepancy(DenseMatrix xPubClipped, double[] yPubClipped, double radius);

        /** The exact statistics {@link #statistics} of the clipped private rows. */
        double[] statistics();
    }

    /** The in-process target source over rows and targets already clipped. */
    public static TargetSource inProcess(DenseMatrix clippedRows, double[] clippedTargets) {
        return new TargetSource() {
            @Override
            public int n() {
                return clippedRows.rows();
            }

            @Override
            public int dimension() {
                return clippedRows.cols();
            }

            @Override
            public double discrepancy(DenseMatrix xs, double[] ys, double radius) {
                return LabelledDiscrepancy.squaredLoss(xs, ys, clippedRows, clippedTargets, radius);
            }

            @Override
            public double[] statistics() {
                return StatisticsPCnvxAdap.statistics(clippedRows, clippedTargets);
            }
        };
    }

    /**
     * {@link #noisyStatistics(DenseMatrix, double[], DenseMatrix, double[], Settings, PrivacySession, double[])} over
     * exact quantities from {@code priv}: the same calibration, the same single charge before any noise, the same
     * draws in the same order (the Laplace for d, then the Gaussian on the statistics). The caller has checked the
     * relation-independent facts about its rows (present, finite).
     */
    public static NoisyStatistics noisyStatistics(DenseMatrix xPub, double[] yPub, TargetSource priv, Settings s,
                                                  PrivacySession target, double[] start)
            throws BudgetExceededException, BudgetLedger.LedgerException {
        if (target.relation() != NeighbouringRelation.REPLACE_ONE) {
            throw new IllegalArgumentException("pcnvxadap-stats protects the target under replace-one (n public): use --relation replace");
        }
        double r = 1.0;
        double eps = target.target().epsilon();
        double delta = target.target().delta();
        double epsD = s.discrepancyShare() * eps;
        double nu = multiplier(eps - epsD, delta);
        double sens = sensitivity(r);
        DenseMatrix xs = PCnvxAdap.clipRows(xPub, r);
        double[] ys = PCnvxAdap.clipTargets(yPub);
        int n = priv.n();
        int d = priv.dimension();
        double dRadius = discrepancyRadius(start, s.lambda());
        double bound = (dRadius * r + 1) * (dRadius * r + 1);
        Map<String, Object> cal = new LinkedHashMap<>();
        cal.put("epsilon_discrepancy", epsD);
        cal.put("laplace_scale", bound / (n * epsD));
        cal.put("noise_multiplier", nu);
        cal.put("statistics_sensitivity", sens);
        cal.put("sigma_statistics", nu * sens);
        cal.put("released_statistics", d * (d + 1) / 2 + d);
        target.chargeAll(List.of(
                new PrivacySession.Release("pcnvxadap-stats discrepancy", "Laplace (sensitivity B/n, exact supremum)",
                        new LaplaceEvent(1.0 / epsD), Map.of("B", bound, "n", n)),
                new PrivacySession.Release("pcnvxadap-stats statistics", "Gaussian on (upper(X^T X), X^T y), L2 sensitivity "
                        + "sqrt(2 r^4 + 4 r^2)", new GaussianEvent(nu), Map.of("sensitivity", sens, "nu", nu))));
        double dHat = priv.discrepancy(xs, ys, dRadius);
        double dDp = Math.max(0, Math.min(bound, target.noise().laplace().addNoise(dHat, bound / n, epsD)));
        double[] stats = statistics(priv, nu, sens, target);
        return new NoisyStatistics(stats, dDp, n, cal, xs, ys);
    }

    /** The statistics' noise step: {@code N(0, (nu sensitivity)^2 I)} on the exact statistics, from the session's noise. */
    private static double[] statistics(TargetSource priv, double nu, double sens, PrivacySession target) {
        double[] stats = priv.statistics();
        NoiseAndSampling rnd = new SessionRandomness(target.noise());
        rnd.addGaussian(stats, nu * sens);
        return stats;
    }
}
