package org.privadapt.spark;

import org.privadapt.math.CompensatedSums;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.privadapt.math.DenseMatrix;
import org.privadapt.models.dp.NoiseAndSampling;
import org.privadapt.models.mixture.CovarianceType;
import org.privadapt.models.mixture.DpGaussianMixtureEm;
import org.privadapt.models.mixture.GaussianMixture;
import org.privadapt.models.mixture.SufficientStatistics;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.ledger.BudgetLedger;

/**
 * DP-EM (paper 004's DP Gaussian mixture, {@link DpGaussianMixtureEm}) on Spark: each of the T + 1 releases' exact
 * query, the per-component sufficient statistics (responsibility-weighted counts, sums and second moments, full or
 * diagonal) of the rows clipped to R, is one aggregate over the rows, with the current mixture (public: a
 * post-processing of the previous noisy release) in the task's closure and rebuilt on the executor; each row is
 * clipped there by the in-process row map ({@link DpGaussianMixtureEm#clipRow}). The noise, the post-processing into
 * the next mixture and the initial means' public generator run on the driver in the in-process loop
 * ({@link DpGaussianMixtureEm#fit(DpGaussianMixtureEm.StatisticsSource, DpGaussianMixtureEm.Config, NoiseAndSampling,
 * DpGaussianMixtureEm.Observer)}). One Spark job per release. Under add/remove-one, as in process; n is not read on
 * the driver (only the noisy counts are).
 */
public final class SparkDpEm {
    private SparkDpEm() {
    }

    /**
     * Refuses (before anything is charged) a table with a missing or non-finite feature, then charges
     * {@link DpGaussianMixtureEm#event} to {@code session} and fits with its noise, as
     * {@link DpGaussianMixtureEm#fit(org.privadapt.math.FeatureMatrix, DpGaussianMixtureEm.Config, PrivacySession,
     * DpGaussianMixtureEm.Observer)} does in process.
     */
    public static DpGaussianMixtureEm.Result fit(SparkTable table, DpGaussianMixtureEm.Config c, PrivacySession session,
                                                 DpGaussianMixtureEm.Observer observer)
            throws BudgetExceededException, BudgetLedger.LedgerException {
        requireFinite(table);
        return DpGaussianMixtureEm.fit(source(table, c.clipNorm()), c, session, observer);
    }

    /** Fits with the given noise; the caller accounts {@link DpGaussianMixtureEm#event}. */
    public static DpGaussianMixtureEm.Result fit(SparkTable table, DpGaussianMixtureEm.Config c, NoiseAndSampling noise,
                                                 DpGaussianMixtureEm.Observer observer) {
        requireFinite(table);
        return DpGaussianMixtureEm.fit(source(table, c.clipNorm()), c, noise, observer);
    }

    private static void requireFinite(SparkTable table) {
        SparkTable.Check check = table.check();
        if (check.nonFiniteRows() > 0) {
            throw new IllegalArgumentException(check.nonFiniteRows() + " row(s) have a missing or non-finite feature value");
        }
    }

    /** The table as a {@link DpGaussianMixtureEm.StatisticsSource}: one aggregate per call. */
    public static DpGaussianMixtureEm.StatisticsSource source(SparkTable table, double clipNorm) {
        return DpGaussianMixtureEm.StatisticsSource.of(table.dimension(), (current, type) -> exact(table, clipNorm, current, type));
    }


    /**
     * The exact statistics of the rows clipped to {@code clipNorm}: under {@code current}'s responsibilities, or (for
     * {@code current == null}) the K = 1 statistics with every responsibility 1.
     */
    public static SufficientStatistics exact(SparkTable table, double clipNorm, GaussianMixture current, CovarianceType type) {
        if (!(clipNorm > 0) || Double.isInfinite(clipNorm)) {
            throw new IllegalArgumentException("clip norm R must be a positive number, got " + clipNorm);
        }
        int d = table.dimension();
        if (current != null && (current.dimension() != d || current.covarianceType() != type)) {
            throw new IllegalArgumentException("the mixture is " + current.dimension() + "-dimensional " + current.covarianceType()
                    + ", the table " + d + "-dimensional, the release " + type);
        }
        Mixture m = current == null ? null : Mixture.of(current);
        int k = current == null ? 1 : current.components();
        boolean full = type == CovarianceType.FULL;
        Acc total = RowAggregation.aggregate(table, () -> new Acc(m, k, d, full, clipNorm));
        double[] counts = total.counts.values();
        DenseMatrix sums = DenseMatrix.zeros(k, d);
        for (int c = 0; c < k; c++) {
            for (int j = 0; j < d; j++) {
                sums.set(c, j, total.sums.value(c * d + j));
            }
        }
        if (!full) {
            DenseMatrix diag = DenseMatrix.zeros(k, d);
            for (int c = 0; c < k; c++) {
                for (int j = 0; j < d; j++) {
                    diag.set(c, j, total.moments.value(c * d + j));
                }
            }
            return SufficientStatistics.ofExact(type, counts, sums, diag, null);
        }
        DenseMatrix[] moments = new DenseMatrix[k];
        for (int c = 0; c < k; c++) {
            moments[c] = Triangles.symmetric(total.moments, c * Triangles.size(d), d);
        }
        return SufficientStatistics.ofExact(type, counts, sums, null, moments);
    }

    /** A mixture's parameters as plain arrays (serializable), rebuilt bit for bit on an executor. */
    record Mixture(CovarianceType type, double[] weights, int k, int d, double[] means, List<double[]> covariances,
                   double[] variances) implements Serializable {
        static Mixture of(GaussianMixture g) {
            int k = g.components();
            int d = g.dimension();
            List<double[]> cov = null;
            double[] var = null;
            if (g.covarianceType() == CovarianceType.FULL) {
                cov = new ArrayList<>();
                for (int c = 0; c < k; c++) {
                    cov.add(g.covariance(c).data().clone());
                }
            } else {
                var = new double[k * d];
                for (int c = 0; c < k; c++) {
                    System.arraycopy(g.variances(c), 0, var, c * d, d);
                }
            }
            return new Mixture(g.covarianceType(), g.weights(), k, d, g.means().data().clone(), cov, var);
        }

        GaussianMixture mixture() {
            DenseMatrix mu = new DenseMatrix(k, d, means.clone());
            if (type == CovarianceType.FULL) {
                List<DenseMatrix> cov = new ArrayList<>();
                for (double[] s : covariances) {
                    cov.add(new DenseMatrix(d, d, s.clone()));
                }
                return GaussianMixture.restore(type, weights.clone(), mu, cov, null);
            }
            return GaussianMixture.restore(type, weights.clone(), mu, null, DenseMatrix.fromRowMajor(k, d, variances.clone()));
        }
    }

    /**
     * Per partition: compensated counts, sums and second moments (per component the upper triangle of
     * {@code (sqrt(r) z)(sqrt(r) z)^T}, as the in-process Gram of the rows scaled by {@code sqrt(r)}, or the diagonal
     * {@code r z o z}).
     */
    static final class Acc implements RowAggregation.Accumulator<Acc> {
        private static final long serialVersionUID = 1L;
        private final Mixture mixture;
        private final int k;
        private final int d;
        private final boolean full;
        private final double clipNorm;
        private transient GaussianMixture model;
        final CompensatedSums counts;
        final CompensatedSums sums;
        final CompensatedSums moments;

        Acc(Mixture mixture, int k, int d, boolean full, double clipNorm) {
            this.mixture = mixture;
            this.k = k;
            this.d = d;
            this.full = full;
            this.clipNorm = clipNorm;
            this.counts = new CompensatedSums(k);
            this.sums = new CompensatedSums(k * d);
            this.moments = new CompensatedSums(full ? k * Triangles.size(d) : k * d);
        }

        @Override
        public void add(double[] row, String label) {
            double[] z = DpGaussianMixtureEm.clipRow(row, clipNorm);
            double[] r;
            if (mixture == null) {
                r = new double[] {1.0};
            } else {
                if (model == null) {
                    model = mixture.mixture();
                }
                r = model.responsibilities(new DenseMatrix(1, d, z.clone())).data();
            }
            addClipped(z, r);
        }

        /**
         * A block of rows: clipped, their responsibilities under the mixture in one call on the block (the in-process
         * EM's own computation on a matrix, instead of one 1 x d matrix per row), then folded in row by row, in order.
         */
        @Override
        public void addBlock(double[][] rows, String[] labels, int count) {
            if (mixture == null || count == 0) {
                for (int i = 0; i < count; i++) {
                    add(rows[i], null);
                }
                return;
            }
            if (model == null) {
                model = mixture.mixture();
            }
            double[][] z = new double[count][];
            double[] flat = new double[count * d];
            for (int i = 0; i < count; i++) {
                z[i] = DpGaussianMixtureEm.clipRow(rows[i], clipNorm);
                System.arraycopy(z[i], 0, flat, i * d, d);
            }
            DenseMatrix resp = model.responsibilities(DenseMatrix.fromRowMajor(count, d, flat));
            double[] r = new double[k];
            for (int i = 0; i < count; i++) {
                for (int c = 0; c < k; c++) {
                    r[c] = resp.get(i, c);
                }
                addClipped(z[i], r);
            }
        }

        /** One clipped row with its responsibilities r. */
        private void addClipped(double[] z, double[] r) {
            double[] y = new double[d];
            for (int c = 0; c < k; c++) {
                double rc = r[c];
                counts.add(c, rc);
                int off = c * d;
                for (int j = 0; j < d; j++) {
                    sums.add(off + j, rc * z[j]);
                }
                if (full) {
                    double f = Math.sqrt(rc);
                    for (int j = 0; j < d; j++) {
                        y[j] = z[j] * f;
                    }
                    Triangles.addOuter(moments, c * Triangles.size(d), y, null);
                } else {
                    for (int j = 0; j < d; j++) {
                        moments.add(off + j, rc * (z[j] * z[j]));
                    }
                }
            }
        }

        @Override
        public void merge(Acc o) {
            counts.merge(o.counts);
            sums.merge(o.sums);
            moments.merge(o.moments);
        }
    }
}
