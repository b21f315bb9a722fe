package org.privadapt.methods.otda;

import java.util.List;
import org.privadapt.methods.core.AdaptationMethod;
import org.privadapt.methods.core.MethodProvider;

/** The registry's entry of OT domain adaptation: {@code otda}. */
public final class OtdaMethods implements MethodProvider {
    @Override
    public List<AdaptationMethod> methods() {
        return List.of(new OtdaMethod());
    }
}
