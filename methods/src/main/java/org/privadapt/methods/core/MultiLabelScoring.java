package org.privadapt.methods.core;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.privadapt.data.DataException;
import org.privadapt.data.Dataset;
import org.privadapt.data.Labels;
import org.privadapt.data.MultiLabels;
import org.privadapt.models.MultiLabelMetrics;
import org.privadapt.privacy.PrivacyCost;

/** The outcome of a method's multi-label predictions on the evaluation rows (paper 004's suite; PRIMA on it). */
public final class MultiLabelScoring {
    private MultiLabelScoring() {
    }

    /**
     * A multi-label outcome from 0/1 predictions (rows x labels) against the evaluation's labels: the mean per-label
     * accuracy, and per label its accuracy, precision, recall and positive-class F1 in the diagnostics
     * ({@code per_label}, {@code mean_f1}).
     *
     * @throws DataException if the evaluation rows do not carry these labels
     */
    public static AdaptationOutcome outcome(String method, int[][] pred, Dataset eval, List<String> names,
                                            Map<String, PrivacyCost> spent, Map<String, Object> diag) throws DataException {
        Labels el = eval.labels().orElseThrow(() -> new DataException(eval.firstFile(), null,
                "domain '" + eval.domain() + "' has no labels to evaluate against"));
        if (!(el instanceof MultiLabels truth) || !truth.names().equals(names)) {
            throw new DataException(eval.firstFile(), null, "domain '" + eval.domain() + "': the evaluation labels must be the "
                    + "source's " + names.size() + " multi-label targets " + names);
        }
        MultiLabelMetrics.Report r = MultiLabelMetrics.evaluate(truth, pred);
        Map<String, Object> d = new LinkedHashMap<>(diag);
        List<Object> per = new ArrayList<>();
        for (MultiLabelMetrics.LabelScores s : r.labels()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("label", s.label());
            m.put("accuracy", s.accuracy());
            m.put("precision", s.precision());
            m.put("recall", s.recall());
            m.put("f1", s.f1());
            per.add(m);
        }
        d.put("per_label", per);
        d.put("mean_f1", r.meanF1());
        return AdaptationOutcome.multiLabel(method, r.meanAccuracy(), names, spent, d);
    }
}
