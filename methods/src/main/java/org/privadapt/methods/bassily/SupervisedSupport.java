package org.privadapt.methods.bassily;

import java.util.LinkedHashMap;
import java.util.Map;
import org.privadapt.data.DataException;
import org.privadapt.data.RealTargets;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.core.AdaptationOutcome;
import org.privadapt.methods.core.Classifiers;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.models.Classifier;
import org.privadapt.models.regression.RidgeRegression;
import org.privadapt.privacy.PrivacyCost;

/**
 * What paper 003's methods share under {@link SupervisedProtocol}: the hyperparameter grids, the public start and
 * the public reduction ({@link PublicSubspace}), ridge chosen on the public validation rows, and the outcomes in the
 * targets' units.
 */
final class SupervisedSupport {
    private SupervisedSupport() {
    }

    static final double[] RIDGE_GRID = {1e-6, 1e-4, 1e-3, 1e-2, 1e-1, 1};
    static final double[] ALPHA_GRID = {0.1, 0.3, 0.5, 0.7, 0.9};
    /**
     * kappa_1 for the non-private search: at the optimum q_i = p0_i min(1, sqrt(kappa_1 / loss_i)), so kappa_1 is the
     * squared residual (targets scaled into [-1, 1]) above which a row is down-weighted; 1 means no re-weighting.
     */
    static final double[] KAPPA1_GRID = {1e-3, 1e-2, 1e-1, 1};

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

    /** x w for rows x (the scaled, un-clipped rows: clipping is for the training sensitivity only). */
    static double[] predict(DenseMatrix x, double[] w) {
        return org.privadapt.math.LinAlg.multiply(x, w);
    }
}
