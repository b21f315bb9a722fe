package org.privadapt.methods.core;

import java.util.List;
import java.util.Map;
import org.privadapt.privacy.PrivacyCost;

/**
 * What one run of a method produced: its predictions on the evaluation rows, their accuracy, what each party
 * spent (keys {@code source} and {@code target}), and method-specific diagnostics.
 */
public record AdaptationOutcome(String method, double accuracy, int[] predictions, List<String> classNames,
                                Map<String, PrivacyCost> privacy, Map<String, Object> diagnostics) {
    public AdaptationOutcome {
        predictions = predictions.clone();
        classNames = List.copyOf(classNames);
        privacy = Map.copyOf(privacy);
        diagnostics = Map.copyOf(diagnostics);
    }
}
