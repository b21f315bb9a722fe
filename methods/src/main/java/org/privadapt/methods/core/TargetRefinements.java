package org.privadapt.methods.core;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.Classifier;
import org.privadapt.models.nn.Network;
import org.privadapt.models.uda.TargetRefinement;

/**
 * {@code --param refine=none|centre|centroids|self-training|im|im-centroids}: the target adapts the model it received on
 * its own unlabelled rows ({@link TargetRefinement}). The source's guarantee is unchanged (post-processing of its
 * release); the target reads its own rows and releases nothing further: the refined model and its predictions stay
 * with the target, so the target's statement is unchanged too (docs/privacy/private-learners.md).
 *
 * <p>{@code centre} re-estimates a linear model's bias from the target's mean ({@link TargetRefinement#centred});
 * {@code centroids}, {@code im} and {@code im-centroids} start with that centring when the model is linear
 * ({@code refine-centre=false} turns it off). Options: {@code refine-iterations} (k-means iterations, self-training
 * rounds or IM iterations; defaults 10, 3, 50).
 */
public final class TargetRefinements {
    private TargetRefinements() {
    }

    public static final Set<String> PARAMETERS = Set.of("refine", "refine-iterations", "refine-centre");

    /** The refinement a configuration asks for ("none" when absent). */
    public static String mode(MethodConfig c) {
        String m = c.params().getOrDefault("refine", "none");
        if (!Set.of("none", "centre", "centroids", "self-training", "im", "im-centroids").contains(m)) {
            throw new IllegalArgumentException("unknown refine '" + m + "' (none, centre, centroids, self-training, im, im-centroids)");
        }
        String centre = c.params().getOrDefault("refine-centre", "true");
        if (!centre.equals("true") && !centre.equals("false")) {
            throw new IllegalArgumentException("refine-centre must be true or false, got '" + centre + "'");
        }
        return m;
    }

    /** The model refined on the target's own rows (the model itself when refine=none). */
    public static Classifier apply(MethodConfig c, Classifier model, FeatureMatrix targetRows) {
        String m = mode(c);
        if (!"none".equals(m) && model instanceof org.privadapt.models.LogisticRegression lr) {
            model = TargetRefinement.asNetwork(lr); // the same linear model, so that centring and IM apply
        }
        boolean centre = "centre".equals(m) || (!"none".equals(m) && !"self-training".equals(m)
                && Boolean.parseBoolean(c.params().getOrDefault("refine-centre", "true")));
        if (centre && model instanceof Network net0 && net0.layers() == 1) {
            model = TargetRefinement.centred(net0, targetRows);
        } else if ("centre".equals(m)) {
            throw new IllegalArgumentException("refine=centre re-estimates a linear model's bias; this model is not linear "
                    + "(use refine=centroids or self-training)");
        }
        switch (m) {
            case "none":
            case "centre":
                return model;
            case "centroids":
                return TargetRefinement.centroids(model, targetRows, c.intParam("refine-iterations", 10));
            case "self-training":
                return TargetRefinement.selfTraining(model, targetRows, c.intParam("refine-iterations", 3), 1e-2);
            default:
                if (!(model instanceof Network net) || net.layers() != 1) {
                    throw new IllegalArgumentException("refine=" + m + " refines linear models; this model has hidden layers "
                            + "(use refine=centroids or self-training)");
                }
                Network im = TargetRefinement.informationMaximisation(net, targetRows, c.intParam("refine-iterations", 50), 1e-3, 3.0);
                // SHOT's order: information maximisation, then centroid pseudo-labels from the IM model's predictions
                return "im".equals(m) ? im : TargetRefinement.centroids(im.predict(targetRows), im.classNames(), targetRows, 10);
        }
    }

    /**
     * Refinement from the predictions of a model that is not a single network on the target's rows (PRIMA's and
     * PRISA's per-subspace models): centroids and self-training start from the predicted classes; IM needs a
     * linear model and is refused. Returns the refined model, or null for refine=none.
     */
    public static Classifier applyToPredictions(MethodConfig c, int[] predicted, java.util.List<String> classes,
                                                FeatureMatrix targetRows) {
        String m = mode(c);
        switch (m) {
            case "none":
                return null;
            case "centre":
                throw new IllegalArgumentException("refine=centre re-estimates a linear model's bias; this method's model is not "
                        + "one linear map of the target's rows (use refine=centroids or self-training)");
            case "centroids":
                return TargetRefinement.centroids(predicted, classes, targetRows, c.intParam("refine-iterations", 10));
            case "self-training":
                return TargetRefinement.selfTraining(predicted, classes, targetRows, c.intParam("refine-iterations", 3), 1e-2);
            default:
                throw new IllegalArgumentException("refine=im refines a linear model on the target's rows; this method's model is "
                        + "not one (use refine=centroids or self-training)");
        }
    }

    /** The diagnostic entries describing the refinement (empty for none). */
    public static Map<String, Object> describe(MethodConfig c) {
        Map<String, Object> d = new LinkedHashMap<>();
        String m = mode(c);
        if (!"none".equals(m)) {
            boolean centred = "centre".equals(m) || (!"self-training".equals(m)
                    && Boolean.parseBoolean(c.params().getOrDefault("refine-centre", "true")));
            d.put("refine", m + (centred && !"centre".equals(m) ? " after target-mean centring (linear models)" : "")
                    + " on the target's own rows (nothing released)");
        }
        return d;
    }
}
