package org.privadapt.methods.core;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * The methods {@code run} and {@code bench} know, by name. The families register through {@link MethodProvider}
 * (found with {@link ServiceLoader}, so this package depends on none of them), in the order of the providers in
 * {@code META-INF/services/org.privadapt.methods.core.MethodProvider}, each provider's methods in its own order.
 */
public final class Methods {
    private static final Map<String, AdaptationMethod> ALL = new LinkedHashMap<>();

    static {
        for (MethodProvider provider : ServiceLoader.load(MethodProvider.class, Methods.class.getClassLoader())) {
            provider.methods().forEach(Methods::register);
        }
        if (ALL.isEmpty()) {
            throw new IllegalStateException("no adaptation methods: META-INF/services/" + MethodProvider.class.getName()
                    + " is not on the class path (a jar built without its service files?)");
        }
    }

    private Methods() {
    }

    private static void register(AdaptationMethod m) {
        ALL.put(m.name(), m);
    }

    public static List<AdaptationMethod> all() {
        return new ArrayList<>(ALL.values());
    }

    /**
     * @throws IllegalArgumentException listing the known methods when {@code name} is not one
     */
    public static AdaptationMethod get(String name) {
        AdaptationMethod m = ALL.get(name);
        if (m == null) {
            throw new IllegalArgumentException("unknown method '" + name + "'; known methods: " + String.join(", ", ALL.keySet()));
        }
        return m;
    }
}
