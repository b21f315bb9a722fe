package org.privadapt.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.privadapt.spark.SparkTestSupport.CLASSES;
import static org.privadapt.spark.SparkTestSupport.assertRelativelyClose;

import java.util.SplittableRandom;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privadapt.math.CompensatedSums;
import org.privadapt.methods.prima.Partition;
import org.privadapt.methods.prima.Prima;

/**
 * The blocked accumulation: the aggregates' results do not depend on the block size (1 row, a few, more than a
 * partition holds; the other Spark tests run with the default, where their few hundred rows make one block per
 * partition) beyond 1e-9 relative, and the Gram kernel equals the per-row outer products it replaced.
 */
class SparkBlockSumsTest {
    static final double REL = 1e-9;
    static final int[] BLOCK_ROWS = {1, 3, 7, 64, RowAggregation.BLOCK_ROWS};
    static SparkSession spark;
    static SparkTestSupport.Rows data;

    @org.junit.jupiter.api.AfterAll
    static void report() {
        SparkTestSupport.reportWorst("blocked sums (block sizes, and the kernel against per-row outer products)");
    }

    @BeforeAll
    static void start() {
        spark = SparkTestSupport.spark();
        data = SparkTestSupport.generate(350, 9, 4);
    }

    @Test
    void theKernelEqualsThePerRowOuterProducts() {
        SplittableRandom r = new SplittableRandom(5);
        for (int m = 0; m <= 9; m++) {
            int d = 1 + r.nextInt(8);
            double[][] rows = new double[m][d];
            CompensatedSums perRow = new CompensatedSums(Triangles.size(d));
            for (double[] x : rows) {
                for (int j = 0; j < d; j++) {
                    x[j] = SparkTestSupport.gauss(r) * 3;
                }
                Triangles.addOuter(perRow, 0, x, null);
            }
            double[] g = new double[Triangles.size(d)];
            BlockSums.addOuterUpper(rows, m, d, g);
            assertRelativelyClose(g, perRow.values(), 1e-14, "kernel, " + m + " rows of " + d);
        }
    }

    /**
     * The tiled kernel gives the untiled one's sums to the bit (every entry adds the same rows in the same order and
     * groups of four) on widths below, at and across the tile's side.
     */
    @Test
    void theTiledKernelEqualsTheUntiledOneToTheBit() {
        SplittableRandom r = new SplittableRandom(6);
        for (int d : new int[] {1, 5, BlockSums.TILE - 1, BlockSums.TILE, BlockSums.TILE + 1, 2 * BlockSums.TILE + 37}) {
            for (int m : new int[] {0, 1, 3, 4, 9}) {
                double[][] rows = new double[m][d];
                for (double[] x : rows) {
                    for (int j = 0; j < d; j++) {
                        x[j] = SparkTestSupport.gauss(r) * 3;
                    }
                }
                double[] start = new double[Triangles.size(d)];
                for (int t = 0; t < start.length; t++) {
                    start[t] = SparkTestSupport.gauss(r);
                }
                double[] tiled = start.clone();
                double[] untiled = start.clone();
                BlockSums.addOuterUpper(rows, m, d, tiled);
                untiledOuterUpper(rows, m, d, untiled);
                assertThat(tiled).as(m + " rows of " + d).isEqualTo(untiled);
            }
        }
    }

    /** The kernel as it was before tiling (four rows per pass over the whole triangle): the reference. */
    static void untiledOuterUpper(double[][] rows, int m, int d, double[] g) {
        int i = 0;
        for (; i + 4 <= m; i += 4) {
            double[] a = rows[i];
            double[] b = rows[i + 1];
            double[] c = rows[i + 2];
            double[] e = rows[i + 3];
            for (int q = 0, t = 0; q < d; q++) {
                for (int p = 0; p <= q; p++) {
                    g[t + p] += a[p] * a[q] + b[p] * b[q] + c[p] * c[q] + e[p] * e[q];
                }
                t += q + 1;
            }
        }
        for (; i < m; i++) {
            double[] x = rows[i];
            for (int q = 0, t = 0; q < d; q++) {
                for (int p = 0; p <= q; p++) {
                    g[t + p] += x[p] * x[q];
                }
                t += q + 1;
            }
        }
    }

    /** Wide rows come in fewer rows per block, so that a dense block stays within 2^21 values (16 MB). */
    @Test
    void wideRowsComeInSmallerBlocks() {
        assertThat(RowAggregation.blockRows(100)).isEqualTo(2048);
        assertThat(RowAggregation.blockRows(1024)).isEqualTo(2048);
        assertThat(RowAggregation.blockRows(25_804)).isEqualTo(81); // 20 Newsgroups
        assertThat(RowAggregation.blockRows(152_543)).isEqualTo(13); // the spam inboxes
        assertThat(RowAggregation.blockRows(5_000_000)).isEqualTo(1);
        for (int d : new int[] {1, 999, 4097, 100_000, 3_000_000}) {
            assertThat((long) RowAggregation.blockRows(d) * d).as("d " + d).isLessThanOrEqualTo(Math.max(d, RowAggregation.BLOCK_VALUES));
        }
    }

    @Test
    void thePrimaMomentsDoNotDependOnTheBlockSize() {
        SparkTable table = data.table(spark, 2);
        int d = data.dimension();
        Partition p = Partition.random(d, 4, 11);
        int[][] blocks = new int[p.size()][];
        for (int b = 0; b < blocks.length; b++) {
            blocks[b] = p.block(b);
        }
        int[] blockOf = Prima.blockIndex(p);
        double[] bounds = new double[p.size()];
        java.util.Arrays.fill(bounds, 2.0);
        for (double[] bb : new double[][] {null, bounds}) {
            SparkPrima.MomentAcc reference = null;
            for (int rows : BLOCK_ROWS) {
                SparkPrima.MomentAcc acc = RowAggregation.aggregate(table, () -> new SparkPrima.MomentAcc(d, 3.0, blocks, blockOf, bb), rows);
                if (reference == null) {
                    reference = acc;
                    continue;
                }
                String what = "blocks of " + rows + " rows" + (bb == null ? "" : ", block bounds");
                assertThat(acc.count).as(what + " count").isEqualTo(reference.count);
                assertRelativelyClose(acc.sums.values(), reference.sums.values(), REL, what + " sums");
                assertRelativelyClose(acc.grams.values(), reference.grams.values(), REL, what + " grams");
            }
        }
    }

    @Test
    void theClassStatisticsDoNotDependOnTheBlockSize() {
        SparkTable table = data.table(spark, 2);
        int d = data.dimension();
        for (double rowBound : new double[] {Double.NaN, 2.0}) {
            boolean lda = !Double.isNaN(rowBound);
            SparkClassStatistics.Acc reference = null;
            for (int rows : BLOCK_ROWS) {
                SparkClassStatistics.Acc acc = RowAggregation.aggregate(table, () -> new SparkClassStatistics.Acc(CLASSES, d, rowBound, lda), rows);
                if (reference == null) {
                    reference = acc;
                    continue;
                }
                String what = (lda ? "lda" : "ncm") + ", blocks of " + rows + " rows";
                assertThat(acc.counts).as(what + " counts").containsExactly(reference.counts);
                assertThat(acc.unknown).as(what + " unknown").isZero();
                assertRelativelyClose(acc.sums.values(), reference.sums.values(), REL, what + " sums");
                if (lda) {
                    assertRelativelyClose(acc.moment.values(), reference.moment.values(), REL, what + " moment");
                }
            }
        }
    }
}
