package org.privadapt.methods.prima;

import java.util.ArrayList;
import java.util.List;
import org.privadapt.methods.core.AdaptationMethod;
import org.privadapt.methods.core.MethodProvider;

/**
 * The registry's entries of paper 000's ablations (§5.3), listed after every other method: {@code prima-basic},
 * {@code prima-rse}, {@code prima-rse-fs}, {@code prima-basic-shrink}.
 */
public final class PrimaAblations implements MethodProvider {
    @Override
    public List<AdaptationMethod> methods() {
        List<AdaptationMethod> out = new ArrayList<>();
        for (String a : new String[] {"prima-basic", "prima-rse", "prima-rse-fs", "prima-basic-shrink"}) {
            out.add(PrimaMethod.ablation(a));
        }
        return out;
    }
}
