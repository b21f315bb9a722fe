package org.privadapt.models.uda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.graph.DenseLayer;
import org.privadapt.models.nn.graph.MultilinearMap;
import org.privadapt.models.nn.graph.PerExample;
import org.privadapt.models.nn.graph.Stack;

/**
 * Gradient checks of one iteration's encoder objective with respect to the encoder output f: an identity encoder
 * (f = x) makes the error at f the gradient with respect to the input, which central differences of the objective
 * the trainer reports can check. A nonlinear classifier C sits in between, so the checks cover back-propagation
 * through C; D is a ReLU network, so the CDAN and DANN checks cover the reversed gradient through D and the map.
 */
class AdaptationTrainerTest {
    static final int N = 5;
    static final int D = 3;
    static final int K = 3;

    static Stack identityEncoder(int d) {
        return new Stack(List.of(DenseLayer.over(DenseMatrix.identity(d), new double[d], Activation.IDENTITY)));
    }

    static Stack classifier(long seed) {
        return Stack.create(new int[] {D, 4, K}, Activation.TANH, Activation.IDENTITY, new SplittableRandom(seed));
    }

    static AdaptationConfig.Builder cfg(Adversary a, OutputMode m) {
        return AdaptationConfig.builder(a, m).discriminatorHidden(6, 5).kd(0, 20).im(0, 1).adversarialWeight(0);
    }

    static AdaptationTrainer trainer(AdaptationConfig c, boolean withSource) {
        return new AdaptationTrainer(identityEncoder(D), classifier(11), c, withSource, new SplittableRandom(12));
    }

    /** Checks Result.targetFeatureError against central differences of Result.objective over the target rows x. */
    static void check(AdaptationTrainer t, DenseMatrix x, DenseMatrix teacher, DenseMatrix z, DenseMatrix xs, DenseMatrix ys,
                      double lambda) {
        AdaptationTrainer.Result r = t.gradients(new AdaptationTrainer.Batch(x, teacher, z, xs, ys), lambda);
        assertThat(r.targetFeatureError().maxAbs()).isGreaterThan(1e-6); // the check is not vacuous
        double h = 1e-6;
        for (int q = 0; q < x.data().length; q++) {
            DenseMatrix up = x.copy();
            up.data()[q] += h;
            DenseMatrix down = x.copy();
            down.data()[q] -= h;
            double fd = (t.gradients(new AdaptationTrainer.Batch(up, teacher, z, xs, ys), lambda).objective()
                    - t.gradients(new AdaptationTrainer.Batch(down, teacher, z, xs, ys), lambda).objective()) / (2 * h);
            assertThat(r.targetFeatureError().data()[q]).as("entry %d", q).isCloseTo(fd, within(1e-6 * Math.max(1, Math.abs(fd))));
        }
    }

    static DenseMatrix x() {
        return UdaLossesTest.gaussian(N, D, 1, 1);
    }

    @Test
    void distillationThroughTheClassifier() {
        for (OutputMode m : OutputMode.values()) {
            check(trainer(cfg(Adversary.NONE, m).kd(0.7, 3).build(), false), x(), UdaLossesTest.gaussian(N, K, 2, 2), null, null,
                    null, 1);
        }
    }

    @Test
    void informationMaximisationThroughTheClassifier() {
        for (OutputMode m : OutputMode.values()) {
            check(trainer(cfg(Adversary.NONE, m).im(1.3, 0.6).build(), false), x(), null, null, null, null, 1);
        }
    }

    @Test
    void dannReversedGradient() {
        AdaptationConfig c = cfg(Adversary.DANN, OutputMode.SOFTMAX).adversarialWeight(0.8).kd(1, 20).im(1, 1).build();
        check(trainer(c, false), x(), UdaLossesTest.gaussian(N, K, 2, 2), UdaLossesTest.gaussian(N, D, 3, 1), null, null, 0.6);
    }

    @Test
    void cdanExactAndRandomisedMapsWithGradientThroughThePrediction() {
        for (OutputMode m : OutputMode.values()) {
            for (int exactLimit : new int[] {4096, 1}) { // d_f K = 9: exact, then forced randomised (width 7)
                AdaptationConfig c = cfg(Adversary.CDAN, m).adversarialWeight(1.5).cdan(true, 7, exactLimit).build();
                AdaptationTrainer t = trainer(c, false);
                assertThat(t.map().isRandomized()).isEqualTo(exactLimit == 1);
                check(t, x(), null, UdaLossesTest.gaussian(N, D, 3, 1), null, null, 1);
            }
        }
    }

    /** Without the prediction path, the error at f is the gradient of -lambda L_adv with g held at its current value. */
    @Test
    void cdanWithDetachedPrediction() {
        AdaptationConfig c = cfg(Adversary.CDAN, OutputMode.SIGMOID).adversarialWeight(1.5).build();
        AdaptationTrainer t = trainer(c, false);
        DenseMatrix x = x();
        DenseMatrix z = UdaLossesTest.gaussian(N, D, 3, 1);
        Stack cls = classifier(11);
        Stack disc = t.discriminator();
        MultilinearMap map = t.map();
        DenseMatrix hs = map.forward(z, OutputMode.SIGMOID.probabilities(cls.forward(z).output()));
        DenseMatrix g0 = OutputMode.SIGMOID.probabilities(cls.forward(x).output());
        DenseMatrix err = t.gradients(new AdaptationTrainer.Batch(x, null, z, null, null), 1).targetFeatureError();
        UdaLossesTest.checkGradient(x, err, f -> -1.5 * UdaLosses.domainCrossEntropy(
                disc.forward(hs.vstack(map.forward(f, g0))).output(), N).value(), 1e-6);
    }

    /** With source: the objective includes L_cls on the source rows; the target error still matches. */
    @Test
    void withSourceTargetError() {
        AdaptationConfig c = cfg(Adversary.CDAN, OutputMode.SOFTMAX).adversarialWeight(1).kd(1, 20).im(0.5, 1).cdan(true, 7, 4096).build();
        DenseMatrix xs = UdaLossesTest.gaussian(N, D, 4, 1);
        DenseMatrix ys = OutputMode.SOFTMAX.probabilities(UdaLossesTest.gaussian(N, K, 5, 3));
        check(trainer(c, true), x(), UdaLossesTest.gaussian(N, K, 2, 2), null, xs, ys, 1);
    }

    /** The encoder's and classifier's parameter gradients equal central differences of the objective (with source). */
    @Test
    void parameterGradientsWithSource() {
        AdaptationConfig c = cfg(Adversary.DANN, OutputMode.SIGMOID).adversarialWeight(1).kd(1, 2).im(1, 1).build();
        Stack enc = Stack.create(new int[] {4, D}, Activation.TANH, Activation.TANH, new SplittableRandom(20));
        Stack cls = classifier(21);
        AdaptationTrainer t = new AdaptationTrainer(enc, cls, c, true, new SplittableRandom(22));
        DenseMatrix xt = UdaLossesTest.gaussian(N, 4, 23, 1);
        DenseMatrix xs = UdaLossesTest.gaussian(N, 4, 24, 1);
        DenseMatrix ys = UdaLossesTest.gaussian(N, K, 25, 1).map(v -> v > 0 ? 1 : 0);
        AdaptationTrainer.Batch b = new AdaptationTrainer.Batch(xt, UdaLossesTest.gaussian(N, K, 26, 2), null, xs, ys);
        AdaptationTrainer.Result r = t.gradients(b, 0.8);
        assertThat(r.modelGrads().keySet()).hasSize(3);
        double h = 1e-6;
        for (DenseLayer l : List.of(enc.layers().get(0), cls.layers().get(0), cls.layers().get(1))) {
            PerExample.Grad g = r.modelGrads().get(l);
            double[] w = l.weights().data();
            for (int q = 0; q < w.length; q++) {
                double old = w[q];
                w[q] = old + h;
                double up = t.gradients(b, 0.8).objective();
                w[q] = old - h;
                double down = t.gradients(b, 0.8).objective();
                w[q] = old;
                double fd = (up - down) / (2 * h);
                assertThat(g.w().data()[q]).isCloseTo(fd, within(1e-6 * Math.max(1, Math.abs(fd))));
            }
        }
    }

    /** Source-free: the classifier gets no gradient at all, and D's gradient is that of L_adv (not reversed). */
    @Test
    void sourceFreeLeavesClassifierOutAndDiscriminatorDescends() {
        AdaptationConfig c = cfg(Adversary.DANN, OutputMode.SOFTMAX).adversarialWeight(1).im(1, 1).build();
        AdaptationTrainer t = trainer(c, false);
        DenseMatrix z = UdaLossesTest.gaussian(N, D, 3, 1);
        AdaptationTrainer.Batch b = new AdaptationTrainer.Batch(x(), null, z, null, null);
        AdaptationTrainer.Result r = t.gradients(b, 1);
        assertThat(r.modelGrads().keySet()).hasSize(1); // the identity encoder's layer only
        DenseLayer first = t.discriminator().layers().get(0);
        double h = 1e-6;
        double[] w = first.weights().data();
        double old = w[0];
        w[0] = old + h;
        double up = t.gradients(b, 1).adversarial();
        w[0] = old - h;
        double down = t.gradients(b, 1).adversarial();
        w[0] = old;
        assertThat(r.discGrads().get(first).w().data()[0]).isCloseTo((up - down) / (2 * h), within(1e-7));
    }
}
