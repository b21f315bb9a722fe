package org.privadapt.models.dann;

import java.util.Map;
import org.privadapt.math.CsrMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.dp.NoiseAndSampling;
import org.privadapt.models.nn.graph.DenseLayer;
import org.privadapt.models.nn.graph.PerExample;
import org.privadapt.privacy.noise.GaussianVectorSampler;

/**
 * DPDA and G-DPDA on sparse input with the noise of the extractor's first layer deferred to the rows that are read
 * (issue 32), as {@code DeferredRowNoise} does for DP-SGD. It applies when both domains are sparse, the first layer
 * is trained, and every private party's noise can be drawn ahead (secure bits, two cores); {@link AdversarialTrainer}
 * uses its ordinary loop otherwise.
 *
 * <p><b>The idea.</b> Row j of the extractor's first layer (input feature j) is read by a step only when some example
 * of its batch has a stored entry in column j; otherwise the row's gradient is zero and the step only adds noise to
 * it: {@code -lr_s f_s n_s / M}, {@code n_s ~ N(0, sigma^2 C^2)}, with {@code f_s} 1 for the label step and
 * {@code -nu_t} for the two domain steps (training here has no weight decay). The steps interleave two parties:
 * the label step and the source domain step add the source's noise (G-DPDA only), the target domain step the
 * target's. So each party p keeps, for each row, the variance {@code v_p[j]} of its noise the row has not yet been
 * given, {@code v_p <- v_p + (lr_s f_s sigma C / M)^2} for each of p's steps; before a step's forward pass the rows
 * its batch reads are given one Gaussian per party with pending variance, drawn from that party's own sampler, and
 * the last step gives every row what it is owed. Every step's forward and backward passes, and the network returned,
 * then have the ordinary loop's joint distribution (exact arithmetic; the network between steps does not): they depend
 * only on the rows its batch reads, and these carry the same sums of independent Gaussians. The privacy analysis is
 * the ordinary loop's, unchanged, for each party. What must not be released is the network between steps (its
 * unread rows lack noise); only the final network is returned. A per-step hook added to the training loop later
 * (progress on the network, a checkpoint, early stopping) must first give every row each party's pending noise, as
 * the last step does, and only then read the network; none exists today.
 *
 * <p><b>How.</b> Batches are Poisson samples that do not depend on the network, so step s + 1's batch is drawn
 * before step s runs, and the rows it reads get their pending noise drawn ahead on the other core
 * ({@link NoiseAndSampling#gaussianAheadInto}, into one of two buffers per party) while step s computes. Each noise
 * coordinate is {@code sqrt(v) (Z1 + Z2 + Z3 + Z4) / 2}, the same hardened construction. The other arrays (the
 * first layer's bias, deeper layers, the heads) get their noise in place, as in the ordinary loop.
 */
final class DeferredTrunkNoise {
    private DeferredTrunkNoise() {
    }

    /** Whether {@link #train} applies (it may still decline: see there). */
    static boolean applies(AdversarialNetwork net, FeatureMatrix xs, FeatureMatrix xt, AdversarialTrainer.Config c) {
        return (c.mode() == AdversarialTrainer.Mode.DPDA || c.mode() == AdversarialTrainer.Mode.GDPDA)
                && xs instanceof CsrMatrix && xt instanceof CsrMatrix && !net.trunk().layers().get(0).frozen();
    }

    /**
     * Trains {@code net} in place as {@link AdversarialTrainer#train} does, with the first layer's noise deferred; null,
     * before any batch and any noise coordinate is drawn, when some private party's noise cannot be drawn ahead (seeded
     * bits, one core; a party probed before may have split off the stream its draws ahead use, which changes nothing).
     */
    static AdversarialNetwork train(AdversarialNetwork net, CsrMatrix xs, int[] ys, CsrMatrix xt,
                                    AdversarialTrainer.Config c, NoiseAndSampling sourceRnd, NoiseAndSampling targetRnd) {
        boolean sourcePrivate = c.mode() == AdversarialTrainer.Mode.GDPDA;
        DenseLayer first = net.trunk().layers().get(0);
        int in = first.in();
        int hidden = first.out();
        Party target = Party.probe(targetRnd, in, hidden);
        Party source = sourcePrivate ? Party.probe(sourceRnd, in, hidden) : null;
        if (target == null || sourcePrivate && source == null) {
            return null;
        }
        Party[] parties = sourcePrivate ? new Party[] {source, target} : new Party[] {target};
        double unit = c.sigma() * c.clip() / c.batch(); // a step's noise on a weight is lr_s f_s unit N(0, 1)
        double qs = Math.min(1.0, (double) c.batch() / xs.rows());
        double qt = Math.min(1.0, (double) c.batch() / xt.rows());
        long steps = 3 * c.iterations();
        long[] mark = new long[in]; // row j is read by step s when mark[j] == s (0: by none yet)
        int[] batch = AdversarialTrainer.poisson(xs.rows(), qs, sourceRnd); // step 0: the first label step
        for (long s = 0; s < steps; s++) {
            for (Party p : parties) {
                p.awaitDrawn();
            }
            // plan step s + 1's rows (every row after the last step): step s's noise is owed to every row first
            int kind = (int) (s % 3);
            long t = s / 3;
            int[] next = null;
            if (s + 1 < steps) {
                int nextKind = (int) ((s + 1) % 3);
                next = nextKind == 1 ? AdversarialTrainer.poisson(xt.rows(), qt, targetRnd)
                        : AdversarialTrainer.poisson(xs.rows(), qs, sourceRnd);
                markRows(nextKind == 1 ? xt : xs, next, mark, s + 1);
            }
            double factor = kind == 0 ? 1.0 : AdversarialTrainer.nu(t, c.iterations());
            double lr = kind == 0 ? c.lr1() : c.lr2();
            double added = (lr * factor * unit) * (lr * factor * unit);
            Party owner = kind == 1 ? target : source; // null in DPDA's source steps: no noise
            for (Party p : parties) {
                p.planAndDraw(p == owner ? added : 0.0, next == null ? null : mark, s + 1);
            }
            for (Party p : parties) { // the rows step s reads get the noise they are owed
                p.addGiven(first.weights().data());
            }
            Map<DenseLayer, PerExample.Grad> g;
            if (kind == 0) {
                g = AdversarialTrainer.labelStep(net, xs, ys, batch, c, sourcePrivate, sourceRnd, null, first);
                AdversarialTrainer.apply(g, c.lr1(), 1.0, net.trunk());
            } else if (kind == 1) {
                g = AdversarialTrainer.domainStep(net, net.targetDomainHead(), xt, batch, 1, c, true, targetRnd, null,
                        first);
                AdversarialTrainer.apply(g, c.lr2(), -factor, net.trunk());
            } else {
                g = AdversarialTrainer.domainStep(net, net.sourceDomainHead(), xs, batch, 0, c, sourcePrivate, sourceRnd,
                        null, first);
                AdversarialTrainer.apply(g, c.lr2(), -factor, net.trunk());
            }
            batch = next;
        }
        for (Party p : parties) { // the last step's plan gave every row its pending noise
            p.awaitDrawn();
            p.addGiven(first.weights().data());
        }
        return net;
    }

    /** Marks the rows (input features) that {@code batch}'s examples store an entry in with {@code stamp}. */
    private static void markRows(CsrMatrix x, int[] batch, long[] mark, long stamp) {
        for (int i : batch) {
            for (int k = x.rowStart(i); k < x.rowEnd(i); k++) {
                mark[x.colIndexAt(k)] = stamp;
            }
        }
    }

    /** One private party: its pending variance per row, and the two plans whose noise it draws in turn. */
    private static final class Party {
        private final NoiseAndSampling rnd;
        private final double[] pending;
        private final int hidden;
        private final Plan[] plans;
        private Plan given; // the plan whose noise the rows of the step about to run get
        private GaussianVectorSampler.Ahead givenDraw; // its draw; null when it has none or it was awaited
        private Plan planned; // the next step's plan, its noise being drawn
        private GaussianVectorSampler.Ahead plannedDraw;

        private Party(NoiseAndSampling rnd, int in, int hidden, double[] firstBuffer) {
            this.rnd = rnd;
            this.pending = new double[in];
            this.hidden = hidden;
            this.plans = new Plan[] {new Plan(in, firstBuffer), new Plan(in, new double[in * hidden])};
            this.given = plans[0]; // empty: before step 0 no row has noise pending (step s + 1 plans into plans[(s + 1) % 2])
        }

        /** The party, or null when its noise cannot be drawn ahead (then nothing has been drawn). */
        static Party probe(NoiseAndSampling rnd, int in, int hidden) {
            double[] buffer = new double[in * hidden];
            GaussianVectorSampler.Ahead a = rnd.gaussianAheadInto(buffer, 0, 1.0);
            if (a == null) {
                return null;
            }
            a.await();
            return new Party(rnd, in, hidden, buffer);
        }

        /** Waits for the noise of the plan the coming step's rows get. */
        void awaitDrawn() {
            if (givenDraw != null) {
                givenDraw.await();
                givenDraw = null;
            }
        }

        /**
         * Adds {@code added} (this party's noise variance from step {@code stamp - 1}) to every row's pending
         * variance, then plans the rows marked {@code stamp} (every row when {@code mark} is null) that have noise
         * pending: they get it, at scale {@code sqrt(v)}, before step {@code stamp}'s forward pass, and have none
         * pending after. Starts drawing the plan's noise.
         */
        void planAndDraw(double added, long[] mark, long stamp) {
            Plan p = plans[(int) (stamp % 2)];
            int count = 0;
            for (int j = 0; j < pending.length; j++) {
                double v = pending[j] + added;
                if (v > 0 && (mark == null || mark[j] == stamp)) {
                    p.rows[count] = j;
                    p.scale[count++] = Math.sqrt(v);
                    v = 0.0;
                }
                pending[j] = v;
            }
            p.count = count;
            planned = p;
            plannedDraw = null;
            if (count > 0) {
                plannedDraw = rnd.gaussianAheadInto(p.noise, count * hidden, 1.0);
                if (plannedDraw == null) {
                    throw new IllegalStateException("the noise could be drawn ahead when training started but no longer can");
                }
            }
        }

        /**
         * Adds the given plan's noise (awaited) to its rows of {@code w} (column-major, in x hidden), each value once;
         * the planned one becomes the next given.
         */
        void addGiven(double[] w) {
            if (givenDraw != null) {
                throw new IllegalStateException("noise added before it was awaited");
            }
            Plan p = given;
            int in = pending.length;
            for (int col = 0; col < hidden; col++) {
                int base = col * in;
                int drawn = col * p.count;
                for (int k = 0; k < p.count; k++) {
                    w[base + p.rows[k]] += p.scale[k] * p.noise[drawn + k];
                }
            }
            p.count = 0;
            if (planned != null) {
                given = planned;
                givenDraw = plannedDraw;
                planned = null;
                plannedDraw = null;
            }
        }
    }

    private static final class Plan {
        final int[] rows; // the rows given noise, increasing: rows[0, count)
        final double[] scale; // their scales, by position
        final double[] noise;
        int count;

        Plan(int in, double[] noise) {
            this.rows = new int[in];
            this.scale = new double[in];
            this.noise = noise;
        }
    }
}
