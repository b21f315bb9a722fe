package org.privadapt.privacy.events;

/**
 * A description of a differentially private computation, precise enough for an accountant to bound its privacy
 * loss (after Google's dp_accounting). Events are immutable values; they name mechanisms by their noise relative
 * to the sensitivity, so the same event means the same guarantee under whatever neighbouring relation the
 * sensitivity was computed for. Accountants refuse events (or relations) they cannot analyse rather than guess.
 *
 * <p>Compatibility rule: the meaning of an existing event type and of its parameters never changes; a new
 * mechanism gets a new event type. Ledgers written by earlier versions stay readable and mean the same.
 */
public sealed interface DpEvent permits GaussianEvent, LaplaceEvent, PoissonSampledEvent, PoissonSampledRowsEvent, SelfComposedEvent,
        ComposedEvent, NoOpEvent, NonPrivateEvent, ApproximateDpEvent, WorstOfEvent, RepeatAndSelectEvent {

    /** One line, e.g. {@code 2250 x PoissonSampled(q=0.04, Gaussian(sigma/Delta=1.5))}. */
    String describe();
}
