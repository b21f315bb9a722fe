package org.privadapt.methods.gmmuda;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.Labels;
import org.privadapt.data.MultiLabels;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.dp.SessionRandomness;
import org.privadapt.models.dp.StackDpSgdTrainer;
import org.privadapt.models.dp.Targets;
import org.privadapt.models.mixture.DpGaussianMixtureEm;
import org.privadapt.models.mixture.GaussianMixture;
import org.privadapt.models.mixture.GaussianMixtureEm;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.graph.EncoderClassifier;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.accounting.NoiseCalibration;
import org.privadapt.privacy.accounting.RdpAccountant;
import org.privadapt.privacy.events.ComposedEvent;
import org.privadapt.privacy.events.DpEvent;
import org.privadapt.privacy.ledger.BudgetLedger;

/**
 * What paper 004's source sends the target: the encoder E_s, the classifier C_s and a Gaussian mixture of E_s's
 * features of the source rows (null when the setting needs none), with the plan's public parameters and, for the
 * private release, its DP event.
 *
 * <p>The private release is one plan charged atomically before any noise: DP-SGD on the encoder + classifier jointly
 * (Poisson sampling at q = B / n, joint clipping C, one Gaussian per logical batch), then DP-EM on the DP encoder's
 * features of the same rows clipped to R (docs/privacy/dp-em.md). Both read the same records, so they compose
 * sequentially: the DP-EM's multiplier is calibrated to {@code em-share * epsilon} alone, and DP-SGD's is the smallest
 * that keeps the composition (RDP accountant) within the run's (epsilon, delta).
 */
public record SourceRelease(EncoderClassifier model, GaussianMixture mixture, DpEvent event, Map<String, Object> parameters) {

    public SourceRelease {
        parameters = Map.copyOf(parameters);
    }

    public Map<String, Object> describe() {
        return parameters;
    }

    /**
     * The network before training: seeded initialisation only (no data), {@code inputs} features (public: the layout)
     * and {@code outputs} logits (the public classes or labels).
     */
    public static EncoderClassifier init(int inputs, int outputs, GmmUdaConfig c) {
        return EncoderClassifier.create(inputs, c.hidden(), c.activation(), new int[0], Activation.IDENTITY, outputs, c.seed());
    }

    /** The training targets: class codes (softmax cross-entropy) or 0/1 rows (per-label sigmoid cross-entropy). */
    static Targets targets(Labels y) {
        if (y instanceof MultiLabels m) {
            return Targets.multiLabel(zeroOne(m));
        }
        return Targets.classes(((ClassLabels) y).codes());
    }

    static int outputs(Labels y) {
        return y instanceof MultiLabels m ? m.numLabels() : ((ClassLabels) y).names().size();
    }

    static double[][] zeroOne(Labels y) {
        int[][] m = ((MultiLabels) y).matrix();
        double[][] out = new double[m.length][];
        for (int i = 0; i < m.length; i++) {
            out[i] = new double[m[i].length];
            for (int j = 0; j < m[i].length; j++) {
                out[i][j] = m[i][j];
            }
        }
        return out;
    }

    private static StackDpSgdTrainer.Config sgd(GmmUdaConfig c, long iterations, double sigma, boolean isPrivate) {
        return new StackDpSgdTrainer.Config(iterations, c.batch(), c.clip(), sigma, 512, c.optimizer(), c.learningRate(isPrivate), "constant", c.weightDecay(),
                c.seed() ^ 0x9E3779B97F4A7C15L);
    }

    /** Non-private source model, and (with {@code mixture}) a mixture fitted by plain EM on its source features. */
    public static SourceRelease trainNonPrivate(FeatureMatrix x, Labels y, GmmUdaConfig c, boolean mixture) {
        long steps = (long) Math.ceil((double) c.epochs() * x.rows() / c.batch());
        StackDpSgdTrainer.Result r = StackDpSgdTrainer.trainNonPrivate(init(x.cols(), outputs(y), c), x, targets(y), sgd(c, steps, 0, false));
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("source_model", "encoder " + java.util.Arrays.toString(c.hidden()) + " " + c.activation().name().toLowerCase()
                + ", linear classifier, non-private, " + steps + " steps");
        GaussianMixture gmm = null;
        if (mixture) {
            DenseMatrix z = r.model().features(x);
            GaussianMixtureEm.Result em = GaussianMixtureEm.fit(z, GaussianMixtureEm.Config.of(c.components(), c.covariance()),
                    new SplittableRandom(c.seed() ^ 0xC0FFEEL));
            gmm = em.model();
            p.put("gmm", "EM (not private), K " + c.components() + ", " + c.covariance().name().toLowerCase() + ", "
                    + em.iterations() + " iterations");
        }
        return new SourceRelease(r.model(), gmm, null, p);
    }

    /**
     * The plan of the private release for n public source rows: its two configurations and their composed event.
     *
     * @param sgd   DP-SGD's settings for the encoder and classifier (its multiplier the smallest that keeps the
     *              composition within the run's target)
     * @param em    DP-EM's settings on the trained encoder's features (multiplier calibrated to em-share of epsilon)
     * @param event the two composed: what {@link #charge} charges
     */
    public record Plan(StackDpSgdTrainer.Config sgd, DpGaussianMixtureEm.Config em, DpEvent event) {
    }

    /** The plan for n public rows under {@code s}'s target and relation (nothing charged, no data read). */
    public static Plan plan(int n, GmmUdaConfig c, PrivacySession s) {
        return plan(n, c, s, true);
    }

    /**
     * The plan with the mixture, or ({@code mixture} false: {@code dp-source-only}'s paper-004 model) DP-SGD alone,
     * its multiplier the smallest that keeps its own event within the run's (epsilon, delta); {@code em} is then null.
     */
    public static Plan plan(int n, GmmUdaConfig c, PrivacySession s, boolean mixture) {
        if (!mixture) {
            RdpAccountant acc = new RdpAccountant(s.relation(), RdpAccountant.DEFAULT_ORDERS, w -> { });
            long steps = Math.max(1, (long) Math.ceil(c.epochs() / Math.min(1.0, (double) c.batch() / n)));
            StackDpSgdTrainer.Config base = sgd(c, steps, 1.0, true);
            double sigma = NoiseCalibration.smallest(sig -> StackDpSgdTrainer.event(base.withNoiseMultiplier(sig), n), acc,
                    s.target().epsilon(), s.target().delta(), steps + " DP-SGD steps");
            StackDpSgdTrainer.Config sgd = base.withNoiseMultiplier(sigma);
            return new Plan(sgd, null, StackDpSgdTrainer.event(sgd, n));
        }
        double eps = s.target().epsilon();
        double delta = s.target().delta();
        RdpAccountant acc = new RdpAccountant(s.relation(), RdpAccountant.DEFAULT_ORDERS, w -> { });
        double emSigma = DpGaussianMixtureEm.noiseMultiplier(acc, c.emShare() * eps, delta, c.emIterations());
        DpGaussianMixtureEm.Config em = DpGaussianMixtureEm.Config.of(c.components(), c.covariance(), c.featureClip(),
                c.emIterations(), emSigma, c.seed() ^ 0xC0FFEEL);
        DpEvent emEvent = DpGaussianMixtureEm.event(em);
        long steps = Math.max(1, (long) Math.ceil(c.epochs() / Math.min(1.0, (double) c.batch() / n)));
        StackDpSgdTrainer.Config base = sgd(c, steps, 1.0, true);
        double sgdSigma = NoiseCalibration.smallest(sig -> ComposedEvent.of(StackDpSgdTrainer.event(base.withNoiseMultiplier(sig), n),
                emEvent), acc, eps, delta, steps + " DP-SGD steps after DP-EM");
        StackDpSgdTrainer.Config sgd = base.withNoiseMultiplier(sgdSigma);
        return new Plan(sgd, em, ComposedEvent.of(StackDpSgdTrainer.event(sgd, n), emEvent));
    }

    /**
     * Refuses a session whose relation is not add/remove-one (DP-EM's sensitivities are stated for it), before
     * anything is charged.
     */
    public static void requireAddOrRemove(PrivacySession s) {
        if (s.relation() != org.privadapt.privacy.NeighbouringRelation.ADD_OR_REMOVE_ONE) {
            throw new IllegalArgumentException("dp-uda-gmm: DP-EM's sensitivities (1, R, R^2) are stated for add/remove-one "
                    + "neighbours; run under the default relation with the source's n declared public");
        }
    }

    /**
     * The private release's one charge for n public rows: refuses another relation ({@link #requireAddOrRemove}), then
     * charges DP-SGD and DP-EM to {@code s} as one plan (refused whole, nothing drawn, if it does not fit) and returns
     * the plan charged. The caller has checked that n, the label set and the layout are public.
     */
    public static Plan charge(int n, GmmUdaConfig c, PrivacySession s) throws BudgetExceededException, BudgetLedger.LedgerException {
        return charge(n, c, s, true);
    }

    /** As {@link #charge(int, GmmUdaConfig, PrivacySession)}; without the mixture, DP-SGD's one release. */
    public static Plan charge(int n, GmmUdaConfig c, PrivacySession s, boolean mixture)
            throws BudgetExceededException, BudgetLedger.LedgerException {
        requireAddOrRemove(s);
        Plan plan = plan(n, c, s, mixture);
        if (!mixture) {
            s.chargeAll(List.of(new PrivacySession.Release("dp-sgd encoder + classifier",
                    "DP-SGD (Poisson sampling, joint clipping, Gaussian noise)", plan.event(), sgdParameters(plan, n, c))));
            return plan;
        }
        s.chargeAll(List.of(
                new PrivacySession.Release("dp-sgd encoder + classifier", "DP-SGD (Poisson sampling, joint clipping, Gaussian noise)",
                        StackDpSgdTrainer.event(plan.sgd(), n), sgdParameters(plan, n, c)),
                new PrivacySession.Release("dp-em gmm of the DP encoder's features", "Gaussian on per-component (count, sum, "
                        + "second moment), sensitivities (1, R, R^2), T + 1 releases", DpGaussianMixtureEm.event(plan.em()),
                        emParameters(plan, c))));
        return plan;
    }

    private static Map<String, Object> sgdParameters(Plan plan, int n, GmmUdaConfig c) {
        Map<String, Object> sp = new LinkedHashMap<>();
        sp.put("clip", c.clip());
        sp.put("noise_multiplier", plan.sgd().noiseMultiplier());
        sp.put("sample_rate", StackDpSgdTrainer.samplingRate(plan.sgd(), n));
        sp.put("steps", plan.sgd().iterations());
        return sp;
    }

    private static Map<String, Object> emParameters(Plan plan, GmmUdaConfig c) {
        Map<String, Object> ep = new LinkedHashMap<>();
        ep.put("K", c.components());
        ep.put("covariance", c.covariance().name().toLowerCase());
        ep.put("R", c.featureClip());
        ep.put("T", c.emIterations());
        ep.put("sigma", plan.em().noiseMultiplier());
        return ep;
    }

    /**
     * The private release: charges DP-SGD and DP-EM to {@code s} as one plan (refused whole, nothing drawn, if it
     * does not fit: {@link #charge}), then trains and fits with the session's noise: DP-SGD on (x, y)
     * ({@link StackDpSgdTrainer}), DP-EM on the trained encoder's features of the same rows
     * ({@link DpGaussianMixtureEm}), the release assembled by {@link #privateRelease}. The caller has checked that n, the
     * label set and the layout are public ({@code Disclosures.requireForDpSgdModel}).
     */
    public static SourceRelease trainPrivate(FeatureMatrix x, Labels y, GmmUdaConfig c, PrivacySession s)
            throws BudgetExceededException, BudgetLedger.LedgerException {
        return trainPrivate(x, y, c, s, true);
    }

    /** As {@link #trainPrivate(FeatureMatrix, Labels, GmmUdaConfig, PrivacySession)}; without the mixture, the model alone. */
    public static SourceRelease trainPrivate(FeatureMatrix x, Labels y, GmmUdaConfig c, PrivacySession s, boolean mixture)
            throws BudgetExceededException, BudgetLedger.LedgerException {
        int n = x.rows();
        Plan plan = charge(n, c, s, mixture);
        SessionRandomness rnd = new SessionRandomness(s.noise());
        StackDpSgdTrainer.Result r = StackDpSgdTrainer.train(init(x.cols(), outputs(y), c), x, targets(y), plan.sgd(), rnd);
        if (!mixture) {
            return privateRelease(plan, n, c, r.model(), null);
        }
        DenseMatrix z = r.model().features(x);
        DpGaussianMixtureEm.Result em = DpGaussianMixtureEm.fit(z, plan.em(), rnd);
        return privateRelease(plan, n, c, r.model(), em.model());
    }

    /**
     * The private release of a model trained and a mixture fitted under {@code plan} (charged by {@link #charge} for n
     * rows), with the plan's public parameters and event, as {@link #trainPrivate} returns it.
     */
    public static SourceRelease privateRelease(Plan plan, int n, GmmUdaConfig c, EncoderClassifier model, GaussianMixture mixture) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("source_model", "encoder " + java.util.Arrays.toString(c.hidden()) + " " + c.activation().name().toLowerCase()
                + ", linear classifier, DP-SGD");
        sgdParameters(plan, n, c).forEach((k, v) -> p.put("dp_sgd_" + k, v));
        if (plan.em() != null) {
            emParameters(plan, c).forEach((k, v) -> p.put("dp_em_" + k, v));
        }
        return new SourceRelease(model, mixture, plan.event(), p);
    }
}
