package org.privadapt.models.mixture;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.math.LinAlg;
import org.privadapt.models.dp.NoiseAndSampling;
import org.privadapt.models.dp.SessionRandomness;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.accounting.NoiseCalibration;
import org.privadapt.privacy.accounting.PrivacyAccountant;
import org.privadapt.privacy.events.ComposedEvent;
import org.privadapt.privacy.events.DpEvent;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.ledger.BudgetLedger;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * DP-EM: a {@link GaussianMixture} released under (epsilon, delta)-DP for the records whose feature rows it is fitted
 * on, neighbouring datasets differing by one added or removed row (docs/privacy/dp-em.md).
 *
 * <ol>
 *   <li>Every row is scaled to L2 norm at most R ({@link #clipRows}; row-local, R public).</li>
 *   <li><b>Initial release</b>: the K = 1 statistics of all clipped rows (count, sum, second moment) with noise;
 *       post-processed into mu_0 and Sigma_0; the K initial means are drawn from N(mu_0, Sigma_0) with the public
 *       generator {@code initSeed}, weights 1/K, covariances Sigma_0. No private row is read without noise.</li>
 *   <li><b>T iterations</b>, each: responsibilities r_i of every clipped row under the current (public) model; one
 *       release of the per-component statistics ({@link #statistics}) with Gaussian noise of std sigma, sigma R and
 *       sigma R^2 on the count, sum and second-moment blocks ({@link SufficientStatistics#withNoise}); the next model
 *       is computed from the noisy statistics alone ({@link #fromNoisyStatistics}).</li>
 * </ol>
 * Since r_i is a probability vector (||r_i||_2 &lt;= 1) and ||z_i|| &lt;= R, adding or removing a row moves the three
 * blocks by at most 1, R and R^2 in L2 (Frobenius for the second moments), so each release is a Gaussian mechanism
 * with multiplier sigma / sqrt(3), and the T + 1 adaptive releases compose exactly into one Gaussian with multiplier
 * {@code sigma / sqrt(3 (T + 1))} ({@link #event}), i.e. mu-GDP with {@code mu = sqrt(3 (T + 1)) / sigma}. The number
 * of iterations is fixed in advance: a data-dependent stopping rule would leak.
 *
 * <p>Randomness: the noise comes from a {@link NoiseAndSampling} (secure by default; {@link #fit(FeatureMatrix,
 * Config, PrivacySession)} charges the session's ledger first and uses its noise source). The initial means' generator
 * is public and seeded: it only post-processes a DP output.
 */
public final class DpGaussianMixtureEm {
    private DpGaussianMixtureEm() {
    }

    /**
     * @param k               number of components K (public)
     * @param covarianceType  diagonal or full (public)
     * @param clipNorm        R: every row is scaled to L2 norm at most R (public)
     * @param iterations      T: fixed number of EM iterations; T + 1 releases in all
     * @param noiseMultiplier sigma: noise std sigma, sigma R, sigma R^2 on the three blocks
     * @param countFloor      noisy counts are raised to at least this (post-processing; default 1)
     * @param eigenvalueFloor covariance eigenvalues (variances for diagonal) are raised to at least this
     *                        (post-processing; default 1e-6)
     * @param noiseFloorScale eigenvalues (variances) are also raised to this multiple of the noise's scale in
     *                        {@code M_k / N_k} ({@link #varianceFloor}; post-processing; default 1, 0 disables)
     * @param initSeed        seed of the public generator that draws the initial means from N(mu_0, Sigma_0)
     */
    public record Config(int k, CovarianceType covarianceType, double clipNorm, int iterations, double noiseMultiplier,
                         double countFloor, double eigenvalueFloor, double noiseFloorScale, long initSeed) {
        public Config {
            if (k < 1) {
                throw new IllegalArgumentException("number of components must be >= 1, got " + k);
            }
            java.util.Objects.requireNonNull(covarianceType, "covarianceType");
            if (!(clipNorm > 0) || Double.isInfinite(clipNorm)) {
                throw new IllegalArgumentException("clip norm R must be a positive number, got " + clipNorm);
            }
            if (iterations < 0) {
                throw new IllegalArgumentException("iterations must be >= 0, got " + iterations);
            }
            if (!(noiseMultiplier > 0) || Double.isInfinite(noiseMultiplier)) {
                throw new IllegalArgumentException("noise multiplier must be a positive number, got " + noiseMultiplier);
            }
            if (!(countFloor > 0) || Double.isInfinite(countFloor)) {
                throw new IllegalArgumentException("count floor must be a positive number, got " + countFloor);
            }
            if (!(eigenvalueFloor > 0) || !(eigenvalueFloor < clipNorm * clipNorm)) {
                throw new IllegalArgumentException("eigenvalue floor must be in (0, R^2), got " + eigenvalueFloor);
            }
            if (!(noiseFloorScale >= 0) || Double.isInfinite(noiseFloorScale)) {
                throw new IllegalArgumentException("noise floor scale must be >= 0 and finite, got " + noiseFloorScale);
            }
        }

        /** With count floor 1, eigenvalue floor 1e-6 (or R^2 / 2 if that is smaller) and noise floor scale 1. */
        public static Config of(int k, CovarianceType covarianceType, double clipNorm, int iterations, double noiseMultiplier,
                                long initSeed) {
            return new Config(k, covarianceType, clipNorm, iterations, noiseMultiplier, 1.0,
                    Math.min(1e-6, clipNorm * clipNorm / 2), 1.0, initSeed);
        }

        public Config withNoiseMultiplier(double sigma) {
            return new Config(k, covarianceType, clipNorm, iterations, sigma, countFloor, eigenvalueFloor, noiseFloorScale, initSeed);
        }

        /** T + 1: the initial release and one per iteration. */
        public int releases() {
            return iterations + 1;
        }
    }

    /**
     * @param model     the released mixture
     * @param releases  T + 1
     * @param event     the DP event of the whole fit ({@link #event})
     * @param noise     the noise construction used (for the ledger)
     * @param isPrivate false when the noise was seeded: the model is then not differentially private
     */
    public record Result(GaussianMixture model, int releases, DpEvent event, String noise, boolean isPrivate) {
    }

    /**
     * Receives each release as it is made (tests: the input model is public, so the harness can replay the query;
     * {@code privadapt audit --release dp-em} attacks the noisy statistics).
     */
    public interface Observer {
        /** Release {@code index} (0 = the initial K = 1 release, whose input model is null). */
        void released(int index, GaussianMixture input, SufficientStatistics noisy);
    }

    // ---------------------------------------------------------------- accounting

    /** The fit's DP event: T + 1 releases, each three Gaussian blocks at multiplier sigma, as one exact Gaussian. */
    public static DpEvent event(Config c) {
        return event(c.noiseMultiplier(), c.iterations());
    }

    /**
     * {@code 3 (T + 1)} Gaussian mechanisms of multiplier sigma compose exactly (privacy-loss means and variances add)
     * into one Gaussian mechanism with multiplier {@code sigma / sqrt(3 (T + 1))}: mu-GDP with
     * {@code mu = sqrt(3 (T + 1)) / sigma}, under add/remove-one-row.
     */
    public static DpEvent event(double noiseMultiplier, int iterations) {
        if (iterations < 0) {
            throw new IllegalArgumentException("iterations must be >= 0, got " + iterations);
        }
        return new GaussianEvent(noiseMultiplier / Math.sqrt(3.0 * (iterations + 1)));
    }

    /** The smallest sigma for which {@link #event(double, int)} is (epsilon, delta)-DP by {@code accountant}. */
    public static double noiseMultiplier(PrivacyAccountant accountant, double epsilon, double delta, int iterations) {
        return noiseMultiplier(accountant, epsilon, delta, iterations, null);
    }

    /**
     * The smallest sigma for which {@code prior} (e.g. the source's DP-SGD, spent on the same records) composed with
     * this fit is (epsilon, delta)-DP by {@code accountant}; {@code prior} may be null.
     */
    public static double noiseMultiplier(PrivacyAccountant accountant, double epsilon, double delta, int iterations,
                                         DpEvent prior) {
        return NoiseCalibration.smallest(s -> prior == null ? event(s, iterations) : ComposedEvent.of(prior, event(s, iterations)),
                accountant, epsilon, delta, "DP-EM with " + iterations + " iterations" + (prior == null ? "" : " after " + prior.describe()));
    }

    // ---------------------------------------------------------------- the query

    /** Scaled rows land this far inside the bound (as ClassStatistics' clipping). */
    private static final double INSIDE = 1 - 1e-12;

    /**
     * Every row scaled to L2 norm at most {@code r} (row-local), a long row to a hair inside it.
     *
     * @throws IllegalArgumentException for a row with a non-finite value (it could not be clipped)
     */

    /**
     * One row scaled as {@link #clipRows} scales it (row-local, bit for bit the same on a dense row): for the
     * statistics summed elsewhere ({@link StatisticsSource}).
     *
     * @throws IllegalArgumentException for a row with a non-finite value
     */
    public static double[] clipRow(double[] row, double r) {
        double sq = 0;
        for (double v : row) {
            sq += v * v;
        }
        if (!Double.isFinite(sq)) {
            throw new IllegalArgumentException("a row has a non-finite norm (" + sq + "), it cannot be clipped");
        }
        double norm = Math.sqrt(sq);
        double f = norm > r ? INSIDE * r / norm : 1.0;
        double[] out = new double[row.length];
        for (int j = 0; j < row.length; j++) {
            out[j] = row[j] * f;
        }
        return out;
    }

    public static DenseMatrix clipRows(FeatureMatrix x, double r) {
        double[] sq = x.rowSquaredNorms();
        double[] f = new double[sq.length];
        for (int i = 0; i < f.length; i++) {
            if (!Double.isFinite(sq[i])) {
                throw new IllegalArgumentException("row " + i + " has a non-finite norm (" + sq[i] + "), it cannot be clipped");
            }
            double norm = Math.sqrt(sq[i]);
            f[i] = norm > r ? INSIDE * r / norm : 1.0; // a hair inside, so that rounding cannot push a norm past r
        }
        return x.toDense().scaleRows(f);
    }

    /**
     * The query of one iteration's release: the sufficient statistics of the clipped rows under the responsibilities
     * of the current public model. Adding or removing one row changes {@link SufficientStatistics#countVector()},
     * {@link SufficientStatistics#sumVector()} and {@link SufficientStatistics#secondMomentVector()} by at most 1, R
     * and R^2 in L2 norm when every row has norm at most R. Not private by itself.
     */
    public static SufficientStatistics statistics(DenseMatrix clippedRows, GaussianMixture current) {
        DenseMatrix r = current.responsibilities(clippedRows);
        return SufficientStatistics.of(clippedRows, r, current.covarianceType());
    }

    /** The query of the initial release: the K = 1 statistics of all clipped rows (every responsibility 1). */
    public static SufficientStatistics initialStatistics(DenseMatrix clippedRows, CovarianceType type) {
        DenseMatrix ones = DenseMatrix.zeros(clippedRows.rows(), 1);
        java.util.Arrays.fill(ones.data(), 1.0);
        return SufficientStatistics.of(clippedRows, ones, type);
    }

    // ---------------------------------------------------------------- fitting

    /** Fits with secure noise ({@link NoiseSource#secure()}); the caller accounts {@link #event(Config)}. */
    public static Result fit(FeatureMatrix rows, Config c) {
        return fit(rows, c, new SessionRandomness(NoiseSource.secure()));
    }

    /**
     * Charges {@link #event(Config)} to {@code session} (refused, with nothing drawn, if it would exceed the run's
     * target or the party's budget), then fits with the session's noise source.
     *
     * @throws IllegalArgumentException for a session under replace-one: the sensitivities here are for add/remove
     */
    public static Result fit(FeatureMatrix rows, Config c, PrivacySession session)
            throws BudgetExceededException, BudgetLedger.LedgerException {
        return fit(rows, c, session, null);
    }

    /**
     * As {@link #fit(FeatureMatrix, Config, PrivacySession)}, with {@code observer} (may be null) receiving each
     * release's noisy statistics as it is made: the transcript {@code privadapt audit --release dp-em} attacks.
     */
    public static Result fit(FeatureMatrix rows, Config c, PrivacySession session, Observer observer)
            throws BudgetExceededException, BudgetLedger.LedgerException {
        charge(session, c, rows.cols());
        return fit(rows, c, new SessionRandomness(session.noise()), observer);
    }

    /** The plan's one charge (T + 1 releases composed exactly), under add/remove-one only; d is public. */
    private static void charge(PrivacySession session, Config c, int d) throws BudgetExceededException, BudgetLedger.LedgerException {
        if (session.relation() != NeighbouringRelation.ADD_OR_REMOVE_ONE) {
            throw new IllegalArgumentException("DP-EM's sensitivities (1, R, R^2) hold under add/remove-one; the session uses "
                    + session.relation().description());
        }
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("K", c.k());
        params.put("d", d);
        params.put("covariance", c.covarianceType().name());
        params.put("R", c.clipNorm());
        params.put("T", c.iterations());
        params.put("sigma", c.noiseMultiplier());
        session.charge("dp-em gmm", "Gaussian on per-component (count, sum, second moment) with sensitivities (1, R, R^2), "
                + "T + 1 releases composed exactly (one Gaussian, multiplier sigma / sqrt(3 (T + 1)))", event(c), params);
    }

    /**
     * As {@link #fit(FeatureMatrix, Config, PrivacySession, Observer)} with the exact statistics from {@code source}
     * (e.g. an aggregate over rows held elsewhere): the same charge (d is {@code source.dimension()}, public), then
     * {@link #fit(StatisticsSource, Config, NoiseAndSampling, Observer)} with the session's noise.
     */
    public static Result fit(StatisticsSource source, Config c, PrivacySession session, Observer observer)
            throws BudgetExceededException, BudgetLedger.LedgerException {
        charge(session, c, source.dimension());
        return fit(source, c, new SessionRandomness(session.noise()), observer);
    }

    /**
     * Where each release's exact (not yet noisy) statistics come from: the rows in this JVM ({@link #inProcess}), or
     * an aggregate over rows held elsewhere (the spark module). Every row must be clipped to R by {@link #clipRow}.
     */
    public interface StatisticsSource {
        /** d (public). */
        int dimension();

        /**
         * The exact statistics of the clipped rows: for {@code current == null} the initial K = 1 query
         * ({@link #initialStatistics}) with covariance type {@code type}, else {@link #statistics} under
         * {@code current}'s responsibilities.
         */
        SufficientStatistics exact(GaussianMixture current, CovarianceType type);

        /** A source of {@code dimension} features whose statistics {@code exact} computes (an engine's aggregate). */
        static StatisticsSource of(int dimension,
                                   java.util.function.BiFunction<GaussianMixture, CovarianceType, SufficientStatistics> exact) {
            return new StatisticsSource() {
                @Override
                public int dimension() {
                    return dimension;
                }

                @Override
                public SufficientStatistics exact(GaussianMixture current, CovarianceType type) {
                    return exact.apply(current, type);
                }
            };
        }
    }

    /** The rows in this JVM, clipped once to {@code clipNorm} ({@link #clipRows}; a non-finite row is refused here). */
    public static StatisticsSource inProcess(FeatureMatrix rows, double clipNorm) {
        DenseMatrix z = clipRows(rows, clipNorm);
        return new StatisticsSource() {
            @Override
            public int dimension() {
                return z.cols();
            }

            @Override
            public SufficientStatistics exact(GaussianMixture current, CovarianceType type) {
                return current == null ? initialStatistics(z, type) : statistics(z, current);
            }
        };
    }

    /** Fits with the given noise (seeded noise only on request: the result then says it is not private). */
    public static Result fit(FeatureMatrix rows, Config c, NoiseAndSampling noise) {
        return fit(rows, c, noise, null);
    }

    static Result fit(FeatureMatrix rows, Config c, NoiseAndSampling noise, Observer observer) {
        return fit(inProcess(rows, c.clipNorm()), c, noise, observer);
    }

    /**
     * The fit from a {@link StatisticsSource}: each release's exact statistics from {@code source}, the noise from
     * {@code noise} (drawn here, in the same order as in process), the next model from the noisy statistics alone.
     * The caller accounts {@link #event(Config)}; {@code observer} may be null.
     */
    public static Result fit(StatisticsSource source, Config c, NoiseAndSampling noise, Observer observer) {
        double sigma = c.noiseMultiplier();
        double r = c.clipNorm();
        // release 0: K = 1 statistics of every clipped row
        SufficientStatistics init = source.exact(null, c.covarianceType()).withNoise(sigma, r, noise);
        if (observer != null) {
            observer.released(0, null, init);
        }
        GaussianMixture model = initialModel(fromNoisyStatistics(init, c), c);
        for (int t = 1; t <= c.iterations(); t++) {
            SufficientStatistics noisy = source.exact(model, c.covarianceType()).withNoise(sigma, r, noise);
            if (observer != null) {
                observer.released(t, model, noisy);
            }
            model = fromNoisyStatistics(noisy, c);
        }
        return new Result(model, c.releases(), event(c), noise.description(), noise.isPrivate());
    }

    /** K means drawn from the single-component release with the public generator; weights 1/K; its covariance each. */
    static GaussianMixture initialModel(GaussianMixture single, Config c) {
        int k = c.k();
        DenseMatrix means = single.sample(k, new SplittableRandom(c.initSeed()));
        for (int m = 0; m < k; m++) {
            means.setRow(m, projectToBall(means.row(m), c.clipNorm()));
        }
        double[] w = new double[k];
        java.util.Arrays.fill(w, 1.0 / k);
        if (c.covarianceType() == CovarianceType.FULL) {
            List<DenseMatrix> cov = new ArrayList<>();
            for (int m = 0; m < k; m++) {
                cov.add(single.covariance(0));
            }
            return GaussianMixture.full(w, means, cov);
        }
        DenseMatrix var = DenseMatrix.zeros(k, single.dimension());
        for (int m = 0; m < k; m++) {
            var.setRow(m, single.variances(0));
        }
        return GaussianMixture.diagonal(w, means, var);
    }

    /**
     * Post-processing of released statistics into a valid mixture (reads nothing else): counts raised to the floor,
     * weights the normalised counts, means {@code S_k / N_k} projected onto the ball of radius R (every clipped row
     * lies in it, so its means do), covariances {@code M_k / N_k - mu_k mu_k^T} with eigenvalues (variances for
     * diagonal) clamped to [{@link #varianceFloor}, R^2] (a distribution on the ball has no variance above R^2 in
     * any direction).
     */
    static GaussianMixture fromNoisyStatistics(SufficientStatistics s, Config c) {
        int k = s.components();
        int d = s.dimension();
        double r2 = c.clipNorm() * c.clipNorm();
        double[] counts = new double[k];
        double total = 0;
        for (int m = 0; m < k; m++) {
            counts[m] = Math.max(s.count(m), c.countFloor());
            total += counts[m];
        }
        double[] w = new double[k];
        DenseMatrix means = DenseMatrix.zeros(k, d);
        for (int m = 0; m < k; m++) {
            w[m] = counts[m] / total;
            double[] mu = s.sum(m);
            for (int j = 0; j < d; j++) {
                mu[j] /= counts[m];
            }
            means.setRow(m, projectToBall(mu, c.clipNorm()));
        }
        if (s.covarianceType() == CovarianceType.DIAGONAL) {
            DenseMatrix var = DenseMatrix.zeros(k, d);
            for (int m = 0; m < k; m++) {
                double lo = varianceFloor(c, d, counts[m], CovarianceType.DIAGONAL);
                double[] diag = s.secondMomentDiagonal(m);
                for (int j = 0; j < d; j++) {
                    double mu = means.get(m, j);
                    double v = diag[j] / counts[m] - mu * mu;
                    var.set(m, j, Math.min(r2, Math.max(lo, v)));
                }
            }
            return GaussianMixture.diagonal(w, means, var);
        }
        List<DenseMatrix> cov = new ArrayList<>();
        for (int m = 0; m < k; m++) {
            DenseMatrix sigma = s.secondMoment(m);
            sigma.scaleInPlace(1.0 / counts[m]);
            double[] mu = means.row(m);
            double[] a = sigma.data();
            for (int j = 0; j < d; j++) {
                for (int i = 0; i < d; i++) {
                    a[i + j * d] -= mu[i] * mu[j];
                }
            }
            sigma.symmetrizeInPlace();
            double lo = varianceFloor(c, d, counts[m], CovarianceType.FULL);
            cov.add(LinAlg.eigh(sigma).apply(v -> Math.min(r2, Math.max(lo, v))));
        }
        return GaussianMixture.full(w, means, cov);
    }

    /**
     * The smallest eigenvalue (variance) kept for a component with floored noisy count {@code n}: the configured floor,
     * or {@code noiseFloorScale} times the scale of the noise in {@code M_k / N_k} if larger. That noise has std
     * sigma R^2 / N_k per diagonal entry; for a full moment it is a symmetric Gaussian matrix whose spectral norm is
     * about {@code sqrt(2 d)} times that, so eigenvalues below it are mostly noise. Reads only public parameters and
     * the noisy count (post-processing); capped below R^2.
     */
    static double varianceFloor(Config c, int d, double n, CovarianceType type) {
        double r2 = c.clipNorm() * c.clipNorm();
        double noise = c.noiseMultiplier() * r2 / n * (type == CovarianceType.FULL ? Math.sqrt(2.0 * d) : 1.0);
        return Math.min(Math.max(c.eigenvalueFloor(), c.noiseFloorScale() * noise), r2);
    }

    private static double[] projectToBall(double[] v, double r) {
        double sq = 0;
        for (double x : v) {
            sq += x * x;
        }
        double norm = Math.sqrt(sq);
        if (norm <= r) {
            return v;
        }
        double[] out = new double[v.length];
        for (int j = 0; j < v.length; j++) {
            out[j] = v[j] * (r / norm);
        }
        return out;
    }
}
