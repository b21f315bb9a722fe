package org.privadapt.methods.core;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.dp.AdaSsp;
import org.privadapt.models.dp.NoiseAndSampling;
import org.privadapt.models.dp.RandomProjection;
import org.privadapt.models.nn.Network;

/**
 * The {@code adassp} learner's release and model (docs/privacy/private-learners.md, "AdaSSP"): the rows projected by
 * a public random projection to p = min(d, {@code adassp-dim}) dimensions, bounded by R, augmented with 1; the
 * second moment, the cross moment with the one-hot labels and the moment's smallest eigenvalue released with one
 * composed Gaussian (shares {@code adassp-sums-share} for the cross moment, {@code adassp-eigen-share} for the
 * eigenvalue, the rest for the moment); the ridge chosen from the released eigenvalue ({@link AdaSsp#ridgeLambda}).
 * The public entry points are {@link PrivateLearners}' ({@code adasspRelease}, {@code adasspModel}).
 */
final class AdaSspReleases {
    private AdaSspReleases() {
    }

    static final double DEFAULT_SUMS_SHARE = 0.95;
    static final double DEFAULT_EIGEN_SHARE = 0.01;
    static final int DEFAULT_DIM = 1024;
    static final long DEFAULT_SEED = 44L;
    static final String DEFAULT_MODEL = "cosine";
    static final String DEFAULT_ROWS = "clip";
    static final double DEFAULT_LAMBDA_SCALE = 3.0;

    /** The configuration with every adassp setting it does not give set to its default (public constants). */
    static MethodConfig withDefaults(MethodConfig c) {
        MethodConfig out = c;
        String[][] defaults = {{"adassp-sums-share", Double.toString(DEFAULT_SUMS_SHARE)},
            {"adassp-eigen-share", Double.toString(DEFAULT_EIGEN_SHARE)}, {"adassp-dim", Integer.toString(DEFAULT_DIM)},
            {"adassp-seed", Long.toString(DEFAULT_SEED)}, {"adassp-rows", DEFAULT_ROWS}, {"adassp-model", DEFAULT_MODEL},
            {"adassp-lambda-scale", Double.toString(DEFAULT_LAMBDA_SCALE)}};
        for (String[] kv : defaults) {
            if (!c.params().containsKey(kv[0])) {
                out = out.withParam(kv[0], kv[1]);
            }
        }
        return out;
    }

    /** The plan's shares of the precision (moment, cross, eigen), checked. */
    static double[] shares(MethodConfig c) {
        double sums = c.param("adassp-sums-share", DEFAULT_SUMS_SHARE);
        double eigen = c.param("adassp-eigen-share", DEFAULT_EIGEN_SHARE);
        double moment = 1 - sums - eigen;
        if (!(sums > 0 && eigen > 0 && moment > 0)) {
            throw new IllegalArgumentException("adassp: adassp-sums-share and adassp-eigen-share must be > 0 with a sum below 1, got "
                    + sums + " and " + eigen);
        }
        return new double[] {moment, sums, eigen};
    }

    /** The public projection for input dimension d ({@code adassp-dim}, {@code adassp-seed}). */
    static RandomProjection projection(MethodConfig c, int d) {
        int p = (int) c.param("adassp-dim", DEFAULT_DIM);
        if (p < 1) {
            throw new IllegalArgumentException("adassp-dim must be >= 1, got " + p);
        }
        return new RandomProjection(seed(c), d, p);
    }

    /** {@code adassp-seed}, an integer (parsed exactly, not through a double). */
    static long seed(MethodConfig c) {
        String s = c.params().getOrDefault("adassp-seed", Long.toString(DEFAULT_SEED));
        try {
            return Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("adassp-seed must be an integer, got " + s);
        }
    }

    static boolean clip(MethodConfig c) {
        String rows = c.params().getOrDefault("adassp-rows", DEFAULT_ROWS);
        if (!"clip".equals(rows) && !"normalise".equals(rows)) {
            throw new IllegalArgumentException("adassp-rows must be clip or normalise, got " + rows);
        }
        return "clip".equals(rows);
    }

    /** {@code adassp-model}: {@code ridge} (AdaSSP's solution) or {@code cosine} (its class weights normalised, no bias). */
    static boolean cosine(MethodConfig c) {
        String m = c.params().getOrDefault("adassp-model", DEFAULT_MODEL);
        if (!"ridge".equals(m) && !"cosine".equals(m)) {
            throw new IllegalArgumentException("adassp-model must be ridge or cosine, got " + m);
        }
        return "cosine".equals(m);
    }

    static double lambdaScale(MethodConfig c) {
        double s = c.param("adassp-lambda-scale", DEFAULT_LAMBDA_SCALE);
        if (!(s >= 0) || Double.isInfinite(s)) {
            throw new IllegalArgumentException("adassp-lambda-scale must be finite and >= 0, got " + s);
        }
        return s;
    }

    /** Every adassp setting, checked before anything is charged. */
    static void check(MethodConfig c) {
        shares(c);
        projection(c, 1);
        clip(c);
        cosine(c);
        lambdaScale(c);
    }

    static double rowBound(PrivateLearners.Plan p) {
        requireAdaSsp(p);
        return p.config().param("learner-row-bound", 1.0);
    }

    /** The bounded, projected rows the release reads (row-local: the projection is public, the bound per row). */
    static FeatureMatrix rows(PrivateLearners.Plan p, FeatureMatrix x) {
        return rowMap(p, x.cols()).apply(x);
    }

    /** The release's row map for input dimension d, from the plan's public settings. */
    static AdaSspRowMap rowMap(PrivateLearners.Plan p, int d) {
        MethodConfig c = p.config();
        return new AdaSspRowMap(seed(c), d, projection(c, d).outputDim(), rowBound(p), clip(c));
    }

    /** The exact statistics, no noise. */
    static AdaSsp exact(PrivateLearners.Plan p, FeatureMatrix x, int[] y, int k) {
        return AdaSsp.exact(rows(p, x), y, k);
    }

    /** The per-block multipliers (moment, cross, eigen): {@code s / sqrt(share)}. */
    static double[] multipliers(PrivateLearners.Plan p) {
        double[] sh = shares(p.config());
        double s = p.noiseMultiplier();
        return new double[] {s / Math.sqrt(sh[0]), s / Math.sqrt(sh[1]), s / Math.sqrt(sh[2])};
    }

    /** The noise step on the exact statistics. */
    static AdaSsp noise(PrivateLearners.Plan p, AdaSsp exact, NoiseAndSampling rnd) {
        double[] m = multipliers(p);
        return exact.withNoise(m[0], m[1], m[2], AdaSsp.sensitivities(p.relation(), rowBound(p)), rnd);
    }

    /** The DP release. */
    static AdaSsp release(PrivateLearners.Plan p, FeatureMatrix x, int[] y, int k, NoiseAndSampling rnd) {
        requireAdaSsp(p);
        check(p.config()); // the settings are checked before any row is read
        return noise(p, exact(p, x, y, k), rnd);
    }

    /** The ridge of a release (post-processing): from its noisy eigenvalue and the plan's public noise scales. */
    static double lambda(PrivateLearners.Plan p, AdaSsp noisy) {
        double[] m = multipliers(p);
        AdaSsp.Sensitivities sens = AdaSsp.sensitivities(p.relation(), rowBound(p));
        return AdaSsp.ridgeLambda(noisy.eigen(), m[0] * sens.moment(), m[2] * sens.eigen(), noisy.dimension(), lambdaScale(p.config()));
    }

    /** The model of a release: {@code (A~ + lambda I)^-1 B~} mapped back through the projection, a linear network. */
    static Network model(PrivateLearners.Plan p, AdaSsp noisy, int d, List<String> classes) {
        double lambda = lambda(p, noisy);
        double sigmaMoment = multipliers(p)[0] * AdaSsp.sensitivities(p.relation(), rowBound(p)).moment();
        DenseMatrix theta = noisy.ridge(lambda, Math.max(sigmaMoment, 1e-12));
        return AdaSsp.network(theta, projection(p.config(), d), classes, cosine(p.config()));
    }

    /** The plan's public settings for its description. */
    static Map<String, Object> describe(PrivateLearners.Plan p) {
        MethodConfig c = p.config();
        Map<String, Object> m = new LinkedHashMap<>();
        double[] sh = shares(c);
        m.put("row_bound", c.param("learner-row-bound", Double.NaN));
        m.put("rows", (clip(c) ? "clipped to" : "scaled to") + " the row bound after the projection, augmented with 1");
        m.put("projection_dim_max", (int) c.param("adassp-dim", DEFAULT_DIM));
        m.put("projection", "public Gaussian N(0, 1/p), seed " + seed(c)
                + ", identity when d <= adassp-dim");
        m.put("sums_share", sh[1]);
        m.put("moment_share", Math.round(sh[0] * 1e12) / 1e12); // 1 - sums - eigen, without its rounding residue
        m.put("eigen_share", sh[2]);
        m.put("lambda_scale", lambdaScale(c));
        m.put("model", cosine(c) ? "cosine (class weights normalised, no bias)" : "ridge");
        return m;
    }

    private static void requireAdaSsp(PrivateLearners.Plan p) {
        if (p.kind() != PrivateLearners.Kind.ADASSP) {
            throw new IllegalArgumentException("not an adassp plan: " + p.kind().label());
        }
    }
}
