package org.privadapt.methods.core;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * {@code refine=default}, dp-source-only's refinement when none is named: the rule the leave-one-suite-out protocol of
 * docs/results/defaults.md chose on all 13 suites (issue 44 item 4), {@code map-prototypes} when the target's rows per
 * class per feature, n / (K d), are at most 10^{@value #LOG10_THRESHOLD} (about 2.1), {@code none} above.
 *
 * <p>The protocol read n from the source (public in every cell it ran); here the target applies the rule to its own
 * rows, since the refinement is the target's and the source's n may be private. On the 13 suites the two give the same
 * choices, so the measured table holds for this rule: every task whose features number 256 or more has n / (K d) at
 * most 0.78 on the source's side and 0.70 on the target's, every tabular task at least 5.8 and 7.4, and the threshold
 * lies in both gaps.
 *
 * <p>Privacy: n, K and d are the target's own (its rows, its declared classes, its schema); the choice and the refined
 * predictions stay with the target, and the source's guarantee is unchanged (post-processing of what it released).
 * Nothing is charged (docs/privacy/target-refinements.md).
 */
public final class DefaultRefinement {
    private DefaultRefinement() {
    }

    /** The protocol's threshold on log10(n / (K d)): the midpoint it chose between two suites' values. */
    public static final double LOG10_THRESHOLD = 0.327;

    /** The refinement the rule chooses on wide rows (n / (K d) at most the threshold). */
    public static final String WIDE = "map-prototypes";

    /** The rows per class per feature the rule reads. */
    public static double rowsPerClassPerFeature(int rows, int classes, int features) {
        return (double) rows / Math.max(1, classes) / Math.max(1, features);
    }

    /** The refinement the rule chooses for n rows of d features and K classes: {@link #WIDE} or {@code none}. */
    public static String choose(int rows, int classes, int features) {
        return Math.log10(rowsPerClassPerFeature(rows, classes, features)) <= LOG10_THRESHOLD ? WIDE : "none";
    }

    /** The diagnostics of the rule's choice (under the {@code refine} key, as refine=auto's). */
    public static Map<String, Object> describe(int rows, int classes, int features) {
        String chosen = choose(rows, classes, features);
        double ratio = rowsPerClassPerFeature(rows, classes, features);
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("mode", "default");
        d.put("chosen", chosen);
        d.put("rows_per_class_per_feature", ratio);
        d.put("reason", String.format(Locale.ROOT, "the default rule (docs/results/defaults.md): %s where the target's n/(K d) <= %.2f; "
                + "here %d/(%d x %d) = %.3g", WIDE, Math.pow(10, LOG10_THRESHOLD), rows, classes, features, ratio));
        d.put("cost", "none: the target's own row count, classes and schema; nothing released");
        return d;
    }
}
