package org.privadapt.methods.gmmuda;

import java.util.List;
import org.privadapt.methods.core.AdaptationMethod;
import org.privadapt.methods.core.MethodProvider;

/** The registry's entries of paper 004: {@code uda-with-source}, {@code uda-gmm}, {@code dp-uda-gmm}. */
public final class GmmUdaMethods implements MethodProvider {
    @Override
    public List<AdaptationMethod> methods() {
        return GmmUdaMethod.all();
    }
}
