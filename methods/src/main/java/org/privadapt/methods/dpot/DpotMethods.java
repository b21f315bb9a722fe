package org.privadapt.methods.dpot;

import java.util.List;
import org.privadapt.methods.core.AdaptationMethod;
import org.privadapt.methods.core.MethodProvider;

/** The registry's entry of paper 002: {@code dpot-da}. */
public final class DpotMethods implements MethodProvider {
    @Override
    public List<AdaptationMethod> methods() {
        return List.of(new DpotDaMethod());
    }
}
