package org.privadapt.models.uda;

import java.util.SplittableRandom;
import org.privadapt.math.DenseMatrix;

/**
 * The empirical distribution of a fixed matrix of source features: each draw is a row chosen uniformly (with
 * replacement). With Z_s = E_s(X_s) it feeds the real source features to {@link SourceFreeAdaptation} (the "with
 * source" feature distribution of paper 004, without the source labels); it releases the features themselves, so it
 * is no substitute for a privately fitted mixture.
 */
public final class EmpiricalFeatureSampler implements SourceFeatureSampler {
    private final DenseMatrix features;

    public EmpiricalFeatureSampler(DenseMatrix features) {
        if (features.rows() < 1) {
            throw new IllegalArgumentException("no source features to sample from");
        }
        this.features = features.copy();
    }

    public int dimension() {
        return features.cols();
    }

    @Override
    public DenseMatrix sample(int n, SplittableRandom rng) {
        int[] idx = new int[n];
        for (int i = 0; i < n; i++) {
            idx[i] = rng.nextInt(features.rows());
        }
        return features.selectRows(idx);
    }
}
