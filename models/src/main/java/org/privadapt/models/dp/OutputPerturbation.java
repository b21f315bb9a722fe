package org.privadapt.models.dp;

import java.util.Arrays;
import java.util.List;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.Network;
import org.privadapt.privacy.NeighbouringRelation;

/**
 * Output perturbation for L2-regularised multinomial logistic regression (Chaudhuri, Monteleoni and Sarwate, JMLR
 * 2011, Alg. 1, in the form for unnormalised objectives; docs/privacy/private-learners.md).
 *
 * <p>The model theta = (W, b) minimises {@code F(theta) = sum_i CE(theta; x_i, y_i) + (Lambda / 2) ||theta||^2}, the
 * bias penalised too (it is the weight of a constant input 1), on rows clipped to L2 norm R. Each example's loss is
 * L-Lipschitz in theta with {@code L = sqrt(2 (R^2 + 1))} (its gradient is {@code (p - y) [x; 1]^T}, and
 * {@code ||p - y|| <= sqrt 2}), and F is Lambda-strongly convex, so the exact minimisers on neighbouring datasets are
 * at most {@code L / Lambda} apart (add or remove one record) or {@code 2 L / Lambda} (replace one). The solver stops
 * at a point with {@code ||grad F|| <= g}, which is within {@code g / Lambda} of the exact minimiser; the released
 * sensitivity adds {@code 2 g / Lambda} for that (one slack on each side). Lambda is absolute, not per record, so
 * the bound needs no n. Gaussian noise of std {@code s * Delta} is added to every parameter: one Gaussian mechanism.
 *
 * <p>If the solver does not reach g within its iteration cap the fit fails ({@link IllegalStateException}) before any
 * noise is drawn or anything released; docs/privacy/private-learners.md discusses that event.
 */
public final class OutputPerturbation {
    private OutputPerturbation() {
    }

    /** Lambda (absolute regularisation), R (row bound), g (gradient tolerance of the solver). All public. */
    public record Config(double lambda, double rowBound, double gradientTolerance, int maxIterations) {
        public Config {
            if (!(lambda > 0) || Double.isInfinite(lambda)) {
                throw new IllegalArgumentException("lambda must be finite and > 0, got " + lambda);
            }
            if (!(rowBound > 0) || Double.isInfinite(rowBound)) {
                throw new IllegalArgumentException("row bound must be finite and > 0, got " + rowBound);
            }
            if (!(gradientTolerance > 0)) {
                throw new IllegalArgumentException("gradient tolerance must be > 0, got " + gradientTolerance);
            }
            if (maxIterations < 1) {
                throw new IllegalArgumentException("max iterations must be >= 1, got " + maxIterations);
            }
        }

        /** The per-example Lipschitz constant {@code sqrt(2 (R^2 + 1))}. */
        public double lipschitz() {
            return Math.sqrt(2 * (rowBound * rowBound + 1));
        }

        /** The L2 sensitivity of the released parameters under a relation, slack included. */
        public double sensitivity(NeighbouringRelation relation) {
            double l = relation == NeighbouringRelation.REPLACE_ONE ? 2 * lipschitz() : lipschitz();
            return (l + 2 * gradientTolerance) / lambda;
        }
    }

    /** The exact (noise-free) regularised minimiser on rows clipped to R; the gradient norm reached is checked. */
    public static Network minimiser(FeatureMatrix x, int[] y, List<String> classNames, Config cfg) {
        FeatureMatrix rows = ClassStatistics.clipRows(x, cfg.rowBound());
        int n = rows.rows();
        int d = rows.cols();
        int k = classNames.size();
        if (y.length != n) {
            throw new IllegalArgumentException(n + " rows but " + y.length + " labels");
        }
        for (int v : y) {
            if (v < 0 || v >= k) {
                throw new IllegalArgumentException("label " + v + " outside 0.." + (k - 1));
            }
        }
        double[] theta = RegularisedSoftmax.solve(rows, y, k, cfg.lambda(), null, cfg.gradientTolerance(), cfg.maxIterations(),
                "output perturbation");
        int params = d * k + k;
        DenseMatrix w = new DenseMatrix(d, k, Arrays.copyOf(theta, d * k));
        double[] b = Arrays.copyOfRange(theta, d * k, params);
        return Network.fromParameters(new int[] {d, k}, Activation.IDENTITY, List.of(w), List.of(b), classNames);
    }

    /**
     * The released model: the minimiser plus Gaussian noise of std {@code noiseMultiplier * sensitivity} on every
     * weight and bias.
     */
    public static Network fit(FeatureMatrix x, int[] y, List<String> classNames, Config cfg, double noiseMultiplier,
                              NeighbouringRelation relation, NoiseAndSampling rnd) {
        Network exact = minimiser(x, y, classNames, cfg);
        return perturb(exact, noiseMultiplier * cfg.sensitivity(relation), rnd);
    }

    /** A linear network with N(0, std^2) added to every weight and bias. */
    static Network perturb(Network exact, double std, NoiseAndSampling rnd) {
        DenseMatrix w = exact.weights(0);
        double[] b = exact.bias(0);
        double[] wa = w.data().clone();
        rnd.addGaussian(wa, std);
        double[] bb = b.clone();
        rnd.addGaussian(bb, std);
        return Network.fromParameters(exact.sizes(), Activation.IDENTITY,
                List.of(new DenseMatrix(w.rows(), w.cols(), wa)), List.of(bb), exact.classNames());
    }
}
