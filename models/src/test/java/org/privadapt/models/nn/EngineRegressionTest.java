package org.privadapt.models.nn;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;
import org.privadapt.models.dp.DpSgdConfig;
import org.privadapt.models.dp.DpSgdTrainer;
import org.privadapt.models.dp.SessionRandomness;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * The MLP and DP-SGD run on the network engine (Network is a Stack of engine layers, Backprop delegates to Stack and
 * PerExample). Seeded runs must give the parameters of the implementation before the move: the literal values below
 * were printed by the pre-engine code (commit 2a8e752) for this exact program, and matched bit for bit on the machine
 * that moved it. The matrix products go to the native BLAS, whose kernels round differently on other CPUs (vector
 * width, fused multiply-add: on a later machine the last digit of two values moved), so the check allows a relative
 * 1e-12: far below what any change in the arithmetic (a missed bias, an activation derivative, a reordered update)
 * does to a 60-step run, which moves these values in the third digit or earlier.
 */
class EngineRegressionTest {
    @Test
    void seededSgdAndDpSgdGiveThePreEngineParameters() {
        SplittableRandom r = new SplittableRandom(11);
        int n = 300;
        DenseMatrix x = DenseMatrix.zeros(n, 6);
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = i % 3;
            for (int j = 0; j < 6; j++) {
                x.set(i, j, r.nextDouble() - 0.5 + (j == y[i] ? 0.8 : 0));
            }
        }
        Network init = Network.create(6, new int[] {8, 5}, Activation.TANH, List.of("a", "b", "c"), 2);
        DpSgdConfig c = new DpSgdConfig(1.0, 1.1, 0.1, 30, 60, 64, "sgd", 0.3, "constant", 0.0, 1L);
        Network dp = DpSgdTrainer.train(init, x, y, c, new SessionRandomness(NoiseSource.seeded(4))).model();
        Network sgd = SgdTrainer.train(init, x, y, 5, 16, "adam", 0.01, "constant", 1e-3, 7L);
        assertClose(fingerprint(dp), 0x1.d13960a96d7ffp4, -0x1.8eeee60680042p-3, 0x1.26b63d644c2bdp-4);
        assertClose(fingerprint(sgd), 0x1.1da1d4949cdc2p5, -0x1.2a4f9f0d7f367p-4, -0x1.19c05ca7c6b48p-5);
    }

    private static void assertClose(double[] actual, double... expected) {
        assertThat(actual).hasSize(expected.length);
        for (int i = 0; i < expected.length; i++) {
            assertThat(actual[i]).as("fingerprint[%d]", i).isCloseTo(expected[i], org.assertj.core.data.Offset.offset(1e-12 * Math.abs(expected[i])));
        }
    }

    /** Sum of squares of all parameters, one weight and one bias. */
    private static double[] fingerprint(Network m) {
        double s = 0;
        for (double[] p : m.parameterArrays()) {
            for (double v : p) {
                s += v * v;
            }
        }
        return new double[] {s, m.weights(0).get(1, 2), m.bias(2)[1]};
    }

    @Test
    void theNetworkIsAStackSharingItsArrays() {
        Network net = Network.create(4, new int[] {3}, Activation.RELU, List.of("a", "b"), 1);
        assertThat(net.stack().layers()).hasSize(2);
        assertThat(net.stack().layers().get(0).weights()).isSameAs(net.weights(0));
        assertThat(net.stack().layers().get(1).bias()).isSameAs(net.bias(1));
        assertThat(net.stack().layers().get(1).activation()).isEqualTo(Activation.IDENTITY);
    }
}
