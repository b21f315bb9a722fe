package org.privadapt.models.dann;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.dp.NoiseAndSampling;
import org.privadapt.models.nn.graph.DenseLayer;
import org.privadapt.models.nn.graph.PerExample;
import org.privadapt.models.nn.graph.Stack;
import org.privadapt.privacy.events.DpEvent;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.events.PoissonSampledEvent;
import org.privadapt.privacy.events.SelfComposedEvent;
import org.privadapt.privacy.noise.GaussianVectorSampler;

/**
 * Paper 001's training, one iteration as the notes rebuild Algorithm 1 (methods-001-003-004.md, 1.3):
 * <ol>
 *   <li><b>label step</b> (Eqs. 11-12; 19-20 in G-DPDA): a source batch, L_y on (theta_f, theta_y), rate lr1;</li>
 *   <li><b>target domain step</b> (Eqs. 14-15): a Poisson-sampled target batch, L_d(., 1) on the target domain head and,
 *       un-reversed, on theta_f; in DPDA and G-DPDA each example's gradient over <i>all</i> of those parameters is
 *       clipped to C jointly and one Gaussian vector N(0, sigma^2 C^2 I) added; the sum is divided by the expected batch
 *       M; only then the trunk's part is multiplied by -nu (the gradient reversal), rate lr2;</li>
 *   <li><b>source domain step</b> (Eq. 13; 21-22): a source batch, L_d(., 0) on the source domain head and, reversed, on
 *       theta_f, rate lr2 (noisy in G-DPDA).</li>
 * </ol>
 * NN runs step 1 only; DANN runs all three without clipping or noise. nu_p = 2 / (1 + exp(-10 p)) - 1 with p the
 * fraction of iterations done. Batches are Poisson samples (rate M / N) drawn from the owning party's randomness.
 *
 * <p>Privacy: the target's data enter only step 2, one Poisson-subsampled Gaussian release per iteration:
 * {@link #targetEvent}. With {@code jointClip = false} (the paper's literal separate clipping of the head's and the
 * trunk's gradients, each to C) the release has sensitivity sqrt(2) C, accounted as noise multiplier sigma / sqrt(2).
 * In G-DPDA the source enters steps 1 and 3, two releases per iteration on independent Poisson batches:
 * {@link #sourceEvent}.
 */
public final class AdversarialTrainer {
    private AdversarialTrainer() {
    }

    /** NN (source only), DANN, DPDA (target private), G-DPDA (both private). */
    public enum Mode { NN, DANN, DPDA, GDPDA }

    /**
     * @param iterations  number of iterations T
     * @param batch       expected batch size M (Poisson rate M / N per party)
     * @param lr1         label step rate
     * @param lr2         domain steps' rate
     * @param clip        C
     * @param sigma       noise multiplier (noise std sigma C)
     * @param jointClip   clip each example's gradient over all parameters it reaches at once (default); false: the
     *                    paper's separate clipping of head and trunk, accounted at sigma / sqrt(2)
     */
    public record Config(Mode mode, long iterations, int batch, double lr1, double lr2, double clip, double sigma,
                         boolean jointClip) {
        public Config {
            if (iterations < 1 || batch < 1 || !(lr1 > 0) || !(lr2 > 0)) {
                throw new IllegalArgumentException("need iterations >= 1, batch >= 1 and positive learning rates");
            }
            if ((mode == Mode.DPDA || mode == Mode.GDPDA) && (!(clip > 0) || !(sigma > 0))) {
                throw new IllegalArgumentException("DPDA and G-DPDA need clip > 0 and sigma > 0");
            }
        }

        /** The noise multiplier the accountant sees: sigma, or sigma / sqrt(2) with separate clipping. */
        public double effectiveSigma() {
            return jointClip ? sigma : sigma / Math.sqrt(2);
        }
    }

    /** The target's DP event: T Poisson-subsampled Gaussian releases at rate M / N_t (DPDA and G-DPDA). */
    public static DpEvent targetEvent(Config c, int targetRows) {
        return new SelfComposedEvent(new PoissonSampledEvent(Math.min(1.0, (double) c.batch() / targetRows),
                new GaussianEvent(c.effectiveSigma())), c.iterations());
    }

    /** The source's DP event in G-DPDA: 2T releases (label step and source domain step) at rate M / N_s. */
    public static DpEvent sourceEvent(Config c, int sourceRows) {
        return new SelfComposedEvent(new PoissonSampledEvent(Math.min(1.0, (double) c.batch() / sourceRows),
                new GaussianEvent(c.effectiveSigma())), 2 * c.iterations());
    }

    /** nu_p = 2 / (1 + exp(-10 p)) - 1. */
    public static double nu(long iteration, long total) {
        double p = (double) iteration / total;
        return 2.0 / (1.0 + Math.exp(-10 * p)) - 1.0;
    }

    /**
     * Trains a copy of {@code init}. {@code sourceRnd} draws the source batches (and the source's noise in G-DPDA),
     * {@code targetRnd} the target batches and the target's noise: each party's randomness is its own.
     */
    public static AdversarialNetwork train(AdversarialNetwork init, FeatureMatrix xs, int[] ys, FeatureMatrix xt, Config c,
                                           NoiseAndSampling sourceRnd, NoiseAndSampling targetRnd) {
        if (ys.length != xs.rows()) {
            throw new IllegalArgumentException(xs.rows() + " source rows but " + ys.length + " labels");
        }
        AdversarialNetwork net = init.copy();
        xs = org.privadapt.math.RowGather.of(xs, (double) c.iterations() * c.batch()); // row-major gathers (issue 32)
        xt = org.privadapt.math.RowGather.of(xt, (double) c.iterations() * c.batch());
        if (DeferredTrunkNoise.applies(net, xs, xt, c)) { // sparse domains: the first layer's noise as rows are read
            AdversarialNetwork deferred = DeferredTrunkNoise.train(net, (org.privadapt.math.CsrMatrix) xs, ys,
                    (org.privadapt.math.CsrMatrix) xt, c, sourceRnd, targetRnd);
            if (deferred != null) {
                return deferred;
            }
        }
        boolean sourcePrivate = c.mode() == Mode.GDPDA;
        boolean targetPrivate = c.mode() == Mode.DPDA || c.mode() == Mode.GDPDA;
        double qs = Math.min(1.0, (double) c.batch() / xs.rows());
        double qt = Math.min(1.0, (double) c.batch() / xt.rows());
        // the target's noise is drawn ahead on the other core through the non-private steps around it, on sparse
        // input with secure bits (issue 32; as DpSgdTrainer): the same noise, independent of the data
        // (G-DPDA: the source's two steps likewise, each step's noise drawn through the step before it)
        double sd = c.sigma() * c.clip();
        boolean targetAhead = targetPrivate && xt.isSparse() && c.mode() != Mode.NN;
        GaussianVectorSampler.Ahead targetNoise = targetAhead
                ? targetRnd.gaussianAhead(noiseLengths(net.targetDomainHead(), net.trunk()), sd) : null;
        boolean sourceAhead = sourcePrivate && xs.isSparse();
        GaussianVectorSampler.Ahead labelNoise = sourceAhead
                ? sourceRnd.gaussianAhead(noiseLengths(net.labelHead(), net.trunk()), sd) : null;
        GaussianVectorSampler.Ahead sourceDomainNoise = null;
        for (long t = 0; t < c.iterations(); t++) {
            double nu = nu(t, c.iterations());
            // 1. label step on the source: (theta_f, theta_y)
            int[] b1 = poisson(xs.rows(), qs, sourceRnd);
            Map<DenseLayer, PerExample.Grad> g1 = labelStep(net, xs, ys, b1, c, sourcePrivate, sourceRnd, labelNoise);
            if (labelNoise != null) {
                sourceDomainNoise = sourceRnd.gaussianAhead(noiseLengths(net.sourceDomainHead(), net.trunk()), sd);
            }
            apply(g1, c.lr1(), 1.0, net.trunk());
            if (c.mode() == Mode.NN) {
                continue;
            }
            // 2. target domain step: (theta_dt, theta_f), the trunk's part reversed after the noise
            int[] bt = poisson(xt.rows(), qt, targetRnd);
            Map<DenseLayer, PerExample.Grad> g2 = domainStep(net, net.targetDomainHead(), xt, bt, 1, c, targetPrivate, targetRnd,
                    targetNoise);
            if (targetNoise != null) {
                targetNoise = t + 1 < c.iterations()
                        ? targetRnd.gaussianAhead(noiseLengths(net.targetDomainHead(), net.trunk()), sd) : null;
            }
            apply(g2, c.lr2(), -nu, net.trunk());
            // 3. source domain step: (theta_ds, theta_f)
            int[] b3 = poisson(xs.rows(), qs, sourceRnd);
            Map<DenseLayer, PerExample.Grad> g3 = domainStep(net, net.sourceDomainHead(), xs, b3, 0, c, sourcePrivate, sourceRnd,
                    sourceDomainNoise);
            if (sourceDomainNoise != null) {
                labelNoise = t + 1 < c.iterations()
                        ? sourceRnd.gaussianAhead(noiseLengths(net.labelHead(), net.trunk()), sd) : null;
            }
            apply(g3, c.lr2(), -nu, net.trunk());
        }
        return net;
    }

    static int[] poisson(int n, double q, NoiseAndSampling rnd) {
        int[] idx = new int[16];
        int size = 0;
        for (int i = 0; i < n; i++) {
            if (rnd.bernoulli(q)) {
                if (size == idx.length) {
                    idx = java.util.Arrays.copyOf(idx, idx.length * 2);
                }
                idx[size++] = i;
            }
        }
        return java.util.Arrays.copyOf(idx, size);
    }

    /** L_y on the batch through G_y and G_f: the summed (clipped, noised when private) gradient divided by M. */
    public static Map<DenseLayer, PerExample.Grad> labelStep(AdversarialNetwork net, FeatureMatrix xs, int[] ys, int[] batch, Config c,
                                                     boolean dp, NoiseAndSampling rnd) {
        return labelStep(net, xs, ys, batch, c, dp, rnd, null);
    }

    /**
     * {@link #labelStep(AdversarialNetwork, FeatureMatrix, int[], int[], Config, boolean, NoiseAndSampling)} with the
     * noise drawn ahead ({@code noise}, for {@link #noiseLengths} of the label head and the trunk; null: drawn here).
     */
    static Map<DenseLayer, PerExample.Grad> labelStep(AdversarialNetwork net, FeatureMatrix xs, int[] ys, int[] batch, Config c,
                                              boolean dp, NoiseAndSampling rnd, GaussianVectorSampler.Ahead noise) {
        return labelStep(net, xs, ys, batch, c, dp, rnd, noise, null);
    }

    /** The label step with the noise of {@code deferred}'s weights left out ({@link DeferredTrunkNoise} adds it). */
    static Map<DenseLayer, PerExample.Grad> labelStep(AdversarialNetwork net, FeatureMatrix xs, int[] ys, int[] batch, Config c,
                                              boolean dp, NoiseAndSampling rnd, GaussianVectorSampler.Ahead noise,
                                              DenseLayer deferred) {
        List<PerExample.Piece> pieces = new ArrayList<>();
        if (batch.length > 0) {
            FeatureMatrix x = xs.selectRows(batch);
            int[] y = new int[batch.length];
            for (int k = 0; k < batch.length; k++) {
                y[k] = ys[batch[k]];
            }
            Stack.Pass tp = net.trunk().forward(x);
            Stack.Pass hp = net.labelHead().forward(tp.output());
            Stack.Errors he = net.labelHead().backward(hp, PerExample.softmaxError(hp.output(), y), true);
            Stack.Errors te = net.trunk().backward(tp, he.inputError(), false);
            PerExample.collect(net.labelHead(), hp, he, pieces);
            PerExample.collect(net.trunk(), tp, te, pieces);
        }
        List<DenseLayer> reach = new ArrayList<>(net.labelHead().layers());
        reach.addAll(net.trunk().layers());
        return release(pieces, reach, net.labelHead().layers(), c, dp, rnd, noise, deferred);
    }

    /**
     * L_d(., domain) on the batch through a domain head and, un-reversed (GRL coefficient -1 undone), G_f; the caller
     * applies -nu to the trunk's part after the noise.
     */
    public static Map<DenseLayer, PerExample.Grad> domainStep(AdversarialNetwork net, Stack head, FeatureMatrix x, int[] batch, int domain,
                                                      Config c, boolean dp, NoiseAndSampling rnd) {
        return domainStep(net, head, x, batch, domain, c, dp, rnd, null);
    }

    /**
     * {@link #domainStep(AdversarialNetwork, Stack, FeatureMatrix, int[], int, Config, boolean, NoiseAndSampling)}
     * with the noise drawn ahead ({@code noise}, for the layers of {@link #noiseLengths} of the head and the trunk;
     * null: drawn here, in order).
     */
    static Map<DenseLayer, PerExample.Grad> domainStep(AdversarialNetwork net, Stack head, FeatureMatrix x, int[] batch, int domain,
                                               Config c, boolean dp, NoiseAndSampling rnd, GaussianVectorSampler.Ahead noise) {
        return domainStep(net, head, x, batch, domain, c, dp, rnd, noise, null);
    }

    /** The domain step with the noise of {@code deferred}'s weights left out ({@link DeferredTrunkNoise} adds it). */
    static Map<DenseLayer, PerExample.Grad> domainStep(AdversarialNetwork net, Stack head, FeatureMatrix x, int[] batch, int domain,
                                               Config c, boolean dp, NoiseAndSampling rnd, GaussianVectorSampler.Ahead noise,
                                               DenseLayer deferred) {
        List<PerExample.Piece> pieces = new ArrayList<>();
        if (batch.length > 0) {
            FeatureMatrix xb = x.selectRows(batch);
            int[] d = new int[batch.length];
            java.util.Arrays.fill(d, domain);
            Stack.Pass tp = net.trunk().forward(xb);
            Stack.Pass hp = head.forward(tp.output());
            Stack.Errors he = head.backward(hp, PerExample.softmaxError(hp.output(), d), true);
            Stack.Errors te = net.trunk().backward(tp, he.inputError(), false);
            PerExample.collect(head, hp, he, pieces);
            PerExample.collect(net.trunk(), tp, te, pieces);
        }
        List<DenseLayer> reach = new ArrayList<>(head.layers());
        reach.addAll(net.trunk().layers());
        return release(pieces, reach, head.layers(), c, dp, rnd, noise, deferred);
    }

    /**
     * The lengths of the arrays a step through {@code head} and {@code trunk} adds noise to, in the order
     * {@link #release} adds it: each trainable layer's weights and then its bias, the head's layers first.
     */
    static int[] noiseLengths(Stack head, Stack trunk) {
        List<Integer> lengths = new ArrayList<>();
        for (Stack s : List.of(head, trunk)) {
            for (DenseLayer l : s.layers()) {
                if (!l.frozen()) {
                    lengths.add(l.in() * l.out());
                    lengths.add(l.out());
                }
            }
        }
        return lengths.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * The step's query: sum over the batch of each example's gradient (clipped jointly over every piece, or, with
     * {@code jointClip = false}, the head's pieces and the trunk's pieces clipped separately), plus N(0, sigma^2 C^2)
     * on every coordinate of every trainable layer the loss reaches (also for an empty batch), divided by M.
     */
    static Map<DenseLayer, PerExample.Grad> release(List<PerExample.Piece> pieces, List<DenseLayer> reach, List<DenseLayer> headLayers,
                                                   Config c, boolean dp, NoiseAndSampling rnd) {
        return release(pieces, reach, headLayers, c, dp, rnd, null, null);
    }

    /**
     * {@link #release}, the noise added from {@code noise} (drawn ahead for {@link #noiseLengths}) when it is not null;
     * when {@code deferred} is not null (and {@code noise} is), every array gets its noise here except that layer's
     * weights, whose noise {@link DeferredTrunkNoise} gives to the rows as they are read.
     */
    static Map<DenseLayer, PerExample.Grad> release(List<PerExample.Piece> pieces, List<DenseLayer> reach, List<DenseLayer> headLayers,
                                                   Config c, boolean dp, NoiseAndSampling rnd, GaussianVectorSampler.Ahead noise,
                                                   DenseLayer deferred) {
        if (noise != null && deferred != null) {
            throw new IllegalArgumentException("noise drawn ahead for every coordinate cannot leave a layer's out");
        }
        Map<DenseLayer, PerExample.Grad> sum;
        if (pieces.isEmpty()) {
            sum = new java.util.IdentityHashMap<>();
        } else if (!dp) {
            sum = PerExample.weightedSum(pieces, null);
        } else if (c.jointClip()) {
            sum = PerExample.weightedSum(pieces, PerExample.clipFactors(PerExample.squaredNorms(pieces), c.clip()));
        } else {
            List<PerExample.Piece> head = pieces.stream().filter(p -> headLayers.contains(p.layer())).toList();
            List<PerExample.Piece> rest = pieces.stream().filter(p -> !headLayers.contains(p.layer())).toList();
            sum = new java.util.IdentityHashMap<>();
            for (List<PerExample.Piece> part : List.of(head, rest)) {
                if (!part.isEmpty()) {
                    sum.putAll(PerExample.weightedSum(part, PerExample.clipFactors(PerExample.squaredNorms(part), c.clip())));
                }
            }
        }
        for (DenseLayer l : reach) {
            if (!l.frozen() && !sum.containsKey(l)) {
                sum.put(l, new PerExample.Grad(DenseMatrix.zeros(l.in(), l.out()), new double[l.out()]));
            }
        }
        if (dp && noise != null) {
            List<double[]> arrays = new ArrayList<>();
            for (DenseLayer l : reach) { // the order of noiseLengths
                PerExample.Grad g = sum.get(l);
                if (g != null) {
                    arrays.add(g.w().data());
                    arrays.add(g.b());
                }
            }
            noise.addTo(arrays.toArray(new double[0][]), 1.0 / c.batch()); // (sum + noise) / M in one pass
            return sum;
        }
        for (DenseLayer l : reach) { // a fixed order: the noise each layer gets must not depend on hash order
            PerExample.Grad g = sum.get(l);
            if (g == null) {
                continue;
            }
            if (dp) {
                if (l != deferred) {
                    rnd.addGaussian(g.w().data(), c.sigma() * c.clip());
                }
                rnd.addGaussian(g.b(), c.sigma() * c.clip());
            }
            g.scale(1.0 / c.batch());
        }
        return sum;
    }

    /** Plain SGD: layers of {@code reversed} move by {@code -lr * factor * g}, the others by {@code -lr * g}. */
    static void apply(Map<DenseLayer, PerExample.Grad> grads, double lr, double trunkFactor, Stack trunk) {
        for (Map.Entry<DenseLayer, PerExample.Grad> e : grads.entrySet()) {
            DenseLayer l = e.getKey();
            double f = trunk.layers().contains(l) ? trunkFactor : 1.0;
            if (f == 0) {
                continue;
            }
            l.weights().addScaledInPlace(-lr * f, e.getValue().w());
            double[] b = l.bias();
            double[] gb = e.getValue().b();
            for (int k = 0; k < b.length; k++) {
                b[k] -= lr * f * gb[k];
            }
        }
    }
}
