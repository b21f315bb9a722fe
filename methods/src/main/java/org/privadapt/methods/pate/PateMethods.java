package org.privadapt.methods.pate;

import java.util.List;
import org.privadapt.methods.core.AdaptationMethod;
import org.privadapt.methods.core.MethodProvider;

/** The registry's entry of PATE: {@code pate}. */
public final class PateMethods implements MethodProvider {
    @Override
    public List<AdaptationMethod> methods() {
        return List.of(new PateMethod());
    }
}
