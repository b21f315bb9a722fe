package org.privadapt.methods.audit;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.PrivateLearners;
import org.privadapt.models.nn.Network;
import org.privadapt.privacy.NeighbouringRelation;

/**
 * dp-source-only's perturbation learners (docs/privacy/private-learners.md) through PrivateLearners' plan and train,
 * the code the learner runs: output perturbation (the regularised minimiser plus Gaussian noise) and objective
 * perturbation (the minimiser of the objective plus a random linear term). One feature, two classes, default
 * settings. D: one row +R of class 1; add/remove: D' adds +R labelled 0; replace-one: D' relabels D's row to 0. The
 * statistic: a linear test fitted on the released weights and biases.
 *
 * <p>What limits the bound: the proofs charge the per-example Lipschitz constant {@code L = sqrt(2 (R^2 + 1))}, the
 * gradient norm of a row the model misclassifies with certainty. At the default Lambda (20 for R = 1) the minimiser of
 * any dataset of rows within R stays near zero, where a row's gradient is {@code sqrt((R^2 + 1) / 2) = L / 2}: the
 * exact minimisers of this pair are 0.476 L / Lambda apart (0.45 with 8 rows of class 1, 0.33 with 64, 0.20 with
 * 1024: more rows add curvature faster than confidence), so the mechanism's true epsilon is about half the claim and
 * no pair of rows within R makes it much larger. Replace-one's sensitivity 2L is twice that again.
 */
final class PerturbationAudits {
    private PerturbationAudits() {
    }

    static final int ROWS = 1;

    static final AuditedRelease OUTPUT = of("output-perturbation");
    static final AuditedRelease OBJECTIVE = of("objective-perturbation");

    private static AuditedRelease of(String learner) {
        return new AuditedRelease() {
            @Override
            public String name() {
                return learner;
            }

            @Override
            public String design() {
                return "a confident model's weights; D' adds (or relabels) a row it misclassifies; fitted linear test";
            }

            @Override
            public Set<NeighbouringRelation> relations() {
                return EnumSet.allOf(NeighbouringRelation.class);
            }

            @Override
            public Prepared prepare(double epsilon, double delta, NeighbouringRelation relation, double noiseScale) {
                if (noiseScale != 1.0) {
                    throw new IllegalArgumentException(learner + " has no injected-bug mode");
                }
                boolean add = relation == NeighbouringRelation.ADD_OR_REMOVE_ONE;
                MethodConfig c = MethodConfig.defaults().withParam("learner", learner);
                PrivateLearners.Plan plan = PrivateLearners.plan(c, ROWS + (add ? 1 : 0), 1, 2, epsilon, delta, relation, null, 1);
                double r = plan.config().param("learner-row-bound", 1.0);
                double[][] rows = new double[ROWS][];
                int[] y = new int[ROWS];
                for (int i = 0; i < ROWS; i++) {
                    rows[i] = new double[] {r};
                    y[i] = 1;
                }
                DenseMatrix d = DenseMatrix.fromRows(rows);
                DenseMatrix dPrime;
                int[] yPrime;
                if (add) {
                    double[][] more = java.util.Arrays.copyOf(rows, ROWS + 1);
                    more[ROWS] = new double[] {r};
                    dPrime = DenseMatrix.fromRows(more);
                    yPrime = java.util.Arrays.copyOf(y, ROWS + 1); // the new row's label is 0
                } else {
                    dPrime = d;
                    yPrime = y.clone();
                    yPrime[0] = 0;
                }
                List<String> classes = List.of("0", "1");
                return Prepared.vector((neighbour, noise) -> {
                    Network m = PrivateLearners.train(plan, neighbour ? dPrime : d, neighbour ? yPrime : y, classes, noise);
                    double[] w = m.weights(0).data();
                    double[] b = m.bias(0);
                    double[] out = java.util.Arrays.copyOf(w, w.length + b.length);
                    System.arraycopy(b, 0, out, w.length, b.length);
                    return out;
                }, epsilon);
            }
        };
    }
}
