package org.privadapt.methods.audit;

import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.privadapt.math.CsrMatrix;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.PrivateLearners;
import org.privadapt.models.nn.Network;
import org.privadapt.privacy.NeighbouringRelation;

/**
 * DP-SGD as dp-source-only trains it (PrivateLearners' plan and train: Poisson sampling, per-example clipping,
 * calibrated Gaussian noise, Adam, the default settings), audited with one training run per {@link #CANARIES}
 * canaries ({@link OneRunAudit}). White-box input canaries in coordinates of their own: {@link #BASE_ROWS} ordinary
 * rows (two classes, two features, generated from a fixed public seed) and one extra feature per canary; canary i is
 * the row R e_(2+i) of class 0 with R = {@link #CANARY_NORM}, so its clipped gradient lies almost wholly in row 2 + i of
 * the weight matrix, where no other row's gradient reaches and every step adds independent noise. Its score is the
 * released model's margin for class 0 in that row, W[2+i][0] - W[2+i][1]. Add/remove: an "out" canary is absent;
 * replace-one: it is present as class 1, so n is the same on both sides. The plan is computed once, before the coins,
 * from n = base rows plus the expected number of canaries (add/remove) or all of them (replace-one), as a user's
 * declared n would be: the sampling rate and the noise do not depend on the coins.
 *
 * <p>What limits the bound: one run gives m guesses each worth at most one epsilon-DP randomized response, and the
 * theorem needs many correct guesses to exclude an epsilon; with 1,000 canaries per run the bound cannot pass about
 * 1.5 even for a non-private training (Steinke et al. report the same order); more runs pool more canaries.
 */
final class DpSgdAudit {
    private DpSgdAudit() {
    }

    static final int CANARIES = 1000;
    static final int BASE_ROWS = 1000;
    static final double CANARY_NORM = 10;

    static final AuditedRelease DP_SGD = of("dp-sgd");

    /** DP-GD: the same canaries, full-batch noisy gradient descent (dp-source-only's learner=dp-gd). */
    static final AuditedRelease DP_GD = of("dp-gd");

    /**
     * DP-SGD with plain SGD on the same canaries held as a sparse matrix: with secure noise the first layer's noise is
     * deferred to the rows each batch reads (issue 32), and each canary's row is read only when the canary is sampled.
     */
    static final AuditedRelease DP_SGD_SPARSE = of("dp-sgd-sparse", "dp-sgd", true,
            MethodConfig.defaults().withParam("optimizer", "sgd").withParam("lr", "0.5").withParam("weight-decay", "0"));

    private static AuditedRelease of(String learner) {
        return of(learner, learner, false, MethodConfig.defaults());
    }

    private static AuditedRelease of(String name, String learner, boolean sparse, MethodConfig settings) {
        return new AuditedRelease() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public String design() {
                return "one training run per 1,000 input canaries in their own coordinates, each in with probability 1/2; "
                        + "score: the canary row's class margin" + (sparse ? "; sparse rows, plain SGD (lr 0.5, no weight "
                        + "decay): with secure noise the first layer's noise is deferred to the rows read" : "");
            }

            @Override
            public Set<NeighbouringRelation> relations() {
                return EnumSet.allOf(NeighbouringRelation.class);
            }

            @Override
            public long defaultTrials() {
                return CANARIES;
            }

            @Override
            public Prepared prepare(double epsilon, double delta, NeighbouringRelation relation, double noiseScale) {
                if (noiseScale != 1.0) {
                    throw new IllegalArgumentException(learner + " has no injected-bug mode");
                }
                return Prepared.oneRun(canaries(epsilon, delta, relation, settings.withParam("learner", learner), sparse), epsilon);
            }
        };
    }

    /** The canary training under a learner configuration (dp-sgd with its defaults unless {@code base} overrides them). */
    static OneRunAudit.Canaries canaries(double epsilon, double delta, NeighbouringRelation relation, MethodConfig base) {
        return canaries(epsilon, delta, relation, base, false);
    }

    /** {@link #canaries(double, double, NeighbouringRelation, MethodConfig)}, the rows held sparse if {@code sparse}. */
    static OneRunAudit.Canaries canaries(double epsilon, double delta, NeighbouringRelation relation, MethodConfig base,
                                         boolean sparse) {
        boolean add = relation == NeighbouringRelation.ADD_OR_REMOVE_ONE;
        int d = 2 + CANARIES;
        int n = BASE_ROWS + (add ? CANARIES / 2 : CANARIES);
        MethodConfig c = base.params().containsKey("learner") ? base : base.withParam("learner", "dp-sgd");
        PrivateLearners.Plan plan = PrivateLearners.plan(c, n, d, 2, epsilon, delta, relation, null, 1);
        Random pub = new Random(30); // public base data, not noise
        double[][] baseRows = new double[BASE_ROWS][];
        int[] baseY = new int[BASE_ROWS];
        for (int i = 0; i < BASE_ROWS; i++) {
            baseY[i] = i % 2;
            double[] r = new double[d];
            r[0] = (baseY[i] == 0 ? 0.5 : -0.5) + 0.3 * pub.nextGaussian();
            r[1] = 0.3 * pub.nextGaussian();
            baseRows[i] = r;
        }
        List<String> classes = List.of("0", "1");
        return new OneRunAudit.Canaries() {
            @Override
            public int perRun() {
                return CANARIES;
            }

            @Override
            public double[] scores(boolean[] in, org.privadapt.privacy.noise.NoiseSource noise) {
                int count = 0;
                for (boolean b : in) {
                    count += add && !b ? 0 : 1;
                }
                double[][] rows = java.util.Arrays.copyOf(baseRows, BASE_ROWS + count);
                int[] y = java.util.Arrays.copyOf(baseY, BASE_ROWS + count);
                int at = BASE_ROWS;
                for (int i = 0; i < CANARIES; i++) {
                    if (add && !in[i]) {
                        continue;
                    }
                    double[] r = new double[d];
                    r[2 + i] = CANARY_NORM;
                    rows[at] = r;
                    y[at++] = in[i] ? 0 : 1;
                }
                DenseMatrix dense = DenseMatrix.fromRows(rows);
                Network model = PrivateLearners.train(plan, sparse ? CsrMatrix.fromDense(dense) : dense, y, classes, noise);
                DenseMatrix w = model.weights(0);
                double[] s = new double[CANARIES];
                for (int i = 0; i < CANARIES; i++) {
                    s[i] = w.get(2 + i, 0) - w.get(2 + i, 1);
                }
                return s;
            }
        };
    }
}
