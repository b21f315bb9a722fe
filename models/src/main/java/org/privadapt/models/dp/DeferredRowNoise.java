package org.privadapt.models.dp;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.privadapt.math.CsrMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.nn.LearningRateSchedule;
import org.privadapt.models.nn.Network;
import org.privadapt.privacy.noise.GaussianVectorSampler;

/**
 * DP-SGD on sparse input with the first layer's noise deferred to the rows that are read (issue 32). It applies to
 * plain SGD (any learning-rate schedule, any weight decay), with secure noise drawn ahead on another core; the trainer
 * uses the ordinary loop otherwise (momentum and Adam keep per-coordinate state that each step's noise enters).
 *
 * <p><b>The idea.</b> Row j of the first layer's weights (input feature j) is read by a step only when some example
 * of its batch has a stored entry in column j: the forward pass multiplies row j by that entry, and the row's
 * gradient is {@code sum_i x_ij delta_i}, zero when every {@code x_ij} is. So between two steps that read row j,
 * every update of the row is its weight decay, {@code w <- (1 - lr_s decay) w}, which the trainer applies every step
 * as before, and noise, {@code -lr_s n_s / M} with {@code n_s ~ N(0, sigma^2)} independent: the noise such a run of
 * steps leaves, each step's decayed by the later steps' decay as the ordinary loop decays it, is one Gaussian of
 * variance {@code v}, where {@code v <- (1 - lr_s decay)^2 v + (lr_s sigma / M)^2} step by step (k (lr sigma / M)^2
 * for k steps at a constant rate without decay). Drawing it once, when the row is next read (or when training
 * ends), gives every step's clipped sum, and the model returned, exactly the joint distribution of the ordinary
 * loop (in exact arithmetic): each step's gradient depends only on the rows it reads, and these carry the same noise
 * sums. The privacy analysis is therefore the ordinary loop's, unchanged: the released model has the same
 * distribution. The model between steps does not: its rows not yet read lack their pending noise and so show which
 * rows a batch did not read. It must not leave this class; this class returns only the model at the end, after every
 * row has received all its noise. <b>A per-step hook</b> (progress on the model, a checkpoint, early stopping on a
 * validation score) added to the loop below must first give every row its pending noise (as the last step does) and
 * read the model only after that; none exists today.
 *
 * <p><b>How.</b> Poisson sampling does not depend on the model, so the batch of step t + 1 is drawn before step t's
 * sum. Its rows' pending noise (that of the steps since the row was last given noise, step t included) is
 * drawn ahead on another core ({@link NoiseAndSampling#gaussianAheadInto}) while step t's clipped sum is computed,
 * and added after the pass that applies step t's gradient and weight decay to the first layer. The last step gives
 * every row its pending noise. A step draws {@code hidden x (rows its next batch reads)} noise coordinates instead of all of
 * them: on the Amazon reviews (5000 features, 92 stored entries a review) a batch of 256 reads about 80 % of the
 * rows, a batch of 32 about 31 %.
 *
 * <p>Each noise coordinate is {@code sqrt(v) (Z1 + Z2 + Z3 + Z4) / 2}, the same hardened construction. The other
 * parameters (biases, deeper layers) get their noise in place as in the ordinary loop.
 */
final class DeferredRowNoise {
    private DeferredRowNoise() {
    }

    /** Whether {@link #train} applies to this input and configuration (it may still decline: see there). */
    static boolean applies(FeatureMatrix x, DpSgdConfig c) {
        return x instanceof CsrMatrix && c.noiseMultiplier() > 0 && c.clipNorm() > 0 && c.steps() > 0
                && "sgd".equals(c.optimizer());
    }

    /**
     * Trains as {@link DpSgdTrainer#train(Network, FeatureMatrix, int[], DpSgdConfig, NoiseAndSampling)} does, with
     * the first layer's noise deferred; null, before any draw, when the noise cannot be drawn ahead (seeded bits, one
     * core), and the caller then uses the ordinary loop.
     */
    static DpSgdTrainer.Result train(Network init, CsrMatrix x, FeatureMatrix features, int[] labels, DpSgdConfig c,
                                     NoiseAndSampling rnd) {
        int in = init.weights(0).rows();
        int hidden = init.weights(0).cols();
        double[] noise = new double[in * hidden];
        GaussianVectorSampler.Ahead probe = rnd.gaussianAheadInto(noise, 0, 1.0);
        if (probe == null) {
            return null;
        }
        probe.await();
        Network net = init.copy();
        int n = x.rows();
        long steps = c.steps();
        LearningRateSchedule schedule = LearningRateSchedule.parse(c.schedule(), c.learningRate());
        double decay = c.weightDecay();
        double sigma = c.noiseMultiplier() * c.clipNorm();
        double invM = 1.0 / c.normaliser();
        Rows rows = new Rows(x, sigma * invM, decay, schedule, steps);
        // two plans and buffers, alternating: step t + 1's noise is drawn while step t's is added
        Plan[] plans = {new Plan(in, noise), new Plan(in, new double[in * hidden])};
        DpSgdTrainer.Workspace space = new DpSgdTrainer.Workspace(net);
        long used = 0;
        List<Double> losses = new ArrayList<>();
        int[] batch = StackDpSgdTrainer.poisson(n, c.samplingRate(), rnd);
        int[] next = steps > 1 ? StackDpSgdTrainer.poisson(n, c.samplingRate(), rnd) : null;
        Plan plan = plans[0];
        rows.plan(plan, next, 0);
        GaussianVectorSampler.Ahead ahead = start(rnd, plan, hidden);
        for (long step = 0; step < steps; step++) {
            double lr = schedule.at(step, steps);
            used += batch.length;
            DpSgdTrainer.ClippedSum cs = DpSgdTrainer.clippedSum(net, features, labels, batch, c.clipNorm(),
                    c.maxPhysicalBatch(), step, space);
            double[][] grads = cs.sum().arrays();
            for (int a = 1; a < grads.length; a++) { // biases and deeper layers: their noise now, as in the ordinary loop
                rnd.addGaussian(grads[a], sigma);
                double[] g = grads[a];
                double[] p = parameters(net, a);
                double wd = a % 2 == 0 ? decay : 0.0; // weight decay on weights, not biases, as the ordinary loop
                for (int k = 0; k < g.length; k++) {
                    p[k] -= lr * (g[k] * invM + wd * p[k]);
                }
            }
            ahead.await();
            Plan current = plan;
            int[] later = null; // the batch of step + 2
            if (step + 1 < steps) { // the next step's noise starts on the other core before this one's is added
                later = step + 2 < steps ? StackDpSgdTrainer.poisson(n, c.samplingRate(), rnd) : null;
                plan = plans[(int) ((step + 1) % 2)];
                rows.plan(plan, later, step + 1);
                ahead = start(rnd, plan, hidden);
            }
            applyFirstLayer(net.weights(0).data(), grads[0], in, hidden, lr, invM, decay, current.rows, current.scale,
                    current.count, current.noise);
            losses.add(batch.length == 0 ? Double.NaN : cs.lossSum() / batch.length);
            batch = next;
            next = later;
        }
        return new DpSgdTrainer.Result(net, steps, used, DpSgdTrainer.event(c), losses, rnd.description(), rnd.isPrivate());
    }

    private static GaussianVectorSampler.Ahead start(NoiseAndSampling rnd, Plan plan, int hidden) {
        GaussianVectorSampler.Ahead a = rnd.gaussianAheadInto(plan.noise, plan.count * hidden, 1.0);
        if (a == null) {
            throw new IllegalStateException("the noise could be drawn ahead when training started but no longer can");
        }
        return a;
    }

    /** Which rows a step's update gives their pending noise, at what scale, and the buffer the noise is drawn into. */
    private static final class Plan {
        final int[] rows; // the rows given noise, in increasing order: rows[0, count)
        final double[] scale;
        final double[] noise;
        int count;

        Plan(int in, double[] noise) {
            this.rows = new int[in];
            this.scale = new double[in];
            this.noise = noise;
        }
    }

    /**
     * The rows' pending noise: row j lacks a Gaussian of variance {@code pending[j]}, the noise of the steps since it
     * last had noise, each decayed by the later steps' weight decay as the ordinary loop decays it.
     */
    private static final class Rows {
        private final CsrMatrix x;
        private final double[] pending;
        private final int[] mark;
        private final double unit; // sigma / M: a step's noise on a weight is lr_t unit N(0, 1)
        private final double decay;
        private final LearningRateSchedule schedule;
        private final long steps;
        private int stamp;

        Rows(CsrMatrix x, double unit, double decay, LearningRateSchedule schedule, long steps) {
            this.x = x;
            this.pending = new double[x.cols()];
            this.mark = new int[x.cols()];
            this.unit = unit;
            this.decay = decay;
            this.schedule = schedule;
            this.steps = steps;
        }

        /**
         * Plans update {@code step}: every row's pending variance becomes {@code (1 - lr decay)^2 v + (lr unit)^2} (the
         * update decays the noise it already has and adds this step's), and the rows that {@code nextBatch} (the batch
         * of step + 1) reads, or every row when it is null (the last update), are given their pending noise, at scale
         * {@code sqrt(v)}, after which they have none pending.
         */
        void plan(Plan p, int[] nextBatch, long step) {
            int in = pending.length;
            Arrays.fill(p.scale, 0.0);
            stamp = stamp == Integer.MAX_VALUE ? 1 : stamp + 1;
            if (stamp == 1) {
                Arrays.fill(mark, 0);
            }
            if (nextBatch == null) {
                Arrays.fill(mark, stamp);
            } else {
                for (int i : nextBatch) {
                    for (int k = x.rowStart(i); k < x.rowEnd(i); k++) {
                        mark[x.colIndexAt(k)] = stamp;
                    }
                }
            }
            double lr = schedule.at(step, steps);
            double kept = (1.0 - lr * decay) * (1.0 - lr * decay);
            double added = (lr * unit) * (lr * unit);
            int count = 0;
            for (int j = 0; j < in; j++) {
                double v = kept * pending[j] + added;
                if (mark[j] == stamp) {
                    p.rows[count++] = j;
                    p.scale[j] = Math.sqrt(v);
                    v = 0.0;
                }
                pending[j] = v;
            }
            p.count = count;
        }
    }

    /**
     * The first layer's update (column-major, {@code in x hidden}): {@code w -= lr (g / M + decay w)} for every weight
     * (the ordinary loop's update without the noise), then, for the {@code count} rows given noise ({@code rows[0, count)},
     * in increasing order), the pending noise {@code rowScale[j] noise[col count + k]} for row {@code j = rows[k]} in
     * column {@code col}: each noise value once, in order. When every row is given noise the second pass runs over
     * the columns contiguously.
     */
    static void applyFirstLayer(double[] w, double[] g, int in, int hidden, double lr, double invM, double decay,
                                int[] rows, double[] rowScale, int count, double[] noise) {
        int size = in * hidden;
        for (int at = 0; at < size; at++) {
            w[at] = w[at] - lr * (g[at] * invM + decay * w[at]);
        }
        for (int col = 0; col < hidden; col++) {
            int base = col * in;
            int drawn = col * count;
            if (count == in) { // rows[k] == k
                for (int j = 0; j < in; j++) {
                    w[base + j] += rowScale[j] * noise[drawn + j];
                }
            } else {
                for (int k = 0; k < count; k++) {
                    int j = rows[k];
                    w[base + j] += rowScale[j] * noise[drawn + k];
                }
            }
        }
    }

    private static double[] parameters(Network net, int array) {
        int layer = array / 2;
        return array % 2 == 0 ? net.weights(layer).data() : net.bias(layer);
    }
}
