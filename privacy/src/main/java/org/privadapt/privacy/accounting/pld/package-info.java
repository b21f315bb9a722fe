/**
 * Privacy loss distributions (Koskela et al.; Doroshenko et al.): pessimistic
 * discretisation of additive-noise privacy losses, composition by FFT, and the hockey-stick divergence as epsilon for
 * a delta ({@link org.privadapt.privacy.accounting.pld.PldAccountant}).
 */
package org.privadapt.privacy.accounting.pld;
