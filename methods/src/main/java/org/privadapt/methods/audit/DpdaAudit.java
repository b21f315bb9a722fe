package org.privadapt.methods.audit;

import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.privadapt.math.CsrMatrix;
import org.privadapt.math.DenseMatrix;
import org.privadapt.models.dann.AdversarialNetwork;
import org.privadapt.models.dann.AdversarialTrainer;
import org.privadapt.models.dp.PublicRandomness;
import org.privadapt.models.dp.SessionRandomness;
import org.privadapt.models.nn.Activation;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.accounting.CertifyingAccountant;
import org.privadapt.privacy.accounting.NoiseCalibration;

/**
 * DPDA (paper 001) as its target runs it, audited with one training per {@link #CANARIES} target canaries
 * ({@link OneRunAudit}): a public labelled source of {@link #BASE_ROWS} rows and a private unlabelled target of
 * {@link #BASE_ROWS} ordinary rows plus the canaries, all held sparse, so that with secure noise the extractor's
 * first-layer noise is deferred to the rows each batch reads (issue 32, {@code DeferredTrunkNoise}). Canary i is the
 * target row R e_(2+i) (R = {@link #CANARY_NORM}), in an input feature of its own: its jointly clipped gradient
 * reaches the extractor's first layer only in row 2 + i, which no other record reads and every noisy step adds noise
 * to. The extractor has one unit, and the target domain step moves that row (reversed, after the noise) by
 * {@code +lr2 nu R p_0 (V_0 - V_1) sigma'(z) / M} (clipped), where V is the domain head's weight from the unit to each
 * domain and p_0 the head's probability that the canary comes from the source: the score is the row's move from the
 * (public, seeded) initial network in the direction {@code sign(V_0 - V_1)} of the released head. The target is drawn
 * like the source (no shift), so that the head cannot tell the domains apart and p_0 stays near 1/2 (with a shifted
 * target p_0 falls and the canaries' moves vanish beside the noise). A row that did not move at all scores minus
 * infinity (surely out): with every row's noise given, that has probability zero, but a run that left the unread rows
 * without their noise (no final flush) would show it at once. Add/remove: an "out" canary is absent; replace-one:
 * it is an all-zero row, which reads no first-layer row, so the target's size is the same on both sides. The noise
 * multiplier is calibrated once, before the coins, to the claimed (epsilon, delta) for the target's declared size (the
 * base rows plus the expected number of canaries under add/remove, all of them under replace-one). DPDA samples
 * each target row at rate M / (rows it holds), as its run computes it from a target size declared public; under
 * add/remove the rows held here move with the coins (the base rows plus about 500 +- 16 canaries), so the audited
 * rate is within about 3 % of the declared one rather than equal to it ({@code DpSgdAudit} plans with the declared
 * size instead; DPDA's trainer takes none). Replace-one is exact.
 */
final class DpdaAudit {
    private DpdaAudit() {
    }

    static final int CANARIES = 1000;
    static final int BASE_ROWS = 1000;
    static final double CANARY_NORM = 10;
    static final int WIDTH = 1; // the extractor's width: a canary's row has WIDTH weights
    static final int BATCH = 100;
    static final long ITERATIONS = 100;

    static final AuditedRelease DPDA_SPARSE = release("dpda-sparse", "one DPDA training per 1,000 target canaries in "
            + "input features of their own, each in with probability 1/2 (replace-one: an out canary is an all-zero row); "
            + "public source; sparse rows, so with secure noise the extractor's first-layer noise is deferred to the rows "
            + "read; score: the canary's first-layer row's move in the direction the released domain head pushes it",
            DpdaAudit::canaries);

    /**
     * G-DPDA's source release on sparse rows: the same design with the canaries in the (private, labelled) source.
     * Canary i is the source row R e_(2+i) of class 0; add/remove: an out canary is absent; replace-one: it is the
     * same row of class 1, so the source's size is the same on both sides. The label step moves the canary's row
     * towards class 0 through the label head, in the direction {@code sign(V_0 - V_1)} of the released label head's
     * weights from the unit (the source domain step moves it too, through the reversal, at a tenth of the rate here,
     * so the label step dominates); the score is the row's move in that direction, minus infinity when it did not
     * move. Sigma is calibrated to the claim for the source's 2T releases (the target, private too, uses the same
     * sigma and randomness of its own, split from the audit's).
     */
    static final AuditedRelease GDPDA_SPARSE = release("g-dpda-sparse", "one G-DPDA training per 1,000 source canaries "
            + "(class 0) in input features of their own, each in with probability 1/2 (replace-one: an out canary is the "
            + "same row of class 1); sparse rows, so with secure noise the extractor's first-layer noise is deferred to the "
            + "rows read, per party; score: the canary's first-layer row's move in the direction the released label head "
            + "pushes class 0", DpdaAudit::sourceCanaries);

    @FunctionalInterface
    interface CanaryTraining {
        OneRunAudit.Canaries of(double epsilon, double delta, NeighbouringRelation relation);
    }

    private static AuditedRelease release(String name, String design, CanaryTraining training) {
        return new AuditedRelease() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public String design() {
                return design;
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
                    throw new IllegalArgumentException(name + " has no injected-bug mode");
                }
                return Prepared.oneRun(training.of(epsilon, delta, relation), epsilon);
            }
        };
    }

    static AdversarialTrainer.Config config(double sigma) {
        return new AdversarialTrainer.Config(AdversarialTrainer.Mode.DPDA, ITERATIONS, BATCH, 0.1, 0.5, 1.0, sigma, true);
    }

    static AdversarialTrainer.Config sourceConfig(double sigma) {
        return new AdversarialTrainer.Config(AdversarialTrainer.Mode.GDPDA, ITERATIONS, BATCH, 0.5, 0.05, 1.0, sigma, true);
    }

    /**
     * Public base rows, d = 2 + {@link #CANARIES} features (only the first two used), from a fixed seed: two classes
     * (labels i % 2) along feature 0. Source and target are drawn alike (see the class comment). Returns the source rows,
     * their labels and the target rows.
     */
    private record Base(double[][] source, int[] labels, double[][] target) {
        static Base of(long seed) {
            int d = 2 + CANARIES;
            Random pub = new Random(seed); // public base data, not noise
            double[][] source = new double[BASE_ROWS][];
            int[] y = new int[BASE_ROWS];
            double[][] target = new double[BASE_ROWS][];
            for (int i = 0; i < BASE_ROWS; i++) {
                y[i] = i % 2;
                double[] r = new double[d];
                r[0] = (y[i] == 0 ? 0.5 : -0.5) + 0.3 * pub.nextGaussian();
                r[1] = 0.3 * pub.nextGaussian();
                source[i] = r;
                double[] t = new double[d];
                t[0] = (i % 2 == 0 ? 0.5 : -0.5) + 0.3 * pub.nextGaussian();
                t[1] = 0.3 * pub.nextGaussian();
                target[i] = t;
            }
            return new Base(source, y, target);
        }
    }

    /**
     * Each canary's score: its first-layer row's move from {@code init} to {@code out} in the direction
     * {@code sign(head[., 0] - head[., 1])}, per unit; minus infinity for a row that did not move at all.
     */
    private static double[] directionalScores(AdversarialNetwork init, AdversarialNetwork out, DenseMatrix head) {
        DenseMatrix w0 = init.trunk().layers().get(0).weights();
        DenseMatrix w = out.trunk().layers().get(0).weights();
        double[] s = new double[CANARIES];
        for (int i = 0; i < CANARIES; i++) {
            for (int col = 0; col < WIDTH; col++) {
                double towards = Math.signum(head.get(col, 0) - head.get(col, 1));
                s[i] += towards * (w.get(2 + i, col) - w0.get(2 + i, col));
            }
            if (w.get(2 + i, 0) == w0.get(2 + i, 0)) { // unmoved: never read and never given noise
                s[i] = Double.NEGATIVE_INFINITY;
            }
        }
        return s;
    }

    static OneRunAudit.Canaries canaries(double epsilon, double delta, NeighbouringRelation relation) {
        boolean add = relation == NeighbouringRelation.ADD_OR_REMOVE_ONE;
        int d = 2 + CANARIES;
        int nt = BASE_ROWS + (add ? CANARIES / 2 : CANARIES);
        double sigma = NoiseCalibration.smallest(v -> AdversarialTrainer.targetEvent(config(v), nt),
                new CertifyingAccountant(relation), epsilon, delta, ITERATIONS + " target iterations");
        AdversarialTrainer.Config cfg = config(sigma);
        Base base = Base.of(40);
        CsrMatrix xs = CsrMatrix.fromDense(DenseMatrix.fromRows(base.source()));
        AdversarialNetwork init = AdversarialNetwork.create(d, new int[] {WIDTH}, Activation.SIGMOID, List.of("0", "1"),
                new int[0], Activation.RELU, false, 41);
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
                double[][] rows = java.util.Arrays.copyOf(base.target(), BASE_ROWS + count);
                int at = BASE_ROWS;
                for (int i = 0; i < CANARIES; i++) {
                    if (add && !in[i]) {
                        continue;
                    }
                    double[] r = new double[d];
                    if (in[i]) {
                        r[2 + i] = CANARY_NORM;
                    }
                    rows[at++] = r;
                }
                CsrMatrix xt = CsrMatrix.fromDense(DenseMatrix.fromRows(rows));
                // the public source's batches from a generator of their own, as DPDA's run draws them
                AdversarialNetwork out = AdversarialTrainer.train(init, xs, base.labels(), xt, cfg, new PublicRandomness(42),
                        new SessionRandomness(noise));
                return directionalScores(init, out, out.targetDomainHead().layers().get(0).weights()); // WIDTH x 2 domains
            }
        };
    }

    static OneRunAudit.Canaries sourceCanaries(double epsilon, double delta, NeighbouringRelation relation) {
        boolean add = relation == NeighbouringRelation.ADD_OR_REMOVE_ONE;
        int d = 2 + CANARIES;
        int ns = BASE_ROWS + (add ? CANARIES / 2 : CANARIES);
        double sigma = NoiseCalibration.smallest(v -> AdversarialTrainer.sourceEvent(sourceConfig(v), ns),
                new CertifyingAccountant(relation), epsilon, delta, 2 * ITERATIONS + " source releases");
        AdversarialTrainer.Config cfg = sourceConfig(sigma);
        Base base = Base.of(50);
        CsrMatrix xt = CsrMatrix.fromDense(DenseMatrix.fromRows(base.target()));
        AdversarialNetwork init = AdversarialNetwork.create(d, new int[] {WIDTH}, Activation.SIGMOID, List.of("0", "1"),
                new int[0], Activation.RELU, false, 51);
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
                double[][] rows = java.util.Arrays.copyOf(base.source(), BASE_ROWS + count);
                int[] ys = java.util.Arrays.copyOf(base.labels(), BASE_ROWS + count);
                int at = BASE_ROWS;
                for (int i = 0; i < CANARIES; i++) {
                    if (add && !in[i]) {
                        continue;
                    }
                    double[] r = new double[d];
                    r[2 + i] = CANARY_NORM;
                    rows[at] = r;
                    ys[at++] = in[i] ? 0 : 1;
                }
                CsrMatrix xs = CsrMatrix.fromDense(DenseMatrix.fromRows(rows));
                AdversarialNetwork out = AdversarialTrainer.train(init, xs, ys, xt, cfg, new SessionRandomness(noise),
                        new SessionRandomness(noise.split()));
                return directionalScores(init, out, out.labelHead().layers().get(0).weights()); // WIDTH x 2 classes
            }
        };
    }
}
