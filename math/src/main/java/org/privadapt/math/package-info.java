/**
 * Dense and sparse matrices and the linear algebra every method stands on.
 * {@link org.privadapt.math.DenseMatrix} (column-major, BLAS layout) and {@link org.privadapt.math.CsrMatrix}
 * implement {@link org.privadapt.math.FeatureMatrix}; {@link org.privadapt.math.LinAlg} dispatches products,
 * covariances, symmetric eigendecompositions and matrix powers to one {@link org.privadapt.math.LinAlgBackend}:
 * native BLAS/LAPACK through netlib ({@link org.privadapt.math.NativeBlas} picks the system's library or the
 * OpenBLAS shipped through Maven), or EJML in pure Java. {@link org.privadapt.math.CovarianceSpectrum} computes a
 * covariance's spectrum from the n x n Gram matrix when a domain has fewer rows than features.
 * See {@code docs/performance.md}.
 */
package org.privadapt.math;
