package org.privadapt.models.dann;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.dp.AheadRandomness;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.graph.DenseLayer;
import org.privadapt.models.nn.graph.PerExample;
import org.privadapt.privacy.noise.GaussianVectorSampler;

/**
 * DPDA's and G-DPDA's private steps with their noise drawn ahead on another core (issue 32), as
 * {@code DpSgdNoiseAheadTest}.
 */
class AdversarialNoiseAheadTest {
    static AdversarialNetwork net(int d) {
        return AdversarialNetwork.create(d, new int[] {5}, Activation.SIGMOID, List.of("a", "b", "c"), new int[] {4},
                Activation.RELU, false, 7);
    }

    private static double[] flat(Map<DenseLayer, PerExample.Grad> g, List<DenseLayer> order) {
        return order.stream().flatMapToDouble(l -> java.util.stream.DoubleStream.concat(
                Arrays.stream(g.get(l).w().data()), Arrays.stream(g.get(l).b()))).toArray();
    }

    @Test
    void theTargetStepAddsNoiseDrawnAheadOnceToEveryCoordinateWithTheConfiguredScale() {
        assumeTrue(AheadRandomness.CORES >= 2, "drawing ahead needs a second core");
        AdversarialNetwork n = net(3000); // trunk 3000 x 5 + 5, head 5 x 4 + 4 and 4 x 2 + 2: 15,039 coordinates
        FeatureMatrix x = AheadRandomness.sparseOnes(40, 3000, 8);
        int[] batch = {0, 3, 5, 8, 13, 21};
        AdversarialTrainer.Config c = new AdversarialTrainer.Config(AdversarialTrainer.Mode.DPDA, 5, 8, 0.05, 0.01, 0.5,
                1000.0, true);
        List<DenseLayer> order = new java.util.ArrayList<>(n.targetDomainHead().layers());
        order.addAll(n.trunk().layers());
        double[] clipped = flat(AdversarialTrainer.domainStep(n, n.targetDomainHead(), x, batch, 1, c, true,
                AdversarialTrainerTest.noNoise(1)), order);
        AheadRandomness rnd = new AheadRandomness(9, true);
        GaussianVectorSampler.Ahead noise = rnd.gaussianAhead(
                AdversarialTrainer.noiseLengths(n.targetDomainHead(), n.trunk()), c.sigma() * c.clip());
        double[] noisy = flat(AdversarialTrainer.domainStep(n, n.targetDomainHead(), x, batch, 1, c, true, rnd, noise),
                order);
        assertThat(noisy).hasSize(15_039);
        double[] z = new double[noisy.length];
        for (int i = 0; i < z.length; i++) {
            z[i] = (noisy[i] - clipped[i]) * c.batch() / (c.sigma() * c.clip()); // the step divides by M
        }
        AheadRandomness.assertStandardNormal(z);
        assertThat(rnd.direct).isZero();
        assertThatThrownBy(() -> noise.addTo(new double[][] {new double[15_005]})).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void theLabelStepAddsNoiseDrawnAheadOnceToEveryCoordinateWithTheConfiguredScale() {
        assumeTrue(AheadRandomness.CORES >= 2, "drawing ahead needs a second core");
        AdversarialNetwork n = net(3000); // trunk 3000 x 5 + 5, label head 5 x 3 + 3: 15,023 coordinates
        FeatureMatrix x = AheadRandomness.sparseOnes(40, 3000, 18);
        int[] y = new int[40];
        for (int i = 0; i < y.length; i++) {
            y[i] = i % 3;
        }
        int[] batch = {1, 2, 5, 9, 30};
        AdversarialTrainer.Config c = new AdversarialTrainer.Config(AdversarialTrainer.Mode.GDPDA, 5, 8, 0.05, 0.01, 0.5,
                1000.0, true);
        List<DenseLayer> order = new java.util.ArrayList<>(n.labelHead().layers());
        order.addAll(n.trunk().layers());
        double[] clipped = flat(AdversarialTrainer.labelStep(n, x, y, batch, c, true, AdversarialTrainerTest.noNoise(1)),
                order);
        AheadRandomness rnd = new AheadRandomness(19, true);
        GaussianVectorSampler.Ahead noise = rnd.gaussianAhead(AdversarialTrainer.noiseLengths(n.labelHead(), n.trunk()),
                c.sigma() * c.clip());
        double[] noisy = flat(AdversarialTrainer.labelStep(n, x, y, batch, c, true, rnd, noise), order);
        assertThat(noisy).hasSize(15_023);
        double[] z = new double[noisy.length];
        for (int i = 0; i < z.length; i++) {
            z[i] = (noisy[i] - clipped[i]) * c.batch() / (c.sigma() * c.clip());
        }
        AheadRandomness.assertStandardNormal(z);
    }

    @Test
    void dpdaDrawsTheTargetsNoiseAheadOnSparseTargetsWithSecureBitsOnly() {
        AdversarialTrainer.Config c = new AdversarialTrainer.Config(AdversarialTrainer.Mode.DPDA, 6, 8, 0.05, 0.01, 0.5,
                1.0, true);
        FeatureMatrix xs = AheadRandomness.sparseOnes(60, 500, 10);
        FeatureMatrix xt = AheadRandomness.sparseOnes(60, 500, 12);
        int[] ys = new int[60];
        for (int i = 0; i < ys.length; i++) {
            ys[i] = i % 3;
        }
        AheadRandomness sparseSecure = new AheadRandomness(11, true);
        AdversarialTrainer.train(net(500), xs, ys, xt, c, AdversarialTrainerTest.noNoise(13), sparseSecure);
        assertThat(sparseSecure.ahead).isEqualTo(AheadRandomness.CORES >= 2 ? 6 : 0);
        assertThat(sparseSecure.direct).isEqualTo(AheadRandomness.CORES >= 2 ? 0 : 6 * 6);
        AheadRandomness denseSecure = new AheadRandomness(14, true);
        AdversarialTrainer.train(net(500), xs, ys, ((org.privadapt.math.CsrMatrix) xt).toDense(), c,
                AdversarialTrainerTest.noNoise(13), denseSecure);
        assertThat(denseSecure.ahead).isZero();
        assertThat(denseSecure.direct).isEqualTo(6 * 6); // 3 trainable layers (weights and bias) a step, 6 steps
        AdversarialTrainer.Config g = new AdversarialTrainer.Config(AdversarialTrainer.Mode.GDPDA, 6, 8, 0.05, 0.01, 0.5,
                1.0, true);
        AheadRandomness source = new AheadRandomness(16, true);
        AheadRandomness target = new AheadRandomness(17, true);
        AdversarialTrainer.train(net(500), xs, ys, xt, g, source, target);
        if (AheadRandomness.CORES >= 2) {
            assertThat(source.ahead).isEqualTo(2 * 6); // the label step and the source domain step, each iteration
            assertThat(target.ahead).isEqualTo(6);
            assertThat(source.direct + target.direct).isZero();
        }
        AheadRandomness sparseSeeded = new AheadRandomness(15, false);
        AdversarialTrainer.train(net(500), xs, ys, xt, c, AdversarialTrainerTest.noNoise(13), sparseSeeded);
        assertThat(sparseSeeded.ahead).isZero();
        assertThat(sparseSeeded.direct).isEqualTo(6 * 6);
    }
}
