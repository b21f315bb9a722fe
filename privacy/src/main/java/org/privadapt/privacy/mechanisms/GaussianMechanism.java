package org.privadapt.privacy.mechanisms;

import org.privadapt.math.DenseMatrix;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.noise.NoiseSource;
import org.privadapt.privacy.noise.SecureGaussianSampler;

/**
 * The Gaussian mechanism for a function with a stated L2 sensitivity Delta (under a stated neighbouring relation):
 * release {@code f(D) + N(0, sigma^2)} per coordinate. Constructed from a target (epsilon, delta) with the analytic
 * calibration (Balle and Wang 2018, exact) or the classic one (epsilon &lt; 1 only), or from a noise multiplier.
 *
 * <p><b>Privacy map.</b> For neighbours at distance 1 under its relation the mechanism is
 * {@code (eps, deltaAt(eps))}-DP for every eps, with {@code deltaAt} Balle and Wang's exact formula, and its
 * {@link #event()} carries the noise multiplier for the accountants. The constructor checks that the map meets the
 * target it was calibrated for.
 *
 * <p><b>Noise.</b> Scalars, vectors and matrices are released with the exact discrete Gaussian on a power-of-two
 * grid ({@link SecureGaussianSampler}). Each coordinate's input is rounded to the grid g first, which can move a
 * k-coordinate L2 difference by at most {@code g sqrt(k)}; the event therefore uses the effective sensitivity
 * {@code Delta + g sqrt(k)} of the largest release this mechanism makes, with g below {@code 2^-55 sigma}, a
 * negligible but accounted change.
 *
 * <p><b>Symmetric matrices</b> (Analyze-Gauss, Dwork, Talwar, Thakurta, Zhang 2014): noise is drawn for the upper
 * triangle including the diagonal and mirrored, so the release is symmetric and the privacy analysis is that of
 * the upper-triangle vector (whose sensitivity {@link Sensitivities#gramUpperTriangle} bounds for Gram matrices).
 */
public final class GaussianMechanism {
    private final double sigma;
    private final double sensitivity;
    private final NeighbouringRelation relation;
    private final String calibration;
    private final long maxCoordinates;

    private GaussianMechanism(double sigma, double sensitivity, NeighbouringRelation relation, String calibration,
                              long maxCoordinates) {
        Sensitivities.positive(sigma, "sigma");
        Sensitivities.positive(sensitivity, "sensitivity");
        if (maxCoordinates < 1) {
            throw new IllegalArgumentException("a release has at least one coordinate, got " + maxCoordinates);
        }
        this.sigma = sigma;
        this.sensitivity = sensitivity;
        this.relation = relation;
        this.calibration = calibration;
        this.maxCoordinates = maxCoordinates;
    }

    /**
     * Analytic calibration for (epsilon, delta) with the grid's effect included: the smallest sigma for which the
     * effective sensitivity of a release of up to {@code maxCoordinates} coordinates meets the target.
     */
    public static GaussianMechanism analytic(double epsilon, double delta, double l2Sensitivity, NeighbouringRelation r,
                                             long maxCoordinates) {
        double s = GaussianCalibration.analyticSigma(epsilon, delta, l2Sensitivity);
        GaussianMechanism m = new GaussianMechanism(s, l2Sensitivity, r, "analytic", maxCoordinates);
        // the grid adds g sqrt(k) to the sensitivity: re-calibrate for the effective sensitivity (a fixed point in one
        // or two steps, since g changes only at powers of two)
        for (int it = 0; it < 4 && m.deltaAt(epsilon) > delta; it++) {
            s = GaussianCalibration.analyticSigma(epsilon, delta, m.effectiveSensitivity());
            m = new GaussianMechanism(s, l2Sensitivity, r, "analytic", maxCoordinates);
        }
        if (m.deltaAt(epsilon) > delta * (1 + 1e-9)) {
            throw new IllegalStateException("analytic calibration failed to meet delta " + delta + " at epsilon " + epsilon);
        }
        return m;
    }

    /** Classic calibration {@code sigma = Delta_eff sqrt(2 ln(1.25/delta)) / epsilon}, proven for epsilon &lt; 1 only. */
    public static GaussianMechanism classic(double epsilon, double delta, double l2Sensitivity, NeighbouringRelation r,
                                            long maxCoordinates) {
        double s = GaussianCalibration.classicSigma(epsilon, delta, l2Sensitivity);
        GaussianMechanism m = new GaussianMechanism(s, l2Sensitivity, r, "classic", maxCoordinates);
        s = GaussianCalibration.classicSigma(epsilon, delta, m.effectiveSensitivity());
        return new GaussianMechanism(s, l2Sensitivity, r, "classic", maxCoordinates);
    }

    /**
     * The mechanism whose event has noise multiplier at least {@code s}: {@code sigma = s * Delta_eff(sigma)}, a fixed
     * point reached in a few steps (the grid term changes only at powers of two). Used when the noise multiplier
     * comes from a budget split or a calibration of a composition.
     */
    public static GaussianMechanism forNoiseMultiplier(double s, double l2Sensitivity, NeighbouringRelation r,
                                                       long maxCoordinates) {
        GaussianMechanism m = new GaussianMechanism(s * l2Sensitivity, l2Sensitivity, r, "noise multiplier " + s, maxCoordinates);
        for (int it = 0; it < 6 && m.event().noiseMultiplier() < s; it++) {
            m = new GaussianMechanism(s * m.effectiveSensitivity() * (1 + 1e-15), l2Sensitivity, r, "noise multiplier " + s,
                    maxCoordinates);
        }
        if (m.event().noiseMultiplier() < s) {
            throw new IllegalStateException("could not reach noise multiplier " + s);
        }
        return m;
    }

    /** A given noise standard deviation (e.g. from an accountant's calibration of a composition). */
    public static GaussianMechanism withSigma(double sigma, double l2Sensitivity, NeighbouringRelation r, long maxCoordinates) {
        return new GaussianMechanism(sigma, l2Sensitivity, r, "given sigma", maxCoordinates);
    }

    public double sigma() {
        return sigma;
    }

    /** The stated L2 sensitivity Delta. */
    public double sensitivity() {
        return sensitivity;
    }

    /** Delta plus the grid's rounding bound {@code g sqrt(k)} for releases of up to k coordinates. */
    public double effectiveSensitivity() {
        return sensitivity + SecureGaussianSampler.granularity(sigma) * Math.sqrt((double) maxCoordinates);
    }

    public NeighbouringRelation relation() {
        return relation;
    }

    public String calibration() {
        return calibration;
    }

    /** The event for the accountants: noise multiplier sigma / effective sensitivity. */
    public GaussianEvent event() {
        return new GaussianEvent(sigma / effectiveSensitivity());
    }

    /** Exact delta at epsilon (Balle and Wang 2018, Thm 8) for the effective sensitivity. */
    public double deltaAt(double epsilon) {
        return GaussianCalibration.exactDelta(sigma, epsilon, effectiveSensitivity());
    }

    public double releaseScalar(double value, NoiseSource noise) {
        checkCoordinates(1);
        return noise.gaussian().addNoise(value, sigma);
    }

    /** A noisy copy of {@code values}. */
    public double[] releaseVector(double[] values, NoiseSource noise) {
        checkCoordinates(values.length);
        double[] out = new double[values.length];
        SecureGaussianSampler g = noise.gaussian();
        for (int i = 0; i < values.length; i++) {
            out[i] = g.addNoise(values[i], sigma);
        }
        return out;
    }

    /** A noisy symmetric copy of the symmetric matrix {@code s}: noise on the upper triangle, mirrored. */
    public DenseMatrix releaseSymmetric(DenseMatrix s, NoiseSource noise) {
        int d = s.rows();
        if (d != s.cols()) {
            throw new IllegalArgumentException("symmetric release needs a square matrix, got " + d + "x" + s.cols());
        }
        checkCoordinates((long) d * (d + 1) / 2);
        DenseMatrix out = DenseMatrix.zeros(d, d);
        SecureGaussianSampler g = noise.gaussian();
        for (int j = 0; j < d; j++) {
            for (int i = 0; i <= j; i++) {
                double v = g.addNoise(s.get(i, j), sigma);
                out.set(i, j, v);
                out.set(j, i, v);
            }
        }
        return out;
    }

    private void checkCoordinates(long k) {
        if (k > maxCoordinates) {
            throw new IllegalArgumentException("release of " + k + " coordinates exceeds the " + maxCoordinates
                    + " this mechanism was calibrated for");
        }
    }
}
