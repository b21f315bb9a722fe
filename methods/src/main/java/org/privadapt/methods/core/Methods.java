package org.privadapt.methods.core;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.privadapt.methods.baseline.SourceOnlyMethod;
import org.privadapt.methods.baseline.TargetOnlyMethod;
import org.privadapt.methods.coral.CoralMethod;

/** The methods {@code run} and {@code bench} know, by name. */
public final class Methods {
    private static final Map<String, AdaptationMethod> ALL = new LinkedHashMap<>();

    static {
        register(new SourceOnlyMethod());
        register(new TargetOnlyMethod());
        register(new CoralMethod());
        register(new org.privadapt.methods.sa.SaMethod());
        register(new org.privadapt.methods.dpsgd.DpSourceOnlyMethod());
        register(org.privadapt.methods.prima.PrimaMethod.prima());
        register(org.privadapt.methods.prima.PrimaMethod.prisa());
        register(new org.privadapt.methods.otda.OtdaMethod());
        register(new org.privadapt.methods.dpot.DpotDaMethod());
        register(new org.privadapt.methods.pate.PateMethod());
        org.privadapt.methods.dpda.AdversarialMethod.all().forEach(Methods::register);
        org.privadapt.methods.bassily.SupervisedMethods.all().forEach(Methods::register);
        org.privadapt.methods.gmmuda.GmmUdaMethod.all().forEach(Methods::register);
        for (String a : new String[] {"prima-basic", "prima-rse", "prima-rse-fs", "prima-basic-shrink"}) {
            register(org.privadapt.methods.prima.PrimaMethod.ablation(a));
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
