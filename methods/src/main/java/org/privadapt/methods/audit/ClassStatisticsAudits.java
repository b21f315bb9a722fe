package org.privadapt.methods.audit;

import java.util.EnumSet;
import java.util.Set;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.PrivateLearners;
import org.privadapt.models.dp.ClassStatistics;
import org.privadapt.models.dp.SessionRandomness;
import org.privadapt.privacy.NeighbouringRelation;

/** Audits of dp-source-only's class-statistics learners, ncm and lda, through the code the learners run. */
final class ClassStatisticsAudits {
    private ClassStatisticsAudits() {
    }

    /**
     * ncm: the class sums of unit rows as dp-source-only releases them (PrivateLearners' plan and release code), D two
     * rows of two classes in one dimension, D' with a third row at the bound in class 0 (add/remove) or D's class-0 row
     * replaced by its opposite (replace-one: the sum moves by the sensitivity 2); the statistic is the class-0 sum
     * signed towards D', the likelihood-ratio test of a Gaussian.
     */
    static final AuditedRelease NCM = new AuditedRelease() {
        @Override
        public String name() {
            return "ncm";
        }

        @Override
        public String design() {
            return "class sums; D' adds a row at the bound (add/remove) or flips one (replace-one); likelihood ratio";
        }

        @Override
        public Set<NeighbouringRelation> relations() {
            return EnumSet.allOf(NeighbouringRelation.class);
        }

        @Override
        public Prepared prepare(double epsilon, double delta, NeighbouringRelation relation, double noiseScale) {
            boolean add = relation == NeighbouringRelation.ADD_OR_REMOVE_ONE;
            MethodConfig c = MethodConfig.defaults().withParam("learner", "ncm");
            PrivateLearners.Plan plan = scaled(PrivateLearners.plan(c, 2, 1, 2, epsilon, delta, relation, null, 1), noiseScale);
            DenseMatrix d = DenseMatrix.fromRows(new double[][] {{1}, {-1}});
            int[] yd = {0, 1};
            DenseMatrix dPrime = add ? DenseMatrix.fromRows(new double[][] {{1}, {-1}, {1}}) : DenseMatrix.fromRows(new double[][] {{-1}, {-1}});
            int[] yPrime = add ? new int[] {0, 1, 0} : new int[] {0, 1};
            double sign = add ? 1 : -1;
            return Prepared.statistic((neighbour, noise) -> {
                DenseMatrix x = neighbour ? dPrime : d;
                int[] y = neighbour ? yPrime : yd;
                return sign * PrivateLearners.ncmRelease(plan, x, y, 2, new SessionRandomness(noise)).sums().get(0, 0);
            }, epsilon);
        }
    };

    /**
     * lda's release: counts, sums and the second moment, three Gaussian blocks claimed to compose into one. D: rows +R
     * (class 0) and -R (class 1) in one dimension, R = 1. Add/remove: D' adds +R to class 0, moving the class-0 count by
     * 1, its sum by R and the moment by R^2, every block by its full sensitivity. Replace-one: D's class-0 row becomes -R
     * in class 1 (the counts move by sqrt 2 in L2, the sums by sqrt 2 R, the moment not at all: below the replace-one
     * sensitivities (sqrt 2, 2R, sqrt 2 R^2), which no single pair attains together). The statistic is the
     * likelihood-ratio test of independent Gaussian blocks: the sum over released coordinates of shift times
     * (output - D's exact value) over the coordinate's noise variance.
     */
    static final AuditedRelease LDA = new AuditedRelease() {
        @Override
        public String name() {
            return "lda";
        }

        @Override
        public String design() {
            return "counts, sums, shared moment; D' adds a row at the bound (or moves one across classes); likelihood ratio";
        }

        @Override
        public Set<NeighbouringRelation> relations() {
            return EnumSet.allOf(NeighbouringRelation.class);
        }

        @Override
        public Prepared prepare(double epsilon, double delta, NeighbouringRelation relation, double noiseScale) {
            boolean add = relation == NeighbouringRelation.ADD_OR_REMOVE_ONE;
            MethodConfig c = MethodConfig.defaults().withParam("learner", "lda").withParam("learner-row-bound", "1");
            PrivateLearners.Plan plan = scaled(PrivateLearners.plan(c, 2, 1, 2, epsilon, delta, relation, null, 1), noiseScale);
            DenseMatrix d = DenseMatrix.fromRows(new double[][] {{1}, {-1}});
            int[] yd = {0, 1};
            DenseMatrix dPrime = add ? DenseMatrix.fromRows(new double[][] {{1}, {-1}, {1}}) : DenseMatrix.fromRows(new double[][] {{-1}, {-1}});
            int[] yPrime = add ? new int[] {0, 1, 0} : new int[] {1, 1};
            ClassStatistics exactD = ClassStatistics.of(d, yd, 2, true);
            ClassStatistics exactE = ClassStatistics.of(dPrime, yPrime, 2, true);
            double[] mean0 = flat(exactD);
            double[] shift = flat(exactE);
            // the claimed noise variances per coordinate, from the plan's own shares, as ldaRelease reads them
            double countShare = plan.config().param("lda-count-share", 0.05);
            double momentShare = plan.config().param("lda-moment-share", 0.5);
            double sumShare = 1 - countShare - momentShare;
            ClassStatistics.Sensitivities sens = ClassStatistics.sensitivities(relation, 1.0);
            double s = plan.noiseMultiplier() / noiseScale; // the claim's multiplier (an injected bug must not inform the test)
            double vc = Math.pow(s / Math.sqrt(countShare) * sens.count(), 2);
            double vs = Math.pow(s / Math.sqrt(sumShare) * sens.sum(), 2);
            double vm = Math.pow(s / Math.sqrt(momentShare) * sens.moment(), 2);
            double[] w = new double[mean0.length];
            for (int i = 0; i < w.length; i++) {
                shift[i] -= mean0[i];
                double v = i < 2 ? vc : i < 4 ? vs : vm;
                w[i] = shift[i] / v;
            }
            return Prepared.statistic((neighbour, noise) -> {
                double[] out = flat(PrivateLearners.ldaRelease(plan, neighbour ? dPrime : d, neighbour ? yPrime : yd, 2,
                        new SessionRandomness(noise)));
                double t = 0;
                for (int i = 0; i < out.length; i++) {
                    t += w[i] * (out[i] - mean0[i]);
                }
                return t;
            }, epsilon);
        }
    };

    /** The plan with its noise multiplier scaled (an injected bug for the audits' self-tests; 1 leaves it as planned). */
    static PrivateLearners.Plan scaled(PrivateLearners.Plan p, double noiseScale) {
        return noiseScale == 1.0 ? p : new PrivateLearners.Plan(p.kind(), p.event(), p.noiseMultiplier() * noiseScale, p.gradient(),
                p.config(), p.relation(), p.runs(), p.objective());
    }

    /** counts (2), sums (2 x 1), the moment (1 x 1) as one vector. */
    private static double[] flat(ClassStatistics c) {
        return new double[] {c.counts()[0], c.counts()[1], c.sums().get(0, 0), c.sums().get(1, 0), c.moment().get(0, 0)};
    }
}
