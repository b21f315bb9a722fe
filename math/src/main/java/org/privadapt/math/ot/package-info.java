/**
 * Optimal transport, one problem family in one package as in POT: entropic OT by stabilised
 * Sinkhorn scaling ({@link org.privadapt.math.ot.Sinkhorn}), class-based group-lasso OT
 * ({@link org.privadapt.math.ot.GroupLassoOt}, Courty et al.), cost matrices, the coupling with its marginal error
 * ({@link org.privadapt.math.ot.Coupling}) and the barycentric mapping of source rows
 * ({@link org.privadapt.math.ot.BarycentricMapping}). Used by OTDA and DPOT (paper 002).
 */
package org.privadapt.math.ot;
