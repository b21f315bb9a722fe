package org.privadapt.methods.core;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.privadapt.data.Dataset;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.dp.ClassStatistics;
import org.privadapt.models.dp.ObjectivePerturbation;
import org.privadapt.models.dp.OutputPerturbation;
import org.privadapt.models.dp.SessionRandomness;
import org.privadapt.models.nn.Network;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.events.ApproximateDpEvent;
import org.privadapt.privacy.events.DpEvent;
import org.privadapt.privacy.mechanisms.ObjectivePerturbationCalibration;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * The final learner of a private method, chosen by {@code --param learner=NAME} (docs/privacy/private-learners.md):
 * <ul>
 *   <li>{@code dp-sgd}: DP-SGD as {@link PrivateTraining} plans it (Poisson sampling; n public);</li>
 *   <li>{@code dp-gd}: full-batch DP gradient descent, the same trainer at sampling rate 1 for {@code epochs} steps
 *       (default 100; n public: the noisy sum is divided by n);</li>
 *   <li>{@code ncm}: one Gaussian release of the per-class sums of unit-normalised rows (sensitivity 1, or 2 under
 *       replace-one), nearest class mean by direction;</li>
 *   <li>{@code lda}: per-class sums and counts and one shared second moment of rows clipped to R, linear discriminant
 *       analysis with shrinkage;</li>
 *   <li>{@code adassp}: one release of ridge regression's sufficient statistics on one-hot labels (second and cross
 *       moments of rows projected by a public random projection, clipped to R and augmented with 1) and of the
 *       moment's smallest eigenvalue, from which the ridge is set (AdaSSP, Wang 2018; {@link AdaSspReleases});</li>
 *   <li>{@code output-perturbation}: L2-regularised multinomial logistic regression solved to a checked gradient
 *       tolerance, Gaussian noise on its parameters;</li>
 *   <li>{@code objective-perturbation}: the same model with Gaussian noise in the objective's linear term
 *       ({@link ObjectivePerturbation}); its release is an (epsilon, delta) guarantee ({@link ApproximateDpEvent});</li>
 *   <li>{@code auto} (the default): {@link #choose}, a rule on public quantities only (an unresolved {@code auto}
 *       reaching {@link #plan} is resolved as if n were private).</li>
 * </ul>
 * Every learner but the two gradient methods leaves n out of the release: they need the class set and the feature
 * layout public, not n ({@link #requireDisclosures}). Each produces a {@link Network} (a linear one, except DP-SGD with
 * hidden layers), so every artifact that carries a DP-SGD model carries these too.
 *
 * <p>This class chooses the learner, plans it and trains it. Package-private neighbours hold the rest: the settings'
 * defaults and checks ({@link LearnerSettings}), the noise calibration of the non-gradient learners
 * ({@link LearnerCalibration}) and the ncm and lda releases ({@link StatisticsReleases}).
 */
public final class PrivateLearners {
    private PrivateLearners() {
    }

    /** The {@code --param} names this facade reads (beside {@link MethodParameters#DP_SGD}). */
    public static final Set<String> PARAMETERS = Set.of("learner", "learner-row-bound", "learner-lambda", "lda-shrinkage", "lda-count-share",
            "lda-moment-share", "adassp-sums-share", "adassp-eigen-share", "adassp-dim", "adassp-seed", "adassp-rows",
            "adassp-lambda-scale", "adassp-model");

    /** Every parameter a method with a private final learner reads. */
    public static final Set<String> ALL = MethodParameters.union(MethodParameters.DP_SGD, PARAMETERS);

    /** The learners. */
    public enum Kind {
        DP_SGD("dp-sgd"), DP_GD("dp-gd"), NCM("ncm"), LDA("lda"), OUTPUT_PERTURBATION("output-perturbation"),
        OBJECTIVE_PERTURBATION("objective-perturbation"), ADASSP("adassp");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }

        /** Whether the learner's release reveals n (sampling rate, normaliser) so that n must be public. */
        public boolean revealsSize() {
            return this == DP_SGD || this == DP_GD;
        }

        /** Whether one-vs-rest training (PRIMA's option) applies: only to the gradient learners. */
        public boolean gradientBased() {
            return this == DP_SGD || this == DP_GD;
        }

        public static Kind parse(String s) {
            for (Kind k : values()) {
                if (k.label.equals(s)) {
                    return k;
                }
            }
            throw new IllegalArgumentException("select".equals(s)
                    ? "learner=select (private selection) is offered by dp-source-only and source train only"
                    : "unknown learner '" + s + "' (auto, select, dp-sgd, dp-gd, ncm, lda, output-perturbation, objective-perturbation, adassp)");
        }
    }

    /**
     * The default rule, on public quantities only: epsilon, and whether n is public (declared, or by the replace-one
     * relation). The class-statistics learner (ncm) up to epsilon 4, and whenever n is not public (it neither needs nor
     * reveals n); DP-SGD above epsilon 4 when n is public. d and K are accepted for rules to come and not used: across
     * the suites measured the winner did not turn on them. Evidence: docs/results/private-learners.md (at epsilon 0.5
     * and 2 ncm is ahead of or level with DP-SGD on every suite; at 8 DP-SGD is ahead on the deep-feature suites, whose
     * small sources NCM's bias then limits).
     */
    public static Kind choose(int d, int k, double epsilon, boolean sizePublic) {
        return sizePublic && epsilon > AUTO_DP_SGD_ABOVE_EPSILON ? Kind.DP_SGD : Kind.NCM;
    }

    /** The epsilon above which the rule prefers DP-SGD (when n is public). */
    public static final double AUTO_DP_SGD_ABOVE_EPSILON = 4.0;

    /**
     * Whether the configuration asks for private selection ({@link PrivateSelection}): {@code learner=select}. It is
     * not what {@code auto} does: measured at epsilon 2 with the declared candidates (ncm, dp-sgd), selection cost more
     * accuracy than it bought on every suite (its noise is about 1.35 times a single learner's and it trains on 80 %
     * of the rows; docs/results/selection.md), so {@code auto} stays the rule {@link #choose}. n need not be public
     * unless a candidate reveals it.
     */
    public static boolean selects(MethodConfig c) {
        return "select".equals(c.params().getOrDefault("learner", "auto"));
    }

    /** The rule when n is not public: never a learner that reveals n. */
    public static Kind choose(int d, int k, double epsilon) {
        return choose(d, k, epsilon, false);
    }

    /**
     * The learner a configuration asks for: {@code learner}, default {@code auto}, resolved by {@link #choose}, except
     * that {@code auto} with the network classifier ({@code --classifier dnn}) is DP-SGD.
     */
    public static Kind kind(MethodConfig c, int d, int k, double epsilon, boolean sizePublic) {
        String s = c.params().getOrDefault("learner", "auto");
        if ("auto".equals(s) && "dnn".equals(c.classifier())) {
            return Kind.DP_SGD; // a network was asked for (--classifier dnn): DP-SGD is the learner that trains one
        }
        return "auto".equals(s) ? choose(d, k, epsilon, sizePublic) : Kind.parse(s);
    }

    /** As {@link #kind(MethodConfig, int, int, double, boolean)} with n not public. */
    public static Kind kind(MethodConfig c, int d, int k, double epsilon) {
        return kind(c, d, k, epsilon, false);
    }

    /** Why the configuration's learner is the one it is (for the report: what was chosen, among what, on what evidence). */
    public static String choiceReason(MethodConfig c, Kind kind, double epsilon, boolean sizePublic) {
        String s = c.params().getOrDefault("learner", "auto");
        if (!"auto".equals(s)) {
            return "given (learner=" + s + ")";
        }
        if ("dnn".equals(c.classifier())) {
            return "auto with --classifier dnn: DP-SGD trains the network";
        }
        return "auto: the rule on public quantities (ncm up to epsilon " + AUTO_DP_SGD_ABOVE_EPSILON
                + " and whenever n is private, dp-sgd above it when n is public; here epsilon " + epsilon + ", n "
                + (sizePublic ? "public" : "private") + "); no data read, no cost; learner=select chooses on the data, "
                + "paid from the budget (docs/privacy/selection.md)";
    }

    /** The configuration with {@code learner} set to the resolved kind (so that the plan does not resolve it again). */
    public static MethodConfig resolved(MethodConfig c, Kind kind) {
        return c.withParam("learner", kind.label());
    }

    /** Whether n is public for a party's dataset: declared, or the relation is replace-one. */
    public static boolean sizePublic(Dataset d, PrivacySession session) {
        return d.publicFacts().sizePublic() || session.relation() == NeighbouringRelation.REPLACE_ONE;
    }

    /** The facts the learner's release carries without noise, checked before anything is charged. */
    public static void requireDisclosures(Kind kind, Dataset d, PrivacySession session, String what) {
        if (kind.revealsSize()) {
            Disclosures.requireForDpSgdModel(d, session, what);
        } else {
            Disclosures.require(d, session, what, Disclosures.Fact.CLASSES, Disclosures.Fact.SCHEMA);
        }
    }

    /**
     * A planned learner: its kind, its DP event (the runs' part only, without the prior), the Gaussian multiplier
     * (for the non-gradient learners) or the DP-SGD plan, and its public settings.
     */
    public record Plan(Kind kind, DpEvent event, double noiseMultiplier, PrivateTraining.Plan gradient, MethodConfig config,
                       NeighbouringRelation relation, int runs, ObjectivePerturbationCalibration.Calibrated objective) {
        public Map<String, Object> describe() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("learner", kind.label());
            if (gradient != null) {
                m.putAll(gradient.describe());
                return m;
            }
            if (objective != null) {
                ObjectivePerturbationCalibration.Parameters op = objective.parameters();
                ObjectivePerturbationCalibration.Guarantee g = objective.guarantee();
                m.put("row_bound", op.rowBound());
                m.put("lambda", op.lambda());
                m.put("objective_noise_std", op.noiseStd());
                m.put("gradient_tolerance", op.gradientTolerance());
                m.put("output_noise_std", op.outputStd());
                m.put("epsilon_per_model", g.epsilon());
                m.put("delta_per_model", g.delta());
                if (runs > 1) {
                    m.put("models", runs);
                }
                return m;
            }
            m.put("noise_multiplier", noiseMultiplier);
            switch (kind) {
                case NCM -> m.put("rows", "unit L2 norm");
                case LDA -> {
                    m.put("row_bound", config.param("learner-row-bound", Double.NaN));
                    m.put("shrinkage", config.param("lda-shrinkage", 0.5));
                }
                case OUTPUT_PERTURBATION -> {
                    m.put("row_bound", config.param("learner-row-bound", Double.NaN));
                    m.put("lambda", config.param("learner-lambda", Double.NaN));
                }
                case ADASSP -> m.putAll(AdaSspReleases.describe(this));
                default -> {
                }
            }
            if (runs > 1) {
                m.put("models", runs);
            }
            return m;
        }
    }

    /**
     * Plans {@code runs} fits of the learner on the same records, after a {@code prior} release of the same party (or
     * null): the noise is the smallest for which the whole composition stays within (epsilon, delta).
     *
     * @param n the number of records (used only by the gradient learners, which require it public)
     * @param d the feature dimension the learner sees (public)
     */
    public static Plan plan(MethodConfig c, int n, int d, int k, double epsilon, double delta, NeighbouringRelation relation,
                            DpEvent prior, int runs) {
        Kind kind = kind(c, d, k, epsilon);
        MethodConfig cfg = LearnerSettings.withDefaults(c, kind, n, d);
        LearnerSettings.checkSettings(kind, cfg); // refused before anything is charged
        if (kind.gradientBased()) {
            PrivateTraining.Plan p = PrivateTraining.plan(cfg, n, epsilon, delta, relation, prior, runs);
            return new Plan(kind, p.event(), p.config().noiseMultiplier(), p, cfg, relation, runs, null);
        }
        if (runs < 1) {
            throw new IllegalArgumentException("runs must be >= 1, got " + runs);
        }
        if (kind == Kind.OBJECTIVE_PERTURBATION) {
            return LearnerCalibration.planObjective(cfg, d, k, epsilon, delta, relation, prior, runs);
        }
        return LearnerCalibration.planGaussian(kind, cfg, epsilon, delta, relation, prior, runs);
    }

    /**
     * The solver's gradient tolerance for objective perturbation as a fraction of the norm of its noise term
     * ({@code sigma sqrt((d + 1) K)}); the slack it leaves costs 2 % of epsilon (docs/privacy/private-learners.md).
     */
    public static final double OBJECTIVE_RELATIVE_TOLERANCE = 1e-7;

    /** The configuration with the learner's defaults filled in ({@link LearnerSettings#withDefaults}). */
    static MethodConfig withDefaults(MethodConfig c, Kind kind, int n, int d) {
        return LearnerSettings.withDefaults(c, kind, n, d);
    }

    /** Output perturbation's default lambda ({@link LearnerSettings#defaultLambda}). */
    static double defaultLambda(double rowBound) {
        return LearnerSettings.defaultLambda(rowBound);
    }

    /**
     * The ncm learner's DP release: the per-class sums of the unit-normalised rows with Gaussian noise of std
     * {@code noiseMultiplier} times the relation's sensitivity (the counts and moments are withheld). The model is its
     * post-processing; the empirical audit (ReleaseAudit) attacks this release itself. It is {@link #ncmNoise} applied
     * to {@link #ncmExact}: an engine that sums the rows elsewhere (the spark module) calls the two steps itself.
     */
    public static ClassStatistics ncmRelease(Plan p, FeatureMatrix x, int[] y, int k, org.privadapt.models.dp.NoiseAndSampling rnd) {
        return StatisticsReleases.ncmRelease(p, x, y, k, rnd);
    }

    /**
     * The ncm release's exact statistic, no noise: the per-class sums (and counts) of the rows normalised by
     * {@link ClassStatistics#normaliseRows} (row by row: {@link ClassStatistics#normaliseRow}).
     */
    public static ClassStatistics ncmExact(FeatureMatrix x, int[] y, int k) {
        return StatisticsReleases.ncmExact(x, y, k);
    }

    /** The ncm release's noise step on its exact statistic ({@link #ncmExact}, or the same sums computed elsewhere). */
    public static ClassStatistics ncmNoise(Plan p, ClassStatistics exact, org.privadapt.models.dp.NoiseAndSampling rnd) {
        return StatisticsReleases.ncmNoise(p, exact, rnd);
    }

    /**
     * The lda learner's DP release: per-class counts and sums and the shared second moment of rows clipped to R, each
     * block with Gaussian noise of multiplier {@code s / sqrt(share)} times its sensitivity (the blocks compose into one
     * Gaussian of multiplier s). The model is its post-processing; the empirical audit attacks this release. It is
     * {@link #ldaNoise} applied to {@link #ldaExact}.
     */
    public static ClassStatistics ldaRelease(Plan p, FeatureMatrix x, int[] y, int k, org.privadapt.models.dp.NoiseAndSampling rnd) {
        return StatisticsReleases.ldaRelease(p, x, y, k, rnd);
    }

    /** The row bound R the lda release clips rows to (public, from the plan's settings). */
    public static double ldaRowBound(Plan p) {
        return StatisticsReleases.ldaRowBound(p);
    }

    /**
     * The lda release's exact statistic, no noise: counts, sums and the shared second moment of the rows clipped to
     * {@link #ldaRowBound} by {@link ClassStatistics#clipRows} (row by row: {@link ClassStatistics#clipRow}).
     */
    public static ClassStatistics ldaExact(Plan p, FeatureMatrix x, int[] y, int k) {
        return StatisticsReleases.ldaExact(p, x, y, k);
    }

    /** The lda release's noise step on its exact statistic ({@link #ldaExact}, or the same statistic computed elsewhere). */
    public static ClassStatistics ldaNoise(Plan p, ClassStatistics exact, org.privadapt.models.dp.NoiseAndSampling rnd) {
        return StatisticsReleases.ldaNoise(p, exact, rnd);
    }

    /**
     * The adassp learner's DP release: the second moment and the cross moment with the one-hot labels of the rows
     * projected to p = min(d, {@code adassp-dim}) dimensions by a public seeded projection, bounded by R and augmented
     * with 1, and the moment's smallest eigenvalue, three Gaussian blocks composing into one of multiplier s. The
     * model ({@link #adasspModel}) is its post-processing; the empirical audit attacks this release.
     */
    public static org.privadapt.models.dp.AdaSsp adasspRelease(Plan p, FeatureMatrix x, int[] y, int k,
                                                                org.privadapt.models.dp.NoiseAndSampling rnd) {
        return AdaSspReleases.release(p, x, y, k, rnd);
    }

    /** The adassp release's exact statistics, no noise (the rows as {@link #adasspRelease} bounds them). */
    public static org.privadapt.models.dp.AdaSsp adasspExact(Plan p, FeatureMatrix x, int[] y, int k) {
        return AdaSspReleases.exact(p, x, y, k);
    }

    /** The adassp release's noise step on its exact statistics. */
    public static org.privadapt.models.dp.AdaSsp adasspNoise(Plan p, org.privadapt.models.dp.AdaSsp exact,
                                                              org.privadapt.models.dp.NoiseAndSampling rnd) {
        return AdaSspReleases.noise(p, exact, rnd);
    }

    /** The ridge an adassp release sets from its noisy eigenvalue and public settings (post-processing). */
    public static double adasspLambda(Plan p, org.privadapt.models.dp.AdaSsp noisy) {
        return AdaSspReleases.lambda(p, noisy);
    }

    /** The row bound R the adassp release bounds its projected rows by (public, from the plan's settings). */
    public static double adasspRowBound(Plan p) {
        return AdaSspReleases.rowBound(p);
    }

    /**
     * The adassp release's row map for input dimension d (the public projection, then the bound R): what an engine applies
     * to each row before summing the statistics {@link org.privadapt.models.dp.AdaSsp#ofSums} takes.
     */
    public static AdaSspRowMap adasspRowMap(Plan p, int d) {
        return AdaSspReleases.rowMap(p, d);
    }

    /** The adassp model of a release for input dimension d: the ridge solution mapped back through the projection. */
    public static Network adasspModel(Plan p, org.privadapt.models.dp.AdaSsp noisy, int d, List<String> classes) {
        return AdaSspReleases.model(p, noisy, d, classes);
    }

    /** Fits the planned learner (its event must already be charged); noise from {@code noise}. */
    public static Network train(Plan p, FeatureMatrix x, int[] y, List<String> classes, NoiseSource noise) {
        SessionRandomness rnd = new SessionRandomness(noise);
        MethodConfig c = p.config();
        switch (p.kind()) {
            case DP_SGD, DP_GD -> {
                return PrivateTraining.train(p.gradient(), x, y, classes, noise);
            }
            case NCM -> {
                return ncmRelease(p, x, y, classes.size(), rnd).nearestClassMean(classes);
            }
            case LDA -> {
                return ldaRelease(p, x, y, classes.size(), rnd).lda(classes, c.param("lda-shrinkage", 0.5), 1.0);
            }
            case ADASSP -> {
                return adasspModel(p, adasspRelease(p, x, y, classes.size(), rnd), x.cols(), classes);
            }
            case OBJECTIVE_PERTURBATION -> {
                return ObjectivePerturbation.fit(x, y, classes, p.objective().parameters(), rnd);
            }
            case OUTPUT_PERTURBATION -> {
                double r = c.param("learner-row-bound", 1.0);
                // the solver's slack 2g / Lambda adds 0.02 % to the sensitivity L / Lambda
                OutputPerturbation.Config oc = new OutputPerturbation.Config(c.param("learner-lambda", Double.NaN), r,
                        1e-4 * Math.sqrt(2 * (r * r + 1)), 2000);
                return OutputPerturbation.fit(x, y, classes, oc, p.noiseMultiplier(), p.relation(), rnd);
            }
            default -> throw new IllegalStateException(p.kind().toString());
        }
    }
}
