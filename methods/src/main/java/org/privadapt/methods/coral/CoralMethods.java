package org.privadapt.methods.coral;

import java.util.List;
import org.privadapt.methods.core.AdaptationMethod;
import org.privadapt.methods.core.MethodProvider;

/** The registry's entry of CORAL: {@code coral}. */
public final class CoralMethods implements MethodProvider {
    @Override
    public List<AdaptationMethod> methods() {
        return List.of(new CoralMethod());
    }
}
