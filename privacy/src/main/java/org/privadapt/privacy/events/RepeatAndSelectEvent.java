package org.privadapt.privacy.events;

/**
 * Private selection by random repetition (Papernot and Steinke, "Hyperparameter tuning with Rényi differential
 * privacy", ICLR 2022; Google's dp_accounting {@code RepeatAndSelectDpEvent}): the inner {@code event} is run K
 * times independently, with K drawn, independently of the data, from the truncated negative binomial distribution of
 * the given {@code mean} and {@code shape} (0: logarithmic, 1: geometric), and only the best run (by a score the
 * inner event itself releases privately) is output. Analysed by the RDP accountant only (Theorem 2 of the paper).
 */
public record RepeatAndSelectEvent(DpEvent event, double mean, double shape) implements DpEvent {
    public RepeatAndSelectEvent {
        java.util.Objects.requireNonNull(event, "event");
        if (!(mean >= 1) || Double.isInfinite(mean)) {
            throw new IllegalArgumentException("the mean number of repetitions must be finite and >= 1, got " + mean);
        }
        if (!(shape >= 0) || Double.isInfinite(shape)) {
            throw new IllegalArgumentException("the shape of the repetitions' distribution must be finite and >= 0, got " + shape
                    + " (the Poisson law of repetitions, shape infinity, is not offered: its bound needs the inner release to be"
                    + " nearly pure DP)");
        }
    }

    @Override
    public String describe() {
        return "RepeatAndSelect(mean=" + mean + ", shape=" + shape + ", " + event.describe() + ")";
    }
}
