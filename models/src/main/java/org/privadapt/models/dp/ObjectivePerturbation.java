package org.privadapt.models.dp;

import java.util.Arrays;
import java.util.List;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.Network;
import org.privadapt.privacy.mechanisms.ObjectivePerturbationCalibration;

/**
 * Objective perturbation for L2-regularised multinomial logistic regression with Gaussian noise (after Chaudhuri,
 * Monteleoni and Sarwate, JMLR 2011, Alg. 2, and Kifer, Smith and Thakurta, COLT 2012, with the approximate-minimum
 * step of Iyengar et al., IEEE S&amp;P 2019). The analysis is our own, for the multinomial loss; its privacy map and its
 * proof are in {@link ObjectivePerturbationCalibration} and docs/privacy/private-learners.md.
 *
 * <p>Steps, as the map assumes them:
 * <ol>
 *   <li>clip the rows to L2 norm R (non-finite rows become zero);</li>
 *   <li>draw {@code b ~ N(0, sigma^2 I)} over all (d + 1) K parameters;</li>
 *   <li>minimise {@code J(theta) = sum_i CE(theta; x_i, y_i) + (Lambda / 2) ||theta||^2 + b^T theta} until
 *       {@code ||grad J|| <= gamma} (checked; if the iteration cap comes first the fit fails and nothing is released);</li>
 *   <li>add {@code N(0, tau^2)} to every parameter.</li>
 * </ol>
 */
public final class ObjectivePerturbation {
    private ObjectivePerturbation() {
    }

    /** Default iteration cap of the solver (per restart; up to five restarts). */
    public static final int MAX_ITERATIONS = 5000;

    /** The released model under calibrated parameters; noise from {@code rnd} (b first, then the output noise). */
    public static Network fit(FeatureMatrix x, int[] y, List<String> classNames, ObjectivePerturbationCalibration.Parameters p,
                              NoiseAndSampling rnd) {
        int k = classNames.size();
        if (k != p.classes()) {
            throw new IllegalArgumentException("calibrated for " + p.classes() + " classes, given " + k);
        }
        FeatureMatrix rows = ClassStatistics.clipRows(x, p.rowBound());
        checkLabels(rows.rows(), y, k);
        int d = rows.cols();
        double[] b = noiseVector(d, k, p.noiseStd(), rnd);
        double[] theta = minimiser(rows, y, k, p.lambda(), b, p.gradientTolerance());
        rnd.addGaussian(theta, p.outputStd());
        return network(theta, d, classNames);
    }

    /** {@code b ~ N(0, std^2)} over the (d + 1) K parameters, in the layout W (column-major) then the biases. */
    static double[] noiseVector(int d, int k, double std, NoiseAndSampling rnd) {
        double[] b = new double[d * k + k];
        rnd.addGaussian(b, std);
        return b;
    }

    /**
     * A point within gamma (gradient norm) of the minimiser of J on already clipped rows with linear term b;
     * package-private for the harness, which recovers b from it.
     */
    static double[] minimiser(FeatureMatrix clippedRows, int[] y, int k, double lambda, double[] b, double gamma) {
        return RegularisedSoftmax.solve(clippedRows, y, k, lambda, b, gamma, MAX_ITERATIONS, "objective perturbation");
    }

    static Network network(double[] theta, int d, List<String> classNames) {
        int k = classNames.size();
        DenseMatrix w = new DenseMatrix(d, k, Arrays.copyOf(theta, d * k));
        double[] c = Arrays.copyOfRange(theta, d * k, d * k + k);
        return Network.fromParameters(new int[] {d, k}, Activation.IDENTITY, List.of(w), List.of(c), classNames);
    }

    private static void checkLabels(int n, int[] y, int k) {
        if (y.length != n) {
            throw new IllegalArgumentException(n + " rows but " + y.length + " labels");
        }
        for (int v : y) {
            if (v < 0 || v >= k) {
                throw new IllegalArgumentException("label " + v + " outside 0.." + (k - 1));
            }
        }
    }
}
