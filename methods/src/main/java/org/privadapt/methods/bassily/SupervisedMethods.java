package org.privadapt.methods.bassily;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.privadapt.data.DataException;
import org.privadapt.data.RealTargets;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.core.AdaptationMethod;
import org.privadapt.methods.core.AdaptationOutcome;
import org.privadapt.methods.core.AdaptationTask;
import org.privadapt.methods.core.Classifiers;
import org.privadapt.methods.core.Disclosures;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.MethodParameters;
import org.privadapt.methods.core.NonPrivate;
import org.privadapt.methods.core.PrivacyContext;
import org.privadapt.models.Classifier;
import org.privadapt.models.discrepancy.CnvxAdap;
import org.privadapt.models.discrepancy.LabelledDiscrepancy;
import org.privadapt.models.dp.NoiseAndSampling;
import org.privadapt.models.regression.RidgeRegression;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.PrivacyCost;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.ledger.BudgetLedger;
import org.privadapt.privacy.mechanisms.GaussianCalibration;

/**
 * Paper 003's methods and baselines under its supervised protocol ({@link SupervisedProtocol}): a public labelled
 * source, a private labelled target training part, a public validation part for hyperparameters, a test part.
 *
 * <ul>
 *   <li>{@code target-only}, {@code source-only}, {@code source-target}: ridge regression (logistic regression for
 *       classes) on the target's training rows, the source, or both; ridge's lambda chosen on the validation rows.
 *   <li>{@code cnvxadap}: Algorithm 1 without noise, with the exact discrepancy; alpha, kappa_1 and Lambda chosen on
 *       the validation rows.
 *   <li>{@code pcnvxadap}: Algorithm 1 ({@link PCnvxAdap}); hyperparameters chosen on public data only, by simulation:
 *       the same noisy descent, calibrated for the real n and epsilon, run with the validation rows' first half standing
 *       in for the private rows and scored on the second half. No private row is read before the one charged run.
 *   <li>{@code dp-target-only}: noisy projected gradient descent on the target's training rows alone
 *       ({@link NoisyGradientDescent}).
 * </ul>
 *
 * For regression with more coordinates than private rows (d + 1 > n) the discrepancy methods and dp-target-only run,
 * by default, in a public subspace of the source, and the discrepancy methods fit the residual of a public offset
 * ({@link PublicSubspace}, {@link #reduction}): both maps are built from public rows only and are row-local.
 */
public final class SupervisedMethods {
    private SupervisedMethods() {
    }

    static final double[] RIDGE_GRID = {1e-6, 1e-4, 1e-3, 1e-2, 1e-1, 1};
    static final double[] ALPHA_GRID = {0.1, 0.3, 0.5, 0.7, 0.9};
    static final double[] RADIUS_GRID = {1, 4, 16};
    /** pcnvxadap-stats: radii of the ball around the public start. */
    static final double[] TRUST_RADIUS_GRID = {0.1, 0.3, 1, 3};
    /**
     * kappa_1 for the non-private search: at the optimum q_i = p0_i min(1, sqrt(kappa_1 / loss_i)), so kappa_1 is the
     * squared residual (targets scaled into [-1, 1]) above which a row is down-weighted; 1 means no re-weighting.
     */
    static final double[] KAPPA1_GRID = {1e-3, 1e-2, 1e-1, 1};

    /** The {@code --param} names of the discrepancy-weighting methods. */
    static final Set<String> CNVX = Set.of("alpha", "kappa1", "kappa2", "kappa-inf", "radius", "iterations", "discrepancy-share",
            "step", "start", "solver", PublicSubspace.PARAMETER,
            PublicSubspace.RESCALE);

    /**
     * The public start w_0 of the descent: ridge on the public source (lambda chosen on the public validation rows),
     * as a vector over the scaled features whose last one is the constant column; null with {@code start=zero}.
     */
    static double[] publicStart(SupervisedProtocol p, double[] ys, MethodConfig c) {
        String how = c.params().getOrDefault("start", "source");
        if (how.equals("zero") || how.equals("offset")) {
            return null; // offset: the public fit is the reduction's offset, the descent starts at 0
        }
        if (!how.equals("source")) {
            throw new IllegalArgumentException("start must be source, offset or zero, got '" + how + "'");
        }
        return sourceRidge(p, ys);
    }

    /** Ridge on the public source (lambda on the public validation rows) as one weight vector over the scaled features. */
    static double[] sourceRidge(SupervisedProtocol p, double[] ys) {
        RidgeRegression.Model m = selectRidge(p.xSource(), ys, null, p);
        double[] w = m.beta().clone();
        double constant = p.xSource().get(0, w.length - 1);
        w[w.length - 1] += m.intercept() / constant;
        return w;
    }

    /**
     * The public reduction of a regression problem ({@link PublicSubspace}), or null when none applies: k principal
     * directions of the public source by {@code public-subspace} (default: the rule of {@link PublicSubspace#chooseK}),
     * and, when {@code withOffset} and {@code start=offset} (the default when k > 0), the source ridge's clipped
     * predictions as a fixed offset. Reads only public rows.
     */
    static PublicSubspace reduction(SupervisedProtocol p, MethodConfig c, boolean withOffset) {
        int k = PublicSubspace.chooseK(c, p.xSource().cols(), p.n(), p.xSource().rows());
        String how = c.params().getOrDefault("start", k > 0 && withOffset ? "offset" : "source");
        if (!how.equals("source") && !how.equals("offset") && !how.equals("zero")) {
            throw new IllegalArgumentException("start must be source, offset or zero, got '" + how + "'");
        }
        boolean offset = withOffset && how.equals("offset");
        if (k == 0 && !offset) {
            return null;
        }
        double[] w0 = offset ? sourceRidge(p, ((RealTargets) p.ySource()).values()) : null;
        if (k == 0) {
            return new PublicSubspace(null, w0);
        }
        DenseMatrix v = PublicSubspace.basis(p.xSource(), k);
        String rescale = c.params().getOrDefault(PublicSubspace.RESCALE, "true");
        if (!rescale.equals("true") && !rescale.equals("false")) {
            throw new IllegalArgumentException(PublicSubspace.RESCALE + " must be true or false, got '" + rescale + "'");
        }
        PublicSubspace sub = new PublicSubspace(v, 1.0, w0);
        return rescale.equals("true") ? sub.rescaledOn(p.xSource()) : sub;
    }

    /** The reduction's settings for the diagnostics (all public). */
    static void describeReduction(Map<String, Object> diag, PublicSubspace sub) {
        diag.put("public_subspace", sub == null ? 0 : sub.k());
        diag.put("public_offset", sub != null && sub.offset() != null);
        if (sub != null && sub.basis() != null) {
            diag.put("subspace_row_scale", sub.rowScale());
        }
        if (sub != null && sub.offset() != null) {
            double sq = 0;
            for (double v : sub.offset()) {
                sq += v * v;
            }
            diag.put("offset_norm", Math.sqrt(sq)); // ||w_0|| of the public source ridge
        }
    }

    /** Predictions in the protocol's scaled units for its scaled rows x, through the reduction when there is one. */
    static double[] predict(PublicSubspace sub, DenseMatrix x, double[] w) {
        return sub == null ? predict(x, w) : sub.predict(x, w);
    }

    /** All methods of this family, for the registry (target-only and source-only delegate here under the protocol). */
    public static List<AdaptationMethod> all() {
        return List.of(new SourceTarget(), new Reweighted(true), new Reweighted(false), new CnvxAdapMethod(false),
                new CnvxAdapMethod(true), new StatsMethod(), new NCnvxAdapMethod(false), new NCnvxAdapMethod(true), new DpTargetOnly());
    }

    /** The protocol's target-only baseline (called by the registry's {@code target-only} under the protocol). */
    public static AdaptationOutcome targetOnly(AdaptationTask task, MethodConfig config) throws DataException {
        SupervisedProtocol p = SupervisedProtocol.draw(task, config);
        return baseline("target-only", p, config, p.xTrain(), p.yTrain(), NonPrivate.targetOnly());
    }

    /** The protocol's source-only baseline. */
    public static AdaptationOutcome sourceOnly(AdaptationTask task, MethodConfig config) throws DataException {
        SupervisedProtocol p = SupervisedProtocol.draw(task, config);
        return baseline("source-only", p, config, p.xSource(), p.ySource(), NonPrivate.sourceOnly());
    }

    /** Parameters of the baselines under the protocol. */
    public static Set<String> baselineParameters() {
        return MethodParameters.union(MethodParameters.CLASSIFIER, SupervisedProtocol.PARAMETERS);
    }

    static AdaptationOutcome baseline(String name, SupervisedProtocol p, MethodConfig config, DenseMatrix x,
                                      org.privadapt.data.Labels y, Map<String, PrivacyCost> privacy) throws DataException {
        if (p.isRegression()) {
            RidgeRegression.Model m = selectRidge(x, ((RealTargets) y).values(), null, p);
            return regressionOutcome(name, p, m.predict(p.xTest()), privacy, Map.of("ridge_lambda", m.lambda()));
        }
        org.privadapt.data.ClassLabels cy = (org.privadapt.data.ClassLabels) y;
        Classifier model = Classifiers.train(config, x, cy);
        return classificationOutcome(name, p, model, privacy, Map.of());
    }

    /** Ridge on (x, y, weights) with lambda chosen by validation MSE. */
    static RidgeRegression.Model selectRidge(DenseMatrix x, double[] y, double[] weights, SupervisedProtocol p) {
        RidgeRegression.Model[] path = RidgeRegression.path(x, y, weights, RIDGE_GRID);
        double[] yv = ((RealTargets) p.yValidation()).values();
        RidgeRegression.Model best = null;
        double bestErr = Double.POSITIVE_INFINITY;
        for (RidgeRegression.Model m : path) {
            double e = RidgeRegression.mse(m.predict(p.xValidation()), yv);
            if (e < bestErr) {
                bestErr = e;
                best = m;
            }
        }
        return best;
    }

    /** Test MSE in the targets' own units. */
    static AdaptationOutcome regressionOutcome(String name, SupervisedProtocol p, double[] scaledPredictions,
                                              Map<String, PrivacyCost> privacy, Map<String, Object> diagnostics) {
        double[] pred = p.scaling().unscale(scaledPredictions);
        double mse = RidgeRegression.mse(pred, ((RealTargets) p.yTest()).values());
        Map<String, Object> diag = new LinkedHashMap<>(diagnostics);
        diag.put("target_train_rows", p.n());
        diag.put("source_rows", p.xSource().rows());
        return AdaptationOutcome.regression(name, mse, pred, privacy, diag);
    }

    static AdaptationOutcome classificationOutcome(String name, SupervisedProtocol p, Classifier model,
                                                   Map<String, PrivacyCost> privacy, Map<String, Object> diagnostics) throws DataException {
        int[] pred = new int[p.xTest().rows()];
        org.privadapt.data.Dataset test = new org.privadapt.data.Dataset("test", p.xTest(), p.yTest(), null, null);
        double acc = Classifiers.accuracy(model, p.xTest(), test, pred);
        Map<String, Object> diag = new LinkedHashMap<>(diagnostics);
        diag.put("target_train_rows", p.n());
        return new AdaptationOutcome(name, acc, pred, model.classNames(), privacy, diag);
    }

    static double[] values(org.privadapt.data.Labels y, String what) {
        if (y instanceof RealTargets r) {
            return r.values();
        }
        if (y instanceof org.privadapt.data.MultiLabels) {
            throw new IllegalArgumentException(what + " does not support multi-label targets (it is for regression)");
        }
        throw new IllegalArgumentException(what + " is for regression (real-valued targets); this task has class labels "
                + "(ncnvxadap / pncnvxadap handle classes)");
    }

    /** Training on the source and the target's training rows together (each row weight 1). */
    static final class SourceTarget implements AdaptationMethod {
        @Override
        public String name() {
            return "source-target";
        }

        @Override
        public String description() {
            return "paper 003 baseline: train on the public source and the target's labelled rows together (non-private)";
        }

        @Override
        public boolean isPrivate() {
            return false;
        }

        @Override
        public Set<String> parameters() {
            return baselineParameters();
        }

        @Override
        public AdaptationOutcome run(AdaptationTask task, MethodConfig config, PrivacyContext privacy) throws DataException {
            SupervisedProtocol p = SupervisedProtocol.draw(task, config);
            DenseMatrix x = p.xSource().vstack(p.xTrain());
            if (p.isRegression()) {
                double[] ys = values(p.ySource(), name());
                double[] yt = values(p.yTrain(), name());
                double[] y = java.util.Arrays.copyOf(ys, ys.length + yt.length);
                System.arraycopy(yt, 0, y, ys.length, yt.length);
                RidgeRegression.Model m = selectRidge(x, y, null, p);
                return regressionOutcome(name(), p, m.predict(p.xTest()), NonPrivate.both(), Map.of("ridge_lambda", m.lambda()));
            }
            org.privadapt.data.ClassLabels a = (org.privadapt.data.ClassLabels) p.ySource();
            org.privadapt.data.ClassLabels b = (org.privadapt.data.ClassLabels) p.yTrain();
            int[] c = java.util.Arrays.copyOf(a.codes(), a.size() + b.size());
            System.arraycopy(b.codes(), 0, c, a.size(), b.size());
            Classifier model = Classifiers.train(config, x, new org.privadapt.data.ClassLabels(c, a.names()));
            return classificationOutcome(name(), p, model, NonPrivate.both(), Map.of());
        }
    }

    /** CnvxAdap (non-private) and PCnvxAdap. */
    static final class CnvxAdapMethod implements AdaptationMethod {
        private final boolean dp;

        CnvxAdapMethod(boolean dp) {
            this.dp = dp;
        }

        /**
         * The diagnostics are the settings chosen by simulation on public rows, the calibration (a function of the
         * public n, epsilon and delta), the released (noisy) discrepancy and the iterate index drawn from the seed.
         */
        @Override
        public boolean diagnosticsArePublic() {
            return true;
        }

        @Override
        public String name() {
            return dp ? "pcnvxadap" : "cnvxadap";
        }

        @Override
        public String description() {
            return dp ? "paper 003 PCnvxAdap: DP discrepancy-weighted least squares, private labelled target (replace-one)"
                    : "paper 003 CnvxAdap: discrepancy-weighted least squares on source + labelled target (non-private)";
        }

        @Override
        public boolean isPrivate() {
            return dp;
        }

        @Override
        public Set<String> protectedParties() {
            return dp ? Set.of("target") : Set.of();
        }

        @Override
        public Set<String> parameters() {
            return MethodParameters.union(SupervisedProtocol.PARAMETERS, CNVX);
        }

        @Override
        public AdaptationOutcome run(AdaptationTask task, MethodConfig config, PrivacyContext privacy)
                throws DataException, BudgetExceededException, BudgetLedger.LedgerException {
            SupervisedProtocol original = SupervisedProtocol.draw(task, config);
            values(original.ySource(), name());
            PublicSubspace sub = reduction(original, config, true);
            // from here on the (public, row-local) reduction of every part; test predictions map back through sub
            SupervisedProtocol p = sub == null ? original : sub.apply(original);
            double[] ys = values(p.ySource(), name());
            double[] yt = values(p.yTrain(), name());
            long iterations = config.intParam("iterations", 2000);
            double share = config.param("discrepancy-share", 0.5);
            List<PCnvxAdap.Settings> grid = dp ? privateGrid(config, share) : grid(config, iterations, share);
            double[] start = sub != null && sub.offset() != null ? null : publicStart(p, ys, config);
            Map<String, Object> diag = new LinkedHashMap<>();
            describeReduction(diag, sub);
            if (!dp) {
                // non-private: every candidate trained on the real rows, chosen by validation MSE (as the paper)
                PCnvxAdap.Result best = null;
                PCnvxAdap.Settings bestS = null;
                double bestErr = Double.POSITIVE_INFINITY;
                String solver = config.params().getOrDefault("solver", "exact");
                if (!solver.equals("exact") && !solver.equals("descent")) {
                    throw new IllegalArgumentException("solver must be exact or descent, got '" + solver + "'");
                }
                if (solver.equals("exact") && !config.params().containsKey("kappa1")) {
                    grid = withKappa1(grid, KAPPA1_GRID);
                }
                for (PCnvxAdap.Settings s : grid) {
                    boolean exact = solver.equals("exact") && s.kappa2() == 0 && s.kappaInf() == 0 && s.kappa1() > 0;
                    PCnvxAdap.Result r = exact ? PCnvxAdap.fitExact(p.xSource(), ys, p.xTrain(), yt, s, start)
                            : PCnvxAdap.fitNonPrivate(p.xSource(), ys, p.xTrain(), yt, s, start);
                    double e = RidgeRegression.mse(predict(p.xValidation(), r.w()), values(p.yValidation(), name()));
                    if (e < bestErr) {
                        bestErr = e;
                        best = r;
                        bestS = s;
                    }
                }
                describe(diag, bestS, best.discrepancy());
                diag.put("solver", best.calibration().get("solver"));
                if ("exact".equals(best.calibration().get("solver"))) {
                    diag.remove("iterations"); // the descent's settings play no part in the exact solution
                    diag.remove("step");
                }
                return regressionOutcome(name(), original, predict(sub, original.xTest(), best.w()), NonPrivate.both(), diag);
            }
            PrivacySession target = privacy.target();
            Disclosures.require(task.target(), target, "pcnvxadap's predictor", Disclosures.Fact.SCHEMA);
            PCnvxAdap.Settings chosen = grid.size() == 1 ? grid.get(0)
                    : simulateAndSelect(p, ys, grid, target, config.seed(), start);
            PCnvxAdap.Result r = PCnvxAdap.fit(p.xSource(), ys, p.xTrain(), yt, chosen, target, start);
            describe(diag, chosen, r.discrepancy());
            diag.putAll(r.calibration());
            return regressionOutcome(name(), original, predict(sub, original.xTest(), r.w()), Map.of("source", PrivacyCost.NOT_PRIVATE,
                    "target", target.spent()), diag);
        }

        private static void describe(Map<String, Object> diag, PCnvxAdap.Settings s, double d) {
            diag.put("alpha", s.alpha());
            diag.put("kappa1", s.kappa1());
            diag.put("radius", s.lambda());
            diag.put("iterations", s.iterations());
            diag.put("step", s.smoothStep() ? "smooth" : "theory");
            diag.put("discrepancy", d);
        }

        /**
         * The private candidates: as {@link #grid}, and unless given, T in {50, 300, 2000} and both step rules, since
         * under noise fewer, damped steps can beat many (the simulation measures it for the real n and epsilon).
         */
        static List<PCnvxAdap.Settings> privateGrid(MethodConfig c, double share) {
            long[] ts = c.params().containsKey("iterations") ? new long[] {c.intParam("iterations", 2000)} : new long[] {50, 300, 2000};
            List<PCnvxAdap.Settings> out = new ArrayList<>();
            for (long t : ts) {
                for (PCnvxAdap.Settings s : grid(c, t, share)) {
                    out.add(s);
                    if (!c.params().containsKey("step")) {
                        out.add(new PCnvxAdap.Settings(s.alpha(), s.kappa1(), s.kappa2(), s.kappaInf(), s.lambda(), s.rowBound(),
                                s.iterations(), s.discrepancyShare(), false));
                    }
                }
            }
            return out;
        }

        static List<PCnvxAdap.Settings> withKappa1(List<PCnvxAdap.Settings> grid, double[] kappas) {
            List<PCnvxAdap.Settings> out = new ArrayList<>();
            for (PCnvxAdap.Settings s : grid) {
                for (double k : kappas) {
                    out.add(new PCnvxAdap.Settings(s.alpha(), k, s.kappa2(), s.kappaInf(), s.lambda(), s.rowBound(), s.iterations(),
                            s.discrepancyShare(), s.smoothStep()));
                }
            }
            return out;
        }

        /** The candidate settings: given values are fixed, alpha and Lambda otherwise range over the grids. */
        static List<PCnvxAdap.Settings> grid(MethodConfig c, long iterations, double share) {
            Map<String, String> given = c.params();
            double[] alphas = given.containsKey("alpha") ? new double[] {c.param("alpha", 0.5)} : ALPHA_GRID;
            double[] radii = given.containsKey("radius") ? new double[] {c.param("radius", 4)} : RADIUS_GRID;
            double k1 = c.param("kappa1", 1.0);
            double k2 = c.param("kappa2", 0.0);
            double kInf = c.param("kappa-inf", 0.0);
            String step = c.params().getOrDefault("step", "smooth");
            if (!step.equals("smooth") && !step.equals("theory")) {
                throw new IllegalArgumentException("step must be smooth or theory, got '" + step + "'");
            }
            List<PCnvxAdap.Settings> out = new ArrayList<>();
            for (double a : alphas) {
                if (!(a > 0 && a < 1)) {
                    throw new IllegalArgumentException("alpha must be in (0, 1), got " + a);
                }
                for (double r : radii) {
                    if (!(r > 0)) {
                        throw new IllegalArgumentException("radius must be > 0, got " + r);
                    }
                    out.add(new PCnvxAdap.Settings(a, k1, k2, kInf, r, 1.0, iterations, share, step.equals("smooth")));
                }
            }
            return out;
        }

        /**
         * Chooses settings without reading a private row: for each candidate, the noisy descent calibrated for the
         * real n, epsilon and delta runs on the source with the validation rows' first half as the "private" part
         * (seeded, not charged: these rows are public) and is scored on the second half.
         */
        static PCnvxAdap.Settings simulateAndSelect(SupervisedProtocol p, double[] ys, List<PCnvxAdap.Settings> grid,
                                                    PrivacySession target, long seed, double[] start) {
            ValidationHalves h = ValidationHalves.of(p, "pcnvxadap");
            DenseMatrix xa = h.xStandIn();
            double[] ya = h.yStandIn();
            DenseMatrix xb = h.xScore();
            double[] yb = h.yScore();
            DenseMatrix xs = PCnvxAdap.clipRows(p.xSource(), 1.0);
            double[] ysc = PCnvxAdap.clipTargets(ys);
            double eps = target.target().epsilon();
            double delta = target.target().delta();
            int n = p.n();
            PCnvxAdap.Settings best = null;
            double bestErr = Double.POSITIVE_INFINITY;
            for (PCnvxAdap.Settings s : grid) {
                double epsD = s.discrepancyShare() * eps;
                double nu = GaussianCalibration.analyticSigma(eps - epsD, delta, 1.0) * Math.sqrt(2.0 * s.iterations());
                double d = LabelledDiscrepancy.squaredLoss(xs, ysc, xa, ya, s.lambda());
                CnvxAdap.Problem proxy = PCnvxAdap.problem(new DenseMatrix[] {xs, xa}, new double[][] {ysc, ya}, d, s);
                // noise as the real run's: sigma = nu * s_k(n) for the private part of size n (s1, s2 scale as 1/n, 1/n^2)
                CnvxAdap.Problem real = new CnvxAdap.Problem(xs, ysc, xa.selectRows(new int[] {0}), new double[] {0}, 0,
                        s.alpha(), s.kappa1(), s.kappa2(), s.kappaInf(), s.lambda(), 1.0);
                double s1 = real.s1() / n;
                double s2 = real.s2() / ((double) n * n);
                double logTerm = Math.log(2 / delta) / ((eps / 2) * (eps / 2));
                CnvxAdap.Result r = CnvxAdap.solve(proxy, new CnvxAdap.Config(s.iterations(), nu * s1, nu * s2, logTerm),
                        new SimulatedNoise(seed ^ 0x5eed5eedL), start, PCnvxAdap.stepW(s));
                double e = RidgeRegression.mse(predict(xb, r.w()), yb);
                if (e < bestErr) {
                    bestErr = e;
                    best = s;
                }
            }
            return best;
        }
    }

    /**
     * {@code pcnvxadap-stats}: {@link StatisticsPCnvxAdap}, alpha, kappa_1 and Lambda chosen by simulation on public
     * rows as for pcnvxadap (three noise draws per candidate, common to all candidates).
     */
    static final class StatsMethod implements AdaptationMethod {
        /**
         * The diagnostics are the settings chosen by simulation on public rows, the calibration (a function of the
         * public n, epsilon and delta), the released (noisy) discrepancy and the iterate index drawn from the seed.
         */
        @Override
        public boolean diagnosticsArePublic() {
            return true;
        }

        @Override
        public String name() {
            return "pcnvxadap-stats";
        }

        @Override
        public String description() {
            return "CnvxAdap from DP sufficient statistics of the private target (one Gaussian release, exact solve; replace-one)";
        }

        @Override
        public boolean isPrivate() {
            return true;
        }

        @Override
        public Set<String> protectedParties() {
            return Set.of("target");
        }

        @Override
        public Set<String> parameters() {
            return MethodParameters.union(SupervisedProtocol.PARAMETERS, Set.of("alpha", "kappa1", "radius", "discrepancy-share", "start",
                    PublicSubspace.PARAMETER, PublicSubspace.RESCALE));
        }

        static List<StatisticsPCnvxAdap.Settings> grid(MethodConfig c) {
            Map<String, String> given = c.params();
            double[] alphas = given.containsKey("alpha") ? new double[] {c.param("alpha", 0.5)} : ALPHA_GRID;
            double[] radii = given.containsKey("radius") ? new double[] {c.param("radius", 1)} : TRUST_RADIUS_GRID;
            double[] kappas = given.containsKey("kappa1") ? new double[] {c.param("kappa1", 1)} : KAPPA1_GRID;
            double share = c.param("discrepancy-share", 0.2);
            List<StatisticsPCnvxAdap.Settings> out = new ArrayList<>();
            for (double a : alphas) {
                for (double r : radii) {
                    for (double k : kappas) {
                        out.add(new StatisticsPCnvxAdap.Settings(a, k, r, share));
                    }
                }
            }
            return out;
        }

        @Override
        public AdaptationOutcome run(AdaptationTask task, MethodConfig config, PrivacyContext privacy)
                throws DataException, BudgetExceededException, BudgetLedger.LedgerException {
            SupervisedProtocol original = SupervisedProtocol.draw(task, config);
            values(original.ySource(), name());
            PublicSubspace sub = reduction(original, config, true);
            SupervisedProtocol p = sub == null ? original : sub.apply(original);
            double[] ys = values(p.ySource(), name());
            double[] yt = values(p.yTrain(), name());
            PrivacySession target = privacy.target();
            Disclosures.require(task.target(), target, "pcnvxadap-stats's predictor", Disclosures.Fact.SCHEMA);
            double[] start = sub != null && sub.offset() != null ? null : publicStart(p, ys, config);
            List<StatisticsPCnvxAdap.Settings> grid = grid(config);
            StatisticsPCnvxAdap.Settings chosen = grid.size() == 1 ? grid.get(0)
                    : simulate(p, ys, grid, target.target().epsilon(), target.target().delta(), config.seed(), start);
            StatisticsPCnvxAdap.Result r = StatisticsPCnvxAdap.fit(p.xSource(), ys, p.xTrain(), yt, chosen, target, start);
            Map<String, Object> diag = new LinkedHashMap<>(r.calibration());
            diag.put("alpha", chosen.alpha());
            diag.put("kappa1", chosen.kappa1());
            diag.put("radius", chosen.lambda());
            diag.put("discrepancy", r.discrepancy());
            describeReduction(diag, sub);
            return regressionOutcome(name(), original, predict(sub, original.xTest(), r.w()), Map.of("source", PrivacyCost.NOT_PRIVATE,
                    "target", target.spent()), diag);
        }

        /**
         * The candidates scored without reading a private row: the validation rows' first half stands in for the private
         * rows, its statistics rescaled to the real n and perturbed with the real run's noise (and d with the real
         * Laplace scale), the solution scored on the second half; mean MSE over three draws.
         */
        static StatisticsPCnvxAdap.Settings simulate(SupervisedProtocol p, double[] ys, List<StatisticsPCnvxAdap.Settings> grid,
                                                     double eps, double delta, long seed, double[] start) {
            ValidationHalves h = ValidationHalves.of(p, "pcnvxadap-stats");
            DenseMatrix xa = h.xStandIn();
            double[] ya = h.yStandIn();
            DenseMatrix xb = h.xScore();
            double[] yb = h.yScore();
            int half = xa.rows();
            DenseMatrix xs = PCnvxAdap.clipRows(p.xSource(), 1.0);
            double[] ysc = PCnvxAdap.clipTargets(ys);
            int n = p.n();
            double[] statsA = StatisticsPCnvxAdap.statistics(xa, ya);
            for (int k = 0; k < statsA.length; k++) {
                statsA[k] *= (double) n / half;
            }
            int draws = 10;
            StatisticsPCnvxAdap.Settings best = null;
            double bestErr = Double.POSITIVE_INFINITY;
            for (StatisticsPCnvxAdap.Settings s : grid) {
                double epsD = s.discrepancyShare() * eps;
                double sigma = StatisticsPCnvxAdap.multiplier(eps - epsD, delta) * StatisticsPCnvxAdap.sensitivity(1.0);
                double dRadius = StatisticsPCnvxAdap.discrepancyRadius(start, s.lambda());
                double bound = (dRadius + 1) * (dRadius + 1);
                double dHat = LabelledDiscrepancy.squaredLoss(xs, ysc, xa, ya, dRadius);
                java.util.SplittableRandom rng = new java.util.SplittableRandom(seed ^ 0x57a75L);
                double err = 0;
                for (int k = 0; k < draws; k++) {
                    double[] noisy = statsA.clone();
                    for (int j = 0; j < noisy.length; j++) {
                        noisy[j] += sigma * rng.nextGaussian();
                    }
                    double e = rng.nextDouble() - 0.5;
                    double lap = -bound / (n * epsD) * Math.signum(e) * Math.log(1 - 2 * Math.abs(e));
                    double d = Math.max(0, Math.min(bound, dHat + lap));
                    double[] w = StatisticsPCnvxAdap.solve(xs, ysc, noisy, n, d, s, start);
                    err += RidgeRegression.mse(predict(xb, w), yb) / draws;
                }
                if (err < bestErr) {
                    bestErr = err;
                    best = s;
                }
            }
            return best;
        }
    }

    /**
     * {@code kmm} and {@code dm}: the source re-weighted to resemble the target's inputs (kernel mean matching, or
     * discrepancy minimisation), then trained together with the target's labelled rows: source rows carry total weight
     * gamma in proportion to their matching weights, target rows 1 - gamma equally; gamma (0.1 ... 0.9) and the ridge
     * lambda chosen on the validation rows. The target inputs matched are the training and validation rows'. How paper
     * 003 let its KMM and DM use the target's labels is not stated; this is one reading, said in docs/results/bassily.md.
     * Non-private.
     */
    static final class Reweighted implements AdaptationMethod {
        private final boolean kmm;

        Reweighted(boolean kmm) {
            this.kmm = kmm;
        }

        @Override
        public String name() {
            return kmm ? "kmm" : "dm";
        }

        @Override
        public String description() {
            return kmm ? "paper 003 baseline: kernel mean matching weights on the source (QP by ojAlgo), then source + target (non-private)"
                    : "paper 003 baseline: discrepancy minimisation weights on the source (spectral norm), then source + target (non-private)";
        }

        @Override
        public boolean isPrivate() {
            return false;
        }

        @Override
        public Set<String> parameters() {
            return MethodParameters.union(baselineParameters(), Set.of("gamma", "kmm-bound", "kmm-rows", "dm-iterations"));
        }

        @Override
        public AdaptationOutcome run(AdaptationTask task, MethodConfig config, PrivacyContext privacy) throws DataException {
            SupervisedProtocol p = SupervisedProtocol.draw(task, config);
            DenseMatrix targetInputs = p.xTrain().vstack(p.xValidation());
            Map<String, Object> diag = new LinkedHashMap<>();
            double[] ws;
            if (kmm) {
                org.privadapt.models.discrepancy.KernelMeanMatching.Result r = org.privadapt.models.discrepancy.KernelMeanMatching
                        .weights(p.xSource(), targetInputs, new org.privadapt.models.discrepancy.KernelMeanMatching.Settings(
                                config.param("kmm-bound", 1000), Double.NaN, Double.NaN, config.intParam("kmm-rows", 1000), config.seed()));
                ws = r.weights();
                diag.put("kmm_bandwidth", r.bandwidth());
                diag.put("kmm_state", r.state());
                diag.put("kmm_rows", r.matchedRows());
            } else {
                org.privadapt.models.discrepancy.DiscrepancyMinimisation.Result r = org.privadapt.models.discrepancy
                        .DiscrepancyMinimisation.weights(p.xSource(), targetInputs, config.intParam("dm-iterations", 300));
                ws = r.weights();
                diag.put("dm_objective", r.objective());
                diag.put("dm_uniform_objective", r.uniformObjective());
                diag.put("dm_gap_bound", r.gapBound());
            }
            double total = 0;
            for (double v : ws) {
                total += v;
            }
            double[] gammas = config.params().containsKey("gamma") ? new double[] {config.param("gamma", 0.5)} : ALPHA_GRID;
            DenseMatrix x = p.xSource().vstack(p.xTrain());
            int m = p.xSource().rows();
            int n = p.n();
            double bestErr = Double.POSITIVE_INFINITY;
            AdaptationOutcome best = null;
            for (double g : gammas) {
                if (!(g > 0 && g < 1)) {
                    throw new IllegalArgumentException("gamma must be in (0, 1), got " + g);
                }
                double[] w = new double[m + n];
                for (int i = 0; i < m; i++) {
                    w[i] = g * ws[i] / total;
                }
                for (int j = 0; j < n; j++) {
                    w[m + j] = (1 - g) / n;
                }
                Map<String, Object> d = new LinkedHashMap<>(diag);
                d.put("gamma", g);
                if (p.isRegression()) {
                    double[] ys = values(p.ySource(), name());
                    double[] yt = values(p.yTrain(), name());
                    double[] y = java.util.Arrays.copyOf(ys, m + n);
                    System.arraycopy(yt, 0, y, m, n);
                    RidgeRegression.Model model = selectRidge(x, y, w, p);
                    double err = RidgeRegression.mse(model.predict(p.xValidation()), values(p.yValidation(), name()));
                    if (err < bestErr) {
                        bestErr = err;
                        d.put("ridge_lambda", model.lambda());
                        best = regressionOutcome(name(), p, model.predict(p.xTest()), NonPrivate.both(), d);
                    }
                } else {
                    org.privadapt.data.ClassLabels a = (org.privadapt.data.ClassLabels) p.ySource();
                    org.privadapt.data.ClassLabels b = (org.privadapt.data.ClassLabels) p.yTrain();
                    int[] c = java.util.Arrays.copyOf(a.codes(), m + n);
                    System.arraycopy(b.codes(), 0, c, m, n);
                    Classifier model = new org.privadapt.models.LogisticRegressionTrainer(config.l2(), 500)
                            .fit(x, new org.privadapt.data.ClassLabels(c, a.names()), w);
                    int[] pred = org.privadapt.models.Softmax.argmaxRows(model.predictProba(p.xValidation()));
                    org.privadapt.data.ClassLabels val = (org.privadapt.data.ClassLabels) p.yValidation();
                    if (!val.names().equals(a.names())) {
                        throw new IllegalArgumentException(name() + ": the source's and target's class lists differ (" + a.names()
                                + " vs " + val.names() + ")");
                    }
                    int[] truth = val.codes();
                    double wrong = 0;
                    for (int i = 0; i < pred.length; i++) {
                        wrong += pred[i] == truth[i] ? 0 : 1;
                    }
                    if (wrong / pred.length < bestErr) {
                        bestErr = wrong / pred.length;
                        best = classificationOutcome(name(), p, model, NonPrivate.both(), d);
                    }
                }
            }
            return best;
        }
    }

    /**
     * {@code ncnvxadap} and {@code pncnvxadap}: Algorithm 2 ({@link org.privadapt.models.discrepancy.NCnvxAdap}) for
     * classes. The discrepancy is estimated between the source and the target's public validation rows
     * ({@link org.privadapt.models.discrepancy.LogisticDiscrepancy}, a local method, so it is kept off private rows:
     * it costs no budget and needs no sensitivity). The start is logistic regression on the public source. The private
     * variant clips rows to norm 1, charges the T steps as one Gaussian (multiplier nu / sqrt(2 T), as pcnvxadap's)
     * calibrated for the whole (epsilon, delta), and chooses alpha and T by simulation on the public validation rows.
     */
    static final class NCnvxAdapMethod implements AdaptationMethod {
        private final boolean dp;

        NCnvxAdapMethod(boolean dp) {
            this.dp = dp;
        }

        /**
         * The diagnostics are the settings chosen by simulation on public rows, the calibration (a function of the
         * public n, epsilon and delta), the released (noisy) discrepancy and the iterate index drawn from the seed.
         */
        @Override
        public boolean diagnosticsArePublic() {
            return true;
        }

        @Override
        public String name() {
            return dp ? "pncnvxadap" : "ncnvxadap";
        }

        @Override
        public String description() {
            return dp ? "paper 003 PNCnvxAdap: DP discrepancy-weighted softmax regression, private labelled target (replace-one)"
                    : "paper 003 NCnvxAdap: discrepancy-weighted softmax regression on source + labelled target (non-private)";
        }

        @Override
        public boolean isPrivate() {
            return dp;
        }

        @Override
        public Set<String> protectedParties() {
            return dp ? Set.of("target") : Set.of();
        }

        @Override
        public Set<String> parameters() {
            return MethodParameters.union(SupervisedProtocol.PARAMETERS, MethodParameters.CLASSIFIER,
                    Set.of("alpha", "lambda1", "radius", "iterations", "mu", "private-weights"));
        }

        @Override
        public AdaptationOutcome run(AdaptationTask task, MethodConfig config, PrivacyContext privacy)
                throws DataException, BudgetExceededException, BudgetLedger.LedgerException {
            SupervisedProtocol p = SupervisedProtocol.draw(task, config);
            if (p.isRegression()) {
                throw new IllegalArgumentException(name() + " is for classes (softmax cross-entropy); cnvxadap / pcnvxadap "
                        + "handle regression");
            }
            org.privadapt.data.ClassLabels ys = (org.privadapt.data.ClassLabels) p.ySource();
            org.privadapt.data.ClassLabels yt = (org.privadapt.data.ClassLabels) p.yTrain();
            org.privadapt.data.ClassLabels yv = (org.privadapt.data.ClassLabels) p.yValidation();
            if (!ys.names().equals(yt.names()) || !ys.names().equals(yv.names())) {
                throw new IllegalArgumentException(name() + ": the source's and target's class lists differ");
            }
            int k = ys.names().size();
            double radius = config.param("radius", 8);
            double lambda1 = config.param("lambda1", 1.0);
            DenseMatrix xs = dp ? PCnvxAdap.clipRows(p.xSource(), 1.0) : p.xSource();
            DenseMatrix xv = dp ? PCnvxAdap.clipRows(p.xValidation(), 1.0) : p.xValidation();
            double d = org.privadapt.models.discrepancy.LogisticDiscrepancy.estimate(xs, ys.codes(), xv, yv.codes(), k, radius,
                    config.seed());
            DenseMatrix start = sourceStart(xs, ys, config);
            double[] alphas = config.params().containsKey("alpha") ? new double[] {config.param("alpha", 0.5)} : ALPHA_GRID;
            Map<String, Object> diag = new LinkedHashMap<>();
            diag.put("discrepancy", d);
            diag.put("discrepancy_from", "source vs public validation rows (DCA, local)");
            diag.put("radius", radius);
            diag.put("lambda1", lambda1);
            if (!dp) {
                DenseMatrix xt = p.xTrain();
                double r = Math.sqrt(Math.max(max(xs.rowSquaredNorms()), max(xt.rowSquaredNorms())));
                long t = config.intParam("iterations", 500);
                org.privadapt.models.discrepancy.NCnvxAdap.Result best = null;
                double bestAcc = -1;
                double bestAlpha = Double.NaN;
                for (double a : alphas) {
                    org.privadapt.models.discrepancy.NCnvxAdap.Problem prob = new org.privadapt.models.discrepancy.NCnvxAdap.Problem(
                            xs, ys.codes(), xt, yt.codes(), k, d, a, lambda1, 0, 0, config.param("mu", Math.sqrt(xs.rows() + xt.rows())),
                            radius, r);
                    org.privadapt.models.discrepancy.NCnvxAdap.Result res = org.privadapt.models.discrepancy.NCnvxAdap.solve(prob,
                            new org.privadapt.models.discrepancy.NCnvxAdap.Config(t, 0, 0, false, config.seed()), null, start, Double.NaN);
                    double acc = accuracy(p.xValidation(), yv.codes(), res.w());
                    if (acc > bestAcc) {
                        bestAcc = acc;
                        best = res;
                        bestAlpha = a;
                    }
                }
                diag.put("alpha", bestAlpha);
                diag.put("iterations", t);
                diag.put("gradient_mapping", best.gradientMapping());
                return classificationOutcome(name(), p, model(best.w(), ys.names()), NonPrivate.both(), diag);
            }
            PrivacySession target = privacy.target();
            if (target.relation() != org.privadapt.privacy.NeighbouringRelation.REPLACE_ONE) {
                throw new IllegalArgumentException("pncnvxadap protects the target under replace-one (the weights u hold one entry "
                        + "per private row): use --relation replace");
            }
            Disclosures.require(task.target(), target, "pncnvxadap's classifier", Disclosures.Fact.SCHEMA, Disclosures.Fact.CLASSES);
            long[] ts = config.params().containsKey("iterations") ? new long[] {config.intParam("iterations", 300)} : new long[] {50, 300};
            double eps = target.target().epsilon();
            double delta = target.target().delta();
            int n = p.n();
            // choose (alpha, T) by simulation on public rows: the validation rows' first half as the private part,
            // the noise of the real run (for the real n), scored on the second half
            int v = xv.rows();
            int half = v / 2;
            int[] ia = java.util.stream.IntStream.range(0, half).toArray();
            int[] ib = java.util.stream.IntStream.range(half, v).toArray();
            double bestAcc = -1;
            double bestAlpha = alphas[0];
            long bestT = ts[0];
            String weightsParam = config.params().getOrDefault("private-weights", "auto");
            if (!List.of("auto", "frozen", "free").contains(weightsParam)) {
                throw new IllegalArgumentException("private-weights must be auto, frozen or free, got '" + weightsParam + "'");
            }
            boolean[] modes = weightsParam.equals("auto") ? new boolean[] {true, false}
                    : new boolean[] {weightsParam.equals("frozen")};
            boolean bestFrozen = modes[0];
            for (double a : alphas) {
                for (long t : ts) {
                  for (boolean frozen : modes) {
                    if (alphas.length * ts.length * modes.length == 1) {
                        break;
                    }
                    double nu = multiplier(eps, delta, t, frozen);
                    org.privadapt.models.discrepancy.NCnvxAdap.Problem proxy = new org.privadapt.models.discrepancy.NCnvxAdap.Problem(
                            xs, ys.codes(), xv.selectRows(ia), pick(yv.codes(), ia), k, d, a, lambda1, 0, 0,
                            config.param("mu", Math.sqrt(xs.rows() + n)), radius, 1.0);
                    double s1 = 2 * (1 - a) * proxy.lipschitz() / n;
                    double s2 = (1 - a) * (1 - a) * proxy.lossBound() / ((double) n * n);
                    org.privadapt.models.discrepancy.NCnvxAdap.Result res = org.privadapt.models.discrepancy.NCnvxAdap.solve(proxy,
                            new org.privadapt.models.discrepancy.NCnvxAdap.Config(t, nu * s1, nu * s2, true, config.seed(), frozen),
                            new SimulatedNoise(config.seed() ^ 0x9c0ffeeL), start, Double.NaN);
                    double acc = accuracy(p.xValidation().selectRows(ib), pick(yv.codes(), ib), res.w());
                    if (acc > bestAcc) {
                        bestAcc = acc;
                        bestAlpha = a;
                        bestT = t;
                        bestFrozen = frozen;
                    }
                  }
                }
            }
            double nu = multiplier(eps, delta, bestT, bestFrozen);
            DenseMatrix xt = PCnvxAdap.clipRows(p.xTrain(), 1.0);
            org.privadapt.models.discrepancy.NCnvxAdap.Problem prob = new org.privadapt.models.discrepancy.NCnvxAdap.Problem(xs,
                    ys.codes(), xt, yt.codes(), k, d, bestAlpha, lambda1, 0, 0, config.param("mu", Math.sqrt(xs.rows() + n)), radius, 1.0);
            target.chargeAll(List.of(bestFrozen
                    ? new PrivacySession.Release("pncnvxadap descent", "Gaussian on grad_W (private weights held at p0), T "
                            + "full-batch steps composed exactly (one Gaussian, multiplier nu / sqrt(T))",
                            new org.privadapt.privacy.events.GaussianEvent(nu / Math.sqrt(bestT)),
                            Map.of("s1", prob.s1(), "T", bestT, "nu", nu))
                    : new PrivacySession.Release("pncnvxadap descent", "Gaussian on (grad_W, grad_u_priv), T "
                            + "full-batch steps composed exactly (one Gaussian, multiplier nu / sqrt(2 T))", PCnvxAdap.descentEvent(nu, bestT),
                            Map.of("s1", prob.s1(), "s2", prob.s2(), "T", bestT, "nu", nu))));
            org.privadapt.models.discrepancy.NCnvxAdap.Result res = org.privadapt.models.discrepancy.NCnvxAdap.solve(prob,
                    new org.privadapt.models.discrepancy.NCnvxAdap.Config(bestT, nu * prob.s1(), nu * prob.s2(), true, config.seed(),
                            bestFrozen),
                    new org.privadapt.models.dp.SessionRandomness(target.noise()), start, Double.NaN);
            diag.put("private_weights", bestFrozen ? "frozen at p0" : "free");
            diag.put("alpha", bestAlpha);
            diag.put("iterations", bestT);
            diag.put("noise_multiplier", nu);
            diag.put("s1", prob.s1());
            diag.put("s2", prob.s2());
            diag.put("loss_bound", prob.lossBound());
            diag.put("iterate", res.iterate());
            return classificationOutcome(name(), p, model(res.w(), ys.names()), Map.of("source", PrivacyCost.NOT_PRIVATE,
                    "target", target.spent()), diag);
        }

        /**
         * The noise multiplier for T steps at (eps, delta): frozen private weights release grad_W alone (T Gaussians of
         * sensitivity s1 at sigma = nu s1 compose into multiplier nu / sqrt(T)); free ones release the whitened pair
         * (multiplier nu / sqrt(2 T)).
         */
        static double multiplier(double eps, double delta, long t, boolean frozen) {
            return GaussianCalibration.analyticSigma(eps, delta, 1.0) * Math.sqrt((frozen ? 1.0 : 2.0) * t);
        }

        /** Logistic regression on the public source as a d x K start (its bias folded into the constant feature). */
        static DenseMatrix sourceStart(DenseMatrix xs, org.privadapt.data.ClassLabels ys, MethodConfig config) {
            org.privadapt.models.LogisticRegression lr = new org.privadapt.models.LogisticRegressionTrainer(config.l2(), 500).fit(xs, ys);
            DenseMatrix w = lr.weights().copy();
            int last = w.rows() - 1;
            double constant = xs.get(0, last);
            for (int c = 0; c < w.cols(); c++) {
                w.set(last, c, w.get(last, c) + lr.bias()[c] / constant);
            }
            return w;
        }

        static org.privadapt.models.LogisticRegression model(DenseMatrix w, List<String> names) {
            return new org.privadapt.models.LogisticRegression(w, new double[w.cols()], names);
        }

        static double accuracy(DenseMatrix x, int[] y, DenseMatrix w) {
            int[] pred = org.privadapt.models.Softmax.argmaxRows(org.privadapt.math.LinAlg.multiply(x, w));
            int ok = 0;
            for (int i = 0; i < y.length; i++) {
                ok += pred[i] == y[i] ? 1 : 0;
            }
            return (double) ok / y.length;
        }

        private static double max(double[] v) {
            double m = 0;
            for (double x : v) {
                m = Math.max(m, x);
            }
            return m;
        }

        private static int[] pick(int[] v, int[] idx) {
            int[] out = new int[idx.length];
            for (int i = 0; i < idx.length; i++) {
                out[i] = v[idx[i]];
            }
            return out;
        }
    }

    /**
     * Gaussian noise for simulations on public rows (hyperparameter selection): seeded, not a DP release, and never
     * used on private data.
     */
    static final class SimulatedNoise implements NoiseAndSampling {
        private final java.util.SplittableRandom rng;

        SimulatedNoise(long seed) {
            this.rng = new java.util.SplittableRandom(seed);
        }

        @Override
        public boolean bernoulli(double p) {
            return rng.nextDouble() < p;
        }

        @Override
        public void addGaussian(double[] v, double sigma) {
            for (int i = 0; i < v.length; i++) {
                v[i] += sigma * rng.nextGaussian();
            }
        }

        @Override
        public boolean isPrivate() {
            return false;
        }

        @Override
        public String description() {
            return "simulation on public rows (seeded SplittableRandom)";
        }
    }

    /**
     * The public validation rows cut in two for simulation-based selection: the first half (clipped to norm 1, targets
     * to [-1, 1]) stands in for the private rows, the second half (as scaled) scores the candidates.
     */
    record ValidationHalves(DenseMatrix xStandIn, double[] yStandIn, DenseMatrix xScore, double[] yScore) {
        static ValidationHalves of(SupervisedProtocol p, String what) {
            int v = p.xValidation().rows();
            int half = v / 2;
            int[] a = java.util.stream.IntStream.range(0, half).toArray();
            int[] b = java.util.stream.IntStream.range(half, v).toArray();
            double[] yv = values(p.yValidation(), what);
            return new ValidationHalves(PCnvxAdap.clipRows(p.xValidation().selectRows(a), 1.0), PCnvxAdap.clipTargets(pick(yv, a)),
                    p.xValidation().selectRows(b), pick(yv, b));
        }
    }

    static double[] pick(double[] v, int[] idx) {
        double[] out = new double[idx.length];
        for (int i = 0; i < idx.length; i++) {
            out[i] = v[idx[i]];
        }
        return out;
    }

    /** x w for rows x (the scaled, un-clipped rows: clipping is for the training sensitivity only). */
    static double[] predict(DenseMatrix x, double[] w) {
        return org.privadapt.math.LinAlg.multiply(x, w);
    }

    /** The target-only DP baseline. */
    static final class DpTargetOnly implements AdaptationMethod {
        /**
         * Regression: the calibration (public n, epsilon, delta) and the simulation's choice on public rows; classes: the
         * DP-SGD plan, whose n-dependent fields are public (replace-one, or n declared public, as the model requires).
         */
        @Override
        public boolean diagnosticsArePublic() {
            return true;
        }

        @Override
        public String name() {
            return "dp-target-only";
        }

        @Override
        public String description() {
            return "paper 003 baseline: noisy projected gradient descent on the target's labelled rows only (DP, replace-one)";
        }

        @Override
        public boolean isPrivate() {
            return true;
        }

        @Override
        public Set<String> protectedParties() {
            return Set.of("target");
        }

        @Override
        public Set<String> parameters() {
            return MethodParameters.union(SupervisedProtocol.PARAMETERS, org.privadapt.methods.core.PrivateLearners.ALL, Set.of("radius", "iterations",
                    PublicSubspace.PARAMETER, PublicSubspace.RESCALE));
        }

        @Override
        public AdaptationOutcome run(AdaptationTask task, MethodConfig config, PrivacyContext privacy)
                throws DataException, BudgetExceededException, BudgetLedger.LedgerException {
            SupervisedProtocol original = SupervisedProtocol.draw(task, config); // refuses multi-label targets first
            PrivacySession target = privacy.target();
            if (target.relation() != org.privadapt.privacy.NeighbouringRelation.REPLACE_ONE) {
                // the protocol's split permutes the pool by its size: under add/remove one record moves others between
                // training, validation and test rows, which no analysis here covers (issue 30's audit); the regression
                // path refused it already, in its descent
                throw new IllegalArgumentException("dp-target-only protects the target under replace-one (its split permutes the "
                        + "rows by their number, n public): use --relation replace");
            }
            if (!original.isRegression()) {
                return classification(task, original, config, target);
            }
            Disclosures.require(task.target(), target, "dp-target-only's predictor", Disclosures.Fact.SCHEMA);
            // the public subspace only (no offset: the source's labels stay out of the target-only baseline)
            PublicSubspace sub = reduction(original, config, false);
            SupervisedProtocol p = sub == null ? original : sub.apply(original);
            double[] radii = config.params().containsKey("radius") ? new double[] {config.param("radius", 4)} : new double[] {1, 4};
            long[] ts = config.params().containsKey("iterations") ? new long[] {config.intParam("iterations", 200)}
                    : new long[] {10, 30, 100, 300};
            double[] chosen = simulateDescent(p, radii, ts, target.target().epsilon(), target.target().delta(), config.seed());
            double radius = chosen[0];
            long iterations = (long) chosen[1];
            NoisyGradientDescent.Result r = NoisyGradientDescent.fitSquaredLoss(p.xTrain(), values(p.yTrain(), name()), radius,
                    1.0, iterations, target);
            Map<String, Object> diag = new LinkedHashMap<>(r.calibration());
            diag.put("radius", radius);
            diag.put("selection", "simulation on public validation rows");
            describeReduction(diag, sub);
            return regressionOutcome(name(), original, predict(sub, original.xTest(), r.w()), Map.of("source", PrivacyCost.NONE,
                    "target", target.spent()), diag);
        }

        /**
         * (radius, T) chosen without reading a private row: the descent, with the noise the real run would get for the
         * real n, run on the validation rows' first half and scored on the second (three seeded draws each).
         */
        static double[] simulateDescent(SupervisedProtocol p, double[] radii, long[] ts, double eps, double delta, long seed) {
            if (radii.length * ts.length == 1) {
                return new double[] {radii[0], ts[0]};
            }
            ValidationHalves h = ValidationHalves.of(p, "dp-target-only");
            DenseMatrix xa = h.xStandIn();
            double[] ya = h.yStandIn();
            DenseMatrix xb = h.xScore();
            double[] yb = h.yScore();
            int half = xa.rows();
            int n = p.n();
            double[] best = null;
            double bestErr = Double.POSITIVE_INFINITY;
            for (double radius : radii) {
                for (long t : ts) {
                    double nu = GaussianCalibration.analyticSigma(eps, delta, 1.0) * Math.sqrt(t);
                    double g = 2 * (radius + 1);
                    // the real run's noise on the gradient mean is nu 2G / n; on the stand-in's sum that is nu 2G half / n
                    double sigmaSum = nu * 2 * g * half / n;
                    double err = 0;
                    for (int k = 0; k < 3; k++) {
                        double[] w = NoisyGradientDescent.descend(xa, ya, radius, 1.0, t, sigmaSum, new SimulatedNoise(seed + 31L * k));
                        err += RidgeRegression.mse(predict(xb, w), yb) / 3;
                    }
                    if (err < bestErr) {
                        bestErr = err;
                        best = new double[] {radius, t};
                    }
                }
            }
            return best;
        }

        /**
         * Classes: the private learner ({@link org.privadapt.methods.core.PrivateLearners}; by default the rule, which
         * under replace-one, where n is public, is DP-SGD above epsilon 4, the paper's epsilon 10 included) of the
         * configured classifier on the target's training rows.
         */
        private AdaptationOutcome classification(AdaptationTask task, SupervisedProtocol p, MethodConfig config, PrivacySession target)
                throws DataException, BudgetExceededException, BudgetLedger.LedgerException {
            org.privadapt.data.ClassLabels y = (org.privadapt.data.ClassLabels) p.yTrain();
            int d = p.xTrain().cols();
            double eps = target.target().epsilon();
            org.privadapt.methods.core.PrivateLearners.Kind kind = org.privadapt.methods.core.PrivateLearners.kind(config, d,
                    y.numClasses(), eps, org.privadapt.methods.core.PrivateLearners.sizePublic(task.target(), target));
            org.privadapt.methods.core.PrivateLearners.requireDisclosures(kind, task.target(), target,
                    "dp-target-only's " + kind.label() + " model");
            org.privadapt.methods.core.PrivateLearners.Plan plan = org.privadapt.methods.core.PrivateLearners.plan(
                    org.privadapt.methods.core.PrivateLearners.resolved(config, kind), p.n(), d, y.numClasses(), eps,
                    target.target().delta(), target.relation(), null, 1);
            target.charge("dp-target-only model (" + kind.label() + ")", kind.label(), plan.event(), plan.describe());
            Classifier model = org.privadapt.methods.core.PrivateLearners.train(plan, p.xTrain(), y.codes(), y.names(), target.noise());
            return classificationOutcome(name(), p, model, Map.of("source", PrivacyCost.NONE, "target", target.spent()),
                    new LinkedHashMap<>(plan.describe()));
        }
    }
}
