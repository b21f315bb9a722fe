/**
 * CORAL (Sun, Feng and Saenko, AAAI 2016): the solver functions
 * ({@link org.privadapt.methods.coral.Coral}) and the non-private method. The array estimator is
 * {@link org.privadapt.da.CoralTransport}.
 */
package org.privadapt.methods.coral;
