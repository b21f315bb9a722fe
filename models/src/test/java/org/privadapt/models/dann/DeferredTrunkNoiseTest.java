package org.privadapt.models.dann;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.privadapt.math.CsrMatrix;
import org.privadapt.models.dp.AheadRandomness;
import org.privadapt.models.dp.NoiseAndSampling;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.graph.DenseLayer;
import org.privadapt.models.nn.graph.PerExample;
import org.privadapt.models.nn.graph.Stack;
import org.privadapt.privacy.noise.GaussianVectorSampler;
import org.privadapt.privacy.noise.RandomBits;

/**
 * DPDA and G-DPDA with the extractor's first-layer noise deferred to the rows read (issue 32, {@link DeferredTrunkNoise}).
 * The argument that the returned network has the ordinary loop's distribution rests on three facts, each tested here:
 * every row a step reads carries all the noise the ordinary loop would have given it by then, and nothing more
 * (against a plain reference of the algorithm under noise that is the same constant at every coordinate); each party's
 * pending noise has the ordinary loop's variance and comes from that party's own sampler (standardised moves); and
 * the gradients are the ordinary loop's (noise multiplier 1e-9).
 */
class DeferredTrunkNoiseTest {
    /** The same word every time, reported secure: every hardened coordinate the sampler draws is the same constant. */
    static final class ConstantBits implements RandomBits {
        // layer 5, mantissa 2^40 (inside the layer's rectangle, so the draw is accepted), sign bit clear
        static final long WORD = (1L << 40) << 11 | 5;
        // layer 9, mantissa 3 * 2^40, also inside: a second constant, for a second party
        static final long OTHER_WORD = (3L << 40) << 11 | 9;
        private final long word;

        ConstantBits() {
            this(WORD);
        }

        ConstantBits(long word) {
            this.word = word;
        }

        @Override
        public long nextLong() {
            return word;
        }

        @Override
        public boolean isSecure() {
            return true;
        }

        @Override
        public String name() {
            return "constant test bits (NOT PRIVATE)";
        }

        @Override
        public RandomBits split() {
            return this;
        }
    }

    static AdversarialNetwork net(int d, int[] trunk) {
        return AdversarialNetwork.create(d, trunk, Activation.SIGMOID, List.of("a", "b", "c"), new int[] {4},
                Activation.RELU, false, 7);
    }

    static int[] labels(int n) {
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = i % 3;
        }
        return y;
    }

    static double[] flat(AdversarialNetwork n) {
        List<double[]> parts = new ArrayList<>();
        for (Stack s : List.of(n.trunk(), n.labelHead(), n.targetDomainHead())) {
            for (DenseLayer l : s.layers()) {
                parts.add(l.weights().data());
                parts.add(l.bias());
            }
        }
        return parts.stream().flatMapToDouble(java.util.Arrays::stream).toArray();
    }

    /** Flushes per party (source, target) counted by {@link #reference}. */
    static final class Counts {
        long source;
        long target;
    }

    /**
     * The algorithm in its plainest form: before each step, every row its batch reads gets each party's pending noise
     * ({@code kappa sqrt(v)}, kappa the constant every coordinate of the test samplers is); after it, the step's
     * party owes every row {@code (lr f sigma C / M)^2} more; at the end every row gets what it is owed. Batches are
     * drawn per party in the ordinary loop's order.
     */
    static AdversarialNetwork reference(AdversarialNetwork init, CsrMatrix xs, int[] ys, CsrMatrix xt,
                                        AdversarialTrainer.Config c, NoiseAndSampling src, NoiseAndSampling tgt,
                                        double kappa, Counts counts) {
        AdversarialNetwork net = init.copy();
        DenseLayer first = net.trunk().layers().get(0);
        int in = first.in();
        int hidden = first.out();
        double[] w = first.weights().data();
        double[][] pending = new double[2][in]; // 0: source, 1: target
        boolean sourcePrivate = c.mode() == AdversarialTrainer.Mode.GDPDA;
        double unit = c.sigma() * c.clip() / c.batch();
        for (long t = 0; t < c.iterations(); t++) {
            double nu = AdversarialTrainer.nu(t, c.iterations());
            for (int k = 0; k < 3; k++) {
                CsrMatrix x = k == 1 ? xt : xs;
                NoiseAndSampling rnd = k == 1 ? tgt : src;
                int[] b = AdversarialTrainer.poisson(x.rows(), Math.min(1.0, (double) c.batch() / x.rows()), rnd);
                boolean[] read = new boolean[in];
                for (int i : b) {
                    for (int e = x.rowStart(i); e < x.rowEnd(i); e++) {
                        read[x.colIndexAt(e)] = true;
                    }
                }
                give(w, in, hidden, pending, read, kappa, counts);
                Map<DenseLayer, PerExample.Grad> g;
                if (k == 0) {
                    g = AdversarialTrainer.labelStep(net, xs, ys, b, c, sourcePrivate, src, null, first);
                    AdversarialTrainer.apply(g, c.lr1(), 1.0, net.trunk());
                } else if (k == 1) {
                    g = AdversarialTrainer.domainStep(net, net.targetDomainHead(), xt, b, 1, c, true, tgt, null, first);
                    AdversarialTrainer.apply(g, c.lr2(), -nu, net.trunk());
                } else {
                    g = AdversarialTrainer.domainStep(net, net.sourceDomainHead(), xs, b, 0, c, sourcePrivate, src, null,
                            first);
                    AdversarialTrainer.apply(g, c.lr2(), -nu, net.trunk());
                }
                int owner = k == 1 ? 1 : sourcePrivate ? 0 : -1;
                double lr = k == 0 ? c.lr1() : c.lr2();
                double f = k == 0 ? 1.0 : nu;
                if (owner >= 0) {
                    for (int j = 0; j < in; j++) {
                        pending[owner][j] += (lr * f * unit) * (lr * f * unit);
                    }
                }
            }
        }
        boolean[] all = new boolean[in];
        java.util.Arrays.fill(all, true);
        give(w, in, hidden, pending, all, kappa, counts);
        return net;
    }

    private static void give(double[] w, int in, int hidden, double[][] pending, boolean[] rows, double kappa,
                             Counts counts) {
        for (int p = 0; p < 2; p++) {
            for (int j = 0; j < in; j++) {
                if (rows[j] && pending[p][j] > 0) {
                    for (int col = 0; col < hidden; col++) {
                        w[col * in + j] += kappa * Math.sqrt(pending[p][j]);
                    }
                    pending[p][j] = 0;
                    if (p == 0) {
                        counts.source++;
                    } else {
                        counts.target++;
                    }
                }
            }
        }
    }

    static double kappa() {
        double[] one = new double[1];
        new GaussianVectorSampler(new ConstantBits()).addNoise(one, 1.0);
        return one[0];
    }

    @Test
    void everyRowReadCarriesExactlyTheNoiseOwedAsThePlainAlgorithmGivesIt() {
        assumeTrue(AheadRandomness.CORES >= 2, "drawing ahead needs a second core");
        double kappa = kappa();
        assertThat(kappa).isNotZero().isFinite();
        CsrMatrix xs = AheadRandomness.sparseOnes(80, 400, 10);
        CsrMatrix xt = AheadRandomness.sparseOnes(70, 400, 12);
        int[] ys = labels(80);
        for (AdversarialTrainer.Mode mode : List.of(AdversarialTrainer.Mode.DPDA, AdversarialTrainer.Mode.GDPDA)) {
            // noise and gradients of the same order, so a row read without its noise changes the steps after it
            AdversarialTrainer.Config c = new AdversarialTrainer.Config(mode, 12, 8, 0.5, 0.3, 1.0, 3.0 / kappa, true);
            AdversarialNetwork init = net(400, new int[] {6, 5});
            AheadRandomness src = new AheadRandomness(21, new ConstantBits(), true);
            AheadRandomness tgt = new AheadRandomness(22, new ConstantBits(), true);
            AdversarialNetwork deferred = AdversarialTrainer.train(init, xs, ys, xt, c, src, tgt);
            Counts counts = new Counts();
            AdversarialNetwork plain = reference(init, xs, ys, xt, c, new AheadRandomness(21, new ConstantBits(), false),
                    new AheadRandomness(22, new ConstantBits(), false), kappa, counts);
            double[] a = flat(deferred);
            double[] b = flat(plain);
            double[] start = flat(init);
            double moved = 0;
            for (int i = 0; i < a.length; i++) {
                assertThat(a[i]).as("%s, parameter %d", mode, i).isCloseTo(b[i], within(1e-12 * (1 + Math.abs(b[i]))));
                moved = Math.max(moved, Math.abs(b[i] - start[i]));
            }
            assertThat(moved).isGreaterThan(0.1);
            // exactly the rows planned drew noise, each party from its own sampler, and nothing went the ordinary way
            assertThat(tgt.intoCoordinates).isEqualTo(counts.target * 6);
            assertThat(src.intoCoordinates).isEqualTo(counts.source * 6);
            assertThat(counts.target).isPositive();
            assertThat(counts.source > 0).isEqualTo(mode == AdversarialTrainer.Mode.GDPDA);
            assertThat(tgt.ahead + src.ahead).isZero();
            // a step reads far fewer rows than the layer has: deferral draws less than the ordinary loop
            long ordinary = 12L * (mode == AdversarialTrainer.Mode.GDPDA ? 3 : 1) * 400 * 6;
            assertThat((tgt.intoCoordinates + src.intoCoordinates) * 2).isLessThan(ordinary);
        }
    }

    @Test
    void eachPartysPendingNoiseHasTheOrdinaryLoopsVarianceAndComesFromItsOwnSampler() {
        assumeTrue(AheadRandomness.CORES >= 2, "drawing ahead needs a second core");
        CsrMatrix xs = AheadRandomness.sparseOnes(60, 3000, 31);
        CsrMatrix xt = AheadRandomness.sparseOnes(60, 3000, 32);
        int[] ys = labels(60);
        for (AdversarialTrainer.Mode mode : List.of(AdversarialTrainer.Mode.DPDA, AdversarialTrainer.Mode.GDPDA)) {
            // C 1e-9: the clipped gradients vanish beside the noise (sigma C = 1)
            AdversarialTrainer.Config c = new AdversarialTrainer.Config(mode, 6, 8, 0.4, 0.7, 1e-9, 1e9, true);
            AdversarialNetwork init = net(3000, new int[] {5});
            AheadRandomness src = new AheadRandomness(33, true, true);
            Doubled tgt = new Doubled(new AheadRandomness(34, true, true)); // the target's noise at twice the scale
            AdversarialNetwork out = AdversarialTrainer.train(init, xs, ys, xt, c, src, tgt);
            assertThat(tgt.inner.into).isPositive();
            double vs = 0;
            double vt = 0;
            double unit = c.sigma() * c.clip() / c.batch();
            for (long t = 0; t < c.iterations(); t++) {
                double nu = AdversarialTrainer.nu(t, c.iterations());
                vt += Math.pow(c.lr2() * nu * unit, 2);
                if (mode == AdversarialTrainer.Mode.GDPDA) {
                    vs += Math.pow(c.lr1() * unit, 2) + Math.pow(c.lr2() * nu * unit, 2);
                }
            }
            double sd = Math.sqrt(vs + 4 * vt);
            double[] w0 = init.trunk().layers().get(0).weights().data();
            double[] w = out.trunk().layers().get(0).weights().data();
            double[] z = new double[w.length];
            for (int i = 0; i < z.length; i++) {
                z[i] = (w[i] - w0[i]) / sd;
            }
            AheadRandomness.assertStandardNormal(z);
            // and independent across the layer's columns (a row's noise value reused in every column would correlate
            // them): Pearson's r of each pair of columns over the 3000 rows, 5 standard errors
            for (int a = 0; a < 5; a++) {
                for (int b = a + 1; b < 5; b++) {
                    double r = 0;
                    for (int j = 0; j < 3000; j++) {
                        r += z[a * 3000 + j] * z[b * 3000 + j];
                    }
                    assertThat(r / 3000).as("%s, columns %d and %d", mode, a, b).isCloseTo(0.0, within(5 / Math.sqrt(3000)));
                }
            }
        }
    }

    @Test
    void everyOtherArrayGetsTheOrdinaryLoopsNoiseFromTheSameParty() {
        assumeTrue(AheadRandomness.CORES >= 2, "drawing ahead needs a second core");
        double[] one = new double[1];
        new GaussianVectorSampler(new ConstantBits(ConstantBits.OTHER_WORD)).addNoise(one, 1.0);
        assertThat(one[0]).isNotCloseTo(kappa(), within(1e-3 * Math.abs(kappa())));
        CsrMatrix xs = AheadRandomness.sparseOnes(80, 400, 61);
        CsrMatrix xt = AheadRandomness.sparseOnes(70, 400, 62);
        int[] ys = labels(80);
        for (AdversarialTrainer.Mode mode : List.of(AdversarialTrainer.Mode.DPDA, AdversarialTrainer.Mode.GDPDA)) {
            for (boolean split : new boolean[] {false, true}) {
                for (long iterations : new long[] {1, 7}) {
                    // rates of 1e-9 and C 1e-9, sigma C 1e7: every move by a gradient (clipped or, in DPDA's public
                    // source steps, not) is below 1e-9 while the noise moves a weight by about 1e-6 a step, so every
                    // array other than the first layer's weights ends at its initial value plus the noise each step
                    // gave it, on either path; the two parties' noise differs
                    AdversarialTrainer.Config c = new AdversarialTrainer.Config(mode, iterations, 8, 1e-9, 2e-9, 1e-9,
                            1e16, true);
                    AdversarialNetwork init = AdversarialNetwork.create(400, new int[] {6, 5}, Activation.SIGMOID,
                            List.of("a", "b", "c"), new int[] {4}, Activation.RELU, split, 7);
                    init.trunk().layers().get(1).freeze(); // a frozen deeper layer gets no noise on either path
                    AheadRandomness src = new AheadRandomness(63, new ConstantBits(ConstantBits.OTHER_WORD), true);
                    AheadRandomness tgt = new AheadRandomness(64, new ConstantBits(), true);
                    AdversarialNetwork deferred = AdversarialTrainer.train(init, xs, ys, xt, c, src, tgt);
                    assertThat(tgt.into).isPositive();
                    AdversarialNetwork ordinary = AdversarialTrainer.train(init, xs, ys, xt, c,
                            new AheadRandomness(63, new ConstantBits(ConstantBits.OTHER_WORD), false),
                            new AheadRandomness(64, new ConstantBits(), false));
                    List<double[]> a = new ArrayList<>();
                    List<double[]> b = new ArrayList<>();
                    a.add(deferred.trunk().layers().get(0).bias());
                    b.add(ordinary.trunk().layers().get(0).bias());
                    for (int l = 1; l < init.trunk().layers().size(); l++) {
                        a.add(deferred.trunk().layers().get(l).weights().data());
                        b.add(ordinary.trunk().layers().get(l).weights().data());
                        a.add(deferred.trunk().layers().get(l).bias());
                        b.add(ordinary.trunk().layers().get(l).bias());
                    }
                    for (int h = 0; h < 3; h++) {
                        Stack hd = h == 0 ? deferred.labelHead() : h == 1 ? deferred.targetDomainHead() : deferred.sourceDomainHead();
                        Stack ho = h == 0 ? ordinary.labelHead() : h == 1 ? ordinary.targetDomainHead() : ordinary.sourceDomainHead();
                        for (int l = 0; l < hd.layers().size(); l++) {
                            a.add(hd.layers().get(l).weights().data());
                            b.add(ho.layers().get(l).weights().data());
                            a.add(hd.layers().get(l).bias());
                            b.add(ho.layers().get(l).bias());
                        }
                    }
                    for (int k = 0; k < a.size(); k++) {
                        for (int i = 0; i < a.get(k).length; i++) {
                            assertThat(a.get(k)[i]).as("%s split %s T %d, array %d, entry %d", mode, split, iterations, k, i)
                                    .isCloseTo(b.get(k)[i], within(1e-10));
                        }
                    }
                    // the first layer's weights moved (the deferred noise is given), and in G-DPDA by both parties
                    double[] w0 = init.trunk().layers().get(0).weights().data();
                    double[] w = deferred.trunk().layers().get(0).weights().data();
                    boolean moved = false;
                    for (int i = 0; i < w.length; i++) {
                        moved |= Math.abs(w[i] - w0[i]) > 1e-8;
                    }
                    assertThat(moved).isEqualTo(iterations > 1 || mode == AdversarialTrainer.Mode.GDPDA);
                }
            }
        }
    }

    @Test
    void theGradientsAreTheOrdinaryLoopsOnTheSameBatches() {
        assumeTrue(AheadRandomness.CORES >= 2, "drawing ahead needs a second core");
        CsrMatrix xs = AheadRandomness.sparseOnes(80, 500, 41);
        CsrMatrix xt = AheadRandomness.sparseOnes(90, 500, 42);
        int[] ys = labels(80);
        for (AdversarialTrainer.Mode mode : List.of(AdversarialTrainer.Mode.DPDA, AdversarialTrainer.Mode.GDPDA)) {
            for (boolean joint : new boolean[] {true, false}) {
                AdversarialTrainer.Config c = new AdversarialTrainer.Config(mode, 15, 8, 0.5, 0.5, 1.0, 1e-9, joint);
                AdversarialNetwork init = net(500, new int[] {6, 5});
                AheadRandomness src = new AheadRandomness(43, true, true);
                AheadRandomness tgt = new AheadRandomness(44, true, true);
                double[] deferred = flat(AdversarialTrainer.train(init, xs, ys, xt, c, src, tgt));
                assertThat(tgt.into).isPositive();
                double[] ordinary = flat(AdversarialTrainer.train(init, xs, ys, xt, c, new AheadRandomness(43, true, false),
                        new AheadRandomness(44, true, false)));
                double[] start = flat(init);
                double moved = 0;
                for (int i = 0; i < deferred.length; i++) {
                    assertThat(deferred[i]).as("%s joint %s, parameter %d", mode, joint, i)
                            .isCloseTo(ordinary[i], within(1e-7));
                    moved = Math.max(moved, Math.abs(ordinary[i] - start[i]));
                }
                assertThat(moved).isGreaterThan(0.05);
            }
        }
    }

    @Test
    void theOrdinaryLoopRunsUnlessBothDomainsAreSparseTheFirstLayerTrainsAndTheNoiseCanBeDrawnAhead() {
        CsrMatrix xs = AheadRandomness.sparseOnes(60, 300, 51);
        CsrMatrix xt = AheadRandomness.sparseOnes(60, 300, 52);
        int[] ys = labels(60);
        AdversarialTrainer.Config g = new AdversarialTrainer.Config(AdversarialTrainer.Mode.GDPDA, 4, 8, 0.5, 0.5, 1.0,
                1.0, true);
        AheadRandomness src = new AheadRandomness(53, true, true);
        AheadRandomness tgt = new AheadRandomness(54, true, true);
        AdversarialTrainer.train(net(300, new int[] {5}), xs, ys, xt, g, src, tgt);
        assertThat(tgt.into > 0 && src.into > 0).isEqualTo(AheadRandomness.CORES >= 2);
        AheadRandomness denseTarget = new AheadRandomness(54, true, true);
        AdversarialTrainer.train(net(300, new int[] {5}), xs, ys, xt.toDense(), g, new AheadRandomness(53, true, true),
                denseTarget);
        assertThat(denseTarget.intoCoordinates).isZero();
        AheadRandomness seeded = new AheadRandomness(54, false, true);
        AheadRandomness seededSource = new AheadRandomness(53, false, true);
        AdversarialTrainer.train(net(300, new int[] {5}), xs, ys, xt, g, seededSource, seeded);
        assertThat(seeded.intoCoordinates + seededSource.intoCoordinates).isZero();
        AheadRandomness frozen = new AheadRandomness(54, true, true);
        AdversarialNetwork f = net(300, new int[] {5});
        f.trunk().layers().get(0).freeze();
        AdversarialTrainer.train(f, xs, ys, xt, g, new AheadRandomness(53, true, true), frozen);
        assertThat(frozen.intoCoordinates).isZero();
        // a source that cannot draw ahead keeps both parties on the ordinary loop, before any batch and any noise
        // (the target's probe asks for none)
        AheadRandomness withSeededSource = new AheadRandomness(54, true, true);
        AdversarialTrainer.train(net(300, new int[] {5}), xs, ys, xt, g, new AheadRandomness(53, false, true),
                withSeededSource);
        assertThat(withSeededSource.intoCoordinates).isZero();
        assertThat(withSeededSource.ahead).isEqualTo(AheadRandomness.CORES >= 2 ? 4 : 0); // the ordinary loop's draws
    }

    /** A party's randomness whose noise is drawn at twice the requested scale: marks which sampler a draw came from. */
    static final class Doubled implements NoiseAndSampling {
        final AheadRandomness inner;

        Doubled(AheadRandomness inner) {
            this.inner = inner;
        }

        @Override
        public boolean bernoulli(double p) {
            return inner.bernoulli(p);
        }

        @Override
        public void addGaussian(double[] v, double sigma) {
            inner.addGaussian(v, 2 * sigma);
        }

        @Override
        public GaussianVectorSampler.Ahead gaussianAheadInto(double[] buffer, int count, double sigma) {
            return inner.gaussianAheadInto(buffer, count, 2 * sigma);
        }

        @Override
        public boolean isPrivate() {
            return false;
        }

        @Override
        public String description() {
            return "test";
        }
    }
}
