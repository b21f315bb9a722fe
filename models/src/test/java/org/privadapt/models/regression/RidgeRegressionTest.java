package org.privadapt.models.regression;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;

class RidgeRegressionTest {
    private static DenseMatrix randomRows(int n, int d, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] rows = new double[n][d];
        for (double[] row : rows) {
            for (int j = 0; j < d; j++) {
                row[j] = r.nextGaussian();
            }
        }
        return DenseMatrix.fromRows(rows);
    }

    @Test
    void noiselessLinearDataIsFitExactlyAtLambdaZero() {
        DenseMatrix x = randomRows(40, 5, 1);
        double[] beta = {1, -2, 0.5, 3, 0};
        double[] y = new double[40];
        for (int i = 0; i < 40; i++) {
            y[i] = 7;
            for (int j = 0; j < 5; j++) {
                y[i] += beta[j] * x.get(i, j);
            }
        }
        RidgeRegression.Model m = RidgeRegression.fit(x, y, 0.0);
        assertArrayEquals(beta, m.beta(), 1e-10);
        assertEquals(7, m.intercept(), 1e-10);
        assertEquals(0, RidgeRegression.mse(m.predict(x), y), 1e-20);
    }

    /** The stationarity condition of the objective, checked directly: grad_beta = 0 and grad_b = 0. */
    @Test
    void solutionSatisfiesTheNormalEquationsWithWeights() {
        DenseMatrix x = randomRows(30, 4, 2);
        SplittableRandom r = new SplittableRandom(3);
        double[] y = new double[30];
        double[] c = new double[30];
        for (int i = 0; i < 30; i++) {
            y[i] = r.nextGaussian() + x.get(i, 0);
            c[i] = r.nextDouble() * 3;
        }
        double lambda = 0.37;
        RidgeRegression.Model m = RidgeRegression.fit(x, y, c, lambda);
        double total = 0;
        for (double v : c) {
            total += v;
        }
        double[] p = m.predict(x);
        double gb = 0;
        double[] gw = new double[4];
        for (int i = 0; i < 30; i++) {
            double res = (p[i] - y[i]) * c[i] / total;
            gb += res;
            for (int j = 0; j < 4; j++) {
                gw[j] += res * x.get(i, j);
            }
        }
        assertEquals(0, gb, 1e-12);
        for (int j = 0; j < 4; j++) {
            assertEquals(0, gw[j] + lambda * m.beta()[j], 1e-12, "coordinate " + j);
        }
    }

    @Test
    void integerWeightsEqualDuplicatedRows() {
        DenseMatrix x = randomRows(10, 3, 4);
        double[] y = new double[10];
        double[] c = new double[10];
        int extra = 0;
        for (int i = 0; i < 10; i++) {
            y[i] = i % 3 - x.get(i, 1);
            c[i] = 1 + i % 3;
            extra += (int) c[i];
        }
        double[][] rows = new double[extra][];
        double[] yy = new double[extra];
        int k = 0;
        for (int i = 0; i < 10; i++) {
            for (int t = 0; t < c[i]; t++) {
                rows[k] = x.row(i);
                yy[k++] = y[i];
            }
        }
        RidgeRegression.Model a = RidgeRegression.fit(x, y, c, 0.1);
        RidgeRegression.Model b = RidgeRegression.fit(DenseMatrix.fromRows(rows), yy, 0.1);
        assertArrayEquals(b.beta(), a.beta(), 1e-12);
        assertEquals(b.intercept(), a.intercept(), 1e-12);
    }

    @Test
    void pathEqualsSeparateFitsAndShrinks() {
        DenseMatrix x = randomRows(25, 6, 5);
        double[] y = new double[25];
        for (int i = 0; i < 25; i++) {
            y[i] = x.get(i, 2) - x.get(i, 4) + 0.1 * i;
        }
        double[] lambdas = {0, 0.01, 1, 100};
        RidgeRegression.Model[] path = RidgeRegression.path(x, y, null, lambdas);
        double prev = Double.POSITIVE_INFINITY;
        for (int k = 0; k < lambdas.length; k++) {
            assertArrayEquals(RidgeRegression.fit(x, y, lambdas[k]).beta(), path[k].beta(), 1e-12);
            double norm = 0;
            for (double v : path[k].beta()) {
                norm += v * v;
            }
            assertEquals(true, norm < prev, "||beta|| decreases with lambda");
            prev = norm;
        }
    }

    /** Wide data (n < d) goes through the n x n Gram matrix: the same stationarity conditions, the minimum norm at 0. */
    @Test
    void wideDataSatisfiesTheNormalEquationsAndGivesTheMinimumNormInterpolantAtZero() {
        int n = 12;
        int d = 40;
        DenseMatrix x = randomRows(n, d, 4);
        SplittableRandom r = new SplittableRandom(5);
        double[] y = new double[n];
        double[] c = new double[n];
        for (int i = 0; i < n; i++) {
            y[i] = r.nextGaussian();
            c[i] = 0.5 + r.nextDouble();
        }
        double total = 0;
        for (double v : c) {
            total += v;
        }
        RidgeRegression.Model[] path = RidgeRegression.path(x, y, c, new double[] {0.0, 0.21});
        // lambda = 0.21: grad = 0
        double[] p = path[1].predict(x);
        double gb = 0;
        double[] gw = new double[d];
        for (int i = 0; i < n; i++) {
            double res = (p[i] - y[i]) * c[i] / total;
            gb += res;
            for (int j = 0; j < d; j++) {
                gw[j] += res * x.get(i, j);
            }
        }
        assertEquals(0, gb, 1e-12);
        for (int j = 0; j < d; j++) {
            assertEquals(0, gw[j] + 0.21 * path[1].beta()[j], 1e-12, "coordinate " + j);
        }
        // lambda = 0: interpolates, and beta lies in the span of the weighted-centred rows (minimum norm)
        assertEquals(0, RidgeRegression.mse(path[0].predict(x), y), 1e-20);
        double[] mx = new double[d];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                mx[j] += c[i] / total * x.get(i, j);
            }
        }
        DenseMatrix centred = x.minusRowVector(mx);
        org.privadapt.math.SymmetricEigen e = org.privadapt.math.LinAlg.eigh(centred.gram());
        DenseMatrix vectors = e.vectors();
        int nullDirections = 0;
        for (int k = 0; k < d; k++) {
            if (Math.abs(e.value(k)) < 1e-9 * e.maxValue()) {
                nullDirections++;
                double dot = 0;
                for (int j = 0; j < d; j++) {
                    dot += vectors.get(j, k) * path[0].beta()[j];
                }
                assertEquals(0, dot, 1e-10, "component along null direction " + k);
            }
        }
        assertEquals(d - (n - 1), nullDirections); // centring removes one rank
    }

    @Test
    void badArgumentsAreRefused() {
        DenseMatrix x = randomRows(3, 2, 6);
        assertThrows(IllegalArgumentException.class, () -> RidgeRegression.fit(x, new double[2], 1));
        assertThrows(IllegalArgumentException.class, () -> RidgeRegression.fit(x, new double[3], -1));
        assertThrows(IllegalArgumentException.class, () -> RidgeRegression.fit(x, new double[3], new double[3], 1));
    }
}
