package org.privadapt.methods.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;

/**
 * The adassp row map block by block ({@link AdaSspRowMap#applyRows}, what an engine's executors run) against the whole
 * matrix ({@link AdaSspRowMap#apply}, the in-process release): the same rows to 1e-12 (they differ only in the order
 * the projection's products are summed), for sparse and dense blocks, with the identity, with P kept for the JVM, and
 * with P too large to keep (drawn again per block); every mapped row within the bound.
 */
class AdaSspRowMapTest {
    static double[][] rows(int m, int d, double density, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] x = new double[m][d];
        for (double[] row : x) {
            for (int j = 0; j < d; j++) {
                row[j] = r.nextDouble() < density ? 3 * r.nextGaussian() : 0.0;
            }
        }
        return x;
    }

    static void assertSameRows(AdaSspRowMap map, double[][] x, String what) {
        double[][] blockwise = map.applyRows(x, x.length);
        DenseMatrix whole = map.apply(DenseMatrix.fromRows(x)).toDense();
        assertThat(blockwise).as(what + " rows").hasNumberOfRows(x.length);
        for (int i = 0; i < x.length; i++) {
            assertThat(blockwise[i]).as(what + " row length").hasSize(map.outputDim());
            double norm = 0;
            for (int j = 0; j < map.outputDim(); j++) {
                assertThat(blockwise[i][j]).as(what + " row " + i + " entry " + j).isCloseTo(whole.get(i, j), within(1e-12));
                norm += blockwise[i][j] * blockwise[i][j];
            }
            assertThat(Math.sqrt(norm)).as(what + " row " + i + " within the bound").isLessThanOrEqualTo(map.rowBound());
        }
    }

    @Test
    void blocksMapAsTheWholeMatrixDoes() {
        for (boolean clip : new boolean[] {true, false}) {
            for (double density : new double[] {0.05, 1.0}) {
                String what = "clip " + clip + ", density " + density;
                double[][] x = rows(60, 40, density, 7);
                assertSameRows(new AdaSspRowMap(44L, 40, 40, 2.0, clip), x, what + ", identity");
                assertSameRows(new AdaSspRowMap(44L, 40, 8, 2.0, clip), x, what + ", P kept");
            }
        }
        // P of 40,000 x 1,024 entries is above what a JVM keeps: drawn again for the block
        assertThat(40_000L * 1_024).isGreaterThan(AdaSspRowMap.KEPT_PROJECTION_DOUBLES);
        assertSameRows(new AdaSspRowMap(44L, 40_000, 1_024, 2.0, true), rows(4, 40_000, 0.001, 8), "P drawn per block");
    }
}
