package org.privadapt.models.uda;

import java.util.SplittableRandom;
import org.privadapt.math.DenseMatrix;

/**
 * Where the target's adaptation gets "source" features from (paper 004, An et al. 2022, Eq. 7: z_i ~ p_s). In the
 * paper's source-free setting it is the Gaussian mixture p_s(z) = sum_k pi_k N(z; mu_k, Sigma_k) the source released
 * (Sec. III-B); in the "with source" setting and in tests, the real source features E_s(X_s)
 * ({@link #ofRows(DenseMatrix)}). Implementations draw only from {@code rng}, so runs are reproducible.
 */
@FunctionalInterface
public interface SourceFeatureSampler {
    /** {@code n} feature rows (n x d_f), drawn with {@code rng}. */
    DenseMatrix sample(int n, SplittableRandom rng);

    /** Rows of a fixed feature matrix drawn uniformly with replacement. */
    static SourceFeatureSampler ofRows(DenseMatrix features) {
        return new EmpiricalFeatureSampler(features);
    }
}
