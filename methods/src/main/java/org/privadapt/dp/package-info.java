/**
 * Differentially private training made simple, in the manner of Opacus:
 * {@link org.privadapt.dp.PrivateClassifier} trains with DP-SGD for a target (epsilon, delta), charges a ledger before
 * any noise is drawn and reports the epsilon spent.
 */
package org.privadapt.dp;
