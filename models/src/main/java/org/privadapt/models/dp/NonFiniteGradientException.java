package org.privadapt.models.dp;

/**
 * Thrown when a per-example gradient is not finite, so that it cannot be clipped: training stops rather than let an
 * unbounded contribution into a noisy sum. The budget of the run is already charged when this is thrown (the plan
 * is charged before training), and nothing trained is released; the fact that training failed depends on the data
 * and is not covered by the guarantee (docs/privacy/dp-sgd.md).
 */
public final class NonFiniteGradientException extends ArithmeticException {
    private static final long serialVersionUID = 1L;

    public NonFiniteGradientException(String message) {
        super(message);
    }
}
