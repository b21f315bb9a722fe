package org.privadapt.methods.prima;

import java.util.List;
import org.privadapt.methods.core.AdaptationMethod;
import org.privadapt.methods.core.MethodProvider;

/**
 * The registry's entries of paper 000: {@code prima}, {@code prisa}. The ablations have a provider of their own
 * ({@link PrimaAblations}), listed last.
 */
public final class PrimaMethods implements MethodProvider {
    @Override
    public List<AdaptationMethod> methods() {
        return List.of(PrimaMethod.prima(), PrimaMethod.prisa());
    }
}
