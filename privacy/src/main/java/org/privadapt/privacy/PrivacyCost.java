package org.privadapt.privacy;

/**
 * What a party spent: an (epsilon, delta) guarantee, or the statement that there is none. {@link #NONE} is the
 * cost of reading nothing private; {@link #NOT_PRIVATE} (epsilon = infinity) is what a non-private method that reads
 * private data costs. {@code seededNoise} marks a computation whose noise came from a seeded generator: its
 * nominal (epsilon, delta) is kept for reference, but it is not private.
 */
public record PrivacyCost(double epsilon, double delta, boolean seededNoise) {
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

    public PrivacyCost(double epsilon, double delta) {
        this(epsilon, delta, false);
    }

    public PrivacyCost withSeededNoise() {
        return new PrivacyCost(epsilon, delta, true);
    }

    /** True when the guarantee holds: finite epsilon and secure noise. */
    public boolean isPrivate() {
        return Double.isFinite(epsilon) && !seededNoise;
    }

    @Override
    public String toString() {
        if (!Double.isFinite(epsilon)) {
            return "not private";
        }
        String s = String.format(java.util.Locale.ROOT, "(eps=%.4g, delta=%.3g)", epsilon, delta);
        return seededNoise ? s + " nominal, NOT PRIVATE (seeded noise)" : s;
    }
}
