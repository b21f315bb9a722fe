/**
 * Privacy accountants for composed DP events, in the manner of Google's dp_accounting:
 * the Rényi DP accountant ({@link org.privadapt.privacy.accounting.RdpAccountant}, exact Poisson-subsampled
 * Gaussian series, add/remove and replace-one), the privacy-loss-distribution accountant (package {@code pld}),
 * noise calibration for a target epsilon ({@link org.privadapt.privacy.accounting.NoiseCalibration}) and
 * {@link org.privadapt.privacy.accounting.Accountants#certify}, which takes the tighter certified bound. Accountants
 * refuse events they cannot handle. See {@code docs/privacy/rdp-accountant.md}.
 */
package org.privadapt.privacy.accounting;
