/**
 * OTDA (Courty et al., TPAMI 2017), the non-private optimal-transport baseline of paper 002;
 * the array estimator is {@link org.privadapt.da.OtdaTransport}.
 */
package org.privadapt.methods.otda;
