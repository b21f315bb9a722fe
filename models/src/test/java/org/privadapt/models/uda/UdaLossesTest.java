package org.privadapt.models.uda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.privadapt.math.DenseMatrix;

class UdaLossesTest {
    static DenseMatrix gaussian(int n, int k, long seed, double scale) {
        SplittableRandom r = new SplittableRandom(seed);
        DenseMatrix m = DenseMatrix.zeros(n, k);
        for (int q = 0; q < m.data().length; q++) {
            m.data()[q] = scale * r.nextGaussian();
        }
        return m;
    }

    /** Central differences of {@code f} at every entry of {@code x} against {@code grad}. */
    static void checkGradient(DenseMatrix x, DenseMatrix grad, ToDoubleFunction<DenseMatrix> f, double tol) {
        double h = 1e-6;
        for (int q = 0; q < x.data().length; q++) {
            DenseMatrix up = x.copy();
            up.data()[q] += h;
            DenseMatrix down = x.copy();
            down.data()[q] -= h;
            double fd = (f.applyAsDouble(up) - f.applyAsDouble(down)) / (2 * h);
            assertThat(grad.data()[q]).as("entry %d", q).isCloseTo(fd, within(tol * Math.max(1, Math.abs(fd))));
        }
    }

    @ParameterizedTest
    @EnumSource(OutputMode.class)
    void distillationGradientMatchesFiniteDifferences(OutputMode mode) {
        DenseMatrix s = gaussian(4, 3, 1, 3);
        DenseMatrix t = gaussian(4, 3, 2, 3);
        for (double temp : new double[] {1, 2.5, 20}) {
            UdaLosses.Loss l = UdaLosses.distillation(mode, s, t, temp);
            checkGradient(s, l.gradient(), m -> UdaLosses.distillation(mode, m, t, temp).value(), 1e-6);
        }
    }

    @ParameterizedTest
    @EnumSource(OutputMode.class)
    void entropyAndDiversityGradientsMatchFiniteDifferences(OutputMode mode) {
        DenseMatrix u = gaussian(5, 4, 3, 2);
        checkGradient(u, UdaLosses.entropy(mode, u).gradient(), m -> UdaLosses.entropy(mode, m).value(), 1e-6);
        checkGradient(u, UdaLosses.diversity(mode, u).gradient(), m -> UdaLosses.diversity(mode, m).value(), 1e-6);
    }

    @ParameterizedTest
    @EnumSource(OutputMode.class)
    void crossEntropyGradientMatchesFiniteDifferences(OutputMode mode) {
        DenseMatrix u = gaussian(5, 3, 4, 2);
        DenseMatrix y = mode.probabilities(gaussian(5, 3, 5, 2)); // soft targets (rows sum to 1 for SOFTMAX)
        checkGradient(u, UdaLosses.crossEntropy(mode, u, y).gradient(), m -> UdaLosses.crossEntropy(mode, m, y).value(), 1e-6);
    }

    @Test
    void domainCrossEntropyGradientMatchesFiniteDifferences() {
        DenseMatrix o = gaussian(6, 1, 6, 2);
        checkGradient(o, UdaLosses.domainCrossEntropy(o, 2).gradient(), m -> UdaLosses.domainCrossEntropy(m, 2).value(), 1e-6);
        // an undecided discriminator (o = 0) scores ln 2
        assertThat(UdaLosses.domainCrossEntropy(DenseMatrix.zeros(4, 1), 2).value()).isCloseTo(Math.log(2), within(1e-12));
    }

    @ParameterizedTest
    @EnumSource(OutputMode.class)
    void probabilityJacobianMatchesFiniteDifferences(OutputMode mode) {
        DenseMatrix u = gaussian(3, 4, 7, 1.5);
        DenseMatrix w = gaussian(3, 4, 8, 1); // the test function sum w .* g(u)
        ToDoubleFunction<DenseMatrix> f = m -> {
            double[] p = mode.probabilities(m).data();
            double s = 0;
            for (int q = 0; q < p.length; q++) {
                s += w.data()[q] * p[q];
            }
            return s;
        };
        checkGradient(u, UdaLosses.probabilityToLogitError(mode, mode.probabilities(u), w), f, 1e-6);
    }

    /** Known values: uniform predictions have entropy ln K and diversity -ln K; saturated logits stay finite. */
    @Test
    void valuesAtKnownPointsAndSaturation() {
        DenseMatrix zero = DenseMatrix.zeros(3, 4);
        assertThat(UdaLosses.entropy(OutputMode.SOFTMAX, zero).value()).isCloseTo(Math.log(4), within(1e-12));
        assertThat(UdaLosses.diversity(OutputMode.SOFTMAX, zero).value()).isCloseTo(-Math.log(4), within(1e-12));
        assertThat(UdaLosses.entropy(OutputMode.SIGMOID, zero).value()).isCloseTo(4 * Math.log(2), within(1e-12));
        assertThat(UdaLosses.diversity(OutputMode.SIGMOID, zero).value()).isCloseTo(-4 * Math.log(2), within(1e-12));
        DenseMatrix big = DenseMatrix.fromRows(new double[][] {{800, -800}, {-800, 800}});
        for (OutputMode m : OutputMode.values()) {
            assertThat(UdaLosses.entropy(m, big).value()).isCloseTo(0, within(1e-9));
            assertThat(UdaLosses.distillation(m, big, big.scale(-1), 20).value()).isFinite();
            assertThat(UdaLosses.diversity(m, big).gradient().firstNonFinite()).isNull();
        }
        // KD of a student equal to its teacher is the teacher's tempered entropy times t^2, and its gradient is zero
        DenseMatrix u = gaussian(3, 3, 9, 2);
        UdaLosses.Loss self = UdaLosses.distillation(OutputMode.SOFTMAX, u, u, 2);
        assertThat(self.value()).isCloseTo(4 * UdaLosses.entropy(OutputMode.SOFTMAX, u.scale(0.5)).value(), within(1e-12));
        assertThat(self.gradient().maxAbs()).isLessThan(1e-15);
    }
}
