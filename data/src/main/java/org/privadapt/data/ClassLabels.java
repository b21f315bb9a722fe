package org.privadapt.data;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Class labels coded 0..k-1 with their names ({@code names.get(code)}). Two label sets are comparable only if
 * their name lists are equal; {@link #recodeTo(List)} maps one onto another's coding.
 */
public final class ClassLabels implements Labels {
    private final int[] codes;
    private final List<String> names;

    public ClassLabels(int[] codes, List<String> names) {
        this.names = List.copyOf(names);
        for (int i = 0; i < codes.length; i++) {
            if (codes[i] < 0 || codes[i] >= names.size()) {
                throw new IllegalArgumentException("label code " + codes[i] + " at row " + PrivateText.row(i) + " outside [0, "
                        + names.size() + ")");
            }
        }
        this.codes = codes.clone();
    }

    /**
     * Codes raw label values: numeric values sort numerically (so -1 &lt; +1 and 1..10 stay in order), anything
     * else alphabetically. Names are the raw values' canonical strings (integers without ".0").
     */
    public static ClassLabels fromValues(double[] values) {
        TreeMap<Double, Integer> order = new TreeMap<>();
        for (double v : values) {
            order.putIfAbsent(v, 0);
        }
        List<String> names = new ArrayList<>();
        int k = 0;
        for (Map.Entry<Double, Integer> e : order.entrySet()) {
            e.setValue(k++);
            names.add(canonical(e.getKey()));
        }
        int[] codes = new int[values.length];
        for (int i = 0; i < values.length; i++) {
            codes[i] = order.get(values[i]);
        }
        return new ClassLabels(codes, names);
    }

    /** Codes string labels in sorted order of the distinct strings. */
    public static ClassLabels fromStrings(List<String> values) {
        TreeMap<String, Integer> order = new TreeMap<>();
        for (String v : values) {
            order.putIfAbsent(v, 0);
        }
        List<String> names = new ArrayList<>();
        int k = 0;
        for (Map.Entry<String, Integer> e : order.entrySet()) {
            e.setValue(k++);
            names.add(e.getKey());
        }
        int[] codes = new int[values.size()];
        for (int i = 0; i < codes.length; i++) {
            codes[i] = order.get(values.get(i));
        }
        return new ClassLabels(codes, names);
    }

    static String canonical(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            long l = (long) v;
            return Long.toString(l);
        }
        return Double.toString(v);
    }

    @Override
    public int size() {
        return codes.length;
    }

    public int code(int i) {
        return codes[i];
    }

    /** A copy of the codes. */
    public int[] codes() {
        return codes.clone();
    }

    public List<String> names() {
        return names;
    }

    public int numClasses() {
        return names.size();
    }

    public int[] counts() {
        int[] c = new int[names.size()];
        for (int v : codes) {
            c[v]++;
        }
        return c;
    }

    /** The same labels with display names replaced (same count, same order). */
    public ClassLabels renamed(List<String> newNames) {
        if (newNames.size() != names.size()) {
            throw new IllegalArgumentException(newNames.size() + " names for " + names.size() + " classes");
        }
        return new ClassLabels(codes, newNames);
    }

    /**
     * The same labels coded against {@code target} names. Every class here must exist in {@code target}.
     *
     * @throws IllegalArgumentException naming the first class that is missing
     */
    public ClassLabels recodeTo(List<String> target) {
        int[] map = new int[names.size()];
        for (int c = 0; c < names.size(); c++) {
            map[c] = target.indexOf(names.get(c));
            if (map[c] < 0) {
                throw new IllegalArgumentException("class " + PrivateText.quoted(names.get(c)) + " is not among " + target);
            }
        }
        int[] out = new int[codes.length];
        for (int i = 0; i < codes.length; i++) {
            out[i] = map[codes[i]];
        }
        return new ClassLabels(out, target);
    }

    @Override
    public ClassLabels selectRows(int[] idx) {
        int[] out = new int[idx.length];
        for (int t = 0; t < idx.length; t++) {
            out[t] = codes[idx[t]];
        }
        return new ClassLabels(out, names);
    }

    @Override
    public String toString() {
        return "ClassLabels(" + codes.length + " rows, classes " + names + ", counts " + Arrays.toString(counts()) + ")";
    }
}
