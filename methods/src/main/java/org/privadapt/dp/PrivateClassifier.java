package org.privadapt.dp;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.privadapt.data.ClassLabels;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.PrivateLearners;
import org.privadapt.models.nn.Network;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacyCost;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.ledger.BudgetLedger;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * A classifier trained privately for a target (epsilon, delta), in the manner of Opacus's
 * {@code PrivacyEngine.make_private_with_epsilon}: say how much privacy you may spend and how to train; the noise is
 * calibrated so that the whole fit stays within it, the cost is charged to the party's ledger (if any) <b>before</b>
 * any noise is drawn, and {@link #spentEpsilon()} says what was spent, certified by the accountant. The learner is
 * chosen by the same rule as the CLI's {@code learner=auto} unless {@link Builder#learner(String)} picks one (docs/privacy/private-learners.md); what follows about
 * n and batches concerns the gradient learners (dp-sgd, dp-gd).
 *
 * <pre>{@code
 * PrivateClassifier clf = PrivateClassifier.builder()
 *         .epsilon(2).delta(1e-5).epochs(10).batch(64).clip(1.0)
 *         .sizeIsPublic()                // n enters the sampling rate: declare it public (or use replace-one)
 *         .classes(3)                    // one output per class: the class count is public
 *         .ledger(Path.of("source.ledger"), 10.0)
 *         .build();
 * clf.fit(x, y);                          // charges the ledger, then trains
 * int[] p = clf.predict(xTest);
 * double eps = clf.spentEpsilon();
 * }</pre>
 *
 * <p>Privacy: example-level DP under add-or-remove-one neighbours (or replace-one with {@link Builder#replaceOne()}).
 * The sampling rate batch/n and the number of steps reveal n, so under add-or-remove the size must be declared public
 * ({@link Builder#sizeIsPublic()}), as Opacus and TF Privacy silently assume; the class count k is published by the
 * model (one output per class), so it must be declared: {@link Builder#classes(int)} (labels are codes 0..k-1). It is
 * never taken from the labels, the rule {@link org.privadapt.methods.core.Adaptation#run} and the CLI follow too.
 * Rows should be bounded (e.g. scaled to a fixed L2 norm) but need not be: every per-example gradient is clipped.
 * Noise is drawn from a secure source unless {@link Builder#seed(long)} asks for reproducible (NOT PRIVATE) noise.
 */
public final class PrivateClassifier {
    private final Builder b;
    private Network model;
    private PrivacyCost spent;
    private PrivateLearners.Plan plan;

    private PrivateClassifier(Builder b) {
        this.b = b;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Plans the run for these rows, charges its cost (to the ledger when one is set), then trains.
     *
     * @throws BudgetExceededException when the ledger cannot pay (nothing is drawn or trained)
     * @throws IllegalStateException   when n was not declared public under add-or-remove neighbours
     */
    public PrivateClassifier fit(double[][] x, int[] y) throws BudgetExceededException, BudgetLedger.LedgerException {
        if (b.classes <= 0) {
            // the same rule as Adaptation.run and the CLI (Disclosures): the model has one output per class, so k read
            // from the labels (the largest code + 1) would reveal whether one record holds the last class
            throw new IllegalStateException("the model has one output per class, so it publishes the class count k: declare "
                    + "it public with builder().classes(k) (labels are codes 0..k-1); it is never read from the labels");
        }
        int kGuess = Math.max(b.classes, java.util.Arrays.stream(y).max().orElse(0) + 1);
        // auto with hidden layers is DP-SGD (a network was asked for), as PrivateLearners.kind resolves --classifier dnn
        PrivateLearners.Kind kind = PrivateLearners.kind(new MethodConfig(b.hidden.length == 0 ? "lr" : "dnn", 0.0, 1L,
                Map.of("learner", b.learner)), x == null || x.length == 0 ? 0 : x[0].length, kGuess, b.epsilon,
                b.sizePublic || b.relation == NeighbouringRelation.REPLACE_ONE);
        if (b.hidden.length > 0 && !kind.gradientBased()) {
            throw new IllegalArgumentException("hidden layers are trained by dp-sgd or dp-gd only; learner " + kind.label()
                    + " gives a linear model");
        }
        if (kind.revealsSize() && !b.sizePublic && b.relation == NeighbouringRelation.ADD_OR_REMOVE_ONE) {
            throw new IllegalStateException("DP-SGD's sampling rate batch/n reveals n: declare the number of records public "
                    + "(builder().sizeIsPublic()) or use replace-one neighbours (builder().replaceOne())");
        }
        DenseMatrix m = org.privadapt.math.DenseMatrix.fromRows(check(x));
        int k = b.classes;
        for (int v : y) {
            if (v < 0 || (b.classes > 0 && v >= b.classes)) {
                throw new IllegalArgumentException("label " + v + " outside 0.." + (b.classes > 0 ? b.classes - 1 : "k-1"));
            }
            if (b.classes == 0) {
                k = Math.max(k, v + 1);
            }
        }
        if (y.length != m.rows()) {
            throw new IllegalArgumentException(y.length + " labels for " + m.rows() + " rows");
        }
        List<String> names = new ArrayList<>();
        for (int c = 0; c < k; c++) {
            names.add(Integer.toString(c));
        }
        Map<String, String> params = new java.util.HashMap<>(Map.of("clip", Double.toString(b.clip), "epochs", Double.toString(b.epochs),
                "batch", Integer.toString(b.batch), "lr", Double.toString(b.learningRate), "learner", kind.label(),
                "hidden", b.hidden.length == 0 ? "50" : java.util.Arrays.stream(b.hidden).mapToObj(Integer::toString)
                        .collect(java.util.stream.Collectors.joining(","))));
        if (!Double.isNaN(b.rowBound)) {
            params.put("learner-row-bound", Double.toString(b.rowBound));
        }
        if (!Double.isNaN(b.lambda)) {
            params.put("learner-lambda", Double.toString(b.lambda));
        }
        MethodConfig cfg = new MethodConfig(b.hidden.length == 0 ? "lr" : "dnn", 0.0, b.seed == null ? 1L : b.seed, params);
        BudgetLedger ledger = b.ledger == null ? null
                : BudgetLedger.openOrCreateKeepingBudget(b.ledger, b.party, new PrivacyBudget(b.ledgerBudget, b.delta), b.relation);
        NoiseSource noise = b.seed == null ? NoiseSource.secure() : NoiseSource.seeded(b.seed);
        PrivacySession session = new PrivacySession(b.party, new PrivacyBudget(b.epsilon, b.delta), b.relation, noise, ledger);
        plan = PrivateLearners.plan(cfg, m.rows(), m.cols(), k, b.epsilon, b.delta, b.relation, null, 1);
        session.charge("PrivateClassifier.fit", kind.label(), plan.event(), plan.describe());
        model = PrivateLearners.train(plan, m, y, names, noise);
        spent = session.spent();
        return this;
    }

    public int[] predict(double[][] x) {
        requireFitted();
        return org.privadapt.da.ClassCodes.predict(model, check(x));
    }

    /** Accuracy on labelled rows (post-processing: costs nothing). */
    public double score(double[][] x, int[] y) {
        return org.privadapt.da.ClassCodes.accuracy(predict(x), y);
    }

    /** The epsilon this fit spent, certified by the accountant at the builder's delta (at most the target). */
    public double spentEpsilon() {
        requireFitted();
        return spent.epsilon();
    }

    /** Whether the guarantee holds (false with {@link Builder#seed(long)}: reproducible noise is NOT private). */
    public boolean isPrivate() {
        requireFitted();
        return spent.isPrivate();
    }

    /** The calibrated noise multiplier (noise std over the release's sensitivity: the clip norm for DP-SGD). */
    public double noiseMultiplier() {
        requireFitted();
        return plan.noiseMultiplier();
    }

    /** The number of DP-SGD or DP-GD steps taken (0 for the one-shot learners). */
    public long steps() {
        requireFitted();
        return plan.gradient() == null ? 0 : plan.gradient().config().steps();
    }

    /** The learner that was fitted (what auto resolved to, or what {@link Builder#learner(String)} said). */
    public String learner() {
        requireFitted();
        return plan.kind().label();
    }

    /** The trained network (logistic regression when no hidden layers were asked for). */
    public Network model() {
        requireFitted();
        return model;
    }

    private void requireFitted() {
        if (model == null) {
            throw new IllegalStateException("PrivateClassifier is not fitted: call fit first");
        }
    }

    private static double[][] check(double[][] x) {
        if (x == null || x.length == 0) {
            throw new IllegalArgumentException("no rows");
        }
        for (int i = 0; i < x.length; i++) {
            for (double v : x[i]) {
                if (!Double.isFinite(v)) {
                    throw new IllegalArgumentException("row " + i + " holds " + v);
                }
            }
        }
        return x;
    }

    /** What to spend and how to train; every setting is public (none is read from the data). */
    public static final class Builder {
        private double epsilon = Double.NaN;
        private double delta = 1e-5;
        private double epochs = 10;
        private int batch = 256;
        private double clip = 1.0;
        private double learningRate = 0.005;
        private int[] hidden = new int[0];
        private int classes;
        private boolean sizePublic;
        private NeighbouringRelation relation = NeighbouringRelation.ADD_OR_REMOVE_ONE;
        private Path ledger;
        private double ledgerBudget = Double.NaN;
        private String party = "trainer";
        private Long seed;
        private String learner = "auto";
        private double rowBound = Double.NaN;
        private double lambda = Double.NaN;

        private Builder() {
        }

        /**
         * The learner (docs/privacy/private-learners.md): auto (the default, the same rule as the CLI's learner=auto: on
         * epsilon and whether n is public; with hidden layers, dp-sgd), dp-sgd, dp-gd, ncm, lda, output-perturbation or
         * objective-perturbation.
         * ncm, lda, output- and objective-perturbation do not reveal n, so they need no {@link #sizeIsPublic()}, and give
         * linear models.
         */
        public Builder learner(String name) {
            if (!"auto".equals(name)) {
                PrivateLearners.Kind.parse(name);
            }
            this.learner = name;
            return this;
        }

        /** R for lda, output- and objective-perturbation (rows longer than R are scaled down to R; default floor(sqrt d)). */
        public Builder rowBound(double r) {
            this.rowBound = r;
            return this;
        }

        /**
         * Lambda (absolute L2 regularisation) for output-perturbation (default 10 (R^2 + 1)) and objective-perturbation
         * (default 25 (R^2 + 1), raised by the calibration when its Jacobian term needs more).
         */
        public Builder lambda(double l) {
            this.lambda = l;
            return this;
        }

        /** The epsilon this fit may spend (required). */
        public Builder epsilon(double e) {
            this.epsilon = e;
            return this;
        }

        public Builder delta(double d) {
            this.delta = d;
            return this;
        }

        public Builder epochs(double e) {
            this.epochs = e;
            return this;
        }

        /** Expected batch size B (Poisson sampling at rate B/n). */
        public Builder batch(int bs) {
            this.batch = bs;
            return this;
        }

        /** Per-example gradient clip norm C. */
        public Builder clip(double c) {
            this.clip = c;
            return this;
        }

        public Builder learningRate(double lr) {
            this.learningRate = lr;
            return this;
        }

        /** Hidden layer widths (none: multinomial logistic regression). */
        public Builder hidden(int... widths) {
            this.hidden = widths.clone();
            return this;
        }

        /** The number of classes k, declared public (required: the model has one output per class). */
        public Builder classes(int k) {
            this.classes = k;
            return this;
        }

        /** Declares the number of training records public (it is revealed by the sampling rate and step count). */
        public Builder sizeIsPublic() {
            this.sizePublic = true;
            return this;
        }

        /** Replace-one neighbours (n is then public by definition; the accountant's replace-one bound is used). */
        public Builder replaceOne() {
            this.relation = NeighbouringRelation.REPLACE_ONE;
            return this;
        }

        /** A budget ledger charged before training; created with {@code budget} if absent (its own budget otherwise). */
        public Builder ledger(Path file, double budget) {
            this.ledger = file;
            this.ledgerBudget = budget;
            return this;
        }

        /** The party name recorded in the ledger (default "trainer"). */
        public Builder party(String name) {
            this.party = name;
            return this;
        }

        /** Reproducible noise for experiments: the result is NOT differentially private. */
        public Builder seed(long s) {
            System.err.println("privadapt: WARNING: PrivateClassifier with a seed: reproducible noise, NOT differentially private");
            this.seed = s;
            return this;
        }

        public PrivateClassifier build() {
            if (!(epsilon > 0) || Double.isInfinite(epsilon)) {
                throw new IllegalArgumentException("epsilon must be set, finite and > 0, got " + epsilon);
            }
            if (!(delta > 0 && delta < 1)) {
                throw new IllegalArgumentException("delta must be in (0, 1), got " + delta);
            }
            if (!(epochs > 0) || batch < 1 || !(clip > 0) || !(learningRate > 0)) {
                throw new IllegalArgumentException("need epochs > 0, batch >= 1, clip > 0, learningRate > 0");
            }
            if (ledger != null && !(ledgerBudget > 0)) {
                throw new IllegalArgumentException("the ledger's budget must be > 0, got " + ledgerBudget);
            }
            return new PrivateClassifier(this);
        }
    }
}
