package org.privadapt.methods.core;

import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@code --param NAME=VALUE} names each method reads, so that a misspelt name ({@code lamda=2},
 * {@code epoch=50}) is a usage error listing the valid names instead of being silently ignored.
 */
public final class MethodParameters {
    private MethodParameters() {
    }

    /** The non-private downstream classifier ({@link Classifiers}): the network's settings. */
    public static final Set<String> CLASSIFIER = Set.of("hidden", "activation", "epochs", "batch", "lr");

    /** DP-SGD training ({@link PrivateTraining}). */
    public static final Set<String> DP_SGD = Set.of("clip", "epochs", "batch", "lr", "optimizer", "schedule", "weight-decay", "hidden",
            "activation", "physical-batch");

    /** The union of some name sets. */
    @SafeVarargs
    public static Set<String> union(Set<String>... sets) {
        Set<String> all = new TreeSet<>();
        for (Set<String> s : sets) {
            all.addAll(s);
        }
        return Set.copyOf(all);
    }

    /**
     * @throws IllegalArgumentException naming the first parameter that none of {@code methods} reads, with the
     *                                  names they do read
     */
    public static void check(Collection<? extends AdaptationMethod> methods, Map<String, String> params) {
        Set<String> valid = new TreeSet<>();
        for (AdaptationMethod m : methods) {
            valid.addAll(m.parameters());
        }
        for (String name : new TreeSet<>(params.keySet())) {
            if (!valid.contains(name)) {
                throw new IllegalArgumentException("unknown --param '" + name + "' for " + methods.stream().map(AdaptationMethod::name)
                        .toList() + (valid.isEmpty() ? " (it takes no parameters)" : "; valid: " + String.join(", ", valid)));
            }
        }
    }

    /**
     * @throws IllegalArgumentException naming the first parameter not in {@code valid}
     */
    public static void check(String what, Set<String> valid, Map<String, String> params) {
        for (String name : new TreeSet<>(params.keySet())) {
            if (!valid.contains(name)) {
                throw new IllegalArgumentException("unknown --param '" + name + "' for " + what + "; valid: "
                        + String.join(", ", new TreeSet<>(valid)));
            }
        }
    }
}
