/**
 * Subspace alignment (Fernando et al., ICCV 2013): the solver functions and the non-private
 * method; the array estimator is {@link org.privadapt.da.SubspaceAlignmentTransport}.
 */
package org.privadapt.methods.sa;
