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
import org.privadapt.methods.core.PrivacyContext;
import org.privadapt.models.discrepancy.LabelledDiscrepancy;
import org.privadapt.models.regression.RidgeRegression;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.PrivacyCost;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.ledger.BudgetLedger;

/**
 * {@code pcnvxadap-stats}: {@link StatisticsPCnvxAdap}, alpha, kappa_1 and Lambda chosen by simulation on public
 * rows as for pcnvxadap (three noise draws per candidate, common to all candidates).
 */
final class StatisticsPCnvxAdapMethod implements AdaptationMethod {
    /** pcnvxadap-stats: radii of the ball around the public start. */
    static final double[] TRUST_RADIUS_GRID = {0.1, 0.3, 1, 3};

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
        values(original.yTrain(), name());
        PrivacySession target = privacy.target();
        Disclosures.require(task.target(), target, "pcnvxadap-stats's predictor", Disclosures.Fact.SCHEMA);
        return fit(original, PrivateSample.of(original), config, target);
    }

    /**
     * Once the protocol is drawn: the reduction and the settings chosen on public rows, then the two releases over
     * the private sample's exact quantities, wherever its rows are ({@link PrivateSample}), and the exact solve.
     */
    public static AdaptationOutcome fit(SupervisedProtocol original, PrivateSample priv, MethodConfig config, PrivacySession target)
            throws BudgetExceededException, BudgetLedger.LedgerException {
        String name = "pcnvxadap-stats";
        values(original.ySource(), name);
        PublicSubspace sub = reduction(original, config, true);
        SupervisedProtocol p = sub == null ? original : sub.apply(original);
        double[] ys = values(p.ySource(), name);
        double[] start = sub != null && sub.offset() != null ? null : publicStart(p, ys, config);
        List<StatisticsPCnvxAdap.Settings> grid = grid(config);
        StatisticsPCnvxAdap.Settings chosen = grid.size() == 1 ? grid.get(0)
                : simulate(p, ys, grid, target.target().epsilon(), target.target().delta(), config.seed(), start);
        StatisticsPCnvxAdap.Result r = StatisticsPCnvxAdap.fit(p.xSource(), ys, priv.targetSource(sub), chosen, target, start);
        Map<String, Object> diag = new LinkedHashMap<>(r.calibration());
        diag.put("alpha", chosen.alpha());
        diag.put("kappa1", chosen.kappa1());
        diag.put("radius", chosen.lambda());
        diag.put("discrepancy", r.discrepancy());
        describeReduction(diag, sub);
        return regressionOutcome(name, original, predict(sub, original.xTest(), r.w()), Map.of("source", PrivacyCost.NOT_PRIVATE,
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
