package org.privadapt.methods.core;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.privadapt.models.nn.Network;
import org.privadapt.models.uda.MapPrototypeSums;
import org.privadapt.models.uda.ReceivedPosteriors;
import org.privadapt.models.uda.TargetRefinement;

/**
 * The target refinements an engine can run from sums over the target's rows where they are (Spark's executors:
 * {@link MapPrototypeSums.RowSums}): {@code none}, {@code centre} (the target's mean), {@code map-prototypes} and
 * {@code default} (dp-source-only's rule, {@link DefaultRefinement}), with the same options, results (up to the
 * summation order) and diagnostics as in process ({@link TargetRefinements#refine}). The others need the rows in one
 * place (neighbours, per-row iterations) and are refused with a one-line reason. Nothing is charged: the target's own
 * rows and the model it received (docs/privacy/target-refinements.md).
 */
public final class AggregatedRefinements {
    private AggregatedRefinements() {
    }

    /** The refinements this class runs. */
    public static final List<String> MODES = List.of("none", "centre", DefaultRefinement.WIDE, TargetRefinements.DEFAULT);

    /** Refuses, before any row is read, a refinement that needs the rows in one place (the message names it). */
    public static void check(MethodConfig c, String where) {
        String m = TargetRefinements.mode(c);
        if (!MODES.contains(m)) {
            throw new IllegalArgumentException(where + ": refine=" + m + " needs the target's rows in one place; run it in process "
                    + "(on " + where.replace("--engine ", "") + ": " + String.join(", ", MODES) + ")");
        }
    }

    /**
     * The received model refined on the target's rows that {@code rows} sums over ({@code targetRows} of them, the
     * target's own count), and the diagnostics as in process.
     */
    public static TargetRefinements.Refined refine(MethodConfig c, Network model, long targetRows, MapPrototypeSums.RowSums rows) {
        String m = TargetRefinements.mode(c);
        int n = (int) Math.min(Integer.MAX_VALUE, targetRows);
        int k = model.classNames().size();
        int d = model.sizes()[0];
        switch (m) {
            case "none":
                return new TargetRefinements.Refined(model, TargetRefinements.describe(c));
            case "centre": {
                if (model.layers() != 1) {
                    throw new IllegalArgumentException("refine=centre re-estimates a linear model's bias; this model is not linear");
                }
                double[] s = rows.sum(columnSums(d));
                double[] mean = new double[d];
                for (int j = 0; j < d; j++) {
                    mean[j] = s[d] > 0 ? s[j] / s[d] : 0.0;
                }
                return new TargetRefinements.Refined(TargetRefinement.centred(model, mean), TargetRefinements.describe(c));
            }
            case DefaultRefinement.WIDE:
                return mapPrototypes(c, model, n, rows);
            case TargetRefinements.DEFAULT: {
                Map<String, Object> d0 = DefaultRefinement.describe(n, k, d);
                if ("none".equals(d0.get("chosen"))) {
                    return new TargetRefinements.Refined(model, Map.of("refine", d0));
                }
                TargetRefinements.Refined r = mapPrototypes(c, model, n, rows);
                d0.put("refinement", r.diagnostics().get("refine"));
                return new TargetRefinements.Refined(r.model(), Map.of("refine", d0));
            }
            default:
                throw new IllegalArgumentException("refine=" + m + " needs the target's rows in one place");
        }
    }

    private static TargetRefinements.Refined mapPrototypes(MethodConfig c, Network model, int n, MapPrototypeSums.RowSums rows) {
        int k = model.classNames().size();
        AnchoredRefinements.check(c, k);
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("mode", DefaultRefinement.WIDE);
        boolean centre = model.layers() == 1 && !"false".equals(c.params().get("refine-centre"));
        double logitSd = c.param("refine-logit-sd", ReceivedPosteriors.DEFAULT_LOGIT_SD);
        double[] r = AnchoredRefinements.relevance(c, n, k, null);
        MapPrototypeSums.Refined res = MapPrototypeSums.refine(model, rows, centre, r, logitSd,
                c.intParam("refine-iterations", org.privadapt.models.uda.MapPrototypes.DEFAULT_ITERATIONS));
        if (centre) {
            d.put("centred", "on the target's mean (the linear model's bias re-estimated, as refine=centre; rows centred for "
                    + "cosines and neighbours; refine-centre=false: as received)");
        }
        d.put("probabilities", res.prototypes()
                ? String.format(Locale.ROOT, "softmax of the prototype model's cosines at inverse temperature %.4g "
                        + "(logits of sd %s on the target's rows, calibrated without labels)", res.beta(), logitSd)
                : "the model's own probabilities");
        d.put("source_prototypes", res.prototypes() ? "the received model's class directions"
                : "directions of the target's class means soft-labelled by the received model (the model carries no prototypes)");
        AnchoredRefinements.relevance(c, n, k, d);
        d.put("relevance", rounded(r));
        d.put("target_evidence", rounded(res.result().evidence()));
        d.put("alpha", rounded(res.result().alpha()));
        d.put("iterations", res.result().iterations());
        d.put("engine", "sums over the target's rows where they are (one pass per statistic)");
        d.put("cost", "none: the target's own unlabelled rows and the model it received; nothing released");
        return new TargetRefinements.Refined(res.model(), Map.of("refine", d));
    }

    /** The target's column sums and row count, as a statistic an engine sums. */
    public static MapPrototypeSums.BlockStatistic columnSums(int d) {
        return MapPrototypeSums.columnSums(d);
    }

    private static List<Object> rounded(double[] v) {
        return java.util.Arrays.stream(v).mapToObj(x -> Double.isInfinite(x) ? (Object) "inf" : (Object) (Math.round(x * 1e4) / 1e4)).toList();
    }
}
