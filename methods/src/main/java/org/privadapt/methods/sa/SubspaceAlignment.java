package org.privadapt.methods.sa;

import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.math.LinAlg;

/**
 * Subspace Alignment (Fernando, Habrard, Sebban, Tuytelaars, "Unsupervised visual domain adaptation using subspace
 * alignment", ICCV 2013): with P_s, P_t the d x k bases of the k leading eigenvectors of the source and target
 * covariances, the alignment matrix is {@code M = P_s^T P_t}; source rows map to {@code X_s P_s M} and target rows to
 * {@code X_t P_t}, so both live in the target's k-dimensional principal subspace. Plain functions on covariances,
 * so a noisy (DP) covariance can be passed as well as an exact one.
 */
public final class SubspaceAlignment {
    private SubspaceAlignment() {
    }

    /**
     * The k leading eigenvectors of a symmetric matrix (d x k, largest eigenvalue first), from its full
     * eigendecomposition with LAPACK's signs. PRISA calls this on released block covariances; it keeps the full
     * decomposition (rather than {@link LinAlg#leadingEigenvectors}) so that the seeded PRISA results in
     * docs/results stay reproducible bit for bit: the partial solver would change the signs, and with them every
     * DP-SGD run, while saving little (PRISA keeps half of each block's directions).
     */
    public static DenseMatrix basis(DenseMatrix covariance, int k) {
        if (k < 1 || k > covariance.rows()) {
            throw new IllegalArgumentException("subspace dimension k=" + k + " outside [1, " + covariance.rows() + "]");
        }
        return LinAlg.eigh(covariance).topVectors(k);
    }

    /**
     * The basis of the rows' own covariance, as {@code basis(LinAlg.covariance(x), k)} up to the signs of the columns
     * (canonical here: {@link LinAlg#withCanonicalSigns}), computed by the partial solver, or through the n x n Gram
     * matrix when there are fewer rows than features ({@link LinAlg#principalAxes}). For the exact (non-private)
     * covariance of rows; a released covariance goes through {@link #basis}.
     */
    public static DenseMatrix basisOfRows(FeatureMatrix x, int k) {
        return LinAlg.principalAxes(x, k);
    }

    /** The d x k map applied to source rows: {@code P_s (P_s^T P_t)}. */
    public static DenseMatrix sourceMap(DenseMatrix sourceBasis, DenseMatrix targetBasis) {
        return LinAlg.multiply(sourceBasis, LinAlg.multiplyTransA(sourceBasis, targetBasis));
    }

    public static DenseMatrix transformSource(FeatureMatrix source, DenseMatrix sourceBasis, DenseMatrix targetBasis) {
        return source.multiply(sourceMap(sourceBasis, targetBasis));
    }

    public static DenseMatrix transformTarget(FeatureMatrix target, DenseMatrix targetBasis) {
        return target.multiply(targetBasis);
    }
}
