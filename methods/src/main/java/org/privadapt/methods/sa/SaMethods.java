package org.privadapt.methods.sa;

import java.util.List;
import org.privadapt.methods.core.AdaptationMethod;
import org.privadapt.methods.core.MethodProvider;

/** The registry's entry of subspace alignment: {@code sa}. */
public final class SaMethods implements MethodProvider {
    @Override
    public List<AdaptationMethod> methods() {
        return List.of(new SaMethod());
    }
}
