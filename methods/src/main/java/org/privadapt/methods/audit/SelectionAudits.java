package org.privadapt.methods.audit;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.PrivateSelection;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.accounting.CertifyingAccountant;

/** dp-source-only's private selection of its learner ({@code learner=select}, docs/privacy/selection.md). */
final class SelectionAudits {
    private SelectionAudits() {
    }

    /** The audited candidates: two ncm learners, the only candidates whose released model shows its noise linearly. */
    static final String CANDIDATES = "ncm,ncm";

    /** Rows per class in the pair: large against the class sum's noise, so that the model's direction is linear in it. */
    static final int ROWS_PER_CLASS = 400;

    /**
     * learner=select as dp-source-only runs it: {@link PrivateSelection#plan} (the calibration of the candidates and of
     * the validation counts under the ledger's certificate), and {@link PrivateSelection#run} (the split, each candidate's
     * release and fit, the noisy counts, the choice), with {@code selection=all} and {@code selection-validation=0}
     * (every record in the training and the validation part: the split's coin, which the analysis does not use, would
     * otherwise hide the canary from the models one time in five and weaken the attack for a reason the claim does not
     * count). What the selection releases is the chosen model with its noisy count and the candidates' noisy counts.
     *
     * <p><b>The pair.</b> Two classes in two dimensions: {@link #ROWS_PER_CLASS} rows (1, 0) in class 0 and as many
     * (-1, 0) in class 1. Add/remove: D' adds the canary (0, 1) to class 0. Replace-one: class 0 holds the canary
     * (0, -1) in D and (0, 1) in D'. An ncm candidate releases the class sums of unit rows plus Gaussian noise, and
     * its model is each class's noisy sum divided by its norm; the canary moves class 0's sum along the second axis by
     * the full sensitivity (1, or 2 under replace-one), orthogonally to a sum of length 400, so the released direction's
     * slope {@code w_1 / w_0} is the noisy second coordinate over 400 plus the noise on the first, a 1 % perturbation.
     *
     * <p><b>The test.</b> A linear test fitted on discarded outputs ({@link LinearDistinguisher}) over the chosen
     * model's class-0 slope (times the rows per class) and the sum of the released noisy counts (which move when the
     * canary is classified as class 0).
     *
     * <p><b>How tight it can be.</b> The claim pays for both candidates' releases and the counts; only the chosen
     * model is output. At epsilon 2, each candidate has Gaussian mu / 1.5 and the count vector mu / 3 (the counts'
     * noise is {@link PrivateSelection#TRAINING_SCORE_FACTOR} times a candidate's), where mu is the composed plan's: the
     * attack sees at most one model and the counts, sqrt(1 + 1/4) / 1.5 = 0.75 of the plan's mu, and less because the
     * canary's count moves only when it is classified as class 0. An epsilon lower bound near 60 % of the claim is
     * what a correct implementation gives; a bug in the counts' noise or the candidates' calibration shows above it.
     */
    static final AuditedRelease SELECT = new AuditedRelease() {
        @Override
        public String name() {
            return "select";
        }

        @Override
        public String design() {
            return "learner=select (candidates " + CANDIDATES + ", selection=all, validation 0); D' adds (or flips) a canary "
                    + "orthogonal to its class; fitted linear test on the chosen model's slope and the noisy counts";
        }

        @Override
        public long defaultTrials() {
            return 200_000;
        }

        @Override
        public Set<NeighbouringRelation> relations() {
            return EnumSet.allOf(NeighbouringRelation.class);
        }

        @Override
        public Prepared prepare(double epsilon, double delta, NeighbouringRelation relation, double noiseScale) {
            if (noiseScale != 1.0) {
                throw new IllegalArgumentException("select has no injected-bug mode");
            }
            boolean add = relation == NeighbouringRelation.ADD_OR_REMOVE_ONE;
            MethodConfig c = MethodConfig.defaults().withParam("learner", "select").withParam("learner-candidates", CANDIDATES)
                    .withParam("selection", "all").withParam("selection-validation", "0");
            int m = ROWS_PER_CLASS;
            DenseMatrix d = rows(m, add ? null : new double[] {0, -1});
            DenseMatrix dPrime = rows(m, new double[] {0, 1});
            int[] yd = labels(m, !add);
            int[] yPrime = labels(m, true);
            PrivateSelection.Plan plan = PrivateSelection.plan(c, d.rows(), 2, 2, epsilon, delta, relation);
            double claimed = new CertifyingAccountant(relation).epsilon(plan.event(), delta);
            List<String> classes = List.of("0", "1");
            return Prepared.vector((neighbour, noise) -> {
                PrivateSelection.Outcome o = neighbour ? PrivateSelection.run(plan, dPrime, yPrime, classes, noise)
                        : PrivateSelection.run(plan, d, yd, classes, noise);
                DenseMatrix w = o.model().weights(0); // d x k: the class columns, unit length
                double counts = 0;
                for (double v : o.releasedCounts()) {
                    counts += v;
                }
                return new double[] {m * w.get(1, 0) / w.get(0, 0), counts};
            }, claimed);
        }
    };

    /** m rows (1, 0), then m rows (-1, 0), then the canary if given. */
    static DenseMatrix rows(int m, double[] canary) {
        DenseMatrix x = DenseMatrix.zeros(2 * m + (canary == null ? 0 : 1), 2);
        for (int i = 0; i < m; i++) {
            x.set(i, 0, 1);
            x.set(m + i, 0, -1);
        }
        if (canary != null) {
            x.set(2 * m, 0, canary[0]);
            x.set(2 * m, 1, canary[1]);
        }
        return x;
    }

    /** The labels of {@link #rows}: class 0, class 1, and class 0 for the canary if present. */
    static int[] labels(int m, boolean canary) {
        int[] y = new int[2 * m + (canary ? 1 : 0)];
        for (int i = m; i < 2 * m; i++) {
            y[i] = 1;
        }
        return y;
    }
}
