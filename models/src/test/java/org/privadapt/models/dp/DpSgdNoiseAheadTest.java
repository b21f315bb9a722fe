package org.privadapt.models.dp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.Network;

/**
 * DP-SGD with each step's noise drawn ahead on another core (issue 32): used with secure bits on sparse input, not on
 * dense input or with reproducible bits, and every step's noise reaches every parameter once, with the configured
 * scale.
 */
class DpSgdNoiseAheadTest {
    private static final int CORES = AheadRandomness.CORES;

    private static final double NOISE_MULTIPLIER = 1e4; // the clipped sums (at most batch x clip) vanish beside the noise
    private static final long STEPS = 12;
    private static final double LR = 0.01;

    /** The parameters' moves over the training, each over its expected noise-only standard deviation. */
    private static double[] standardisedMoves(FeatureMatrix x, AheadRandomness rnd) {
        int n = x.rows();
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = i % 2;
        }
        Network init = Network.create(x.cols(), new int[0], Activation.RELU, List.of("a", "b"), 3);
        double q = 10.0 / n;
        DpSgdConfig c = new DpSgdConfig(1.0, NOISE_MULTIPLIER, q, q * n, STEPS, 64, "sgd", LR, "constant", 0.0, 1L);
        Network after = DpSgdTrainer.train(init, x, y, c, rnd).model();
        // plain SGD: theta_T = theta_0 - lr sum_t (g_t + N(0, sigma^2)) / normaliser
        double sd = LR * NOISE_MULTIPLIER * Math.sqrt(STEPS) / (q * n);
        double[] before = init.weights(0).data();
        double[] now = after.weights(0).data();
        double[] z = new double[now.length + 2];
        for (int k = 0; k < now.length; k++) {
            z[k] = (now[k] - before[k]) / sd;
        }
        for (int k = 0; k < 2; k++) {
            z[now.length + k] = (after.bias(0)[k] - init.bias(0)[k]) / sd;
        }
        return z;
    }

    @Test
    void secureNoiseOnSparseInputIsDrawnAheadOncePerStepWithTheConfiguredScale() {
        assumeTrue(CORES >= 2, "drawing ahead needs a second core");
        AheadRandomness rnd = new AheadRandomness(21, true);
        double[] z = standardisedMoves(AheadRandomness.sparseOnes(400, 12_000, 22), rnd); // 24,002 parameters: several pieces and a partial one
        assertThat(rnd.ahead).isEqualTo((int) STEPS);
        assertThat(rnd.direct).isZero();
        AheadRandomness.assertStandardNormal(z);
    }

    @Test
    void denseInputAndReproducibleBitsAddTheNoiseInPlaceInOrder() {
        AheadRandomness secureDense = new AheadRandomness(23, true);
        double[] z = standardisedMoves(AheadRandomness.sparseOnes(400, 3_000, 24).toDense(), secureDense);
        assertThat(secureDense.ahead).isZero();
        assertThat(secureDense.direct).isEqualTo(2 * (int) STEPS); // the weights and the bias, each step
        AheadRandomness.assertStandardNormal(z);
        AheadRandomness seededSparse = new AheadRandomness(25, false);
        standardisedMoves(AheadRandomness.sparseOnes(400, 3_000, 26), seededSparse);
        assertThat(seededSparse.ahead).isZero();
        assertThat(seededSparse.direct).isEqualTo(2 * (int) STEPS);
    }
}
