package org.privadapt.methods.dpsgd;

import java.util.List;
import org.privadapt.methods.core.AdaptationMethod;
import org.privadapt.methods.core.MethodProvider;

/** The registry's entry of the DP-SGD baseline: {@code dp-source-only}. */
public final class DpsgdMethods implements MethodProvider {
    @Override
    public List<AdaptationMethod> methods() {
        return List.of(new DpSourceOnlyMethod());
    }
}
