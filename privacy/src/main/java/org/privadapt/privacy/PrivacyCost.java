package org.privadapt.privacy;

/**
 * An (epsilon, delta) guarantee, or the statement that there is none. {@link #NONE} is the cost of reading
 * nothing private; {@link #NOT_PRIVATE} (epsilon = infinity) is what a non-private method that reads private
 * data costs.
 */
public record PrivacyCost(double epsilon, double delta) {
    public static final PrivacyCost NONE = new PrivacyCost(0.0, 0.0);
    public static final PrivacyCost NOT_PRIVATE = new PrivacyCost(Double.POSITIVE_INFINITY, 1.0);

    public PrivacyCost {
        if (Double.isNaN(epsilon) || epsilon < 0) {
            throw new IllegalArgumentException("epsilon must be >= 0, got " + epsilon);
        }
        if (Double.isNaN(delta) || delta < 0 || delta > 1) {
            throw new IllegalArgumentException("delta must be in [0, 1], got " + delta);
        }
    }

    public boolean isPrivate() {
        return Double.isFinite(epsilon);
    }

    @Override
    public String toString() {
        return isPrivate() ? String.format(java.util.Locale.ROOT, "(eps=%.4g, delta=%.3g)", epsilon, delta) : "not private";
    }
}
