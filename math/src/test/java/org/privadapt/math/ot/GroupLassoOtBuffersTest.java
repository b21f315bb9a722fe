package org.privadapt.math.ot;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;

/**
 * Issue 32: the group-lasso solver keeps its n x m arrays across iterations (the inner solve builds its kernel in
 * the previous inner plan's array, the group gradient is not stored). The plans must be those of the previous
 * code bit for bit: {@link #reference} is that code (a stored W, a fresh kernel per inner solve), kept here as the
 * yardstick; so are the marginals of the result.
 */
class GroupLassoOtBuffersTest {

    @Test
    void plansEqualThePreviousCodeBitForBitAndMeetTheMarginals() {
        SplittableRandom rng = new SplittableRandom(32);
        int[][] shapes = {{30, 30, 2}, {61, 47, 3}, {120, 90, 5}};
        for (int[] s : shapes) {
            int n = s[0];
            int m = s[1];
            int classes = s[2];
            DenseMatrix xs = DenseMatrix.zeros(n, 3);
            DenseMatrix xt = DenseMatrix.zeros(m, 3);
            int[] labels = new int[n];
            for (int i = 0; i < n; i++) {
                labels[i] = i % classes;
                for (int j = 0; j < 3; j++) {
                    xs.set(i, j, 2.0 * (j == 0 ? labels[i] : 0) + rng.nextGaussian());
                }
            }
            for (int i = 0; i < m; i++) {
                for (int j = 0; j < 3; j++) {
                    xt.set(i, j, (j == 0 ? 2.0 * (i % classes) : 1.0) + rng.nextGaussian());
                }
            }
            DenseMatrix cost = OtTestData.normalisedSquaredEuclidean(xs, xt);
            double[] a = CostMatrices.uniform(n);
            double[] b = CostMatrices.uniform(m);
            for (double regG : new double[] {0.1, 1.0}) {
                SinkhornOptions inner = SinkhornOptions.defaults();
                Coupling now = GroupLassoOt.solve(a, b, cost, labels, 0.01, regG, 10, inner);
                double[] ref = reference(a, b, cost, labels, classes, 0.01, regG, 10, inner);
                assertThat(now.plan().data()).as("n=%d m=%d regG=%s", n, m, regG).containsExactly(ref);
                assertThat(now.iterations()).isGreaterThan(0);
                // the marginals (rows sum to a, columns to b up to the inner accuracy) are the previous code's
                assertThat(now.marginalError()).isEqualTo(OtKernels.marginalError(ref, n, m, a, b));
                assertThat(now.marginalError()).isLessThan(1e-4);
            }
        }
    }

    @Test
    void anInnerSolveBuildsItsKernelInTheGivenSpareArray() {
        DenseMatrix cost = OtTestData.normalisedSquaredEuclidean(gaussian(20, 1), gaussian(20, 2));
        double[] w = CostMatrices.uniform(20);
        Sinkhorn.Potentials p = new Sinkhorn.Potentials();
        double[] spare = new double[400];
        java.util.Arrays.fill(spare, Double.NaN); // contents must not matter
        p.kernel = spare;
        Coupling c = Sinkhorn.solve(w, w, cost, 0.05, SinkhornOptions.defaults(), p);
        assertThat(c.plan().data()).isSameAs(spare);
        assertThat(p.kernel).isNull();
        assertThat(c.plan().data()).containsExactly(Sinkhorn.solve(w, w, cost, 0.05, SinkhornOptions.defaults()).plan().data());
        p.kernel = new double[10]; // wrong size: ignored, a new array is used
        assertThat(Sinkhorn.solve(w, w, cost, 0.05, SinkhornOptions.defaults(), p).plan().data()).hasSize(400);
    }

    private static DenseMatrix gaussian(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        DenseMatrix x = DenseMatrix.zeros(n, 2);
        for (int i = 0; i < n; i++) {
            x.set(i, 0, r.nextGaussian());
            x.set(i, 1, r.nextGaussian());
        }
        return x;
    }

    /** The GCG loop as it was before issue 32 (W stored, a new kernel per inner solve); returns the plan. */
    private static double[] reference(double[] a, double[] b, DenseMatrix cost, int[] labels, int classes, double regE,
                                      double regG, int outer, SinkhornOptions inner) {
        int n = cost.rows();
        int m = cost.cols();
        double[] c = cost.data();
        Sinkhorn.Potentials potentials = new Sinkhorn.Potentials();
        double[] g = Sinkhorn.solve(a, b, cost, regE, inner, potentials).plan().data().clone();
        double fval = GroupLassoOt.objective(new DenseMatrix(n, m, g), cost, labels, regE, regG);
        double[] w = new double[n * m];
        double[] mi = new double[n * m];
        double[] norms = new double[classes];
        for (int attempt = 0; attempt < outer; attempt++) {
            for (int j = 0; j < m; j++) {
                java.util.Arrays.fill(norms, 0.0);
                int off = j * n;
                for (int i = 0; i < n; i++) {
                    norms[labels[i]] += g[off + i] * g[off + i];
                }
                for (int k = 0; k < classes; k++) {
                    norms[k] = norms[k] > 0 ? 1.0 / Math.sqrt(norms[k]) : 0.0;
                }
                for (int i = 0; i < n; i++) {
                    w[off + i] = g[off + i] * norms[labels[i]];
                }
            }
            for (int k = 0; k < mi.length; k++) {
                mi[k] = c[k] + regG * w[k];
            }
            double[] gc = Sinkhorn.solve(a, b, new DenseMatrix(n, m, mi), regE, inner, potentials).plan().data();
            double slope = 0;
            for (int k = 0; k < g.length; k++) {
                double d = gc[k] - g[k];
                if (d == 0) {
                    continue;
                }
                if (g[k] == 0) {
                    slope = Double.NEGATIVE_INFINITY;
                    break;
                }
                slope += d * (c[k] + regE * Math.log(g[k]) + regG * w[k]);
            }
            if (!(slope < 0)) {
                break;
            }
            double alpha = 1.0;
            double trial = Double.NaN;
            boolean accepted = false;
            for (int h = 0; h <= GroupLassoOt.MAX_HALVINGS; h++) {
                double[] x = new double[g.length];
                for (int k = 0; k < g.length; k++) {
                    x[k] = (1 - alpha) * g[k] + alpha * gc[k];
                }
                trial = GroupLassoOt.objective(new DenseMatrix(n, m, x), cost, labels, regE, regG);
                double bound = slope == Double.NEGATIVE_INFINITY ? fval : fval + GroupLassoOt.ARMIJO_C1 * alpha * slope;
                if (trial <= bound) {
                    accepted = true;
                    break;
                }
                alpha *= 0.5;
            }
            if (!accepted) {
                break;
            }
            for (int k = 0; k < g.length; k++) {
                g[k] = (1 - alpha) * g[k] + alpha * gc[k];
            }
            double previous = fval;
            fval = trial;
            if (Math.abs(previous - fval) <= GroupLassoOt.RELATIVE_STOP * Math.abs(previous)) {
                break;
            }
        }
        return g;
    }
}
