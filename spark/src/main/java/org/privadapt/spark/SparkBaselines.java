package org.privadapt.spark;

import org.privadapt.math.CompensatedSums;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.LinAlg;
import org.privadapt.methods.coral.Coral;
import org.privadapt.methods.sa.SubspaceAlignment;

/**
 * The non-private baselines' moments on Spark: each domain's mean and covariance ({@link LinAlg#covariance}: centred,
 * divided by n - 1) as two aggregates over its rows (the sums and count, then the centred second moment with the mean
 * in the closure: two passes, so that a large mean does not cancel the covariance's digits away), and what CORAL and
 * SA make of them on the driver with the in-process code ({@link Coral#alignmentMap}, the leading eigenvectors with
 * {@link LinAlg#withCanonicalSigns}'s signs, {@link SubspaceAlignment#sourceMap}). <b>Not private</b>: no clipping, no
 * noise, the exact n is read; these are the baselines the private methods are compared with, for parties that may
 * share their moments. The maps are d x d or d x k, applied to the source's rows where they are.
 */
public final class SparkBaselines {
    private SparkBaselines() {
    }

    /**
     * A domain's exact moments.
     *
     * @param count      n
     * @param mean       the column means (d)
     * @param covariance the sample covariance, d x d ({@code 1 / (n - 1)}; 0 for one row, as in process)
     */
    public record Moments(long count, double[] mean, DenseMatrix covariance) {
    }

    /** The table's mean and covariance (a table with no rows, or a non-finite value, is refused). */
    public static Moments moments(SparkTable table) {
        int d = table.dimension();
        SumAcc first = RowAggregation.aggregate(table, () -> new SumAcc(d));
        if (first.count == 0) {
            throw new IllegalArgumentException("covariance of a table with no rows");
        }
        if (first.nonFinite > 0) {
            throw new IllegalArgumentException(first.nonFinite + " row(s) have a missing or non-finite feature value");
        }
        long n = first.count;
        double[] mean = new double[d];
        for (int j = 0; j < d; j++) {
            mean[j] = first.sums.value(j) / n;
        }
        double[] m = mean.clone();
        CentredAcc second = RowAggregation.aggregate(table, () -> new CentredAcc(m));
        DenseMatrix cov = Triangles.symmetric(second.moment, 0, d);
        cov.scaleInPlace(n > 1 ? 1.0 / (n - 1) : 0.0);
        return new Moments(n, mean, cov);
    }

    /** CORAL's d x d map {@code (C_s + lambda I)^{-1/2} (C_t + lambda I)^{1/2}} from both tables' covariances. */
    public static DenseMatrix coralMap(SparkTable source, SparkTable target, double lambda) {
        if (source.dimension() != target.dimension()) {
            throw new IllegalArgumentException("domains of different dimension: " + source.dimension() + " vs " + target.dimension());
        }
        return Coral.alignmentMap(moments(source).covariance(), moments(target).covariance(), lambda);
    }

    /** SA's basis of a table: the k leading eigenvectors of its covariance (d x k, largest first, canonical signs). */
    public static DenseMatrix subspaceBasis(SparkTable table, int k) {
        return LinAlg.leadingEigenvectors(moments(table).covariance(), k);
    }

    /** SA's d x k source map {@code P_s (P_s^T P_t)} from both tables' bases. */
    public static DenseMatrix subspaceSourceMap(SparkTable source, SparkTable target, int k) {
        if (source.dimension() != target.dimension()) {
            throw new IllegalArgumentException("domains of different dimension: " + source.dimension() + " vs " + target.dimension());
        }
        return SubspaceAlignment.sourceMap(subspaceBasis(source, k), subspaceBasis(target, k));
    }

    /** Pass 1: the count, the rows with a non-finite value, the compensated column sums. */
    static final class SumAcc implements RowAggregation.Accumulator<SumAcc> {
        private static final long serialVersionUID = 1L;
        final CompensatedSums sums;
        long count;
        long nonFinite;

        SumAcc(int d) {
            sums = new CompensatedSums(d);
        }

        @Override
        public void add(double[] x, String label) {
            count++;
            for (double v : x) {
                if (!Double.isFinite(v)) {
                    nonFinite++;
                    return;
                }
            }
            for (int j = 0; j < x.length; j++) {
                sums.add(j, x[j]);
            }
        }

        @Override
        public void merge(SumAcc o) {
            sums.merge(o.sums);
            count += o.count;
            nonFinite += o.nonFinite;
        }
    }

    /** Pass 2: the upper triangle of {@code sum (x - mean)(x - mean)^T}, compensated. */
    static final class CentredAcc implements RowAggregation.Accumulator<CentredAcc> {
        private static final long serialVersionUID = 1L;
        private final double[] mean;
        final CompensatedSums moment;

        CentredAcc(double[] mean) {
            this.mean = mean;
            this.moment = new CompensatedSums(Triangles.size(mean.length));
        }

        @Override
        public void add(double[] x, String label) {
            addBlock(new double[][] {x}, null, 1);
        }

        /** Each row centred as before; the block's plain sum ({@link BlockSums}) added compensated. */
        @Override
        public void addBlock(double[][] rows, String[] labels, int m) {
            int d = mean.length;
            for (int i = 0; i < m; i++) {
                double[] x = rows[i];
                for (int j = 0; j < d; j++) {
                    x[j] -= mean[j];
                }
            }
            double[] g = new double[Triangles.size(d)];
            BlockSums.addOuterUpper(rows, m, d, g);
            BlockSums.addTo(moment, 0, g);
        }

        @Override
        public void merge(CentredAcc o) {
            moment.merge(o.moment);
        }
    }
}
