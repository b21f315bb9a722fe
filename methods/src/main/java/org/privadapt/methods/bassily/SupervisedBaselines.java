package org.privadapt.methods.bassily;

import static org.privadapt.methods.bassily.SupervisedSupport.classificationOutcome;
import static org.privadapt.methods.bassily.SupervisedSupport.regressionOutcome;
import static org.privadapt.methods.bassily.SupervisedSupport.selectRidge;

import java.util.Map;
import java.util.Set;
import org.privadapt.data.DataException;
import org.privadapt.data.RealTargets;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.core.AdaptationOutcome;
import org.privadapt.methods.core.AdaptationTask;
import org.privadapt.methods.core.Classifiers;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.MethodParameters;
import org.privadapt.methods.core.NonPrivate;
import org.privadapt.models.Classifier;
import org.privadapt.models.regression.RidgeRegression;
import org.privadapt.privacy.PrivacyCost;

/**
 * The baselines {@code target-only} and {@code source-only} under paper 003's protocol ({@link SupervisedProtocol}):
 * the registry's methods of those names delegate here when the protocol is requested.
 */
public final class SupervisedBaselines {
    private SupervisedBaselines() {
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
}
