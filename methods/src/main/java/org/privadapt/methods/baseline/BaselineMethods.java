package org.privadapt.methods.baseline;

import java.util.List;
import org.privadapt.methods.core.AdaptationMethod;
import org.privadapt.methods.core.MethodProvider;

/** The registry's entries of the baselines: {@code source-only}, {@code target-only}. */
public final class BaselineMethods implements MethodProvider {
    @Override
    public List<AdaptationMethod> methods() {
        return List.of(new SourceOnlyMethod(), new TargetOnlyMethod());
    }
}
