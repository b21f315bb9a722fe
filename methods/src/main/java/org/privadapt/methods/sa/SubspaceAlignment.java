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

    /** The k leading eigenvectors of a symmetric matrix (d x k, largest eigenvalue first). */
    public static DenseMatrix basis(DenseMatrix covariance, int k) {
        if (k < 1 || k > covariance.rows()) {
            throw new IllegalArgumentException("subspace dimension k=" + k + " outside [1, " + covariance.rows() + "]");
        }
        return LinAlg.eigh(covariance).topVectors(k);
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
