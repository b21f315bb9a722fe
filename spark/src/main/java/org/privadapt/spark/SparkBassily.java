package org.privadapt.spark;

import org.privadapt.math.CompensatedSums;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.bassily.NoisyGradientDescent;
import org.privadapt.methods.bassily.PCnvxAdap;
import org.privadapt.methods.bassily.StatisticsPCnvxAdap;
import org.privadapt.models.discrepancy.LabelledDiscrepancy;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.ledger.BudgetLedger;

/**
 * Paper 003's releases of a regression target on Spark; the table's label column is the real target, parsed as a
 * number (a value that does not parse, or NaN, is refused before anything is charged).
 * <ul>
 *   <li>{@link #fitSquaredLoss}: the full-batch noisy descent ({@code dp-target-only}): each step's exact gradient sum
 *       {@code sum_i 2 (w.x_i - y_i) x_i} over the clipped rows is one aggregate, w broadcast with the task (its
 *       closure), the noise drawn on the driver by {@link NoisyGradientDescent#descend(NoisyGradientDescent.Plan,
 *       NoisyGradientDescent.GradientSum, int, int, PrivacySession)}: T Spark jobs for T steps.</li>
 *   <li>{@link #noisyStatistics}: pcnvxadap-stats' two releases; the private rows' Gram matrix, {@code X^T y},
 *       {@code sum y^2} and n are one aggregate, the exact discrepancy is computed from them on the driver
 *       ({@link LabelledDiscrepancy#squaredLoss(DenseMatrix, double[], DenseMatrix, double[], double, int, double)}, the
 *       in-process route whenever the private rows are at least d - m - 1), the noise by
 *       {@link StatisticsPCnvxAdap#noisyStatistics(DenseMatrix, double[], StatisticsPCnvxAdap.TargetSource,
 *       StatisticsPCnvxAdap.Settings, PrivacySession, double[])}.</li>
 * </ul>
 * Both are replace-one releases with n public (as in process); n is the row count of the validating pass.
 */
public final class SparkBassily {
    private SparkBassily() {
    }

    /** The noisy descent on the table's rows: charged before any noise, the result as in process. */
    public static NoisyGradientDescent.Result fitSquaredLoss(SparkTable table, double radius, double rowBound, long iterations,
                                                             PrivacySession target)
            throws BudgetExceededException, BudgetLedger.LedgerException {
        requireReplaceOne(target, "dp-target-only");
        int n = validRows(table);
        NoisyGradientDescent.Plan p = NoisyGradientDescent.charge(radius, rowBound, iterations, target);
        return NoisyGradientDescent.descend(p, gradientSum(table, rowBound), n, table.dimension(), target);
    }

    /** The exact gradient sum at w over the rows clipped to {@code rowBound} and targets to [-1, 1], one aggregate per call. */
    public static NoisyGradientDescent.GradientSum gradientSum(SparkTable table, double rowBound) {
        int d = table.dimension();
        return w -> {
            double[] at = w.clone();
            if (at.length != d) {
                throw new IllegalArgumentException("w has " + at.length + " entries, the table " + d + " features");
            }
            return RowAggregation.aggregate(table, () -> new GradientAcc(at, rowBound)).sums.values();
        };
    }

    /** pcnvxadap-stats' noisy statistics and discrepancy, the private rows on Spark, the public source in process. */
    public static StatisticsPCnvxAdap.NoisyStatistics noisyStatistics(DenseMatrix xPub, double[] yPub, SparkTable priv,
                                                                      StatisticsPCnvxAdap.Settings s, PrivacySession target,
                                                                      double[] start)
            throws BudgetExceededException, BudgetLedger.LedgerException {
        requireReplaceOne(target, "pcnvxadap-stats");
        if (xPub.cols() != priv.dimension()) {
            throw new IllegalArgumentException("the public rows have " + xPub.cols() + " features, the table " + priv.dimension());
        }
        int n = validRows(priv);
        return StatisticsPCnvxAdap.noisyStatistics(xPub, yPub, targetSource(priv, n), s, target, start);
    }

    /** The exact target quantities of pcnvxadap-stats over the table's rows clipped to 1 and targets to [-1, 1]. */
    public static StatisticsPCnvxAdap.TargetSource targetSource(SparkTable priv, int n) {
        int d = priv.dimension();
        return new StatisticsPCnvxAdap.TargetSource() {
            private StatsAcc sums; // one aggregate, on first use (after the charge)

            private StatsAcc sums() {
                if (sums == null) {
                    sums = RowAggregation.aggregate(priv, () -> new StatsAcc(d));
                    if (sums.count != n) {
                        throw new IllegalStateException("the table changed between the check (" + n + " rows) and the release");
                    }
                }
                return sums;
            }

            @Override
            public int n() {
                return n;
            }

            @Override
            public int dimension() {
                return d;
            }

            @Override
            public double discrepancy(DenseMatrix xs, double[] ys, double radius) {
                StatsAcc a = sums();
                return LabelledDiscrepancy.squaredLoss(xs, ys, Triangles.symmetric(a.gram, 0, d), a.xty.values(),
                        a.squares.value(0) / n, n, radius);
            }

            @Override
            public double[] statistics() {
                DenseMatrix g = Triangles.symmetric(sums().gram, 0, d);
                double[] xty = sums().xty.values();
                double[] out = new double[d * (d + 1) / 2 + d];
                int k = 0;
                for (int i = 0; i < d; i++) {
                    for (int j = i; j < d; j++) {
                        out[k++] = g.get(i, j);
                    }
                }
                System.arraycopy(xty, 0, out, k, d);
                return out;
            }
        };
    }

    private static void requireReplaceOne(PrivacySession target, String what) {
        if (target.relation() != NeighbouringRelation.REPLACE_ONE) {
            throw new IllegalArgumentException(what + " protects the target under replace-one (n public): use --relation replace");
        }
    }

    /** One pass refusing what the in-process path refuses (no rows, a non-finite feature, a target that is not a number). */
    static int validRows(SparkTable table) {
        if (!table.labelled()) {
            throw new IllegalArgumentException("a regression release needs a target (label) column");
        }
        SparkTable.Check c = table.requireValid();
        TargetCheck t = RowAggregation.aggregate(table, TargetCheck::new);
        if (t.bad > 0) {
            throw new IllegalArgumentException(t.bad + " row(s) have a target that is not a number");
        }
        if (c.rows() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("more than " + Integer.MAX_VALUE + " rows");
        }
        return (int) c.rows();
    }

    /** The target of a row: its label parsed as a number (NaN when it does not parse). */
    static double target(String label) {
        if (label == null) {
            return Double.NaN;
        }
        try {
            return Double.parseDouble(label.trim());
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    static final class TargetCheck implements RowAggregation.Accumulator<TargetCheck> {
        private static final long serialVersionUID = 1L;
        long bad;

        @Override
        public void add(double[] features, String label) {
            if (Double.isNaN(target(label))) {
                bad++;
            }
        }

        @Override
        public void merge(TargetCheck o) {
            bad += o.bad;
        }
    }

    /** Per partition: the compensated sum of {@code 2 (w.x - y) x} over clipped rows and targets. */
    static final class GradientAcc implements RowAggregation.Accumulator<GradientAcc> {
        private static final long serialVersionUID = 1L;
        private final double[] w;
        private final double rowBound;
        final CompensatedSums sums;

        GradientAcc(double[] w, double rowBound) {
            this.w = w;
            this.rowBound = rowBound;
            this.sums = new CompensatedSums(w.length);
        }

        @Override
        public void add(double[] row, String label) {
            double[] x = PCnvxAdap.clipRow(row, rowBound);
            double r = NoisyGradientDescent.residual(x, PCnvxAdap.clipTarget(target(label)), w);
            for (int j = 0; j < x.length; j++) {
                sums.add(j, x[j] * r);
            }
        }

        @Override
        public void merge(GradientAcc o) {
            sums.merge(o.sums);
        }
    }

    /** Per partition: the Gram upper triangle, X^T y and sum y^2 of rows clipped to 1 and targets to [-1, 1]; the count. */
    static final class StatsAcc implements RowAggregation.Accumulator<StatsAcc> {
        private static final long serialVersionUID = 1L;
        final CompensatedSums gram;
        final CompensatedSums xty;
        final CompensatedSums squares;
        long count;

        StatsAcc(int d) {
            gram = new CompensatedSums(Triangles.size(d));
            xty = new CompensatedSums(d);
            squares = new CompensatedSums(1);
        }

        @Override
        public void add(double[] row, String label) {
            addBlock(new double[][] {row}, new String[] {label}, 1);
        }

        /** Each row and target clipped as before; the block's plain sums ({@link BlockSums}) added compensated. */
        @Override
        public void addBlock(double[][] rows, String[] labels, int m) {
            int d = xty.size();
            double[][] x = new double[m][];
            double[] xy = new double[d];
            double yy = 0;
            for (int i = 0; i < m; i++) {
                x[i] = PCnvxAdap.clipRow(rows[i], 1.0);
                double y = PCnvxAdap.clipTarget(target(labels[i]));
                for (int j = 0; j < d; j++) {
                    xy[j] += x[i][j] * y;
                }
                yy += y * y;
            }
            double[] g = new double[Triangles.size(d)];
            BlockSums.addOuterUpper(x, m, d, g);
            BlockSums.addTo(gram, 0, g);
            BlockSums.addTo(xty, 0, xy);
            squares.add(0, yy);
            count += m;
        }

        @Override
        public void merge(StatsAcc o) {
            gram.merge(o.gram);
            xty.merge(o.xty);
            squares.merge(o.squares);
            count += o.count;
        }
    }
}
