package org.privadapt.privacy.mechanisms;

import java.util.Objects;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.accounting.GaussianProfile;
import org.privadapt.privacy.accounting.LogMath;

/**
 * The privacy map of objective perturbation for L2-regularised multinomial logistic regression with Gaussian noise,
 * solved approximately and released with a small output perturbation (proof: docs/privacy/private-learners.md,
 * "Objective perturbation"). The mechanism: rows clipped to R and extended by a constant 1, so each is within
 * {@code zeta = sqrt(R^2 + 1)}; for K classes and parameters theta in R^{(d+1) K},
 * <pre>
 *   J(theta) = sum_i CE(theta; x_i, y_i) + (Lambda / 2) ||theta||^2 + b^T theta,   b ~ N(0, sigma^2 I),
 *   theta_hat: any point with ||grad J(theta_hat)|| &lt;= gamma,   release theta_hat + N(0, tau^2 I).
 * </pre>
 * The guarantee is assembled from three parts:
 * <ol>
 *   <li><b>the exact minimiser</b> theta* of J is (eps_o, delta_o)-DP with {@code eps_o = eps_det + eps_g}:
 *     <ul>
 *       <li>{@code eps_det = (K - 1) ln(1 + zeta^2 / (K Lambda))} bounds the Jacobian ratio of the map b -> theta*
 *           (one record's Hessian has rank at most K - 1, trace at most {@code (1 - 1/K) zeta^2});</li>
 *       <li>{@code delta_o = (K - 1) Phi(-(eps_g - mu^2) / (sqrt 2 mu))} with {@code mu = zeta / sigma} under
 *           add/remove; {@code 2 (K - 1) Phi(-(eps_g - 4 mu^2) / (2 sqrt 2 mu))} under replace-one. It bounds the
 *           probability that the Gaussian part of the privacy loss exceeds eps_g. That part is not a Gaussian,
 *           because the shift depends on the point, so it is bounded by a union of K - 1 Gaussian tails;</li>
 *     </ul></li>
 *   <li><b>the solver's slack</b>: J is Lambda-strongly convex, so {@code ||theta_hat - theta*|| <= r = gamma /
 *       Lambda} for every b, and {@code theta_hat + N(0, tau^2)} is (eps_s, delta_s)-indistinguishable from
 *       {@code theta* + N(0, tau^2)} by the analytic Gaussian profile at sensitivity r (mixtures over b keep it);</li>
 *   <li><b>the chain</b> theta_hat(D) ~ theta*(D) ~ theta*(D') ~ theta_hat(D') gives
 *       {@code eps = eps_o + 2 eps_s} and {@code delta = delta_s + e^{eps_s} delta_o + e^{eps_s + eps_o} delta_s}.</li>
 * </ol>
 * {@link #calibrate} spends 1 % of epsilon on each slack step and 10 % of delta on the slack. It raises Lambda to the
 * value at which eps_det is half of eps_o when the asked Lambda is smaller. Then it takes the smallest sigma for
 * which delta_o holds, and checks the result with {@link #privacyMap} before returning it. The release is reported to
 * accountants as {@code ApproximateDpEvent(eps, delta)}.
 */
public final class ObjectivePerturbationCalibration {
    private ObjectivePerturbationCalibration() {
    }

    /** Share of epsilon spent on each of the two slack steps. */
    public static final double SLACK_EPSILON_SHARE = 0.01;
    /** Share of delta spent on the slack steps. */
    public static final double SLACK_DELTA_SHARE = 0.1;
    /** Largest share of eps_o the Jacobian term may take when Lambda is raised for it. */
    public static final double DETERMINANT_SHARE = 0.5;

    /** Every public setting of the mechanism. */
    public record Parameters(int classes, double rowBound, double lambda, double noiseStd, double gradientTolerance,
                             double outputStd, NeighbouringRelation relation) {
        public Parameters {
            Objects.requireNonNull(relation, "relation");
            if (classes < 2) {
                throw new IllegalArgumentException("objective perturbation needs at least 2 classes, got " + classes);
            }
            positive(rowBound, "row bound");
            positive(lambda, "lambda");
            positive(noiseStd, "noise std");
            positive(gradientTolerance, "gradient tolerance");
            positive(outputStd, "output noise std");
        }

        /** {@code zeta = sqrt(R^2 + 1)}: the norm bound of a row extended by its constant 1. */
        public double zeta() {
            return Math.sqrt(rowBound * rowBound + 1);
        }

        /** {@code r = gamma / Lambda}: the distance of an accepted solution from the exact minimiser. */
        public double slackRadius() {
            return gradientTolerance / lambda;
        }
    }

    /** What the parameters guarantee, and how it splits. */
    public record Guarantee(double epsilon, double delta, double epsilonDeterminant, double epsilonGaussian,
                            double deltaObjective, double epsilonSlack, double deltaSlack) {
    }

    /** {@code (K - 1) ln(1 + zeta^2 / (K Lambda))}. */
    public static double determinantEpsilon(int classes, double zeta, double lambda) {
        return (classes - 1) * Math.log1p(zeta * zeta / (classes * lambda));
    }

    /** The Lambda at which {@link #determinantEpsilon} equals {@code epsDet}. */
    public static double lambdaFor(int classes, double zeta, double epsDet) {
        positive(epsDet, "determinant epsilon");
        return zeta * zeta / (classes * Math.expm1(epsDet / (classes - 1)));
    }

    /**
     * The delta of the exact minimiser at {@code epsGaussian}, for {@code mu = zeta / sigma}: the union bound of
     * K - 1 Gaussian tails (twice that under replace-one). 1 when eps_g does not exceed the squared-shift term.
     */
    public static double objectiveDelta(int classes, double mu, double epsGaussian, NeighbouringRelation relation) {
        boolean replace = relation == NeighbouringRelation.REPLACE_ONE;
        double shift = replace ? 4 * mu * mu : mu * mu;
        if (!(epsGaussian > shift)) {
            return 1.0;
        }
        double arg = replace ? (epsGaussian - shift) / (2 * Math.sqrt(2) * mu) : (epsGaussian - shift) / (Math.sqrt(2) * mu);
        double d = (replace ? 2.0 : 1.0) * (classes - 1) * LogMath.phi(-arg);
        return Math.min(1.0, d);
    }

    /**
     * The guarantee of the parameters when eps_g and eps_s are as given: eps = eps_det + eps_g + 2 eps_s. The
     * calibration and the harness both call this, so the calibration is checked against the same map.
     */
    public static Guarantee privacyMap(Parameters p, double epsGaussian, double epsSlack) {
        double epsDet = determinantEpsilon(p.classes(), p.zeta(), p.lambda());
        double mu = p.zeta() / p.noiseStd();
        double deltaO = objectiveDelta(p.classes(), mu, epsGaussian, p.relation());
        double deltaS = GaussianProfile.delta(p.outputStd(), epsSlack, p.slackRadius());
        double epsO = epsDet + epsGaussian;
        double delta = deltaS + Math.exp(epsSlack) * deltaO + Math.exp(epsSlack + epsO) * deltaS;
        return new Guarantee(epsO + 2 * epsSlack, Math.min(1.0, delta), epsDet, epsGaussian, deltaO, epsSlack, deltaS);
    }

    /** A calibrated mechanism: its parameters and what the map certifies for them. */
    public record Calibrated(Parameters parameters, Guarantee guarantee) {
    }

    /**
     * The parameters for an (epsilon, delta) target.
     *
     * @param lambda the asked regularisation; raised when eps_det would exceed {@link #DETERMINANT_SHARE} of eps_o
     * @param relativeTolerance the solver's stopping tolerance gamma on ||grad J|| as a fraction of
     *                          {@code sigma sqrt(parameterCount)}, the typical norm of b (the scale of J's gradient)
     * @param parameterCount (d + 1) K
     */
    public static Calibrated calibrate(double epsilon, double delta, int classes, double rowBound, double lambda,
                                       double relativeTolerance, int parameterCount, NeighbouringRelation relation) {
        positive(epsilon, "epsilon");
        if (!(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException("delta must be in (0, 1), got " + delta);
        }
        positive(rowBound, "row bound");
        positive(lambda, "lambda");
        positive(relativeTolerance, "relative gradient tolerance");
        if (parameterCount < classes) {
            throw new IllegalArgumentException("parameter count " + parameterCount + " below the class count " + classes);
        }
        if (classes < 2) {
            throw new IllegalArgumentException("objective perturbation needs at least 2 classes, got " + classes);
        }
        double zeta = Math.sqrt(rowBound * rowBound + 1);
        double epsS = SLACK_EPSILON_SHARE * epsilon;
        double epsO = epsilon - 2 * epsS;
        double lam = Math.max(lambda, lambdaFor(classes, zeta, DETERMINANT_SHARE * epsO));
        double epsDet = determinantEpsilon(classes, zeta, lam);
        double epsG = epsO - epsDet;
        // leave a hair of each budget unspent so that rounding never tips the checked map over the target
        double deltaO = (1 - SLACK_DELTA_SHARE) * delta * Math.exp(-epsS) * (1 - 1e-9);
        double deltaS = SLACK_DELTA_SHARE * delta / (1 + Math.exp(epsS + epsO)) * (1 - 1e-9);
        double mu = largestMu(classes, epsG, deltaO, relation);
        double sigma = zeta / mu;
        double gradientTolerance = relativeTolerance * sigma * Math.sqrt(parameterCount);
        double tau = GaussianCalibration.analyticSigma(epsS, deltaS, gradientTolerance / lam);
        Parameters p = new Parameters(classes, rowBound, lam, sigma, gradientTolerance, tau, relation);
        Guarantee g = privacyMap(p, epsG, epsS);
        if (!(g.epsilon() <= epsilon * (1 + 1e-12) && g.delta() <= delta)) {
            throw new IllegalStateException("objective perturbation calibration failed its own check: (" + g.epsilon() + ", "
                    + g.delta() + ") for a target (" + epsilon + ", " + delta + ")");
        }
        return new Calibrated(p, g);
    }

    /** The largest mu = zeta / sigma whose objective delta is at most {@code target} (bisection, safe side). */
    static double largestMu(int classes, double epsG, double target, NeighbouringRelation relation) {
        double lo = 0;
        double hi = relation == NeighbouringRelation.REPLACE_ONE ? Math.sqrt(epsG) / 2 : Math.sqrt(epsG);
        for (int it = 0; it < 200; it++) {
            double mid = 0.5 * (lo + hi);
            if (mid == lo || mid == hi) {
                break;
            }
            if (objectiveDelta(classes, mid, epsG, relation) <= target) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        if (!(lo > 0)) {
            throw new IllegalArgumentException("objective perturbation: no noise level meets delta " + target + " at eps_g " + epsG);
        }
        return lo;
    }

    private static void positive(double v, String what) {
        if (!(v > 0) || Double.isInfinite(v)) {
            throw new IllegalArgumentException(what + " must be finite and > 0, got " + v);
        }
    }
}
