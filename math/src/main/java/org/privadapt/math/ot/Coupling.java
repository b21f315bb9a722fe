package org.privadapt.math.ot;

import org.privadapt.math.DenseMatrix;

/**
 * The result of an optimal-transport solver.
 *
 * @param plan           the coupling gamma (n_s x n_t, column-major like every {@link DenseMatrix}); entries are
 *                       non-negative and exactly zero where the cost is {@code +Infinity}
 * @param transportCost  {@code <gamma, C>} summed over the finite entries of the cost given to the solver (for
 *                       {@link GroupLassoOt} the original cost, not the linearised one)
 * @param iterations     iterations performed (Sinkhorn: full row-and-column scaling sweeps; group lasso: outer
 *                       conditional-gradient steps)
 * @param marginalError  {@code ||gamma 1 - a||_1 + ||gamma^T 1 - b||_1} of the returned plan, computed on the plan
 * @param converged      whether the solver met its stopping criterion (see the solver's documentation)
 */
public record Coupling(DenseMatrix plan, double transportCost, int iterations, double marginalError, boolean converged) {
}
