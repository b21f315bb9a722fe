/**
 * Random bits and noise samplers for the mechanisms: a fast CSPRNG ({@link org.privadapt.privacy.noise.SecureRandomBits}),
 * a seeded non-private generator for experiments ({@link org.privadapt.privacy.noise.SeededRandomBits}), exact
 * lattice samplers that resist floating-point attacks ({@link org.privadapt.privacy.noise.SecureLaplaceSampler},
 * {@link org.privadapt.privacy.noise.SecureGaussianSampler}), hardened Gaussian vectors for DP-SGD
 * ({@link org.privadapt.privacy.noise.GaussianVectorSampler}) and the facade
 * {@link org.privadapt.privacy.noise.NoiseSource}. See {@code docs/privacy/noise.md}.
 */
package org.privadapt.privacy.noise;
