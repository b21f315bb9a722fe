package org.privadapt.methods.core;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Settings shared by all methods (classifier, its regularisation, randomness) plus named method parameters
 * (e.g. {@code lambda=1} for CORAL). Immutable.
 *
 * @param classifier the downstream classifier: {@code lr} (multinomial logistic regression)
 * @param l2         L2 penalty of the classifier
 * @param seed       seed for every random choice of the method (data splits, initialisation); privacy noise has
 *                   its own generator, see docs/privacy
 * @param params     method parameters by name
 */
public record MethodConfig(String classifier, double l2, long seed, Map<String, String> params) {
    public MethodConfig {
        params = Map.copyOf(new TreeMap<>(params));
    }

    public static MethodConfig defaults() {
        return new MethodConfig("lr", 1e-3, 1L, Map.of());
    }

    public MethodConfig withParam(String name, String value) {
        Map<String, String> p = new LinkedHashMap<>(params);
        p.put(name, value);
        return new MethodConfig(classifier, l2, seed, p);
    }

    public MethodConfig withSeed(long s) {
        return new MethodConfig(classifier, l2, s, params);
    }

    public double param(String name, double dflt) {
        String v = params.get(name);
        if (v == null) {
            return dflt;
        }
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("parameter " + name + "=" + v + " is not a number");
        }
    }

    public int intParam(String name, int dflt) {
        double v = param(name, dflt);
        if (v != Math.rint(v)) {
            throw new IllegalArgumentException("parameter " + name + "=" + params.get(name) + " is not an integer");
        }
        return (int) v;
    }
}
