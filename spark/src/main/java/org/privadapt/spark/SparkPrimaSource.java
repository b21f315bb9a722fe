package org.privadapt.spark;

import org.privadapt.methods.prima.Partition;
import org.privadapt.methods.prima.Prima;
import org.privadapt.methods.prima.PrimaConfig;
import org.privadapt.methods.prima.SecondMomentRelease;
import org.privadapt.methods.prima.SecondMoments;
import org.privadapt.methods.prima.TargetRelease;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * PRIMA's (and PRISA's) <b>source</b> moments on Spark: the source's own second-moment release over the target
 * release's partition ({@link Prima#train}'s first draw), its exact statistic one aggregate over the source's rows
 * (each clipped on the executor by {@link Prima#clipRow}: row bound R, then each block to its bound), its noise drawn
 * once on the driver by the in-process noise step {@link Prima#sourceMomentsNoise}.
 *
 * <p>The charge is the caller's, as in {@link Prima#train}, which charges this release (multiplier
 * {@link Prima#sourceMomentsMultiplier}) together with the model(s) before any noise. The source's model itself is
 * not a sum over rows (DP-SGD on the standardised, aligned rows), so it is not distributed here.
 */
public final class SparkPrimaSource {
    private SparkPrimaSource() {
    }

    /**
     * The exact statistic: block Gram matrices, column sums and row count of the source's rows clipped to R and each
     * block of {@code partition} to {@code cfg.blockBounds(partition)}; as {@link Prima#train} clips them.
     */
    public static SecondMomentRelease.ExactMoments exact(SparkTable source, PrimaConfig cfg, Partition partition) {
        return SparkPrima.exactMoments(source, cfg.rowBound(), partition, cfg.blockBounds(partition));
    }

    /**
     * The source's noisy moments for {@code release} (its configuration and partition): the rows are checked as the
     * in-process path checks them (present, finite) and the layout against the release's dimension, before any noise.
     *
     * @param noiseMultiplier {@link Prima#sourceMomentsMultiplier} for the source's session (charged by the caller)
     */
    public static SecondMoments noisyMoments(SparkTable source, TargetRelease release, double noiseMultiplier,
                                             NeighbouringRelation relation, NoiseSource noise) {
        if (source.dimension() != release.dimension()) {
            throw new IllegalArgumentException("the source has " + source.dimension() + " features; the release is for "
                    + release.dimension());
        }
        source.requireValid();
        return noisyMomentsOfChecked(source, release, noiseMultiplier, relation, noise);
    }

    /** {@link #noisyMoments} of rows already checked ({@link SparkTable#requireValid}) by the caller: one pass fewer. */
    static SecondMoments noisyMomentsOfChecked(SparkTable source, TargetRelease release, double noiseMultiplier,
                                               NeighbouringRelation relation, NoiseSource noise) {
        return Prima.sourceMomentsNoise(exact(source, release.config(), release.partition()), release.config(), noiseMultiplier,
                relation, noise);
    }
}
