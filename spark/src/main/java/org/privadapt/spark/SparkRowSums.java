package org.privadapt.spark;

import org.privadapt.math.CompensatedSums;
import org.privadapt.math.DenseMatrix;
import org.privadapt.models.uda.MapPrototypeSums;

/**
 * A statistic of blocks of rows ({@link MapPrototypeSums.BlockStatistic}) summed over a {@link SparkTable} where its
 * rows are: each executor applies it to its blocks (one matrix per block, so the statistic's products are BLAS calls),
 * adds each block's plain sums into compensated sums, and only the sums reach the driver ({@link RowAggregation}). The
 * target refinements that are sums over the target's rows run this way on Spark
 * ({@link org.privadapt.methods.core.AggregatedRefinements}); the rows and the sums are the target's own.
 */
public final class SparkRowSums {
    private SparkRowSums() {
    }

    /** The statistic summed over every row of {@code table} (after its row-local preprocessing). */
    public static double[] sum(SparkTable table, MapPrototypeSums.BlockStatistic statistic) {
        return RowAggregation.aggregate(table, () -> new Acc(statistic)).sums.values();
    }

    static final class Acc implements RowAggregation.Accumulator<Acc> {
        private static final long serialVersionUID = 1L;
        private final MapPrototypeSums.BlockStatistic statistic;
        final CompensatedSums sums;

        Acc(MapPrototypeSums.BlockStatistic statistic) {
            this.statistic = statistic;
            this.sums = new CompensatedSums(statistic.length());
        }

        @Override
        public void add(double[] features, String label) {
            addBlock(new double[][] {features}, null, 1);
        }

        @Override
        public void addBlock(double[][] rows, String[] labels, int count) {
            double[] block = new double[statistic.length()];
            statistic.add(DenseMatrix.fromRows(java.util.Arrays.copyOf(rows, count)), block);
            sums.addAll(block);
        }

        /** A sparse vector column's rows as they are: the statistics take a sparse block at its non-zeros' cost. */
        @Override
        public boolean takesSparseBlocks() {
            return true;
        }

        @Override
        public void addSparseBlock(SparseBlock rows, String[] labels) {
            double[] block = new double[statistic.length()];
            statistic.add(rows.toCsr(), block);
            sums.addAll(block);
        }

        @Override
        public void merge(Acc other) {
            sums.merge(other.sums);
        }
    }
}
