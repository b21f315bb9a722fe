package org.privadapt.models.dp;

import org.privadapt.privacy.noise.GaussianVectorSampler;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * DP-SGD's randomness with the Poisson batches drawn from a stream of their own: the gradient noise from the party's
 * source, the batches from {@link NoiseSource#split()} of it (secure: an independent AES-CTR key from the DRBG; seeded:
 * a stream derived from the seed), each batch by {@link NoiseSource#poissonSample} (exact rate q, about one byte per
 * record) or, at rates of at most {@value #GAPS_BELOW}, by {@link NoiseSource#poissonSampleByGaps} (O(q n) draws, each
 * record at a rate below q by about 1e-16 relative: accounting at q is conservative). The mechanism is the same as with one stream (independent Bernoulli(q) membership, independent Gaussian
 * noise); only the order in which bits are read differs, so a run under this randomness is a different seeded run
 * from one under {@link SessionRandomness}, not a different mechanism. Its point: batches independent of the noise
 * stream can be drawn a window of steps ahead ({@link PoissonBatches}), which lets the Spark trainer fetch a window's
 * rows in one job (docs/privacy/dp-sgd.md, "DP-SGD on Spark").
 */
public final class SeparateSampling implements NoiseAndSampling {
    private final SessionRandomness noise; // the gradient noise: the session's own, as with one stream
    private final NoiseSource sampling;

    private SeparateSampling(NoiseSource noise, NoiseSource sampling) {
        this.noise = new SessionRandomness(noise);
        this.sampling = sampling;
    }

    /**
     * A training run's randomness from a party's source: with secure noise the batches on a stream of their own (this
     * class: cheaper exact coins, and a window of batches can be drawn ahead); with seeded noise the one interleaved
     * stream of {@link SessionRandomness}, so that every seeded run keeps the batches and noise it always had.
     */
    public static NoiseAndSampling forRun(NoiseSource noise) {
        return noise.isPrivate() ? of(noise) : new SessionRandomness(noise);
    }

    /** The noise from {@code noise}, the batches from a split of it (made now). */
    public static SeparateSampling of(NoiseSource noise) {
        return new SeparateSampling(noise, noise.split());
    }

    /**
     * Below this rate a batch is drawn by geometric gaps (O(q n) exact draws, about 0.1-3 microseconds a member) rather
     * than a byte per record (about 1 ns a record): measured, docs/privacy/dp-sgd.md.
     */
    public static final double GAPS_BELOW = 0x1.0p-10;

    @Override
    public int[] poissonBatch(int n, double q) {
        return q > 0 && q <= GAPS_BELOW ? sampling.poissonSampleByGaps(n, q) : sampling.poissonSample(n, q);
    }

    @Override
    public boolean samplingSeparate() {
        return true;
    }

    @Override
    public boolean bernoulli(double p) {
        return sampling.bernoulli(p);
    }

    @Override
    public void addGaussian(double[] v, double sigma) {
        noise.addGaussian(v, sigma);
    }

    @Override
    public GaussianVectorSampler.Ahead gaussianAhead(int[] lengths, double sigma) {
        return noise.gaussianAhead(lengths, sigma);
    }

    @Override
    public GaussianVectorSampler.Ahead gaussianAheadInto(double[] buffer, int count, double sigma) {
        return noise.gaussianAheadInto(buffer, count, sigma);
    }

    @Override
    public boolean isPrivate() {
        return noise.isPrivate() && sampling.isPrivate();
    }

    @Override
    public String description() {
        return noise.description() + "; Poisson batches: exact byte-digit coins, or exact geometric gaps at q <= 2^-10, on a split stream";
    }
}
