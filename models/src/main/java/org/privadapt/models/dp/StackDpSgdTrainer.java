package org.privadapt.models.dp;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.nn.LearningRateSchedule;
import org.privadapt.models.nn.Optimizer;
import org.privadapt.models.nn.graph.DenseLayer;
import org.privadapt.models.nn.graph.EncoderClassifier;
import org.privadapt.models.nn.graph.PerExample;
import org.privadapt.models.nn.graph.Stack;
import org.privadapt.privacy.accounting.NoiseCalibration;
import org.privadapt.privacy.accounting.PrivacyAccountant;
import org.privadapt.privacy.events.DpEvent;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.events.NonPrivateEvent;
import org.privadapt.privacy.events.PoissonSampledEvent;
import org.privadapt.privacy.events.SelfComposedEvent;

/**
 * Trains an {@link EncoderClassifier} (encoder stack E and classifier stack C jointly, {@code x -> C(E(x))}) with
 * DP-SGD, or without privacy for the baselines: paper 004's source model (methods-001-003-004.md, 4.2 Step 1, as
 * repaired in 4.3 Notes 2-3). The loss is the {@link Targets}' (softmax cross-entropy or summed per-label sigmoid
 * cross-entropy), averaged over examples.
 *
 * <p><b>Private training</b> ({@link #train}), T iterations, each:
 * <ol>
 *   <li>a logical batch by Poisson sampling: every row joins independently with probability q = min(1, B / n), drawn
 *       from the owning party's randomness;</li>
 *   <li>each example's gradient over <i>every</i> trainable parameter of both stacks is clipped to L2 norm C with one
 *       joint bound (norms and sums factorised per dense layer by {@link PerExample}: matrix products, no loop over
 *       examples), summed over physical chunks of at most {@code maxPhysicalBatch} rows;</li>
 *   <li>one Gaussian vector N(0, sigma^2 C^2 I) is added to the summed clipped gradient (once per logical batch), in a
 *       fixed order: trainable layers encoder first, each its weights then its bias;</li>
 *   <li>the noisy sum is divided by the expected batch size q n, weight decay (lambda W, on trainable weights) added,
 *       and the optimiser (sgd, momentum, adam) steps with the schedule's rate.</li>
 * </ol>
 * Frozen layers ({@link DenseLayer#freeze()}) pass errors to the layers below them but get no gradient, no noise and
 * no update, and are outside the clipping norm; their values must not depend on the protected data (public or
 * initial weights), or the release is not DP (Note 2 of 4.3). Under add/remove-one neighbours the clipped sum moves by
 * at most C, so an iteration is the Poisson-subsampled Gaussian mechanism with multiplier sigma and the run is
 * {@link #event}; the returned stacks depend on the data only through these releases (initialisation is seeded and
 * data-free), so they and anything computed from them alone carry the guarantee.
 *
 * <p><b>The row count n</b> is the protected party's dataset size. It fixes q = B / n and the normaliser q n, which
 * the event (and so the ledger and the model's statement) reveals, so, as for {@link DpSgdTrainer} and
 * {@code AdversarialTrainer}, n is treated as <i>public</i>: the caller must have it declared public (or use the
 * replace-one relation, under which n is the same for all neighbours) before charging {@link #event} and training;
 * this class does not check it. The normaliser never reads the sampled batch's size.
 *
 * <p><b>Non-private training</b> ({@link #trainNonPrivate}): ordinary shuffled minibatches of B rows (epochs of a
 * seeded permutation), mean gradient, no clipping, no noise; event {@link NonPrivateEvent}.
 *
 * <p>A non-finite per-example gradient norm stops private training with {@link NonFiniteGradientException} (it
 * cannot be clipped); a non-finite batch gradient stops non-private training likewise.
 */
public final class StackDpSgdTrainer {
    private StackDpSgdTrainer() {
    }

    /**
     * Settings shared by both modes.
     *
     * @param iterations       T: number of optimiser steps
     * @param batch            B: expected logical batch size (private: Poisson rate B / n; non-private: minibatch size)
     * @param clipNorm         C (private only): joint L2 bound on each example's gradient over all trainable parameters
     * @param noiseMultiplier  sigma (private only): the noise on the clipped sum is N(0, sigma^2 C^2 I); 0 adds none
     *                         (then the run is not DP whatever the randomness)
     * @param maxPhysicalBatch rows per physical chunk (memory only; noise once per logical batch)
     * @param optimizer        sgd, momentum or adam
     * @param learningRate     base rate
     * @param schedule         constant, cosine, step:EVERY:FACTOR, exp:DECAY
     * @param weightDecay      lambda: lambda W is added to the (privatised) gradient of every trainable weight matrix
     * @param shuffleSeed      non-private only: the seed of the epoch permutations
     */
    public record Config(long iterations, int batch, double clipNorm, double noiseMultiplier, int maxPhysicalBatch,
                         String optimizer, double learningRate, String schedule, double weightDecay, long shuffleSeed) {
        public Config {
            if (iterations < 0) {
                throw new IllegalArgumentException("iterations must be >= 0, got " + iterations);
            }
            if (batch < 1 || maxPhysicalBatch < 1) {
                throw new IllegalArgumentException("batch and physical batch sizes must be >= 1, got " + batch + ", " + maxPhysicalBatch);
            }
            if (!(clipNorm > 0) || Double.isInfinite(clipNorm)) {
                throw new IllegalArgumentException("clip norm must be a positive number, got " + clipNorm);
            }
            if (!(noiseMultiplier >= 0) || Double.isInfinite(noiseMultiplier)) {
                throw new IllegalArgumentException("noise multiplier must be a number >= 0, got " + noiseMultiplier);
            }
            if (!(learningRate > 0) || !(weightDecay >= 0)) {
                throw new IllegalArgumentException("need a positive learning rate and weight decay >= 0");
            }
            Optimizer.parse(optimizer);
            LearningRateSchedule.parse(schedule, learningRate);
        }

        public Config withNoiseMultiplier(double sigma) {
            return new Config(iterations, batch, clipNorm, sigma, maxPhysicalBatch, optimizer, learningRate, schedule, weightDecay,
                    shuffleSeed);
        }

        public Config withIterations(long t) {
            return new Config(t, batch, clipNorm, noiseMultiplier, maxPhysicalBatch, optimizer, learningRate, schedule, weightDecay,
                    shuffleSeed);
        }
    }

    /**
     * What training did.
     *
     * @param model          the trained copy
     * @param examplesUsed   total rows over all batches
     * @param meanBatchLoss  each step's mean loss over its batch, computed on the data <b>without protection</b>: for
     *                       tests and local diagnostics only, never to be released with the model
     * @param noise          the randomness's description ("" for non-private training)
     * @param isPrivate      whether the run is DP: private mode, secure randomness and sigma > 0
     */
    public record Result(EncoderClassifier model, long steps, long examplesUsed, DpEvent event, List<Double> meanBatchLoss,
                         String noise, boolean isPrivate) {
    }

    /** q = min(1, B / n), n the (public) number of rows. */
    public static double samplingRate(Config c, int n) {
        if (n < 1) {
            throw new IllegalArgumentException("need at least one row, got " + n);
        }
        return Math.min(1.0, (double) c.batch() / n);
    }

    /**
     * The privacy event of {@link #train} on n rows (n public): T repetitions of the Poisson-subsampled Gaussian
     * mechanism at rate q = min(1, B / n) with multiplier sigma. The caller charges it to the party's ledger, composed
     * with its other releases, before training.
     */
    public static DpEvent event(Config c, int n) {
        return new SelfComposedEvent(new PoissonSampledEvent(samplingRate(c, n), new GaussianEvent(c.noiseMultiplier())), c.iterations());
    }

    /**
     * {@code c} with the smallest noise multiplier whose {@link #event} on n rows stays within (epsilon, delta) by
     * {@code accountant} ({@link NoiseCalibration}: never overshoots the target). Uses only public quantities.
     *
     * @throws IllegalArgumentException when no multiplier up to 10^6 reaches the target, or T = 0
     */
    public static Config calibrate(Config c, int n, PrivacyAccountant accountant, double epsilon, double delta) {
        return c.withNoiseMultiplier(NoiseCalibration.noiseMultiplier(accountant, epsilon, delta, samplingRate(c, n), c.iterations()));
    }

    /**
     * {@code c} with the largest number of iterations (at most {@code c.iterations()}) whose event on n rows stays
     * within (epsilon, delta) at {@code c}'s noise multiplier ({@link DpSgdTrainer#stepsWithinBudget}).
     */
    public static Config iterationsWithinBudget(Config c, int n, PrivacyAccountant accountant, double epsilon, double delta) {
        return c.withIterations(DpSgdTrainer.stepsWithinBudget(accountant, epsilon, delta, samplingRate(c, n), c.noiseMultiplier(),
                c.iterations()));
    }

    /**
     * DP-SGD on (x, y) from a copy of {@code init}; {@code rnd} is the owning party's randomness (Poisson draws and
     * noise). The caller must have charged {@link #event(Config, int)} with {@code n = x.rows()} declared public. It is
     * {@link #train(EncoderClassifier, int, BatchSums, Config, NoiseAndSampling)} with each step's clipped sum computed
     * here ({@link #clippedSum} on the rows).
     *
     * @throws NonFiniteGradientException when an example's gradient is not finite (the budget is spent, nothing is
     *                                    released)
     */
    public static Result train(EncoderClassifier init, FeatureMatrix x, Targets y, Config c, NoiseAndSampling rnd) {
        check(init, x, y);
        int n = x.rows();
        double q = samplingRate(c, n);
        FeatureMatrix xb = org.privadapt.math.RowGather.of(x, (double) c.iterations() * q * n); // row-major gathers (issue 32)
        return train(init, n, (model, batch, step) -> {
            Step s = gradientSum(model, xb, y, batch, c.clipNorm(), c.maxPhysicalBatch(), step);
            return new ClippedSum(s.sum(), s.lossSum());
        }, c, rnd);
    }

    /**
     * Where a private step's exact query comes from: the sum over the sampled batch (increasing indices into the n
     * records, as {@link #train(EncoderClassifier, int, BatchSums, Config, NoiseAndSampling)} samples them) of the
     * per-example gradients of {@code model} (the current network: not to be kept or changed), each clipped jointly to
     * C, in the order of {@link ClippedSum#sum()}. In process: {@link #clippedSum} on the rows; the spark module sums the
     * same per-example clipped gradients where the rows are.
     */
    @FunctionalInterface
    public interface BatchSums {
        ClippedSum sum(EncoderClassifier model, int[] batch, long step);

        /** Where the sums want a window of steps' batches ahead ({@link PoissonBatches}); null by default. */
        default PoissonBatches.Lookahead lookahead() {
            return null;
        }
    }

    /**
     * A batch's summed, jointly clipped per-example gradients and its summed loss.
     *
     * @param sum     one array per trainable layer's weights (column-major, as {@code DenseMatrix.data()}) then one per
     *                its bias, the layers in the order of {@link EncoderClassifier#trainableLayers()}; zeros for an empty
     *                batch. The trainer adds the noise to these arrays in place.
     * @param lossSum the batch's summed loss (a diagnostic, never released)
     */
    public record ClippedSum(double[][] sum, double lossSum) {
    }

    /**
     * DP-SGD over n records (n public) whose per-step clipped sums come from {@code sums}, from a copy of
     * {@code init}: each step the Poisson batch is drawn here from {@code rnd} (one Bernoulli draw per record, in
     * record order), its clipped sum asked of {@code sums}, the noise drawn from {@code rnd} and added, then the
     * normalisation by q n, weight decay and the optimiser step: the loop of
     * {@link #train(EncoderClassifier, FeatureMatrix, Targets, Config, NoiseAndSampling)}, the same draws in the same
     * order. The caller must have charged {@link #event(Config, int)}, and checked that the records fit {@code init}
     * (their dimension, their targets).
     *
     * @throws NonFiniteGradientException when an example's gradient is not finite
     */
    public static Result train(EncoderClassifier init, int n, BatchSums sums, Config c, NoiseAndSampling rnd) {
        if (init.trainableLayers().isEmpty()) {
            throw new IllegalArgumentException("every layer is frozen: nothing to train");
        }
        EncoderClassifier model = init.copy();
        List<DenseLayer> trainable = model.trainableLayers();
        Optimizer opt = Optimizer.parse(c.optimizer());
        LearningRateSchedule lr = LearningRateSchedule.parse(c.schedule(), c.learningRate());
        double[][] params = parameters(trainable);
        double q = samplingRate(c, n);
        double normaliser = q * n;
        double noiseStd = c.noiseMultiplier() * c.clipNorm();
        long used = 0;
        List<Double> losses = new ArrayList<>();
        PoissonBatches batches = new PoissonBatches(rnd, n, q, c.iterations(), sums.lookahead());
        for (long step = 0; step < c.iterations(); step++) {
            int[] batch = batches.next(step);
            ClippedSum s = sums.sum(model, batch, step);
            used += batch.length;
            double[][] g = s.sum();
            if (g.length != params.length) {
                throw new IllegalStateException("a clipped sum of " + g.length + " arrays for " + params.length + " parameter arrays");
            }
            if (noiseStd > 0) {
                for (double[] a : g) {
                    rnd.addGaussian(a, noiseStd);
                }
            }
            for (double[] a : g) {
                scale(a, 1.0 / normaliser);
            }
            addWeightDecay(g, params, c.weightDecay());
            opt.step(params, g, lr.at(step, c.iterations()));
            losses.add(batch.length == 0 ? Double.NaN : s.lossSum() / batch.length);
        }
        return new Result(model, c.iterations(), used, event(c, n), losses, rnd.description(),
                rnd.isPrivate() && c.noiseMultiplier() > 0);
    }

    /**
     * The query a private step adds noise to: the sum over {@code batch} (indices into x's rows and y) of the
     * per-example gradients of {@code model} over every trainable parameter, each clipped jointly to L2 norm
     * {@code clip}, in physical chunks of at most {@code maxPhysicalBatch} rows (as {@link #train} computes it). Adding
     * or removing one example moves it by at most {@code clip} in L2 norm, replacing one by at most {@code 2 clip}.
     *
     * @throws NonFiniteGradientException when an example's gradient is not finite
     */
    public static ClippedSum clippedSum(EncoderClassifier model, FeatureMatrix x, Targets y, int[] batch, double clip,
                                        int maxPhysicalBatch, long step) {
        if (!(clip > 0) || Double.isInfinite(clip)) {
            throw new IllegalArgumentException("clip norm must be a positive number, got " + clip);
        }
        if (maxPhysicalBatch < 1) {
            throw new IllegalArgumentException("the physical batch size must be >= 1, got " + maxPhysicalBatch);
        }
        Step s = gradientSum(model, x, y, batch, clip, maxPhysicalBatch, step);
        return new ClippedSum(s.sum(), s.lossSum());
    }

    /**
     * Non-private minibatch training from a copy of {@code init}: T steps over epochs of a permutation seeded by
     * {@code c.shuffleSeed()}, batches of B rows (the last of an epoch may be smaller), mean gradient; clip norm and
     * noise multiplier are ignored.
     *
     * @throws NonFiniteGradientException when a batch gradient is not finite
     */
    public static Result trainNonPrivate(EncoderClassifier init, FeatureMatrix x, Targets y, Config c) {
        EncoderClassifier model = prepare(init, x, y);
        List<DenseLayer> trainable = model.trainableLayers();
        Optimizer opt = Optimizer.parse(c.optimizer());
        LearningRateSchedule lr = LearningRateSchedule.parse(c.schedule(), c.learningRate());
        double[][] params = parameters(trainable);
        int n = x.rows();
        SplittableRandom rng = new SplittableRandom(c.shuffleSeed());
        FeatureMatrix xb = org.privadapt.math.RowGather.of(x, (double) c.iterations() * c.batch()); // row-major gathers (issue 32)
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        int pos = n;
        long used = 0;
        List<Double> losses = new ArrayList<>();
        for (long step = 0; step < c.iterations(); step++) {
            if (pos >= n) {
                for (int i = n - 1; i > 0; i--) {
                    int j = rng.nextInt(i + 1);
                    int t = order[i];
                    order[i] = order[j];
                    order[j] = t;
                }
                pos = 0;
            }
            int[] idx = Arrays.copyOfRange(order, pos, Math.min(n, pos + c.batch()));
            pos += idx.length;
            Step s = gradientSum(model, xb, y, idx, Double.NaN, c.maxPhysicalBatch(), step);
            double[][] g = s.sum();
            for (double[] a : g) {
                scale(a, 1.0 / idx.length);
                for (double v : a) {
                    if (!Double.isFinite(v)) {
                        throw new NonFiniteGradientException("training stopped at step " + (step + 1)
                                + ": the batch gradient is not finite; the model diverged (lower the learning rate, or check the features' scale)");
                    }
                }
            }
            addWeightDecay(g, params, c.weightDecay());
            opt.step(params, g, lr.at(step, c.iterations()));
            used += idx.length;
            losses.add(s.lossSum() / idx.length);
        }
        return new Result(model, c.iterations(), used, new NonPrivateEvent("non-private training of an encoder and classifier"),
                losses, "", false);
    }

    private static EncoderClassifier prepare(EncoderClassifier init, FeatureMatrix x, Targets y) {
        check(init, x, y);
        return init.copy();
    }

    /** Refuses data that do not fit {@code init}, and a network with nothing to train. */
    private static void check(EncoderClassifier init, FeatureMatrix x, Targets y) {
        if (y.rows() != x.rows()) {
            throw new IllegalArgumentException(x.rows() + " rows but " + y.rows() + " targets");
        }
        if (x.cols() != init.in()) {
            throw new IllegalArgumentException("the encoder takes " + init.in() + " features, the data have " + x.cols());
        }
        y.check(init.outputs());
        if (init.trainableLayers().isEmpty()) {
            throw new IllegalArgumentException("every layer is frozen: nothing to train");
        }
    }

    /**
     * One step's query before noise: the sum of the jointly clipped per-example gradients over a Poisson batch drawn
     * at rate {@code q} from {@code rnd}, as {@link #train} computes it. The rate is a constant of the mechanism (from
     * the public n), not re-derived from {@code x}, so neighbouring datasets are sampled at the same rate. The arrays
     * are in the order of {@link EncoderClassifier#trainableLayers()}, each layer's weights (column-major, as
     * {@code DenseMatrix.data()}) then its bias. Package-private: the neighbouring-dataset tests' hook.
     */
    static Step preNoiseStep(EncoderClassifier model, FeatureMatrix x, Targets y, double q, Config c, NoiseAndSampling rnd, long step) {
        int[] batch = poisson(x.rows(), q, rnd);
        return gradientSum(model, x, y, batch, c.clipNorm(), c.maxPhysicalBatch(), step);
    }

    /** Every row independently with probability q, increasing ({@link NoiseAndSampling#poissonBatch}). */
    static int[] poisson(int n, double q, NoiseAndSampling rnd) {
        return rnd.poissonBatch(n, q);
    }

    /** A batch's summed (clipped) gradient, its summed loss and its size. */
    record Step(double[][] sum, double lossSum, int batchSize) {
    }

    /**
     * The sum over {@code batch} of the per-example gradients of the loss over every trainable
     * parameter, each clipped jointly to L2 norm {@code clip} (NaN: not clipped), in physical chunks; zeros for an
     * empty batch.
     */
    static Step gradientSum(EncoderClassifier model, FeatureMatrix x, Targets y, int[] batch, double clip, int maxPhysicalBatch, long step) {
        List<DenseLayer> trainable = model.trainableLayers();
        double[][] sum = new double[2 * trainable.size()][]; // the first chunk's arrays are taken, later chunks added
        boolean encoderTrains = model.encoder().layers().stream().anyMatch(l -> !l.frozen());
        double lossSum = 0;
        for (int from = 0; from < batch.length; from += maxPhysicalBatch) {
            int[] idx = Arrays.copyOfRange(batch, from, Math.min(batch.length, from + maxPhysicalBatch));
            Stack.Pass ep = model.encoder().forward(x.selectRows(idx));
            Stack.Pass cp = model.classifier().forward(ep.output());
            DenseMatrix logits = cp.output();
            Stack.Errors ce = model.classifier().backward(cp, y.error(logits, idx), encoderTrains);
            List<PerExample.Piece> pieces = new ArrayList<>();
            if (encoderTrains) {
                Stack.Errors ee = model.encoder().backward(ep, ce.inputError(), false);
                PerExample.collect(model.encoder(), ep, ee, pieces);
            }
            PerExample.collect(model.classifier(), cp, ce, pieces);
            double[] factors = null;
            if (!Double.isNaN(clip)) {
                double[] sq = PerExample.squaredNorms(pieces);
                factors = new double[sq.length];
                for (int i = 0; i < sq.length; i++) {
                    factors[i] = DpSgdTrainer.clipFactor(sq[i], clip, step);
                }
            }
            var g = PerExample.weightedSum(pieces, factors);
            for (int l = 0; l < trainable.size(); l++) {
                PerExample.Grad gl = g.get(trainable.get(l));
                if (from == 0) {
                    sum[2 * l] = gl.w().data();
                    sum[2 * l + 1] = gl.b();
                } else {
                    add(sum[2 * l], gl.w().data());
                    add(sum[2 * l + 1], gl.b());
                }
            }
            lossSum += y.lossSum(logits, idx);
        }
        return new Step(batch.length == 0 ? zeros(trainable) : sum, lossSum, batch.length);
    }

    private static double[][] parameters(List<DenseLayer> layers) {
        double[][] p = new double[2 * layers.size()][];
        for (int l = 0; l < layers.size(); l++) {
            p[2 * l] = layers.get(l).weights().data();
            p[2 * l + 1] = layers.get(l).bias();
        }
        return p;
    }

    private static double[][] zeros(List<DenseLayer> layers) {
        double[][] p = new double[2 * layers.size()][];
        for (int l = 0; l < layers.size(); l++) {
            p[2 * l] = new double[layers.get(l).in() * layers.get(l).out()];
            p[2 * l + 1] = new double[layers.get(l).out()];
        }
        return p;
    }

    private static void addWeightDecay(double[][] g, double[][] params, double lambda) {
        if (lambda > 0) {
            for (int k = 0; k < g.length; k += 2) { // weights only
                double[] gk = g[k];
                double[] pk = params[k];
                for (int j = 0; j < gk.length; j++) {
                    gk[j] += lambda * pk[j];
                }
            }
        }
    }

    private static void add(double[] into, double[] v) {
        for (int k = 0; k < into.length; k++) {
            into[k] += v[k];
        }
    }

    private static void scale(double[] a, double f) {
        for (int k = 0; k < a.length; k++) {
            a[k] *= f;
        }
    }
}
