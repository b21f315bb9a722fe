package org.privadapt.methods.otda;

import java.util.LinkedHashMap;
import java.util.Map;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.DataException;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.ot.BarycentricMapping;
import org.privadapt.math.ot.CostMatrices;
import org.privadapt.math.ot.Coupling;
import org.privadapt.math.ot.GroupLassoOt;
import org.privadapt.math.ot.SinkhornOptions;
import org.privadapt.methods.core.AdaptationMethod;
import org.privadapt.methods.core.AdaptationOutcome;
import org.privadapt.methods.core.AdaptationTask;
import org.privadapt.methods.core.Classifiers;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.NonPrivate;
import org.privadapt.methods.core.PrivacyContext;
import org.privadapt.methods.dpot.TargetLabels;
import org.privadapt.models.Classifier;

/**
 * OTDA (Courty, Flamary, Tuia, Rakotomamonjy, TPAMI 2017), the non-private method paper 002 builds on: the coupling
 * of Eq. (3) between the source and target rows (squared Euclidean cost scaled to [0, 1] by its maximum,
 * entropic + class-based group-lasso regularisation, {@code reg-e} 0.01 and {@code reg-g} 0.1 as in the paper), the
 * barycentric images of the source rows, a classifier trained on them with the source labels, evaluated on the
 * target. Semi-supervised with {@code --param target-labels=k}: k labelled target rows per class forbid mass between
 * differently labelled rows and join the training set.
 */
public final class OtdaMethod implements AdaptationMethod {
    @Override
    public String name() {
        return "otda";
    }

    @Override
    public String description() {
        return "optimal transport DA: group-lasso OT, barycentric mapping of the source (non-private)";
    }

    @Override
    public java.util.Set<String> parameters() {
        return org.privadapt.methods.core.MethodParameters.union(org.privadapt.methods.core.MethodParameters.CLASSIFIER, java.util.Set.of("reg-e", "reg-g", "outer", "target-labels"));
    }

    @Override
    public boolean isPrivate() {
        return false;
    }

    /**
     * Deterministic with logistic regression (L-BFGS from zero) and unsupervised; the network's initialisation and the
     * semi-supervised setting's labelled rows follow the seed.
     */
    @Override
    public boolean deterministic(MethodConfig config) {
        return "lr".equals(config.classifier()) && config.intParam("target-labels", 0) == 0;
    }

    @Override
    public AdaptationOutcome run(AdaptationTask task, MethodConfig config, PrivacyContext privacy) throws DataException {
        ClassLabels ys = task.source().classLabels();
        int perClass = config.intParam("target-labels", 0);
        TargetLabels tl = TargetLabels.pick(task, ys.names(), perClass, config.seed());
        DenseMatrix xs = task.source().features().toDense();
        DenseMatrix xt = task.target().features().toDense();
        DenseMatrix cost = CostMatrices.squaredEuclidean(xs, xt);
        double max = cost.maxAbs();
        if (max > 0) {
            cost.scaleInPlace(1.0 / max);
        }
        if (tl.any()) {
            cost = CostMatrices.maskDifferentLabels(cost, ys.codes(), tl.codes());
        }
        Coupling g = GroupLassoOt.solve(CostMatrices.uniform(xs.rows()), CostMatrices.uniform(xt.rows()), cost, ys.codes(),
                config.param("reg-e", 0.01), config.param("reg-g", 0.1), config.intParam("outer", 10), SinkhornOptions.defaults());
        DenseMatrix images = BarycentricMapping.map(g.plan(), xt);
        int[] zero = BarycentricMapping.zeroMassRows(g.plan());
        DenseMatrix x = images;
        int[] y = ys.codes();
        if (zero.length > 0) {
            boolean[] z = new boolean[xs.rows()];
            for (int i : zero) {
                z[i] = true;
            }
            int[] keep = java.util.stream.IntStream.range(0, xs.rows()).filter(i -> !z[i]).toArray();
            x = images.selectRows(keep);
            y = java.util.Arrays.stream(keep).map(i -> ys.code(i)).toArray();
        }
        Classifier model = trainWithTargetLabels(x, y, ys, xt, tl, config);
        int[] pred = new int[tl.unlabelled().length];
        double acc = Classifiers.accuracy(model, task.evaluation().features().selectRows(tl.unlabelled()),
                task.evaluation().selectRows(tl.unlabelled(), "unlabelled target rows"), pred);
        Map<String, Object> diag = new LinkedHashMap<>();
        diag.put("ot_iterations", g.iterations());
        diag.put("marginal_error", g.marginalError());
        diag.put("converged", g.converged());
        diag.put("zero_mass_rows", zero.length);
        diag.put("transport_cost", g.transportCost() * max);
        return new AdaptationOutcome(name(), acc, pred, model.classNames(), NonPrivate.both(), diag);
    }

    private static Classifier trainWithTargetLabels(DenseMatrix x, int[] y, ClassLabels ys, DenseMatrix xt, TargetLabels tl,
                                                    MethodConfig config) {
        if (!tl.any()) {
            return Classifiers.train(config, x, new ClassLabels(y, ys.names()));
        }
        TargetLabels.TrainingSet t = tl.withLabelledRows(x, y, xt);
        return Classifiers.train(config, t.features(), new ClassLabels(t.labels(), ys.names()));
    }
}
