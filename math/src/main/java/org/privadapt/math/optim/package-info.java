/**
 * Smooth optimisation: {@link org.privadapt.math.optim.Lbfgs}, limited-memory BFGS with a
 * backtracking (Armijo) line search, used by the non-private logistic regression.
 */
package org.privadapt.math.optim;
