package org.privadapt.privacy.events;

/**
 * Poisson subsampling: every record is included independently with probability q (independent Bernoulli draws;
 * a shuffled or fixed-size batch is not this), then {@code event} runs on the sample. The amplification analyses
 * for it hold under add/remove neighbours.
 */
public record PoissonSampledEvent(double samplingProbability, DpEvent event) implements DpEvent {
    public PoissonSampledEvent {
        if (!(samplingProbability >= 0 && samplingProbability <= 1)) {
            throw new IllegalArgumentException("sampling probability must be in [0, 1], got " + samplingProbability);
        }
        java.util.Objects.requireNonNull(event, "event");
    }

    @Override
    public String describe() {
        return "PoissonSampled(q=" + samplingProbability + ", " + event.describe() + ")";
    }
}
