package org.privadapt.models.dp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.data.ClassLabels;
import org.privadapt.math.DenseMatrix;
import org.privadapt.models.Metrics;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.Backprop;
import org.privadapt.models.nn.Gradients;
import org.privadapt.models.nn.Network;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.accounting.RdpAccountant;

class DpSgdTrainerTest {
    /** Two linearly separable Gaussian classes in 5-D, rows scaled to norm <= 1 on average. */
    static Object[] separable(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        DenseMatrix x = DenseMatrix.zeros(n, 5);
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = i % 2;
            for (int j = 0; j < 5; j++) {
                double g = Math.sqrt(-2 * Math.log(1 - r.nextDouble())) * Math.cos(2 * Math.PI * r.nextDouble());
                x.set(i, j, 0.15 * g + (j == 0 ? (y[i] == 0 ? -0.4 : 0.4) : 0));
            }
        }
        return new Object[] {x, y};
    }

    static DpSgdConfig config(double sigma, double q, long steps, int n) {
        return new DpSgdConfig(1.0, sigma, q, q * n, steps, 64, "sgd", 0.5, "constant", 0.0, 1L);
    }

    @Test
    void learnsASeparableProblemWithLogisticRegressionAndAnMlp() {
        Object[] d = separable(1000, 1);
        DenseMatrix x = (DenseMatrix) d[0];
        int[] y = (int[]) d[1];
        ClassLabels truth = new ClassLabels(y, List.of("a", "b"));
        Object[] t = separable(1000, 2);
        ClassLabels testTruth = new ClassLabels((int[]) t[1], List.of("a", "b"));
        for (int[] hidden : new int[][] {{}, {16}}) {
            Network init = Network.create(5, hidden, Activation.RELU, List.of("a", "b"), 3);
            DpSgdTrainer.Result r = DpSgdTrainer.train(init, x, y, config(1.0, 0.05, 400, 1000), new SeededRandomness(4));
            assertThat(Metrics.accuracy(r.model().predict((DenseMatrix) t[0]), testTruth)).as("hidden %d", hidden.length)
                    .isGreaterThan(0.95);
            assertThat(Metrics.accuracy(init.predict(x), truth)).isLessThan(0.75); // it really learned
            assertThat(r.isPrivate()).isFalse();
        }
    }

    @Test
    void poissonSamplingUsesIndependentDraws() {
        Object[] d = separable(2000, 5);
        DpSgdTrainer.Result r = DpSgdTrainer.train(Network.create(5, new int[0], Activation.RELU, List.of("a", "b"), 1),
                (DenseMatrix) d[0], (int[]) d[1], config(1.0, 0.02, 200, 2000), new SeededRandomness(6));
        // total examples over T steps ~ Binomial(n T, q): mean 8000, sd ~ 88.5; 5 standard deviations
        assertThat((double) r.examplesUsed()).isCloseTo(8000.0, within(5 * Math.sqrt(8000 * 0.98)));
    }

    @Test
    void oneNoiselessFullBatchStepIsTheClippedSumOverTheNormaliser() {
        Object[] d = separable(50, 7);
        DenseMatrix x = (DenseMatrix) d[0];
        int[] y = (int[]) d[1];
        Network init = Network.create(5, new int[] {3}, Activation.TANH, List.of("a", "b"), 2);
        DpSgdConfig c = new DpSgdConfig(0.05, 0.0, 1.0, 40.0, 1, 16, "sgd", 1.0, "constant", 0.0, 1L);
        Network after = DpSgdTrainer.train(init, x, y, c, new SeededRandomness(1)).model();
        Network.Forward f = init.forward(x);
        var deltas = Backprop.deltas(init, f, y);
        double[] sq = Backprop.perExampleSquaredNorms(f, deltas);
        double[] factor = new double[sq.length];
        for (int i = 0; i < sq.length; i++) {
            factor[i] = Math.min(1.0, 0.05 / Math.sqrt(sq[i]));
            assertThat(factor[i]).isLessThan(1.0); // the bound is active for every example here
        }
        Gradients g = Backprop.weightedSum(f, deltas, factor);
        for (int l = 0; l < init.layers(); l++) {
            double[] before = init.weights(l).data();
            double[] now = after.weights(l).data();
            for (int k = 0; k < now.length; k++) {
                assertThat(now[k]).isCloseTo(before[k] - g.weights(l).data()[k] / 40.0, within(1e-12));
            }
        }
    }

    @Test
    void stepsWithinBudgetIsTheLargestThatFits() {
        RdpAccountant rdp = new RdpAccountant(NeighbouringRelation.ADD_OR_REMOVE_ONE);
        long t = DpSgdTrainer.stepsWithinBudget(rdp, 2.0, 1e-5, 0.01, 1.1, 1_000_000);
        assertThat(t).isPositive();
        assertThat(rdp.epsilon(DpSgdTrainer.event(config(1.1, 0.01, t, 100)), 1e-5)).isLessThanOrEqualTo(2.0);
        assertThat(rdp.epsilon(DpSgdTrainer.event(config(1.1, 0.01, t + 1, 100)), 1e-5)).isGreaterThan(2.0);
        assertThat(DpSgdTrainer.stepsWithinBudget(rdp, 1e-3, 1e-5, 0.5, 0.5, 100)).isZero();
        assertThat(DpSgdTrainer.stepsWithinBudget(rdp, 100, 1e-5, 0.001, 5, 50)).isEqualTo(50);
    }

    @Test
    void aNonFiniteGradientStopsTrainingInsteadOfPassingUnclipped() {
        // NaN > C is false: before the fix a NaN norm gave factor 1 and the gradient entered the sum unclipped
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> DpSgdTrainer.clipFactor(Double.NaN, 1.0, 0)))
                .isInstanceOf(NonFiniteGradientException.class).hasMessageContaining("step 1");
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> DpSgdTrainer.clipFactor(Double.POSITIVE_INFINITY, 1.0, 4)))
                .isInstanceOf(NonFiniteGradientException.class).hasMessageContaining("step 5");
        assertThat(DpSgdTrainer.clipFactor(4.0, 1.0, 0)).isEqualTo(0.5);
        assertThat(DpSgdTrainer.clipFactor(0.25, 1.0, 0)).isEqualTo(1.0);
        // end to end: a model whose weights went NaN produces NaN gradients; training must stop
        Object[] d = separable(40, 3);
        Network init = Network.create(5, new int[0], Activation.RELU, List.of("a", "b"), 1);
        init.weights(0).set(0, 0, Double.NaN);
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> DpSgdTrainer.train(init, (DenseMatrix) d[0], (int[]) d[1],
                config(1.0, 0.5, 3, 40), new SeededRandomness(2)))).isInstanceOf(NonFiniteGradientException.class);
    }
}
