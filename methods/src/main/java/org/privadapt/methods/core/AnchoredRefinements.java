package org.privadapt.methods.core;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.Classifier;
import org.privadapt.models.LogisticRegression;
import org.privadapt.models.nn.Network;
import org.privadapt.models.uda.CentredRows;
import org.privadapt.models.uda.Lame;
import org.privadapt.models.uda.MapPrototypes;
import org.privadapt.models.uda.PriorEm;
import org.privadapt.models.uda.ReceivedPosteriors;
import org.privadapt.models.uda.TargetRefinement;

/**
 * The refinements anchored to the received model (issue 44 item 3; docs/privacy/target-refinements.md):
 * {@code refine=prior-em} (class-prior EM, {@link PriorEm}: only re-weights the classes), {@code refine=map-prototypes}
 * (relevance-MAP prototypes, {@link MapPrototypes}: the class directions move only as far as the target's rows
 * outweigh a prior at the source's) and {@code refine=lame} (LAME's output smoothing, {@link Lame}: predictions change,
 * the model does not). Each reads the target's own rows and the model it received, and releases nothing. Like
 * centroids and im, for a linear model they start with target-mean centring ({@link TargetRefinement#centred}: the
 * bias re-estimated; cosines and neighbours computed on the centred rows, without densifying sparse rows,
 * {@link CentredRows}); {@code refine-centre=false} uses the model and rows as received. {@code refine=auto} does not
 * consider them.
 *
 * <p>Options: {@code refine-logit-sd} (a prototype model's logit scale on the target, default 3:
 * {@link ReceivedPosteriors}); {@code refine-source-counts=n1,n2,...} (the source's public per-class counts: the
 * source prior of prior-em and the relevance of map-prototypes; absent, the prior is uniform); {@code refine-relevance}
 * (r of map-prototypes, overriding the counts; a number or {@code inf}; default the target's rows per class, n_t / K);
 * {@code refine-iterations} (map-prototypes' updates, default 1); {@code refine-neighbours} (LAME's k, default 5);
 * {@code refine-prior-weight} (prior-em: a Dirichlet prior at the source prior worth that many times n pseudo-rows,
 * default 0, Saerens et al.'s EM).
 */
final class AnchoredRefinements {
    private AnchoredRefinements() {
    }

    static final List<String> MODES = List.of("prior-em", "map-prototypes", "lame");

    static final Set<String> PARAMETERS = Set.of("refine-logit-sd", "refine-source-counts", "refine-relevance", "refine-neighbours",
            "refine-prior-weight");

    /** Checks this family's options (called by {@link TargetRefinements#mode}). */
    static void check(MethodConfig c, int classes) {
        double sd = c.param("refine-logit-sd", ReceivedPosteriors.DEFAULT_LOGIT_SD);
        if (!(sd > 0) || Double.isInfinite(sd)) {
            throw new IllegalArgumentException("refine-logit-sd must be a positive number, got " + sd);
        }
        double w = c.param("refine-prior-weight", 0.0);
        if (!(w >= 0) || Double.isInfinite(w)) {
            throw new IllegalArgumentException("refine-prior-weight must be a finite number >= 0, got " + w);
        }
        if (c.intParam("refine-neighbours", Lame.DEFAULT_NEIGHBOURS) < 0) {
            throw new IllegalArgumentException("refine-neighbours must be >= 0");
        }
        String given = c.params().get("refine-relevance");
        if (given != null && !"inf".equals(given) && !(c.param("refine-relevance", -1) >= 0)) {
            throw new IllegalArgumentException("refine-relevance must be >= 0 or inf, got " + given);
        }
        String counts = c.params().get("refine-source-counts");
        if (counts != null) {
            sourceCounts(c, classes > 0 ? classes : counts.split("[,;:]").length);
        }
    }

    /** The refined model (for lame: the received one, smoothed on each batch of rows it predicts) and its diagnostics. */
    static TargetRefinements.Refined refine(MethodConfig c, String m, Classifier model, FeatureMatrix rows) {
        if (model instanceof LogisticRegression lr) {
            model = TargetRefinement.asNetwork(lr);
        }
        int k = model.classNames().size();
        check(c, k);
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("mode", m);
        boolean linear = model instanceof Network net0 && net0.layers() == 1;
        boolean centre = linear && !"false".equals(c.params().get("refine-centre"));
        double[] mean = centre ? CentredRows.columnMeans(rows) : null;
        FeatureMatrix space = centre ? new CentredRows(rows, mean) : rows;
        boolean prototypes = ReceivedPosteriors.isPrototypeModel(model);
        if (centre) {
            d.put("centred", "on the target's mean (the linear model's bias re-estimated, as refine=centre; rows centred for "
                    + "cosines and neighbours; refine-centre=false: as received)");
        }
        double logitSd = c.param("refine-logit-sd", ReceivedPosteriors.DEFAULT_LOGIT_SD);
        Classifier base = centre && !prototypes ? TargetRefinement.centred((Network) model, rows) : model;
        Classifier prob = ReceivedPosteriors.probabilistic(base, rows, logitSd, mean);
        d.put("probabilities", prob instanceof ReceivedPosteriors.CosineSoftmax cs
                ? String.format(java.util.Locale.ROOT, "softmax of the prototype model's cosines at inverse temperature %.4g "
                        + "(logits of sd %s on the target's rows, calibrated without labels)", cs.beta(), logitSd)
                : "the model's own probabilities");
        int[] before = model.predict(rows);
        Classifier out;
        switch (m) {
            case "prior-em": {
                double[] src = sourcePrior(c, k);
                double weight = c.param("refine-prior-weight", 0.0);
                PriorEm.Result r = PriorEm.estimate(prob.predictProba(rows), src, PriorEm.DEFAULT_FLOOR_SHARE / k,
                        PriorEm.DEFAULT_MAX_ITERATIONS, PriorEm.DEFAULT_TOLERANCE, weight);
                out = ReceivedPosteriors.shifted(prob, r.logRatio());
                d.put("source_prior", rounded(src));
                d.put("source_prior_from", c.params().containsKey("refine-source-counts") ? "refine-source-counts (public)" : "uniform");
                d.put("target_prior", rounded(r.prior()));
                d.put("em_iterations", r.iterations());
                d.put("em_converged", r.converged());
                d.put("prior_floor", PriorEm.DEFAULT_FLOOR_SHARE / k);
                if (weight > 0) {
                    d.put("prior_weight", weight + " x n pseudo-rows at the source prior (Dirichlet MAP-EM)");
                }
                break;
            }
            case "map-prototypes": {
                DenseMatrix source;
                if (prototypes) {
                    source = ((Network) model).weights(0);
                    d.put("source_prototypes", "the received model's class directions");
                } else {
                    source = MapPrototypes.softLabelledDirections(space, prob.predictProba(rows));
                    d.put("source_prototypes", "directions of the target's class means soft-labelled by the received model "
                            + "(the model carries no prototypes)");
                }
                double beta = ReceivedPosteriors.inverseTemperature(ReceivedPosteriors.cosines(space, source), logitSd);
                double[] r = relevance(c, rows.rows(), k, d);
                MapPrototypes.Result res = MapPrototypes.refine(space, source, r, beta,
                        c.intParam("refine-iterations", MapPrototypes.DEFAULT_ITERATIONS));
                out = centre ? res.model(model.classNames(), mean) : res.model(model.classNames());
                d.put("relevance", rounded(r));
                d.put("target_evidence", rounded(res.evidence()));
                d.put("alpha", rounded(res.alpha()));
                d.put("iterations", res.iterations());
                break;
            }
            case "lame": {
                int nb = c.intParam("refine-neighbours", Lame.DEFAULT_NEIGHBOURS);
                Lame.Smoothed s = new Lame.Smoothed(prob, nb, mean);
                Lame.Result r = s.smoothRows(rows);
                out = s;
                d.put("neighbours", nb + " nearest rows by cosine (binary kNN affinity, blockwise)");
                d.put("iterations", r.iterations());
                d.put("note", "output-only: the model is unchanged; each batch of rows predicted is smoothed over its own kNN graph");
                break;
            }
            default:
                throw new IllegalArgumentException("not an anchored refinement: " + m);
        }
        int[] after = out.predict(rows);
        d.put("relabelled_share", relabelled(before, after));
        d.put("cost", "none: the target's own unlabelled rows and the model it received; nothing released");
        return new TargetRefinements.Refined(out, Map.of("refine", d));
    }

    /** From a composite model's predicted classes only: map-prototypes (from the hard-labelled means); the others need probabilities. */
    static TargetRefinements.Refined refinePredictions(MethodConfig c, String m, int[] predicted, List<String> classes,
                                                       FeatureMatrix rows) {
        if (!"map-prototypes".equals(m)) {
            throw new IllegalArgumentException("refine=" + m + " reads the received model's class probabilities; this method "
                    + "gives the target predicted classes only (use refine=map-prototypes, centroids or self-training)");
        }
        int k = classes.size();
        check(c, k);
        DenseMatrix onehot = DenseMatrix.zeros(predicted.length, k);
        for (int i = 0; i < predicted.length; i++) {
            onehot.set(i, predicted[i], 1.0);
        }
        DenseMatrix source = MapPrototypes.softLabelledDirections(rows, onehot);
        double logitSd = c.param("refine-logit-sd", ReceivedPosteriors.DEFAULT_LOGIT_SD);
        double beta = ReceivedPosteriors.inverseTemperature(ReceivedPosteriors.cosines(rows, source), logitSd);
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("mode", m);
        d.put("source_prototypes", "directions of the target's class means under the received predicted classes");
        double[] r = relevance(c, rows.rows(), k, d);
        MapPrototypes.Result res = MapPrototypes.refine(rows, source, r, beta, c.intParam("refine-iterations", MapPrototypes.DEFAULT_ITERATIONS));
        Network out = res.model(classes);
        d.put("relevance", rounded(r));
        d.put("target_evidence", rounded(res.evidence()));
        d.put("alpha", rounded(res.alpha()));
        d.put("relabelled_share", relabelled(predicted, out.predict(rows)));
        d.put("cost", "none: the target's own unlabelled rows and the classes it received; nothing released");
        return new TargetRefinements.Refined(out, Map.of("refine", d));
    }

    /**
     * The relevance factor per class: refine-relevance when given, else the source's public per-class counts
     * (refine-source-counts), else the target's own rows per class, n_t / K (the source prototype weighs as much as
     * an average class of the target).
     */
    static double[] relevance(MethodConfig c, int targetRows, int k, Map<String, Object> d) {
        double[] r = new double[k];
        String given = c.params().get("refine-relevance");
        String from;
        if (given != null) {
            double v = "inf".equals(given) ? Double.POSITIVE_INFINITY : c.param("refine-relevance", 0);
            if (!(v >= 0)) {
                throw new IllegalArgumentException("refine-relevance must be >= 0 or inf, got " + given);
            }
            Arrays.fill(r, v);
            from = "refine-relevance";
        } else if (c.params().containsKey("refine-source-counts")) {
            r = sourceCounts(c, k);
            from = "the source's public per-class counts (refine-source-counts)";
        } else {
            Arrays.fill(r, (double) targetRows / k);
            from = "default: the target's rows per class, n_t / K";
        }
        if (d != null) {
            d.put("relevance_from", from);
        }
        return r;
    }

    /** The source's public per-class counts (refine-source-counts), or null when not declared. */
    static double[] sourceCounts(MethodConfig c, int k) {
        String s = c.params().get("refine-source-counts");
        if (s == null) {
            return null;
        }
        String[] parts = s.split("[,;:]");
        if (parts.length != k) {
            throw new IllegalArgumentException("refine-source-counts needs " + k + " counts (one per class), got " + parts.length);
        }
        double[] n = new double[k];
        for (int i = 0; i < k; i++) {
            try {
                n[i] = Double.parseDouble(parts[i].trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("refine-source-counts: '" + parts[i] + "' is not a number");
            }
            if (!(n[i] > 0) || Double.isInfinite(n[i])) {
                throw new IllegalArgumentException("refine-source-counts must be positive, got " + parts[i]);
            }
        }
        return n;
    }

    /** The source prior: the public per-class counts' shares, else uniform. */
    static double[] sourcePrior(MethodConfig c, int k) {
        double[] n = sourceCounts(c, k);
        if (n == null) {
            return PriorEm.uniform(k);
        }
        double t = Arrays.stream(n).sum();
        return Arrays.stream(n).map(v -> v / t).toArray();
    }

    static double relabelled(int[] a, int[] b) {
        int changed = 0;
        for (int i = 0; i < a.length; i++) {
            changed += a[i] != b[i] ? 1 : 0;
        }
        return a.length == 0 ? 0.0 : Math.round(1e4 * changed / a.length) / 1e4;
    }

    /** Rounded to 4 decimals for the diagnostics; an infinite value as the string "inf" (JSON has no infinity). */
    private static List<Object> rounded(double[] v) {
        return Arrays.stream(v).mapToObj(x -> Double.isInfinite(x) ? (Object) "inf" : (Object) (Math.round(x * 1e4) / 1e4)).toList();
    }
}
