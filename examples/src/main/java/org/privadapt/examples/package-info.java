/**
 * Runnable examples of the Java API, run by the test suite: CORAL on arrays
 * ({@link org.privadapt.examples.CoralOnArrays}), a DP-SGD model with a ledger
 * ({@link org.privadapt.examples.DpSgdWithLedger}) and the PRIMA two-party flow
 * ({@link org.privadapt.examples.PrimaTwoParty}).
 */
package org.privadapt.examples;
