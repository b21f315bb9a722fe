package org.privadapt.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.data.ClassLabels;
import org.privadapt.math.CsrMatrix;
import org.privadapt.math.DenseMatrix;

class LogisticRegressionTest {
    /** Three well-separated Gaussian blobs in 2-D. */
    static Object[] blobs(long seed, int perClass) {
        SplittableRandom rng = new SplittableRandom(seed);
        double[][] centers = {{0, 4}, {4, -2}, {-4, -2}};
        DenseMatrix x = DenseMatrix.zeros(3 * perClass, 2);
        int[] y = new int[3 * perClass];
        for (int c = 0; c < 3; c++) {
            for (int i = 0; i < perClass; i++) {
                int r = c * perClass + i;
                x.set(r, 0, centers[c][0] + gauss(rng));
                x.set(r, 1, centers[c][1] + gauss(rng));
                y[r] = c;
            }
        }
        return new Object[] {x, new ClassLabels(y, List.of("a", "b", "c"))};
    }

    static double gauss(SplittableRandom rng) {
        return Math.sqrt(-2 * Math.log(1 - rng.nextDouble())) * Math.cos(2 * Math.PI * rng.nextDouble());
    }

    @Test
    void learnsSeparableBlobs() {
        Object[] b = blobs(1, 100);
        DenseMatrix x = (DenseMatrix) b[0];
        ClassLabels y = (ClassLabels) b[1];
        LogisticRegression m = LogisticRegressionTrainer.defaults().fit(x, y);
        assertThat(Metrics.accuracy(m.predict(x), y)).isGreaterThan(0.98);
        Object[] test = blobs(2, 100);
        assertThat(Metrics.accuracy(m.predict((DenseMatrix) test[0]), (ClassLabels) test[1])).isGreaterThan(0.97);
        DenseMatrix p = m.predictProba(x);
        for (int i = 0; i < x.rows(); i++) {
            assertThat(p.get(i, 0) + p.get(i, 1) + p.get(i, 2)).isCloseTo(1.0, within(1e-12));
        }
    }

    @Test
    void stationaryPointOfTheRegularisedObjective() {
        // at the optimum, the gradient X^T (P - Y)/n + l2 W vanishes
        Object[] b = blobs(3, 40);
        DenseMatrix x = (DenseMatrix) b[0];
        ClassLabels y = (ClassLabels) b[1];
        double l2 = 0.1;
        LogisticRegression m = new LogisticRegressionTrainer(l2, 1000).fit(x, y);
        DenseMatrix p = m.predictProba(x);
        for (int i = 0; i < x.rows(); i++) {
            p.add(i, y.code(i), -1.0);
        }
        p.scaleInPlace(1.0 / x.rows());
        DenseMatrix g = x.transposeMultiply(p);
        g.addScaledInPlace(l2, m.weights());
        assertThat(g.maxAbs()).isLessThan(1e-5);
    }

    @Test
    void sparseAndDenseInputsGiveTheSameModel() {
        Object[] b = blobs(4, 30);
        DenseMatrix x = ((DenseMatrix) b[0]).map(v -> Math.max(0, v)); // some zeros
        ClassLabels y = (ClassLabels) b[1];
        LogisticRegression dense = LogisticRegressionTrainer.defaults().fit(x, y);
        LogisticRegression sparse = LogisticRegressionTrainer.defaults().fit(CsrMatrix.fromDense(x), y);
        assertThat(dense.weights().minus(sparse.weights()).maxAbs()).isLessThan(1e-6);
    }

    /** Integer weights equal duplicated rows; zero weights drop rows. */
    @Test
    void integerWeightsEqualDuplicatedRowsAndZeroWeightsDropThem() {
        Object[] b = blobs(7, 20);
        DenseMatrix x = (DenseMatrix) b[0];
        ClassLabels y = (ClassLabels) b[1];
        int n = x.rows();
        double[] w = new double[n];
        java.util.List<Integer> rows = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            w[i] = i % 3; // 0, 1 or 2 copies
            for (int k = 0; k < w[i]; k++) {
                rows.add(i);
            }
        }
        int[] idx = rows.stream().mapToInt(Integer::intValue).toArray();
        LogisticRegressionTrainer t = new LogisticRegressionTrainer(0.01, 500);
        LogisticRegression weighted = t.fit(x, y, w);
        LogisticRegression duplicated = t.fit(x.selectRows(idx), y.selectRows(idx));
        DenseMatrix probe = DenseMatrix.fromRows(new double[][] {{0.5, 0.5}, {2, -1}, {-3, 0}, {0, 3}});
        DenseMatrix pw = weighted.predictProba(probe);
        DenseMatrix pd = duplicated.predictProba(probe);
        for (int i = 0; i < 4; i++) {
            for (int c = 0; c < 3; c++) {
                assertThat(pw.get(i, c)).isCloseTo(pd.get(i, c), within(1e-5));
            }
        }
    }
}
