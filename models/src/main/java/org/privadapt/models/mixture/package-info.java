/**
 * Gaussian mixture models: the model ({@link org.privadapt.models.mixture.GaussianMixture}: log densities,
 * responsibilities, sampling), non-private EM ({@link org.privadapt.models.mixture.GaussianMixtureEm}) and DP-EM
 * on clipped rows ({@link org.privadapt.models.mixture.DpGaussianMixtureEm}), which releases noisy per-component
 * sufficient statistics with a known DP event. Paper 004 (An et al. 2022) releases a source mixture of DP-encoder
 * features; fitting it without noise is not post-processing, see {@code docs/privacy/dp-em.md}.
 */
package org.privadapt.models.mixture;
