package org.privadapt.models.uda;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.CsrMatrix;
import org.privadapt.math.DenseMatrix;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.Network;

/**
 * The refinement's statistics of a sparse block ({@link SparseUnitRows}: products with the non-zeros and a correction by
 * the mean) equal those of the same block dense, within 1e-10 relative to the statistic's scale, with and without
 * centring, including zero rows and a row equal to the mean.
 */
class MapPrototypeSumsSparseTest {
    static final List<String> ABC = List.of("a", "b", "c");

    static DenseMatrix sparseRows(int m, int d, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        DenseMatrix x = DenseMatrix.zeros(m, d);
        for (int i = 1; i < m; i++) { // row 0 stays zero
            for (int j = 0; j < d; j++) {
                if (r.nextDouble() < 0.2) {
                    x.set(i, j, 1 + r.nextInt(4) + (i % 3) * (j % 2));
                }
            }
        }
        return x;
    }

    static void assertClose(double[] sparse, double[] dense, String what) {
        double scale = 0;
        for (double v : dense) {
            scale = Math.max(scale, Math.abs(v));
        }
        assertThat(scale).as(what + ": a statistic that is not all zero").isGreaterThan(0);
        for (int t = 0; t < dense.length; t++) {
            assertThat(Math.abs(sparse[t] - dense[t])).as(what + " entry " + t).isLessThanOrEqualTo(1e-10 * scale);
        }
    }

    static double[] sum(MapPrototypeSums.BlockStatistic s, org.privadapt.math.FeatureMatrix block) {
        double[] into = new double[s.length()];
        s.add(block, into);
        return into;
    }

    @Test
    void everyStatisticOfASparseBlockEqualsTheDenseOne() {
        int m = 60;
        int d = 25;
        int k = ABC.size();
        DenseMatrix dense = sparseRows(m, d, 3);
        double[] mean = new double[d];
        for (int j = 0; j < d; j++) {
            for (int i = 0; i < m; i++) {
                mean[j] += dense.get(i, j) / m;
            }
        }
        // a row equal to the mean: its centred row is zero on both paths
        DenseMatrix withMean = DenseMatrix.zeros(m + 1, d);
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < d; j++) {
                withMean.set(i, j, dense.get(i, j));
            }
        }
        for (int j = 0; j < d; j++) {
            withMean.set(m, j, mean[j]);
        }
        CsrMatrix sparse = CsrMatrix.fromDense(withMean);
        SplittableRandom r = new SplittableRandom(9);
        DenseMatrix dirs = DenseMatrix.zeros(d, k);
        for (int j = 0; j < d; j++) {
            for (int c = 0; c < k; c++) {
                dirs.set(j, c, r.nextGaussian());
            }
        }
        DenseMatrix unitDirs = TargetRefinement.normalisedColumns(dirs);
        for (double[] centre : new double[][] {null, mean}) {
            String what = centre == null ? "uncentred" : "centred";
            assertClose(sum(MapPrototypeSums.columnSums(d), sparse), sum(MapPrototypeSums.columnSums(d), withMean), what + " column sums");
            assertClose(sum(new MapPrototypeSums.CosineSpread(centre, unitDirs), sparse),
                    sum(new MapPrototypeSums.CosineSpread(centre, unitDirs), withMean), what + " cosine spread");
            assertClose(sum(new MapPrototypeSums.SoftSums(centre, unitDirs, 4.0), sparse),
                    sum(new MapPrototypeSums.SoftSums(centre, unitDirs, 4.0), withMean), what + " soft sums");
            Network net = Network.create(d, new int[] {4}, Activation.RELU, ABC, 5);
            assertClose(sum(new MapPrototypeSums.ModelSoftSums(centre, d, net), sparse),
                    sum(new MapPrototypeSums.ModelSoftSums(centre, d, net), withMean), what + " model soft sums");
        }
    }
}
