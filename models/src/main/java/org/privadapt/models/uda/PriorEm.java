package org.privadapt.models.uda;

import java.util.Arrays;
import org.privadapt.math.DenseMatrix;

/**
 * Class-prior EM on a model's probabilities (Saerens, Latinne and Decaestecker, "Adjusting the outputs of a classifier
 * to new a priori probabilities: a simple procedure", Neural Computation 14(1), 2002). Under label shift (p(x|y) the
 * same, p(y) changed), a model whose posteriors {@code p_ic} were calibrated under the source prior {@code s_c} has,
 * under a target prior {@code pi_c}, the posteriors {@code q_ic ∝ (pi_c / s_c) p_ic}; the target's prior is the fixed
 * point of {@code pi_c = mean_i q_ic}, which EM reaches by maximising the target rows' likelihood over pi.
 *
 * <p>Guards, stated in advance: every prior is kept at least {@code floor} (the estimate is clamped there and
 * renormalised after every step, so no class can be run to zero and lose every row; the default floor is a tenth of the
 * uniform share, 0.1 / K), at most {@code maxIterations} steps (default 100), stopped when no prior moves by more
 * than {@code tolerance} (default 1e-6). It only re-weights the classes: the adjusted model is the received one with
 * {@code log(pi_c / s_c)} added to its class scores.
 */
public final class PriorEm {
    private PriorEm() {
    }

    public static final int DEFAULT_MAX_ITERATIONS = 100;
    public static final double DEFAULT_TOLERANCE = 1e-6;
    /** The default floor as a fraction of the uniform share 1/K. */
    public static final double DEFAULT_FLOOR_SHARE = 0.1;

    /** The estimated target prior, the iterations run and whether the tolerance was reached. */
    public record Result(double[] prior, double[] sourcePrior, int iterations, boolean converged) {
        /** {@code log(prior_c / sourcePrior_c)}: what is added to the model's class scores. */
        public double[] logRatio() {
            double[] r = new double[prior.length];
            for (int c = 0; c < r.length; c++) {
                r[c] = Math.log(prior[c] / sourcePrior[c]);
            }
            return r;
        }
    }

    /** The uniform prior over k classes. */
    public static double[] uniform(int k) {
        double[] s = new double[k];
        Arrays.fill(s, 1.0 / k);
        return s;
    }

    /** EM with the default floor (0.1 / K), iterations and tolerance. */
    public static Result estimate(DenseMatrix proba, double[] sourcePrior) {
        int k = proba.cols();
        return estimate(proba, sourcePrior, DEFAULT_FLOOR_SHARE / k, DEFAULT_MAX_ITERATIONS, DEFAULT_TOLERANCE);
    }

    /**
     * EM for the target's class prior from the model's probabilities {@code proba} (n x K, rows summing to 1) computed
     * under {@code sourcePrior}.
     */
    public static Result estimate(DenseMatrix proba, double[] sourcePrior, double floor, int maxIterations, double tolerance) {
        return estimate(proba, sourcePrior, floor, maxIterations, tolerance, 0.0);
    }

    /**
     * MAP-EM with a Dirichlet prior on the target prior centred on the source prior, worth {@code weight * n}
     * pseudo-rows: each step's estimate is {@code (sum_i q_ic + weight n s_c) / (n + weight n)} before the floor.
     * Weight 0 is Saerens et al.'s EM; as the weight grows the estimate stays at the source prior.
     */
    public static Result estimate(DenseMatrix proba, double[] sourcePrior, double floor, int maxIterations, double tolerance,
                                  double weight) {
        if (!(weight >= 0) || Double.isInfinite(weight)) {
            throw new IllegalArgumentException("prior weight must be a finite number >= 0, got " + weight);
        }
        int n = proba.rows();
        int k = proba.cols();
        if (sourcePrior.length != k) {
            throw new IllegalArgumentException("source prior has " + sourcePrior.length + " classes, the model " + k);
        }
        if (!(floor >= 0) || floor * k > 1) {
            throw new IllegalArgumentException("prior floor must be in [0, 1/K], got " + floor);
        }
        double[] pi = sourcePrior.clone();
        if (n == 0) {
            return new Result(pi, sourcePrior.clone(), 0, true);
        }
        double[] pa = proba.data();
        double[] q = new double[k];
        int it = 0;
        boolean converged = false;
        while (it < maxIterations && !converged) {
            it++;
            double[] ratio = new double[k];
            for (int c = 0; c < k; c++) {
                ratio[c] = pi[c] / sourcePrior[c];
            }
            double[] next = new double[k];
            for (int i = 0; i < n; i++) {
                double z = 0;
                for (int c = 0; c < k; c++) {
                    q[c] = ratio[c] * pa[i + c * n];
                    z += q[c];
                }
                if (z > 0) {
                    for (int c = 0; c < k; c++) {
                        next[c] += q[c] / z / n;
                    }
                } else {
                    for (int c = 0; c < k; c++) {
                        next[c] += pi[c] / n;
                    }
                }
            }
            for (int c = 0; c < k; c++) {
                next[c] = (next[c] + weight * sourcePrior[c]) / (1 + weight);
            }
            next = floored(next, floor);
            double move = 0;
            for (int c = 0; c < k; c++) {
                move = Math.max(move, Math.abs(next[c] - pi[c]));
            }
            pi = next;
            converged = move <= tolerance;
        }
        return new Result(pi, sourcePrior.clone(), it, converged);
    }

    /**
     * The prior with every entry at least {@code floor}, summing to 1: classes below the floor are set to it and the
     * others share the rest in proportion (repeated until no class is below: at most K passes).
     */
    static double[] floored(double[] p, double floor) {
        int k = p.length;
        double[] out = p.clone();
        boolean[] fixed = new boolean[k];
        for (int pass = 0; pass < k; pass++) {
            double free = 1.0;
            double mass = 0;
            for (int c = 0; c < k; c++) {
                if (fixed[c]) {
                    free -= floor;
                } else {
                    mass += out[c];
                }
            }
            boolean changed = false;
            for (int c = 0; c < k; c++) {
                if (!fixed[c]) {
                    out[c] = mass > 0 ? out[c] * free / mass : free / k;
                    if (out[c] < floor) {
                        fixed[c] = true;
                        changed = true;
                    }
                }
            }
            for (int c = 0; c < k; c++) {
                if (fixed[c]) {
                    out[c] = floor;
                }
            }
            if (!changed) {
                break;
            }
        }
        return out;
    }
}
