package org.privadapt.methods.bassily;

import static org.privadapt.methods.bassily.SupervisedBaselines.baselineParameters;
import static org.privadapt.methods.bassily.SupervisedSupport.ALPHA_GRID;
import static org.privadapt.methods.bassily.SupervisedSupport.classificationOutcome;
import static org.privadapt.methods.bassily.SupervisedSupport.regressionOutcome;
import static org.privadapt.methods.bassily.SupervisedSupport.selectRidge;
import static org.privadapt.methods.bassily.SupervisedSupport.values;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.privadapt.data.DataException;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.core.AdaptationMethod;
import org.privadapt.methods.core.AdaptationOutcome;
import org.privadapt.methods.core.AdaptationTask;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.MethodParameters;
import org.privadapt.methods.core.NonPrivate;
import org.privadapt.methods.core.PrivacyContext;
import org.privadapt.models.Classifier;
import org.privadapt.models.regression.RidgeRegression;

/**
 * {@code kmm} and {@code dm}: the source re-weighted to resemble the target's inputs (kernel mean matching, or
 * discrepancy minimisation), then trained together with the target's labelled rows: source rows carry total weight
 * gamma in proportion to their matching weights, target rows 1 - gamma equally; gamma (0.1 ... 0.9) and the ridge
 * lambda chosen on the validation rows. The target inputs matched are the training and validation rows'. How paper
 * 003 let its KMM and DM use the target's labels is not stated; this is one reading, said in docs/results/bassily.md.
 * Non-private.
 */
final class ReweightedMethod implements AdaptationMethod {
    private final boolean kmm;

    ReweightedMethod(boolean kmm) {
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
