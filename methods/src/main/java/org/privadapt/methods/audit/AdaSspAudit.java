package org.privadapt.methods.audit;

import java.util.EnumSet;
import java.util.Set;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.PrivateLearners;
import org.privadapt.models.dp.AdaSsp;
import org.privadapt.models.dp.SessionRandomness;
import org.privadapt.privacy.NeighbouringRelation;

/**
 * The audit of dp-source-only's {@code adassp} release (second moment and cross moment of [x, 1], the moment's
 * smallest eigenvalue: three Gaussian blocks claimed to compose into one), through the code the learner runs
 * (PrivateLearners' plan and {@code adasspRelease}). One dimension (no projection), R = 1, so R'^2 = 2. D: rows +1
 * (class 0) and -1 (class 1). Add/remove: D' adds +1 to class 0, moving the moment by R'^2 and the cross moment by R',
 * both at their sensitivity. Replace-one: D's class-0 row becomes -1 in class 0, moving the moment by sqrt 2 R'^2 and
 * the cross moment by 2R, again both at their sensitivity. The eigenvalue moves by less than its Weyl bound R'^2. The
 * statistic is the likelihood-ratio test of the independent Gaussian coordinates (the moment's upper triangle, the
 * cross moment, the eigenvalue): the sum over coordinates of shift times (output - D's exact value) over the
 * coordinate's claimed noise variance.
 */
final class AdaSspAudit {
    private AdaSspAudit() {
    }

    static final AuditedRelease ADASSP = new AuditedRelease() {
        @Override
        public String name() {
            return "adassp";
        }

        @Override
        public String design() {
            return "second moment, cross moment, smallest eigenvalue of [x, 1]; D' adds a row at the bound (or flips one); likelihood ratio";
        }

        @Override
        public Set<NeighbouringRelation> relations() {
            return EnumSet.allOf(NeighbouringRelation.class);
        }

        @Override
        public Prepared prepare(double epsilon, double delta, NeighbouringRelation relation, double noiseScale) {
            boolean add = relation == NeighbouringRelation.ADD_OR_REMOVE_ONE;
            MethodConfig c = MethodConfig.defaults().withParam("learner", "adassp").withParam("learner-row-bound", "1");
            PrivateLearners.Plan claimed = PrivateLearners.plan(c, 2, 1, 2, epsilon, delta, relation, null, 1);
            PrivateLearners.Plan plan = ClassStatisticsAudits.scaled(claimed, noiseScale);
            DenseMatrix d = DenseMatrix.fromRows(new double[][] {{1}, {-1}});
            int[] yd = {0, 1};
            DenseMatrix dPrime = add ? DenseMatrix.fromRows(new double[][] {{1}, {-1}, {1}}) : DenseMatrix.fromRows(new double[][] {{-1}, {-1}});
            int[] yPrime = add ? new int[] {0, 1, 0} : new int[] {0, 1};
            double[] mean0 = flat(PrivateLearners.adasspExact(claimed, d, yd, 2));
            double[] shift = flat(PrivateLearners.adasspExact(claimed, dPrime, yPrime, 2));
            // the claimed variances per coordinate, from the claimed plan's shares (an injected bug must not inform them)
            double s = claimed.noiseMultiplier();
            double sumsShare = claimed.config().param("adassp-sums-share", Double.NaN);
            double eigenShare = claimed.config().param("adassp-eigen-share", Double.NaN);
            AdaSsp.Sensitivities sens = AdaSsp.sensitivities(relation, 1.0);
            double vm = Math.pow(s / Math.sqrt(1 - sumsShare - eigenShare) * sens.moment(), 2);
            double vc = Math.pow(s / Math.sqrt(sumsShare) * sens.cross(), 2);
            double ve = Math.pow(s / Math.sqrt(eigenShare) * sens.eigen(), 2);
            // coordinates: moment (0,0), (1,1), (0,1) [an off-diagonal entry has variance vm / 2], cross (2 x 2), eigen
            double[] var = {vm, vm, vm / 2, vc, vc, vc, vc, ve};
            double[] w = new double[mean0.length];
            for (int i = 0; i < w.length; i++) {
                shift[i] -= mean0[i];
                w[i] = shift[i] / var[i];
            }
            return Prepared.statistic((neighbour, noise) -> {
                double[] out = flat(PrivateLearners.adasspRelease(plan, neighbour ? dPrime : d, neighbour ? yPrime : yd, 2,
                        new SessionRandomness(noise)));
                double t = 0;
                for (int i = 0; i < out.length; i++) {
                    t += w[i] * (out[i] - mean0[i]);
                }
                return t;
            }, epsilon);
        }
    };

    /** The moment's upper triangle (diagonal, then the off-diagonal entry), the cross moment and the eigenvalue. */
    private static double[] flat(AdaSsp a) {
        DenseMatrix m = a.moment();
        DenseMatrix c = a.cross();
        return new double[] {m.get(0, 0), m.get(1, 1), m.get(0, 1), c.get(0, 0), c.get(1, 0), c.get(0, 1), c.get(1, 1), a.eigen()};
    }
}
