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
            String near = nearest(name, ALL.keySet());
            throw new IllegalArgumentException("unknown method '" + name + "'" + (near == null ? "" : " (did you mean " + near + "?)")
                    + "; known methods: " + String.join(", ", ALL.keySet()));
        }
        return m;
    }

    /** The known name closest to {@code name} in edit distance, when it is close (at most 2 edits, or a third of its length), or null. */
    static String nearest(String name, java.util.Collection<String> known) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String k : known) {
            int d = editDistance(name.toLowerCase(java.util.Locale.ROOT), k);
            if (d < bestDistance) {
                bestDistance = d;
                best = k;
            }
        }
        return best != null && bestDistance <= Math.max(2, name.length() / 3) ? best : null;
    }

    static int editDistance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int sub = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(sub, Math.min(prev[j] + 1, cur[j - 1] + 1));
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
