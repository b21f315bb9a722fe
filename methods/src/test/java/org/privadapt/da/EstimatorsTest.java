package org.privadapt.da;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.LinAlg;
import org.privadapt.methods.coral.Coral;

/** The array estimators against the solver functions they wrap, and their invariants. */
class EstimatorsTest {
    static double[][] gaussian(int n, int d, double[] scale, double shift, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] x = new double[n][d];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                x[i][j] = scale[j] * r.nextGaussian() + shift;
            }
        }
        return x;
    }

    @Test
    void coralMatchesTheSolverAndRecoloursTowardsTheTarget() {
        double[][] xs = gaussian(400, 4, new double[] {1, 1, 1, 1}, 0, 1);
        double[][] xt = gaussian(400, 4, new double[] {3, 0.5, 2, 1}, 1, 2);
        CoralTransport c = new CoralTransport(1e-6).fit(xs, xt);
        double[][] aligned = c.transform(xs);
        DenseMatrix viaSolver = Coral.alignSource(DenseMatrix.fromRows(xs), DenseMatrix.fromRows(xt), 1e-6);
        for (int i = 0; i < xs.length; i++) {
            for (int j = 0; j < 4; j++) {
                assertThat(aligned[i][j]).isCloseTo(viaSolver.get(i, j), within(1e-8));
            }
        }
        // with a negligible ridge the aligned source has the target's covariance
        DenseMatrix ca = LinAlg.covariance(DenseMatrix.fromRows(aligned));
        DenseMatrix ct = LinAlg.covariance(DenseMatrix.fromRows(xt));
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 4; j++) {
                assertThat(ca.get(i, j)).isCloseTo(ct.get(i, j), within(1e-4));
            }
        }
        assertThat(new CoralTransport().fitTransform(xs, xt)).hasDimensions(400, 4);
        assertThatThrownBy(() -> new CoralTransport().transform(xs)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> new CoralTransport(-1)).hasMessageContaining("lambda");
        assertThatThrownBy(() -> new CoralTransport().fit(xs, gaussian(10, 3, new double[] {1, 1, 1}, 0, 3)))
                .hasMessageContaining("4 features against 3");
    }

    @Test
    void subspaceAlignmentGivesKCoordinates() {
        double[][] xs = gaussian(200, 6, new double[] {5, 4, 3, 1, 1, 1}, 0, 4);
        double[][] xt = gaussian(150, 6, new double[] {1, 1, 1, 3, 4, 5}, 0, 5);
        SubspaceAlignmentTransport sa = new SubspaceAlignmentTransport(2).fit(xs, xt);
        assertThat(sa.transformSource(xs)).hasDimensions(200, 2);
        assertThat(sa.transformTarget(xt)).hasDimensions(150, 2);
        assertThatThrownBy(() -> new SubspaceAlignmentTransport(7).fit(xs, xt)).hasMessageContaining("exceeds");
    }

    @Test
    void otdaCouplingHasTheUniformMarginalsAndTransportsOnlyItsRows() {
        double[][] xs = gaussian(60, 3, new double[] {1, 1, 1}, 0, 6);
        double[][] xt = gaussian(40, 3, new double[] {1, 1, 1}, 2, 7);
        int[] ys = new int[60];
        for (int i = 0; i < 60; i++) {
            ys[i] = i % 3;
        }
        for (OtdaTransport ot : new OtdaTransport[] {new OtdaTransport(0.05, 0).fit(xs, xt), new OtdaTransport().fit(xs, ys, xt)}) {
            double[][] g = ot.coupling();
            for (double[] row : g) {
                assertThat(java.util.Arrays.stream(row).sum()).isCloseTo(1.0 / 60, within(1e-6));
            }
            for (int j = 0; j < 40; j++) {
                double col = 0;
                for (double[] row : g) {
                    col += row[j];
                }
                assertThat(col).isCloseTo(1.0 / 40, within(1e-6));
            }
            double[][] img = ot.transform(xs);
            assertThat(img).hasDimensions(60, 3);
            // the images are convex combinations of target rows: their mean is the target mean (uniform weights)
            for (int j = 0; j < 3; j++) {
                int jj = j;
                double mi = java.util.Arrays.stream(img).mapToDouble(r -> r[jj]).average().orElseThrow();
                double mt = java.util.Arrays.stream(xt).mapToDouble(r -> r[jj]).average().orElseThrow();
                assertThat(mi).isCloseTo(mt, within(1e-5));
            }
            assertThatThrownBy(() -> ot.transform(xt)).hasMessageContaining("fitted on");
        }
    }

    @Test
    void logisticRegressionOnArraysKeepsTheCallersCodes() {
        double[][] x = new double[300][];
        int[] y = new int[300];
        SplittableRandom r = new SplittableRandom(8);
        for (int i = 0; i < 300; i++) {
            y[i] = i % 3;
            x[i] = new double[] {4 * (y[i] - 1) + r.nextGaussian(), r.nextGaussian()};
        }
        LogisticRegressionClassifier clf = new LogisticRegressionClassifier().fit(x, y);
        assertThat(clf.score(x, y)).isGreaterThan(0.95);
        assertThat(clf.predict(new double[][] {{8, 0}, {-8, 0}})).containsExactly(2, 0);
        assertThatThrownBy(() -> clf.fit(x, new int[] {1})).hasMessageContaining("1 labels for 300 rows");
        assertThatThrownBy(() -> clf.fit(new double[][] {{1, Double.NaN}}, new int[] {0})).hasMessageContaining("NaN");
    }
}
