package org.privadapt.methods.core;

import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.dp.AdaSsp;
import org.privadapt.models.dp.RandomProjection;

/**
 * The {@code adassp} release's map from a row to what it sums, as public settings only: the public random projection
 * (seed, d, p; the identity when p = d), then the bound R ({@link AdaSsp#boundRows}: clipped, or scaled to R). The
 * in-process release applies it to the whole matrix ({@link PrivateLearners#adasspRelease}); it is serializable so that
 * an engine's executors apply the same map where the rows are, block by block (the map is row-local, so blocks give the
 * same rows). Built from a plan by {@link PrivateLearners#adasspRowMap}.
 */
public record AdaSspRowMap(long seed, int inputDim, int outputDim, double rowBound, boolean clip) implements java.io.Serializable {
    /** The rows mapped: n x p. */
    public FeatureMatrix apply(FeatureMatrix x) {
        return AdaSsp.boundRows(new RandomProjection(seed, inputDim, outputDim).apply(x), rowBound, clip);
    }
}
