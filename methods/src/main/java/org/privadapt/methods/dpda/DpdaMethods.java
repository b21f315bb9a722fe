package org.privadapt.methods.dpda;

import java.util.List;
import org.privadapt.methods.core.AdaptationMethod;
import org.privadapt.methods.core.MethodProvider;

/** The registry's entries of paper 001: {@code nn}, {@code dann}, {@code dpda}, {@code g-dpda}. */
public final class DpdaMethods implements MethodProvider {
    @Override
    public List<AdaptationMethod> methods() {
        return AdversarialMethod.all();
    }
}
