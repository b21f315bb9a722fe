package org.privadapt.models.nn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;
import org.privadapt.models.Softmax;
import org.privadapt.models.dp.Targets;

/**
 * The shared losses against their naive formulas (relative tolerance 1e-12 where no cancellation occurs), their errors
 * against central finite differences (h = 1e-6, tolerance 1e-7), and the code they replaced (inline in Targets,
 * UdaLosses and GmmUdaMethod until issue 30) bit for bit. Fixed seeds.
 */
class LossesTest {
    private static DenseMatrix gaussian(int n, int k, long seed, double scale) {
        SplittableRandom r = new SplittableRandom(seed);
        DenseMatrix m = DenseMatrix.zeros(n, k);
        for (int q = 0; q < m.data().length; q++) {
            m.data()[q] = scale * r.nextGaussian();
        }
        return m;
    }

    private static int[] labels(int n, int k, long seed) {
        return new SplittableRandom(seed).ints(n, 0, k).toArray();
    }

    private static double sigmoid(double z) {
        return 1 / (1 + Math.exp(-z));
    }

    @Test
    void softmaxCrossEntropyIsMinusTheLogOfTheSoftmax() {
        int n = 30;
        int k = 5;
        DenseMatrix z = gaussian(n, k, 11, 3);
        int[] y = labels(n, k, 12);
        double[] l = Losses.softmaxCrossEntropy(z, y);
        assertThat(l).hasSize(n);
        for (int i = 0; i < n; i++) {
            double sum = 0;
            for (int c = 0; c < k; c++) {
                sum += Math.exp(z.get(i, c));
            }
            double naive = -Math.log(Math.exp(z.get(i, y[i])) / sum);
            assertThat(l[i]).as("row %d", i).isCloseTo(naive, within(1e-12 * Math.max(1, naive)));
        }
        // saturated logits: finite, and the log-sum-exp is the largest logit plus log(1 + tiny)
        DenseMatrix big = new DenseMatrix(1, 3, new double[] {1000, -1000, 999});
        assertThat(Losses.softmaxCrossEntropy(big, new int[] {1})[0]).isCloseTo(1000 + Math.log1p(Math.exp(-1)) + 1000,
                within(1e-9));
        assertThat(Losses.softmaxCrossEntropy(big, new int[] {0})[0]).isCloseTo(Math.log1p(Math.exp(-1)), within(1e-12));
    }

    @Test
    void softmaxErrorIsTheGradientOfEachExamplesLoss() {
        int n = 6;
        int k = 4;
        DenseMatrix z = gaussian(n, k, 13, 2);
        int[] y = labels(n, k, 14);
        DenseMatrix e = Losses.softmaxError(z, y);
        double h = 1e-6;
        for (int i = 0; i < n; i++) {
            for (int c = 0; c < k; c++) {
                DenseMatrix up = z.copy();
                up.set(i, c, z.get(i, c) + h);
                DenseMatrix down = z.copy();
                down.set(i, c, z.get(i, c) - h);
                double fd = (Losses.softmaxCrossEntropy(up, y)[i] - Losses.softmaxCrossEntropy(down, y)[i]) / (2 * h);
                assertThat(e.get(i, c)).as("(%d, %d)", i, c).isCloseTo(fd, within(1e-7));
            }
        }
    }

    @Test
    void sigmoidCrossEntropyIsTheBinaryCrossEntropy() {
        SplittableRandom r = new SplittableRandom(15);
        for (int t = 0; t < 200; t++) {
            double z = 4 * r.nextGaussian();
            double y = t % 3 == 0 ? 0 : t % 3 == 1 ? 1 : r.nextDouble();
            double s = sigmoid(z);
            double naive = -(y * Math.log(s) + (1 - y) * Math.log(1 - s));
            // log(1 - s) loses digits as s nears 1: the naive formula is good to about 1e-16 / (1 - s)
            double tol = 1e-12 * Math.max(1, Math.abs(naive)) + 1e-15 / (1 - s);
            assertThat(Losses.sigmoidCrossEntropy(z, y)).as("z=%s y=%s", z, y).isCloseTo(naive, within(tol));
            if (y == 0 || y == 1) {
                assertThat(Double.doubleToLongBits(Losses.sigmoidCrossEntropy(z, y == 1)))
                        .isEqualTo(Double.doubleToLongBits(Losses.sigmoidCrossEntropy(z, y)));
            }
            // with y = sigmoid(z): the binary entropy of s
            double entropy = -(s * Math.log(s) + (1 - s) * Math.log(1 - s));
            assertThat(Losses.sigmoidCrossEntropy(z, s)).isCloseTo(entropy, within(1e-12 + 1e-15 / (1 - s)));
        }
        // saturated: no overflow, no log(0)
        assertThat(Losses.sigmoidCrossEntropy(1000, 0.0)).isEqualTo(1000.0);
        assertThat(Losses.sigmoidCrossEntropy(-1000, 1.0)).isEqualTo(1000.0);
        assertThat(Losses.sigmoidCrossEntropy(1000, 1.0)).isEqualTo(0.0);
        assertThat(Losses.sigmoidCrossEntropy(Double.NEGATIVE_INFINITY, false)).isEqualTo(0.0);
        assertThat(Losses.softplus(800)).isEqualTo(800.0);
        assertThat(Losses.softplus(0)).isEqualTo(Math.log(2));
    }

    @Test
    void sigmoidErrorIsTheDerivative() {
        SplittableRandom r = new SplittableRandom(16);
        double h = 1e-6;
        for (int t = 0; t < 100; t++) {
            double z = 3 * r.nextGaussian();
            double y = r.nextDouble();
            double fd = (Losses.sigmoidCrossEntropy(z + h, y) - Losses.sigmoidCrossEntropy(z - h, y)) / (2 * h);
            assertThat(Losses.sigmoidError(z, y)).as("z=%s y=%s", z, y).isCloseTo(fd, within(1e-7));
        }
    }

    @Test
    void logSumExpRowsIsSoftmaxsLogNormaliser() {
        DenseMatrix z = gaussian(25, 6, 17, 5);
        double[] lse = Losses.logSumExpRows(z);
        double[] normaliser = Softmax.normaliseInPlace(z.copy());
        for (int i = 0; i < lse.length; i++) {
            assertThat(Double.doubleToLongBits(lse[i])).isEqualTo(Double.doubleToLongBits(normaliser[i]));
            double sum = 0;
            for (int c = 0; c < z.cols(); c++) {
                sum += Math.exp(z.get(i, c));
            }
            assertThat(lse[i]).isCloseTo(Math.log(sum), within(1e-12 * Math.max(1, Math.abs(lse[i]))));
        }
    }

    /** Targets' losses and errors as they were computed before they called Losses, bit for bit, at several scales. */
    @Test
    void targetsGiveWhatTheirFormerInlineCodeGave() {
        for (double scale : new double[] {1e-3, 1, 30, 800}) {
            int n = 40;
            int k = 4;
            DenseMatrix z = gaussian(n, k, 18, scale);
            int[] all = labels(60, k, 19);
            int[] idx = new SplittableRandom(20).ints(n, 0, 60).toArray();
            // Classes.lossSum, formerly one row at a time
            double former = 0;
            for (int i = 0; i < n; i++) {
                double max = Double.NEGATIVE_INFINITY;
                for (int j = 0; j < k; j++) {
                    max = Math.max(max, z.data()[i + j * n]);
                }
                double sum = 0;
                for (int j = 0; j < k; j++) {
                    sum += Math.exp(z.data()[i + j * n] - max);
                }
                former += max + Math.log(sum) - z.data()[i + all[idx[i]] * n];
            }
            assertThat(Double.doubleToLongBits(Targets.classes(all).lossSum(z, idx))).as("scale %s", scale)
                    .isEqualTo(Double.doubleToLongBits(former));
            // MultiLabel.lossSum and error, with 0/1 and soft labels
            SplittableRandom r = new SplittableRandom(21);
            double[][] y = new double[60][k];
            for (double[] row : y) {
                for (int j = 0; j < k; j++) {
                    row[j] = j == 0 ? r.nextDouble() : r.nextInt(2);
                }
            }
            Targets.MultiLabel t = (Targets.MultiLabel) Targets.multiLabel(y);
            double formerSum = 0;
            DenseMatrix formerError = DenseMatrix.zeros(n, k);
            for (int j = 0; j < k; j++) {
                for (int i = 0; i < n; i++) {
                    double v = z.data()[i + j * n];
                    formerSum += Math.max(v, 0) + Math.log1p(Math.exp(-Math.abs(v))) - y[idx[i]][j] * v;
                    formerError.data()[i + j * n] = Activation.SIGMOID.apply(v) - y[idx[i]][j];
                }
            }
            assertThat(Double.doubleToLongBits(t.lossSum(z, idx))).isEqualTo(Double.doubleToLongBits(formerSum));
            assertThat(t.error(z, idx).data()).isEqualTo(formerError.data());
        }
    }
}
