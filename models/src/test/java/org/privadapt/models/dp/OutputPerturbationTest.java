package org.privadapt.models.dp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.Network;
import org.privadapt.privacy.NeighbouringRelation;

/** {@link OutputPerturbation}: its configuration, the checked minimiser, the noise and the refusal before any noise. */
class OutputPerturbationTest {
    static final List<String> ABC = List.of("a", "b", "c");

    static double gauss(SplittableRandom r) {
        return Math.sqrt(-2 * Math.log(1 - r.nextDouble())) * Math.cos(2 * Math.PI * r.nextDouble());
    }

    /** n rows in R^d of k classes around the axes, scaled by {@code scale} (many beyond a small R). */
    static Object[] data(int n, int d, int k, double scale, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        DenseMatrix x = DenseMatrix.zeros(n, d);
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = i % k;
            for (int j = 0; j < d; j++) {
                x.set(i, j, scale * (0.6 * gauss(r) + (j == y[i] % d ? 1 : 0)));
            }
        }
        return new Object[] {x, y};
    }

    /**
     * The objective {@code F(theta) = sum_i CE + (lambda/2) ||theta||^2} on the given (already clipped) rows, theta = (W
     * column-major d x k, b), and its gradient: the reference the tests check the solver against.
     */
    static double objective(FeatureMatrix x, int[] y, int k, double lambda, double[] theta, double[] grad) {
        int n = x.rows();
        int d = x.cols();
        double f = 0;
        java.util.Arrays.fill(grad, 0);
        for (int i = 0; i < n; i++) {
            double[] xi = x.row(i);
            double[] z = new double[k];
            double max = Double.NEGATIVE_INFINITY;
            for (int c = 0; c < k; c++) {
                z[c] = theta[d * k + c];
                for (int j = 0; j < d; j++) {
                    z[c] += xi[j] * theta[j + c * d];
                }
                max = Math.max(max, z[c]);
            }
            double s = 0;
            for (int c = 0; c < k; c++) {
                s += Math.exp(z[c] - max);
            }
            double lse = max + Math.log(s);
            f += lse - z[y[i]];
            for (int c = 0; c < k; c++) {
                double g = Math.exp(z[c] - lse) - (c == y[i] ? 1 : 0);
                for (int j = 0; j < d; j++) {
                    grad[j + c * d] += g * xi[j];
                }
                grad[d * k + c] += g;
            }
        }
        for (int t = 0; t < theta.length; t++) {
            f += 0.5 * lambda * theta[t] * theta[t];
            grad[t] += lambda * theta[t];
        }
        return f;
    }

    static double[] parameters(Network m) {
        double[] w = m.weights(0).data();
        double[] b = m.bias(0);
        double[] t = new double[w.length + b.length];
        System.arraycopy(w, 0, t, 0, w.length);
        System.arraycopy(b, 0, t, w.length, b.length);
        return t;
    }

    static double norm(double[] v) {
        double s = 0;
        for (double a : v) {
            s += a * a;
        }
        return Math.sqrt(s);
    }

    @Test
    void theReferenceGradientMatchesFiniteDifferences() {
        Object[] dt = data(12, 3, 3, 1.0, 1);
        DenseMatrix x = (DenseMatrix) dt[0];
        int[] y = (int[]) dt[1];
        SplittableRandom r = new SplittableRandom(2);
        double[] theta = new double[3 * 3 + 3];
        for (int t = 0; t < theta.length; t++) {
            theta[t] = gauss(r);
        }
        double[] g = new double[theta.length];
        objective(x, y, 3, 0.7, theta, g);
        double[] tmp = new double[theta.length];
        for (int t = 0; t < theta.length; t++) {
            double h = 1e-6;
            double[] p = theta.clone();
            double[] m = theta.clone();
            p[t] += h;
            m[t] -= h;
            double fd = (objective(x, y, 3, 0.7, p, tmp) - objective(x, y, 3, 0.7, m, tmp)) / (2 * h);
            assertThat(g[t]).as("coordinate %d", t).isCloseTo(fd, within(1e-6 * (1 + Math.abs(fd))));
        }
    }

    @Test
    void configValidationAndTheDeclaredConstants() {
        assertThatThrownBy(() -> new OutputPerturbation.Config(0, 1, 1e-6, 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new OutputPerturbation.Config(Double.POSITIVE_INFINITY, 1, 1e-6, 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new OutputPerturbation.Config(Double.NaN, 1, 1e-6, 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new OutputPerturbation.Config(1, 0, 1e-6, 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new OutputPerturbation.Config(1, Double.POSITIVE_INFINITY, 1e-6, 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new OutputPerturbation.Config(1, 1, 0, 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new OutputPerturbation.Config(1, 1, 1e-6, 0)).isInstanceOf(IllegalArgumentException.class);
        OutputPerturbation.Config c = new OutputPerturbation.Config(2.0, 3.0, 0.01, 100);
        double l = Math.sqrt(2 * (9 + 1));
        assertThat(c.lipschitz()).isCloseTo(l, within(1e-12));
        assertThat(c.sensitivity(NeighbouringRelation.ADD_OR_REMOVE_ONE)).isCloseTo((l + 0.02) / 2.0, within(1e-12));
        assertThat(c.sensitivity(NeighbouringRelation.REPLACE_ONE)).isCloseTo((2 * l + 0.02) / 2.0, within(1e-12));
    }

    @Test
    void theMinimisersGradientNormIsBelowTheTolerance() {
        // several problems: rows inside and beyond R, two and three classes, weak and strong regularisation
        double[][] settings = {{0.05, 1.0, 1.0}, {1.0, 1.0, 3.0}, {10.0, 3.0, 5.0}, {0.5, 0.5, 0.3}}; // lambda, R, data scale
        for (double[] s : settings) {
            for (int k : new int[] {2, 3}) {
                Object[] dt = data(60, 4, k, s[2], 3 + k);
                DenseMatrix x = (DenseMatrix) dt[0];
                int[] y = (int[]) dt[1];
                List<String> names = ABC.subList(0, k);
                OutputPerturbation.Config c = new OutputPerturbation.Config(s[0], s[1], 1e-7, 2000);
                Network m = OutputPerturbation.minimiser(x, y, names, c);
                assertThat(m.layers()).isEqualTo(1);
                assertThat(m.sizes()).containsExactly(4, k);
                assertThat(m.classNames()).isEqualTo(names);
                double[] theta = parameters(m);
                double[] g = new double[theta.length];
                objective(ClassStatistics.clipRows(x, s[1]), y, k, s[0], theta, g);
                // the reference gradient on the clipped rows, in L2 (a tiny relative allowance for the two
                // implementations' rounding)
                assertThat(norm(g)).as("lambda %s, R %s, scale %s, k %d", s[0], s[1], s[2], k).isLessThanOrEqualTo(1e-7 + 1e-10);
                // it is not the gradient on the unclipped rows when rows lie beyond R (the fit reads the clipped rows)
                if (s[2] > s[1]) {
                    objective(x, y, k, s[0], theta, g);
                    assertThat(norm(g)).isGreaterThan(1e-3);
                }
            }
        }
    }

    @Test
    void theReleaseIsTheMinimiserPlusNoiseOfTheDeclaredScaleOnEveryParameter() {
        Object[] dt = data(40, 3, 3, 2.0, 8);
        DenseMatrix x = (DenseMatrix) dt[0];
        int[] y = (int[]) dt[1];
        OutputPerturbation.Config c = new OutputPerturbation.Config(0.5, 1.5, 1e-6, 2000);
        Network exact = OutputPerturbation.minimiser(x, y, ABC, c);
        for (NeighbouringRelation rel : NeighbouringRelation.values()) {
            RecordingNoise noise = new RecordingNoise(9, false);
            Network released = OutputPerturbation.fit(x, y, ABC, c, 1.3, rel, noise);
            double sigma = 1.3 * c.sensitivity(rel);
            assertThat(noise.calls).hasSize(2);
            assertThat(noise.calls.get(0)[0]).isEqualTo(9);
            assertThat(noise.calls.get(1)[0]).isEqualTo(3);
            assertThat(noise.calls.get(0)[1]).isCloseTo(sigma, within(1e-12));
            assertThat(noise.calls.get(1)[1]).isCloseTo(sigma, within(1e-12));
            double[] e = parameters(exact);
            double[] r = parameters(released);
            for (int t = 0; t < 12; t++) {
                double n = t < 9 ? noise.added.get(0)[t] : noise.added.get(1)[t - 9];
                assertThat(r[t]).as("%s parameter %d", rel, t).isCloseTo(e[t] + n, within(1e-12 * (1 + Math.abs(e[t]) + Math.abs(n))));
            }
            assertThat(released.classNames()).isEqualTo(ABC);
            assertThat(released.sizes()).containsExactly(3, 3);
            assertThat(released.hiddenActivation()).isEqualTo(Activation.IDENTITY);
        }
        // the std of the noise, empirically over 3000 releases of the same minimiser (36000 draws; 3 % tolerance)
        SeededRandomness rnd = new SeededRandomness(10);
        double sq = 0;
        int count = 0;
        double[] e = parameters(exact);
        for (int t = 0; t < 3000; t++) {
            double[] r = parameters(OutputPerturbation.perturb(exact, 0.25, rnd));
            for (int i = 0; i < r.length; i++) {
                sq += (r[i] - e[i]) * (r[i] - e[i]);
                count++;
            }
        }
        assertThat(Math.sqrt(sq / count) / 0.25).isCloseTo(1.0, within(0.03));
    }

    @Test
    void anIterationCapTooSmallIsRefusedBeforeAnyNoise() {
        Object[] dt = data(80, 5, 3, 3.0, 12);
        DenseMatrix x = (DenseMatrix) dt[0];
        int[] y = (int[]) dt[1];
        OutputPerturbation.Config tight = new OutputPerturbation.Config(0.01, 3.0, 1e-9, 1);
        RecordingNoise noise = new RecordingNoise(1, true);
        assertThatThrownBy(() -> OutputPerturbation.fit(x, y, ABC, tight, 1.0, NeighbouringRelation.REPLACE_ONE, noise))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("nothing was released")
                .hasMessageContaining("did not reach the gradient tolerance")
                .hasMessageNotContaining("norm of"); // no data-dependent number in the message: the failure is one bit
        assertThat(noise.calls).isEmpty();
        assertThatThrownBy(() -> OutputPerturbation.minimiser(x, y, ABC, tight)).isInstanceOf(IllegalStateException.class);
        // the same problem with a sufficient cap is fitted (so it is the cap that was refused)
        OutputPerturbation.Config enough = new OutputPerturbation.Config(0.01, 3.0, 1e-6, 5000);
        RecordingNoise ok = new RecordingNoise(1, false);
        OutputPerturbation.fit(x, y, ABC, enough, 1.0, NeighbouringRelation.REPLACE_ONE, ok);
        assertThat(ok.calls).hasSize(2);
    }

    @Test
    void refusesBadLabels() {
        DenseMatrix x = DenseMatrix.fromRows(new double[][] {{1, 0}, {0, 1}});
        OutputPerturbation.Config c = new OutputPerturbation.Config(1, 1, 1e-6, 100);
        assertThatThrownBy(() -> OutputPerturbation.minimiser(x, new int[] {0, 3}, ABC, c)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("label 3");
        assertThatThrownBy(() -> OutputPerturbation.minimiser(x, new int[] {0}, ABC, c)).isInstanceOf(IllegalArgumentException.class);
    }
}
