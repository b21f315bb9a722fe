package org.privadapt.methods.neighbours;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The two checks of the neighbouring-dataset harness (docs/privacy/testing.md) on what a release writes:
 * (a) the released values of D and D', computed with the same seeded noise, differ by at most the declared
 * sensitivity in the declared norm ({@link #assertWithin}); (b) every other field of the two artifacts is
 * identical, unless it is itself declared a DP output or public ({@link #assertOnlyDeclaredDiffer}).
 */
public final class ReleaseComparison {
    private ReleaseComparison() {
    }

    /** Paths (JSON-pointer style, e.g. {@code /payload/batches/0/values}) where two documents differ. */
    public static List<String> differingPaths(JsonNode a, JsonNode b) {
        List<String> out = new ArrayList<>();
        diff("", a, b, out);
        return out;
    }

    private static void diff(String path, JsonNode a, JsonNode b, List<String> out) {
        if (a == null || b == null || a.getNodeType() != b.getNodeType()) {
            out.add(path.isEmpty() ? "/" : path);
            return;
        }
        if (a.isObject()) {
            java.util.Set<String> names = new java.util.TreeSet<>();
            a.fieldNames().forEachRemaining(names::add);
            b.fieldNames().forEachRemaining(names::add);
            for (String f : names) {
                diff(path + "/" + f, a.get(f), b.get(f), out);
            }
        } else if (a.isArray()) {
            if (a.size() != b.size()) {
                out.add(path + "[size]");
            }
            Iterator<JsonNode> ia = a.elements();
            Iterator<JsonNode> ib = b.elements();
            int i = 0;
            while (ia.hasNext() && ib.hasNext()) {
                diff(path + "/" + i++, ia.next(), ib.next(), out);
            }
        } else if (!a.equals(b)) {
            out.add(path);
        }
    }

    /**
     * Asserts that every path where {@code a} and {@code b} differ is declared: a DP-released value, a quantity
     * computed from DP values only (post-processing), or a field that carries no data (creation time, checksum).
     */
    public static void assertOnlyDeclaredDiffer(JsonNode a, JsonNode b, Predicate<String> declared, String what) {
        List<String> undeclared = differingPaths(a, b).stream().filter(declared.negate()).toList();
        assertThat(undeclared).as("%s: fields that differ between neighbours but are neither DP nor public", what).isEmpty();
    }

    /** Matches the paths of fields that say when or how an artifact was written, not what it holds. */
    public static boolean metadata(String path) {
        return path.equals("/created") || path.equals("/checksum") || path.equals("/privacy/created");
    }

    /** L2 norm of a - b (same length). */
    public static double l2(double[] a, double[] b) {
        assertThat(a.length).as("released vectors of neighbours have the same length").isEqualTo(b.length);
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += (a[i] - b[i]) * (a[i] - b[i]);
        }
        return Math.sqrt(s);
    }

    /** L1 norm of a - b (same length). */
    public static double l1(double[] a, double[] b) {
        assertThat(a.length).as("released vectors of neighbours have the same length").isEqualTo(b.length);
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += Math.abs(a[i] - b[i]);
        }
        return s;
    }

    /**
     * Asserts a released difference is within the declared sensitivity (relative slack {@code 1e-9} for rounding,
     * plus {@code absoluteSlack}, e.g. the noise lattice's spacing when values are snapped to it).
     */
    public static void assertWithin(double difference, double sensitivity, double absoluteSlack, String what) {
        assertThat(difference).as("%s: difference of the released values between neighbours", what)
                .isLessThanOrEqualTo(sensitivity * (1 + 1e-9) + absoluteSlack);
    }

    /** A readable record of the largest difference seen per kind of neighbour (for failure messages). */
    public static String describe(Map<String, Double> worst) {
        StringBuilder sb = new StringBuilder();
        worst.forEach((k, v) -> sb.append(k).append(": ").append(v).append('\n'));
        return sb.toString();
    }
}
