package org.privadapt.methods.bassily;

import static org.privadapt.methods.bassily.SupervisedSupport.ALPHA_GRID;
import static org.privadapt.methods.bassily.SupervisedSupport.classificationOutcome;

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
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.PrivacyCost;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.ledger.BudgetLedger;

/**
 * {@code ncnvxadap} and {@code pncnvxadap}: Algorithm 2 ({@link org.privadapt.models.discrepancy.NCnvxAdap}) for
 * classes. The discrepancy is estimated between the source and the target's public validation rows
 * ({@link org.privadapt.models.discrepancy.LogisticDiscrepancy}, a local method, so it is kept off private rows:
 * it costs no budget and needs no sensitivity). The start is logistic regression on the public source. The private
 * variant clips rows to norm 1, charges the T steps as one Gaussian (multiplier nu / sqrt(2 T), as pcnvxadap's)
 * calibrated for the whole (epsilon, delta), and chooses alpha and T by simulation on the public validation rows.
 */
final class NCnvxAdapMethod implements AdaptationMethod {
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
        DenseMatrix xt = PCnvxAdap.clipRows(p.xTrain(), 1.0);
        org.privadapt.models.discrepancy.NCnvxAdap.Problem prob = new org.privadapt.models.discrepancy.NCnvxAdap.Problem(xs,
                ys.codes(), xt, yt.codes(), k, d, bestAlpha, lambda1, 0, 0, config.param("mu", Math.sqrt(xs.rows() + n)), radius, 1.0);
        double nu = multiplier(eps, delta, bestT, bestFrozen);
        org.privadapt.models.discrepancy.NCnvxAdap.Result res = PNCnvxAdap.fit(prob, bestT, bestFrozen, config.seed(), start, target);
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
        return PNCnvxAdap.multiplier(eps, delta, t, frozen);
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
