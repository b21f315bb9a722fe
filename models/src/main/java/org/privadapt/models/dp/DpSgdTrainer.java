package org.privadapt.models.dp;

import java.util.ArrayList;
import java.util.List;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.nn.Backprop;
import org.privadapt.models.nn.Gradients;
import org.privadapt.models.nn.LearningRateSchedule;
import org.privadapt.models.nn.Network;
import org.privadapt.models.nn.Optimizer;
import org.privadapt.privacy.accounting.PrivacyAccountant;
import org.privadapt.privacy.accounting.RdpAccountant;
import org.privadapt.privacy.events.DpEvent;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.events.PoissonSampledEvent;
import org.privadapt.privacy.events.SelfComposedEvent;
import org.privadapt.privacy.noise.GaussianVectorSampler;

/**
 * DP-SGD with Poisson sampling, per the algorithm of Abadi et al. (CCS 2016) as accounted by the subsampled
 * Gaussian RDP analysis (Mironov, Talwar, Zhang 2019). Each step:
 * <ol>
 *   <li>every record joins the batch independently with probability q (true Poisson sampling, from the secure
 *       source; not shuffling, which the accountant does not cover);</li>
 *   <li>each example's gradient over all parameters is clipped to L2 norm C with one joint bound
 *       ({@link Backprop#perExampleSquaredNorms}: norms from matrix products, never batch-of-one loops);</li>
 *   <li>the clipped gradients are summed (in chunks of at most {@code maxPhysicalBatch}) and N(0, (sigma C)^2 I)
 *       is added once;</li>
 *   <li>the noisy sum is divided by the public normaliser, weight decay added, and the optimiser steps.</li>
 * </ol>
 * Under add/remove neighbours the clipped sum has sensitivity C, so one step is the Poisson-subsampled Gaussian
 * mechanism with noise multiplier sigma, and T steps are {@link #event}. Everything the model depends on is the
 * initialisation (data-independent) and these privatised gradients, so the final model, and anything computed
 * from it alone, inherits the guarantee.
 */
public final class DpSgdTrainer {
    private DpSgdTrainer() {
    }

    /** What training did. */
    public record Result(Network model, long steps, long examplesUsed, DpEvent event, List<Double> meanBatchLoss,
                         String noise, boolean isPrivate) {
    }

    /** The privacy event of training with {@code c}: T repetitions of the Poisson-subsampled Gaussian mechanism. */
    public static DpEvent event(DpSgdConfig c) {
        return new SelfComposedEvent(new PoissonSampledEvent(c.samplingRate(), new GaussianEvent(c.noiseMultiplier())), c.steps());
    }

    /**
     * The largest number of steps (at most {@code maxSteps}) whose epsilon at {@code delta} stays within
     * {@code targetEpsilon}: "train until the budget is reached", decided before training so that the whole run can
     * be charged to a ledger before any noise is drawn.
     */
    public static long stepsWithinBudget(PrivacyAccountant accountant, double targetEpsilon, double delta,
                                         double samplingRate, double noiseMultiplier, long maxSteps) {
        DpEvent one = new PoissonSampledEvent(samplingRate, new GaussianEvent(noiseMultiplier));
        if (accountant instanceof RdpAccountant rdp) {
            double[] curve = rdp.rdp(one);
            return largestSteps(maxSteps, k -> {
                double[] r = curve.clone();
                for (int i = 0; i < r.length; i++) {
                    r[i] *= k;
                }
                return rdp.epsilonFromRdp(r, delta)[0] <= targetEpsilon;
            });
        }
        return largestSteps(maxSteps, k -> accountant.epsilon(new SelfComposedEvent(one, k), delta) <= targetEpsilon);
    }

    private static long largestSteps(long maxSteps, java.util.function.LongPredicate fits) {
        if (!fits.test(1)) {
            return 0;
        }
        long lo = 1;
        long hi = 1;
        while (hi < maxSteps && fits.test(Math.min(maxSteps, hi * 2))) {
            hi = Math.min(maxSteps, hi * 2);
            lo = hi;
        }
        if (hi >= maxSteps) {
            return maxSteps;
        }
        hi = Math.min(maxSteps, hi * 2); // does not fit
        while (hi - lo > 1) {
            long mid = lo + (hi - lo) / 2;
            if (fits.test(mid)) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * Trains a copy of {@code init} on (x, labels) and returns it. The caller is responsible for having charged
     * {@link #event(DpSgdConfig)} to the party's ledger before calling. On sparse input with plain SGD, and secure
     * noise that can be drawn ahead, the first layer's noise is deferred to the
     * rows that are read ({@link DeferredRowNoise}: the same output distribution, fewer draws).
     */
    public static Result train(Network init, FeatureMatrix x, int[] labels, DpSgdConfig c, NoiseAndSampling rnd) {
        if (labels.length != x.rows()) {
            throw new IllegalArgumentException(x.rows() + " rows but " + labels.length + " labels");
        }
        FeatureMatrix xb = org.privadapt.math.RowGather.of(x, (double) c.steps() * c.samplingRate() * x.rows()); // dense batches gathered from a row-major copy (issue 32)
        if (DeferredRowNoise.applies(x, c)) { // sparse input, plain SGD: the first layer's noise only for rows read
            Result deferred = DeferredRowNoise.train(init, (org.privadapt.math.CsrMatrix) x, xb, labels, c, rnd);
            if (deferred != null) {
                return deferred;
            }
        }
        Workspace[] space = new Workspace[1]; // one pair of gradient buffers for the whole training, made at the first step
        return train(init, x.rows(), (net, batch, step) -> {
            if (space[0] == null) {
                space[0] = new Workspace(net);
            }
            return clippedSum(net, xb, labels, batch, c.clipNorm(), c.maxPhysicalBatch(), step, space[0]);
        }, c, rnd, x.isSparse());
    }

    /**
     * Where a step's exact query comes from: {@link #clippedSum} over the sampled batch (indices into the n records) of
     * the current network (not to be kept or changed). In process: {@link #clippedSum} on the rows; the spark module
     * sums the same per-example clipped gradients on a cluster, the network broadcast, for full batches (DP-GD).
     */
    @FunctionalInterface
    public interface BatchSums {
        ClippedSum sum(Network net, int[] batch, long step);

        /** Where the sums want a window of steps' batches ahead ({@link PoissonBatches}); null by default. */
        default PoissonBatches.Lookahead lookahead() {
            return null;
        }
    }

    /**
     * {@link #train(Network, FeatureMatrix, int[], DpSgdConfig, NoiseAndSampling)} over n records whose clipped sums
     * come from {@code sums}: the same sampling, the same noise on each sum, in the same order of draws.
     */
    public static Result train(Network init, int n, BatchSums sums, DpSgdConfig c, NoiseAndSampling rnd) {
        return train(init, n, sums, c, rnd, false);
    }

    /**
     * {@link #train(Network, int, BatchSums, DpSgdConfig, NoiseAndSampling)}, with the option of drawing each step's
     * noise ahead (issue 32): with secure bits ({@link NoiseAndSampling#gaussianAhead}) a helper on another core
     * draws the step's noise while this thread computes the clipped sum, and this thread draws what is left once
     * the sum is done. That pays where the sum leaves a core idle (sparse input: its products are short parallel
     * loops between sequential work); where the sum keeps every core busy (dense input: multi-threaded BLAS) the
     * helper only competes with it, so the in-process trainer asks for it on sparse input alone. The noise is the
     * same construction and independent of the sum either way.
     */
    public static Result train(Network init, int n, BatchSums sums, DpSgdConfig c, NoiseAndSampling rnd, boolean noiseAhead) {
        Network net = init.copy();
        Optimizer opt = Optimizer.parse(c.optimizer());
        LearningRateSchedule lr = LearningRateSchedule.parse(c.schedule(), c.learningRate());
        long used = 0;
        List<Double> losses = new ArrayList<>();
        PoissonBatches batches = new PoissonBatches(rnd, n, c.samplingRate(), c.steps(), sums.lookahead());
        double sigma = c.noiseMultiplier() * c.clipNorm();
        int[] lengths = Gradients.lengthsLike(net);
        GaussianVectorSampler.Ahead next = noiseAhead && sigma > 0 && c.steps() > 0 ? rnd.gaussianAhead(lengths, sigma) : null;
        for (long step = 0; step < c.steps(); step++) {
            GaussianVectorSampler.Ahead noise = next;
            int[] batch = batches.next(step);
            int size = batch.length;
            used += size;
            ClippedSum cs = sums.sum(net, batch, step);
            Gradients sum = cs.sum();
            double lossSum = cs.lossSum();
            if (noise != null) {
                noise.addTo(sum.arrays(), 1.0 / c.normaliser()); // (sum + noise) / normaliser in one pass
                // the next step's noise starts on the other core during this step's update and the next sampling
                next = step + 1 < c.steps() ? rnd.gaussianAhead(lengths, sigma) : null;
            } else {
                if (sigma > 0) {
                    for (double[] a : sum.arrays()) {
                        rnd.addGaussian(a, sigma);
                    }
                }
                sum.scaleInPlace(1.0 / c.normaliser());
            }
            if (c.weightDecay() > 0) {
                addWeightDecay(sum, net, c.weightDecay());
            }
            opt.step(net, sum, lr.at(step, c.steps()));
            losses.add(size == 0 ? Double.NaN : lossSum / size);
        }
        return new Result(net, c.steps(), used, event(c), losses, rnd.description(), rnd.isPrivate());
    }

    /** The sum over a batch of the examples' gradients, each clipped to L2 norm C, and the batch's summed loss. */
    public record ClippedSum(Gradients sum, double lossSum) {
    }

    /**
     * The query DP-SGD adds noise to in one step: the sum over {@code batch} of the per-example gradients of
     * {@code net}, each clipped to L2 norm {@code clip} over all parameters jointly (chunks of at most
     * {@code maxPhysicalBatch} rows). Adding or removing one example changes it by at most {@code clip} in L2 norm;
     * replacing one by at most {@code 2 clip} (the neighbouring-dataset harness checks both).
     *
     * @throws NonFiniteGradientException when an example's gradient is not finite
     */
    public static ClippedSum clippedSum(Network net, FeatureMatrix x, int[] labels, int[] batch, double clip, int maxPhysicalBatch,
                                        long step) {
        return clippedSum(net, x, labels, batch, clip, maxPhysicalBatch, step, new Workspace(net));
    }

    /**
     * Gradient buffers shaped like a network, reused by every step of a training so that a step makes no garbage of
     * the parameters' size (issue 32): {@code sum} is the step's clipped sum (returned, and used by the trainer
     * until the next step), {@code part} a later physical batch's share before it is added.
     */
    static final class Workspace {
        final Gradients sum;
        final Gradients part;

        Workspace(Network net) {
            this.sum = Gradients.zerosLike(net);
            this.part = Gradients.zerosLike(net);
        }
    }

    /**
     * {@link #clippedSum(Network, FeatureMatrix, int[], int[], double, int, long)} into {@code space}: the first
     * physical batch is written over {@code space.sum}, each later one into {@code space.part} and then added, so
     * the values are those of summing freshly allocated gradients into zeros, bit for bit.
     */
    static ClippedSum clippedSum(Network net, FeatureMatrix x, int[] labels, int[] batch, double clip, int maxPhysicalBatch,
                                 long step, Workspace space) {
        Gradients sum = space.sum;
        if (batch.length == 0) {
            for (double[] a : sum.arrays()) {
                java.util.Arrays.fill(a, 0.0);
            }
        }
        double lossSum = 0;
        for (int from = 0; from < batch.length; from += maxPhysicalBatch) {
            int to = Math.min(batch.length, from + maxPhysicalBatch);
            int[] idx = java.util.Arrays.copyOfRange(batch, from, to);
            int[] y = new int[idx.length];
            for (int k = 0; k < idx.length; k++) {
                y[k] = labels[idx[k]];
            }
            Network.Forward f = forward(net, x.selectRows(idx));
            DenseMatrix[] d = Backprop.deltas(net, f, y);
            double[] sq = Backprop.perExampleSquaredNorms(f, d);
            double[] factor = new double[sq.length];
            for (int k = 0; k < sq.length; k++) {
                factor[k] = clipFactor(sq[k], clip, step);
            }
            if (from == 0) {
                Backprop.weightedSumInto(f, d, factor, sum);
            } else {
                Backprop.weightedSumInto(f, d, factor, space.part);
                sum.addInPlace(space.part);
            }
            lossSum += Backprop.meanLoss(f, y) * idx.length;
        }
        return new ClippedSum(sum, lossSum);
    }

    /**
     * The factor that scales one example's gradient to L2 norm at most {@code clip}. A non-finite norm (NaN or
     * infinity: the model diverged or an input overflowed) stops training: {@code norm > clip} is false for NaN, so
     * a plain comparison would let that gradient through unclipped and void the sensitivity bound.
     *
     * @throws NonFiniteGradientException for a non-finite squared norm
     */
    static double clipFactor(double squaredNorm, double clip, long step) {
        if (!Double.isFinite(squaredNorm)) {
            throw new NonFiniteGradientException("DP-SGD stopped at step " + (step + 1) + ": a per-example gradient is not finite ("
                    + squaredNorm + "), so it cannot be clipped; the model diverged (lower --param lr, or check the features' scale)");
        }
        double norm = Math.sqrt(squaredNorm);
        return norm > clip ? clip / norm : 1.0;
    }

    static Network.Forward forward(Network net, FeatureMatrix x) {
        return net.forward(x);
    }

    static void addWeightDecay(Gradients g, Network net, double lambda) {
        for (int l = 0; l < net.layers(); l++) {
            g.weights(l).addScaledInPlace(lambda, net.weights(l));
        }
    }
}
