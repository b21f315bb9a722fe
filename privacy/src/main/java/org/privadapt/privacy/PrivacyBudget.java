package org.privadapt.privacy;

/**
 * A party's total allowance: every release it makes composes, and the composition must stay within
 * (epsilon, delta) as certified by an accountant at this delta.
 */
public record PrivacyBudget(double epsilon, double delta) {
    public PrivacyBudget {
        if (!(epsilon > 0) || Double.isNaN(epsilon)) {
            throw new IllegalArgumentException("budget epsilon must be > 0, got " + epsilon);
        }
        if (!(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException("budget delta must be in (0, 1), got " + delta);
        }
    }
}
