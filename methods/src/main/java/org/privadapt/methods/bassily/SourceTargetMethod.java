package org.privadapt.methods.bassily;

import static org.privadapt.methods.bassily.SupervisedBaselines.baselineParameters;
import static org.privadapt.methods.bassily.SupervisedSupport.classificationOutcome;
import static org.privadapt.methods.bassily.SupervisedSupport.regressionOutcome;
import static org.privadapt.methods.bassily.SupervisedSupport.selectRidge;
import static org.privadapt.methods.bassily.SupervisedSupport.values;

import java.util.Map;
import java.util.Set;
import org.privadapt.data.DataException;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.core.AdaptationMethod;
import org.privadapt.methods.core.AdaptationOutcome;
import org.privadapt.methods.core.AdaptationTask;
import org.privadapt.methods.core.Classifiers;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.NonPrivate;
import org.privadapt.methods.core.PrivacyContext;
import org.privadapt.models.Classifier;
import org.privadapt.models.regression.RidgeRegression;

/** Training on the source and the target's training rows together (each row weight 1). */
final class SourceTargetMethod implements AdaptationMethod {
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
