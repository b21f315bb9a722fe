package org.privadapt.methods.bassily;

import static org.privadapt.methods.bassily.SupervisedSupport.ALPHA_GRID;
import static org.privadapt.methods.bassily.SupervisedSupport.KAPPA1_GRID;
import static org.privadapt.methods.bassily.SupervisedSupport.describeReduction;
import static org.privadapt.methods.bassily.SupervisedSupport.predict;
import static org.privadapt.methods.bassily.SupervisedSupport.publicStart;
import static org.privadapt.methods.bassily.SupervisedSupport.reduction;
import static org.privadapt.methods.bassily.SupervisedSupport.regressionOutcome;
import static org.privadapt.methods.bassily.SupervisedSupport.values;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.privadapt.data.DataException;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.core.AdaptationMethod;
import org.privadapt.methods.core.AdaptationOutcome;
import org.privadapt.methods.core.AdaptationTask;
import org.privadapt.methods.core.Disclosures;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.MethodParameters;
import org.privadapt.methods.core.NonPrivate;
import org.privadapt.methods.core.PrivacyContext;
import org.privadapt.models.discrepancy.CnvxAdap;
import org.privadapt.models.discrepancy.LabelledDiscrepancy;
import org.privadapt.models.regression.RidgeRegression;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.PrivacyCost;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.ledger.BudgetLedger;
import org.privadapt.privacy.mechanisms.GaussianCalibration;

/** CnvxAdap (non-private) and PCnvxAdap. */
final class CnvxAdapMethod implements AdaptationMethod {
    static final double[] RADIUS_GRID = {1, 4, 16};
    /** The {@code --param} names of the discrepancy-weighting methods. */
    static final Set<String> CNVX = Set.of("alpha", "kappa1", "kappa2", "kappa-inf", "radius", "iterations", "discrepancy-share",
            "step", "start", "solver", PublicSubspace.PARAMETER,
            PublicSubspace.RESCALE);

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
