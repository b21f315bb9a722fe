package org.privadapt.methods.bassily;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.artifacts.Artifact;
import org.privadapt.methods.artifacts.ArtifactException;
import org.privadapt.privacy.PrivacySession;

/**
 * dp-target-only's released predictor as an artifact (kind {@code model}, method {@code dp-target-only}, party
 * {@code target}): the averaged iterate w of {@link NoisyGradientDescent} (the DP output), its public settings (the
 * ball's radius Lambda, the row bound r, T) and the privacy statement of the session that charged it. The guarantee
 * (docs/privacy/bassily.md, "dp-target-only"): replace one target record, n public; rows clipped to norm r and targets
 * to [-1, 1], so each step's gradient sum has sensitivity 2G, G = 2 r (Lambda r + 1); Gaussian noise of standard
 * deviation nu 2G per step, the T steps composed exactly into one Gaussian of multiplier nu / sqrt(T), nu calibrated by
 * the analytic Gaussian mechanism for (epsilon, delta). {@link #predict} is the in-process predictor, {@code x w} on the
 * rows as given (clipping bounds the training's sensitivity only), with no intercept or scaling of its own: a constant
 * feature, or rows and targets scaled publicly, are the caller's. Written by the Spark ML stage
 * ({@code org.privadapt.sparkml.DpTargetOnlyRegressor}); the CLI's {@code run} reports the MSE and writes no model.
 * Nothing in it but w and public settings: predicting is post-processing and charges nothing.
 */
public record DpTargetOnlyModel(String runId, double[] w, double radius, double rowBound, long iterations, ObjectNode privacy,
                                String created) {
    public static final String METHOD = "dp-target-only";

    /**
     * The model of a charged descent: {@code result} as {@link NoisyGradientDescent#fitSquaredLoss} (or the spark
     * module's) returned it, the settings it ran with, the privacy statement of {@code target} (the session it charged).
     */
    public static DpTargetOnlyModel of(NoisyGradientDescent.Result result, double radius, double rowBound, long iterations,
                                       PrivacySession target, String runId) {
        ObjectNode p = org.privadapt.methods.prima.Prima.statement(target, "target", target.target().delta());
        p.put("guarantee", "(epsilon, delta)-DP for the target's rows under replace-one (n public): T full-batch Gaussian "
                + "steps on the gradient sum (sensitivity 2G, G = 2 r (Lambda r + 1)), composed exactly into one Gaussian");
        for (Map.Entry<String, Object> e : result.calibration().entrySet()) {
            if (e.getValue() instanceof Long l) {
                p.put(e.getKey(), l);
            } else if (e.getValue() instanceof Number v) {
                p.put(e.getKey(), v.doubleValue());
            }
        }
        return new DpTargetOnlyModel(runId, result.w().clone(), radius, rowBound, iterations, p, java.time.Instant.now().toString());
    }

    public int dimension() {
        return w.length;
    }

    /**
     * {@code x w} for rows x of {@link #dimension()} features (the rows as given, not clipped), as the in-process
     * method predicts.
     */
    public double[] predict(DenseMatrix x) {
        if (x.cols() != w.length) {
            throw new IllegalArgumentException("model expects " + w.length + " features, got " + x.cols());
        }
        return SupervisedSupport.predict(x, w);
    }

    public Artifact toArtifact() {
        Artifact a = Artifact.create("model", METHOD, "target", runId, created);
        a.privacy().setAll(privacy);
        ObjectNode p = a.payload();
        p.put("dimension", w.length);
        ObjectNode s = p.putObject("settings");
        s.put("radius", radius);
        s.put("row_bound", rowBound);
        s.put("iterations", iterations);
        s.put("target_clip", 1.0);
        Artifact.putDoubles(p, "w", w);
        return a;
    }

    /**
     * @throws ArtifactException if the artifact is not a valid dp-target-only model
     */
    public static DpTargetOnlyModel fromArtifact(Artifact a, String where) throws ArtifactException {
        if (!"target".equals(a.party()) || !METHOD.equals(a.method())) {
            throw new ArtifactException(where + ": a model of method '" + a.method() + "' from party '" + a.party()
                    + "', expected the target's " + METHOD + " model");
        }
        JsonNode p = a.payload();
        int d = Artifact.integer(p, "dimension", where);
        if (d < 1) {
            throw new ArtifactException(where + ": invalid dimension " + d);
        }
        JsonNode s = p.path("settings");
        double radius = Artifact.number(s, "radius", where);
        double rowBound = Artifact.number(s, "row_bound", where);
        JsonNode t = s.get("iterations");
        if (t == null || !t.isIntegralNumber() || t.asLong() < 1 || !(radius > 0) || !(rowBound > 0)) {
            throw new ArtifactException(where + ": invalid settings " + s);
        }
        double[] w = Artifact.getDoubles(p, "w", d, where);
        return new DpTargetOnlyModel(a.runId(), w, radius, rowBound, t.asLong(), a.privacy().deepCopy(), a.created());
    }
}
