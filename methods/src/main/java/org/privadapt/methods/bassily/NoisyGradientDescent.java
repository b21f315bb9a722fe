package org.privadapt.methods.bassily;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.LinAlg;
import org.privadapt.models.dp.NoiseAndSampling;
import org.privadapt.models.dp.SessionRandomness;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.events.DpEvent;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.ledger.BudgetLedger;
import org.privadapt.privacy.mechanisms.GaussianCalibration;

/**
 * The target-only private baseline of paper 003 (Figure 2's "noisy SGD" of Bassily, Feldman, Talwar and Thakurta 2019)
 * for least squares, in its full-batch form: projected gradient descent on (1/n) sum_i (w.x_i - y_i)^2 over
 * ||w|| &lt;= Lambda, each step's gradient sum perturbed with Gaussian noise, the averaged iterate released.
 *
 * <p>Privacy (replace-one, n public): with rows clipped to ||x|| &lt;= r and targets to [-1, 1], one example's gradient
 * 2 (w.x - y) x has norm at most G = 2 r (Lambda r + 1), so replacing one row moves the gradient sum by at most 2G.
 * Each step adds N(0, (nu 2G)^2 I); the T steps are adaptive Gaussian releases of queries with sensitivity 2G, which
 * compose exactly into one Gaussian mechanism with multiplier nu / sqrt(T). nu is calibrated for (epsilon, delta) by
 * the analytic Gaussian mechanism and the plan is charged before any noise is drawn. Full batches (sampling rate 1)
 * leave no subsampling to amplify; at the small n of these experiments that loses little against minibatches.
 */
public final class NoisyGradientDescent {
    private NoisyGradientDescent() {
    }

    /** The released predictor and what was calibrated. */
    public record Result(double[] w, Map<String, Object> calibration) {
    }

    /** The plan's event: T Gaussian steps at multiplier nu on sensitivity 2G, as one Gaussian. */
    public static DpEvent event(double nu, long iterations) {
        return new GaussianEvent(nu / Math.sqrt(iterations));
    }

    /** Charges the target's session, then runs the noisy descent on clipped rows and targets. */
    public static Result fitSquaredLoss(DenseMatrix x, double[] y, double radius, double rowBound, long iterations,
                                        PrivacySession target) throws BudgetExceededException, BudgetLedger.LedgerException {
        Plan p = charge(radius, rowBound, iterations, target);
        DenseMatrix xc = PCnvxAdap.clipRows(x, rowBound);
        double[] yc = PCnvxAdap.clipTargets(y);
        return descend(p, inProcess(xc, yc), xc.rows(), xc.cols(), target);
    }

    /**
     * A planned descent: the public settings, the multiplier nu, the gradient bound G and the calibration the result
     * reports; {@link #releases()} is what {@link #charge} charges.
     */
    public record Plan(double radius, double rowBound, long iterations, double nu, double gradientBound,
                       Map<String, Object> calibration) {
        /** The noise's standard deviation on each step's gradient sum: {@code nu 2 G}. */
        public double sigmaSum() {
            return nu * 2 * gradientBound;
        }

        /** The one release the descent charges: T Gaussian steps as one Gaussian (multiplier nu / sqrt(T)). */
        public List<PrivacySession.Release> releases() {
            return List.of(new PrivacySession.Release("dp-target-only descent",
                    "Gaussian on the gradient sum, T full-batch steps composed exactly (one Gaussian, multiplier nu / sqrt(T))",
                    event(nu, iterations), Map.of("G", gradientBound, "T", iterations, "nu", nu)));
        }
    }

    /**
     * Checks the settings and the relation and calibrates nu for the session's (epsilon, delta): the plan, known from
     * public settings alone (no row, no n), charged nothing (a caller can check it against a ledger before any row is
     * read: {@code LedgerPrecheck}).
     */
    public static Plan plan(double radius, double rowBound, long iterations, PrivacySession target) {
        if (target.relation() != NeighbouringRelation.REPLACE_ONE) {
            throw new IllegalArgumentException("dp-target-only protects the target under replace-one (n public): use --relation replace");
        }
        if (iterations < 1 || !(radius > 0) || !(rowBound > 0)) {
            throw new IllegalArgumentException("need iterations >= 1, radius > 0, row bound > 0");
        }
        double eps = target.target().epsilon();
        double delta = target.target().delta();
        double nu = GaussianCalibration.analyticSigma(eps, delta, 1.0) * Math.sqrt(iterations);
        double g = 2 * rowBound * (radius * rowBound + 1);
        Map<String, Object> cal = new LinkedHashMap<>();
        cal.put("noise_multiplier", nu);
        cal.put("gradient_bound", g);
        cal.put("sigma_sum", nu * 2 * g);
        cal.put("iterations", iterations);
        return new Plan(radius, rowBound, iterations, nu, g, cal);
    }

    /**
     * {@link #plan}, then the whole descent charged in one atomic charge, before any row is read or any noise drawn.
     */
    public static Plan charge(double radius, double rowBound, long iterations, PrivacySession target)
            throws BudgetExceededException, BudgetLedger.LedgerException {
        Plan p = plan(radius, rowBound, iterations, target);
        target.chargeAll(p.releases());
        return p;
    }

    /**
     * The query each step adds noise to: the exact gradient sum {@code sum_i 2 (w.x_i - y_i) x_i} at {@code w} over the
     * rows clipped to the row bound and the targets clipped to [-1, 1] (one row moves it by at most 2G under
     * replace-one). The in-process one is {@link #inProcess}; the spark module sums the same per-row terms on a cluster
     * with w broadcast.
     */
    public interface GradientSum {
        /** The exact gradient sum at {@code w} (w is not kept or changed). */
        double[] at(double[] w);
    }

    /** The in-process gradient sum over rows and targets already clipped. */
    public static GradientSum inProcess(DenseMatrix clippedRows, double[] clippedTargets) {
        int n = clippedRows.rows();
        return w -> {
            double[] res = LinAlg.multiply(clippedRows, w);
            for (int i = 0; i < n; i++) {
                res[i] = 2 * (res[i] - clippedTargets[i]);
            }
            return LinAlg.multiplyTransA(clippedRows, res);
        };
    }

    /** One row's term of {@link GradientSum}: {@code 2 (w.x - y) x}, for a row and target already clipped. */
    public static double residual(double[] clippedRow, double clippedTarget, double[] w) {
        double dot = 0;
        for (int j = 0; j < w.length; j++) {
            dot += clippedRow[j] * w[j];
        }
        return 2 * (dot - clippedTarget);
    }

    /** The charged descent over a gradient sum of n (public, replace-one) rows of d features; noise from the session. */
    public static Result descend(Plan p, GradientSum gradients, int n, int d, PrivacySession target) {
        double[] w = descend(gradients, n, d, p.radius(), p.rowBound(), p.iterations(), p.sigmaSum(),
                new SessionRandomness(target.noise()));
        return new Result(w, p.calibration());
    }

    /**
     * The descent itself: step 1 / beta with beta = 2 r^2 (the smoothness of the mean squared loss on rows of norm
     * &lt;= r), projection onto the ball, average of the iterates 1..T. {@code sigmaSum} is the noise's standard deviation
     * on the gradient sum (0 for the noise-free descent).
     */
    static double[] descend(DenseMatrix x, double[] y, double radius, double rowBound, long iterations, double sigmaSum,
                            NoiseAndSampling rnd) {
        return descend(inProcess(x, y), x.rows(), x.cols(), radius, rowBound, iterations, sigmaSum, rnd);
    }

    /** {@link #descend(DenseMatrix, double[], double, double, long, double, NoiseAndSampling)} over any gradient sum. */
    static double[] descend(GradientSum gradients, int n, int d, double radius, double rowBound, long iterations, double sigmaSum,
                            NoiseAndSampling rnd) {
        double step = 1.0 / (2 * rowBound * rowBound);
        double[] w = new double[d];
        double[] avg = new double[d];
        for (long t = 0; t < iterations; t++) {
            double[] grad = gradients.at(w.clone()); // the gradient sum
            if (sigmaSum > 0) {
                rnd.addGaussian(grad, sigmaSum);
            }
            double norm = 0;
            for (int j = 0; j < d; j++) {
                w[j] -= step * grad[j] / n;
                norm += w[j] * w[j];
            }
            norm = Math.sqrt(norm);
            if (norm > radius) {
                for (int j = 0; j < d; j++) {
                    w[j] *= radius / norm;
                }
            }
            for (int j = 0; j < d; j++) {
                avg[j] += w[j] / iterations;
            }
        }
        return avg;
    }
}
