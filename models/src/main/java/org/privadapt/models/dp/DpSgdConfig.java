package org.privadapt.models.dp;

/**
 * Settings of DP-SGD (Abadi et al. 2016) with Poisson sampling.
 *
 * @param clipNorm         C: every example's gradient over all parameters is scaled to L2 norm at most C (one
 *                         joint bound, so the clipped sum has sensitivity C under add/remove)
 * @param noiseMultiplier  sigma: the noise added to the clipped sum is N(0, (sigma C)^2 I)
 * @param samplingRate     q: each record joins a step's batch independently with probability q
 * @param normaliser       the noisy sum is divided by this public constant (the expected batch size q n for a
 *                         dataset size n declared public, or any fixed number); it never reads the actual batch
 * @param steps            number of steps
 * @param maxPhysicalBatch the batch is processed in chunks of at most this many examples (virtual batches: memory
 *                         only, the noise is added once per step)
 * @param optimizer        sgd, momentum or adam (post-processing of the noisy gradient)
 * @param learningRate     base learning rate
 * @param schedule         constant, cosine, step:EVERY:FACTOR, exp:DECAY
 * @param weightDecay      L2 penalty added to the privatised gradient (data-independent)
 * @param initSeed         seed of the weight initialisation (data-independent, not secret)
 */
public record DpSgdConfig(double clipNorm, double noiseMultiplier, double samplingRate, double normaliser, long steps,
                          int maxPhysicalBatch, String optimizer, double learningRate, String schedule, double weightDecay,
                          long initSeed) {
    public DpSgdConfig {
        if (!(clipNorm > 0) || Double.isInfinite(clipNorm)) {
            throw new IllegalArgumentException("clip norm must be a positive number, got " + clipNorm);
        }
        if (!(noiseMultiplier >= 0)) {
            throw new IllegalArgumentException("noise multiplier must be >= 0, got " + noiseMultiplier);
        }
        if (!(samplingRate > 0 && samplingRate <= 1)) {
            throw new IllegalArgumentException("sampling rate must be in (0, 1], got " + samplingRate);
        }
        if (!(normaliser > 0)) {
            throw new IllegalArgumentException("normaliser must be > 0, got " + normaliser);
        }
        if (steps < 0) {
            throw new IllegalArgumentException("steps must be >= 0, got " + steps);
        }
        if (maxPhysicalBatch < 1) {
            throw new IllegalArgumentException("physical batch size must be >= 1, got " + maxPhysicalBatch);
        }
        // checked here, when the plan is made, so that a setting training would reject is refused before any charge
        if (!(learningRate >= 0) || Double.isInfinite(learningRate)) { // 0: a model that stays at its initialisation
            throw new IllegalArgumentException("lr must be a finite number >= 0, got " + learningRate);
        }
        if (!(weightDecay >= 0) || Double.isInfinite(weightDecay)) {
            throw new IllegalArgumentException("weight-decay must be a finite number >= 0, got " + weightDecay);
        }
        org.privadapt.models.nn.Optimizer.check(optimizer);
        org.privadapt.models.nn.LearningRateSchedule.check(schedule);
    }

    public DpSgdConfig withSteps(long s) {
        return new DpSgdConfig(clipNorm, noiseMultiplier, samplingRate, normaliser, s, maxPhysicalBatch, optimizer,
                learningRate, schedule, weightDecay, initSeed);
    }

    public DpSgdConfig withNoiseMultiplier(double s) {
        return new DpSgdConfig(clipNorm, s, samplingRate, normaliser, steps, maxPhysicalBatch, optimizer, learningRate,
                schedule, weightDecay, initSeed);
    }
}
