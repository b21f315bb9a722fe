package org.privadapt.privacy.events;

/**
 * A mechanism proven (epsilon, delta)-DP by its own analysis, and nothing finer: no noise distribution an accountant
 * could analyse, only the pair (for example objective perturbation, whose privacy loss is bounded by a tail argument;
 * docs/privacy/private-learners.md). Accountants treat it by its worst case: every (epsilon, delta)-DP mechanism is
 * dominated by the four-outcome pair of Kairouz, Oh and Viswanath (2015)
 * <pre>
 *   P = (delta, (1 - delta) e^eps / (1 + e^eps), (1 - delta) / (1 + e^eps), 0)
 *   Q = (0,     (1 - delta) / (1 + e^eps), (1 - delta) e^eps / (1 + e^eps), delta)
 * </pre>
 * whose privacy loss is +infinity with probability delta and +-eps otherwise; composing those pairs is the optimal
 * composition of (epsilon, delta) guarantees. The RDP accountant refuses the event (RDP cannot express delta > 0).
 */
public record ApproximateDpEvent(double epsilon, double delta) implements DpEvent {
    public ApproximateDpEvent {
        if (!(epsilon >= 0) || Double.isInfinite(epsilon)) {
            throw new IllegalArgumentException("epsilon must be finite and >= 0, got " + epsilon);
        }
        if (!(delta >= 0 && delta < 1)) {
            throw new IllegalArgumentException("delta must be in [0, 1), got " + delta);
        }
    }

    /**
     * The hockey-stick divergence of the dominating pair at {@code e^eps'}: the smallest delta' for which the
     * mechanism is (eps', delta')-DP by this guarantee alone.
     */
    public double deltaAt(double epsilonPrime) {
        if (epsilonPrime >= epsilon) {
            return delta;
        }
        // P(B) - e^{eps'} Q(B) on the outcome with loss +eps, plus delta on the outcome with loss +infinity
        return delta + (1 - delta) * (Math.exp(epsilon) - Math.exp(epsilonPrime)) / (1 + Math.exp(epsilon));
    }

    @Override
    public String describe() {
        return "ApproximateDP(eps=" + epsilon + ", delta=" + delta + ")";
    }
}
