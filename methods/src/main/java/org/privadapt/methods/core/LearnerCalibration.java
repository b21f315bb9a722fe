package org.privadapt.methods.core;

import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.accounting.NoiseCalibration;
import org.privadapt.privacy.accounting.PrivacyAccountant;
import org.privadapt.privacy.events.ApproximateDpEvent;
import org.privadapt.privacy.events.ComposedEvent;
import org.privadapt.privacy.events.DpEvent;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.events.SelfComposedEvent;
import org.privadapt.privacy.mechanisms.GaussianCalibration;
import org.privadapt.privacy.mechanisms.ObjectivePerturbationCalibration;

/**
 * How much noise a non-gradient learner's plan takes ({@link PrivateLearners#plan}): the Gaussian multiplier of the
 * class-statistics and output-perturbation learners, and objective perturbation's (eps1, delta1) per model, each the
 * smallest noise (the largest share) for which the runs composed with a prior release stay within (epsilon, delta)
 * as the ledger's accountant certifies. The gradient learners are planned by {@link PrivateTraining}.
 */
final class LearnerCalibration {
    private LearnerCalibration() {
    }

    /** The Gaussian learners ({@code ncm}, {@code lda}, {@code output-perturbation}): {@code runs} releases of one multiplier. */
    static PrivateLearners.Plan planGaussian(PrivateLearners.Kind kind, MethodConfig cfg, double epsilon, double delta,
                                             NeighbouringRelation relation, DpEvent prior, int runs) {
        double s;
        double eps = epsilon * (1 - 1e-9);
        if (prior == null && runs == 1) {
            s = GaussianCalibration.analyticSigma(eps, delta, 1.0);
        } else {
            PrivacyAccountant certified = new org.privadapt.privacy.accounting.CertifyingAccountant(relation);
            s = NoiseCalibration.smallest(x -> {
                DpEvent runsEvent = runs == 1 ? new GaussianEvent(x) : new SelfComposedEvent(new GaussianEvent(x), runs);
                return prior == null ? runsEvent : ComposedEvent.of(prior, runsEvent);
            }, certified, eps, delta, runs + " Gaussian releases of " + kind.label());
        }
        DpEvent event = runs == 1 ? new GaussianEvent(s) : new SelfComposedEvent(new GaussianEvent(s), runs);
        return new PrivateLearners.Plan(kind, event, s, null, cfg, relation, runs, null);
    }

    /**
     * Objective perturbation: each model is one (eps1, delta1) guarantee. Alone, eps1 and delta1 are the target;
     * after a prior or for several runs, delta1 = delta / (2 runs) and eps1 is the largest value for which the
     * composition, certified by the same accountant the ledger charges with, stays within (epsilon, delta).
     */
    static PrivateLearners.Plan planObjective(MethodConfig cfg, int d, int k, double epsilon, double delta, NeighbouringRelation relation, DpEvent prior,
                              int runs) {
        double r = cfg.param("learner-row-bound", Double.NaN);
        double lambda = cfg.param("learner-lambda", LearnerSettings.defaultObjectiveLambda(r));
        double eps1;
        double delta1;
        if (prior == null && runs == 1) {
            eps1 = epsilon;
            delta1 = delta;
        } else {
            delta1 = delta / (2.0 * runs);
            PrivacyAccountant certified = new org.privadapt.privacy.accounting.CertifyingAccountant(relation);
            java.util.function.DoubleFunction<DpEvent> compose = e -> {
                DpEvent one = new ApproximateDpEvent(e, delta1);
                DpEvent all = runs == 1 ? one : new SelfComposedEvent(one, runs);
                return prior == null ? all : ComposedEvent.of(prior, all);
            };
            double lo = 0;
            double hi = epsilon;
            if (certified.epsilon(compose.apply(hi), delta) <= epsilon) {
                lo = hi;
            } else {
                for (int it = 0; it < 40; it++) {
                    double mid = 0.5 * (lo + hi);
                    if (certified.epsilon(compose.apply(mid), delta) <= epsilon) {
                        lo = mid;
                    } else {
                        hi = mid;
                    }
                }
            }
            if (!(lo > 0)) {
                throw new IllegalArgumentException("objective perturbation: nothing of (" + epsilon + ", " + delta
                        + ") is left for " + runs + " model(s) after the prior release");
            }
            eps1 = lo;
        }
        ObjectivePerturbationCalibration.Calibrated c = ObjectivePerturbationCalibration.calibrate(eps1, delta1, k, r, lambda,
                PrivateLearners.OBJECTIVE_RELATIVE_TOLERANCE, (d + 1) * k, relation);
        DpEvent one = new ApproximateDpEvent(eps1, delta1);
        DpEvent event = runs == 1 ? one : new SelfComposedEvent(one, runs);
        return new PrivateLearners.Plan(PrivateLearners.Kind.OBJECTIVE_PERTURBATION, event, Double.NaN, null, cfg.withParam("learner-lambda",
                Double.toString(c.parameters().lambda())), relation, runs, c);
    }
}
