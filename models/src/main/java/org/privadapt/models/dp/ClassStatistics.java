package org.privadapt.models.dp;

import java.util.List;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.math.LinAlg;
import org.privadapt.math.SymmetricEigen;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.Network;
import org.privadapt.privacy.NeighbouringRelation;

/**
 * The per-class sufficient statistics of labelled rows bounded by R: counts n_c, sums S_c and (optionally) one
 * second moment M = sum_i x_i x_i^T shared by all classes, and their Gaussian release
 * (docs/privacy/private-learners.md).
 *
 * <p>Sensitivities, in L2 (Frobenius for M, released as its upper triangle with the off-diagonal entries times sqrt 2
 * so that the vector's norm is the Frobenius norm), for rows with ||x|| &lt;= R ({@link #sensitivities}):
 * <ul>
 *   <li>add or remove one record (x, c): the counts move by 1 (one entry), the sums by ||x|| &lt;= R (one class),
 *       M by ||x x^T||_F = ||x||^2 &lt;= R^2;</li>
 *   <li>replace (x, c) by (x', c'): counts by sqrt 2 (c != c') or 0, sums by ||x - x'|| &lt;= 2R (c = c') or
 *       sqrt(||x||^2 + ||x'||^2) &lt;= sqrt 2 R, M by sqrt(||x||^4 + ||x'||^4 - 2 (x.x')^2) &lt;= sqrt 2 R^2.</li>
 * </ul>
 * Each block is released with its own Gaussian noise, std {@code s_b * Delta_b}; blocks with multipliers s_b compose
 * into one Gaussian mechanism with multiplier s, {@code 1/s^2 = sum_b 1/s_b^2} (the release is the concatenation of
 * sensitivity-normalised blocks, each moved by at most its Delta_b by one record, so the whole vector moves by at most
 * sqrt(sum_b (Delta_b/(s_b Delta_b))^2 ) in units of its own noise). Blocks with s_b = infinity are not released.
 *
 * <p>The classifiers built from a release ({@link #nearestClassMean}, {@link #lda}) read nothing but the noisy
 * statistics and public settings: post-processing.
 */
public final class ClassStatistics {
    private static final double SQRT2 = Math.sqrt(2.0);

    private final double[] counts;      // K (NaN when not released)
    private final DenseMatrix sums;     // K x d
    private final DenseMatrix moment;   // d x d or null

    private ClassStatistics(double[] counts, DenseMatrix sums, DenseMatrix moment) {
        this.counts = counts;
        this.sums = sums;
        this.moment = moment;
    }

    /** The per-block L2 sensitivities (count, sum, second moment) of rows bounded by R under a relation. */
    public record Sensitivities(double count, double sum, double moment) {
    }

    public static Sensitivities sensitivities(NeighbouringRelation relation, double rowBound) {
        if (!(rowBound > 0) || Double.isInfinite(rowBound)) {
            throw new IllegalArgumentException("row bound must be finite and > 0, got " + rowBound);
        }
        double r2 = rowBound * rowBound;
        return relation == NeighbouringRelation.REPLACE_ONE
                ? new Sensitivities(SQRT2, 2 * rowBound, SQRT2 * r2)
                : new Sensitivities(1.0, rowBound, r2);
    }

    /**
     * The exact statistics of {@code rows} (every row must already be bounded by the R the release will state: the
     * caller clips) with class codes {@code y} in 0..k-1.
     */
    public static ClassStatistics of(FeatureMatrix rows, int[] y, int k, boolean withMoment) {
        int n = rows.rows();
        if (y.length != n) {
            throw new IllegalArgumentException(n + " rows but " + y.length + " labels");
        }
        DenseMatrix onehot = DenseMatrix.zeros(n, k);
        double[] counts = new double[k];
        for (int i = 0; i < n; i++) {
            if (y[i] < 0 || y[i] >= k) {
                throw new IllegalArgumentException("label " + y[i] + " outside 0.." + (k - 1));
            }
            onehot.set(i, y[i], 1.0);
            counts[y[i]]++;
        }
        DenseMatrix sums = rows.transposeMultiply(onehot).transpose(); // K x d
        DenseMatrix m = withMoment ? rows.gram() : null;
        return new ClassStatistics(counts, sums, m);
    }

    /**
     * Exact statistics computed elsewhere (e.g. summed over rows by a distributed engine, which clipped each row with
     * {@link #clipRow} or {@link #normaliseRow} as the release states): counts (K), sums (K x d) and the shared second
     * moment (d x d, or null). The arrays are copied.
     */
    public static ClassStatistics ofExact(double[] counts, DenseMatrix sums, DenseMatrix moment) {
        if (counts.length != sums.rows()) {
            throw new IllegalArgumentException(counts.length + " counts but " + sums.rows() + " class sums");
        }
        if (moment != null && (moment.rows() != sums.cols() || moment.cols() != sums.cols())) {
            throw new IllegalArgumentException("moment is " + moment.rows() + " x " + moment.cols() + ", the sums have "
                    + sums.cols() + " columns");
        }
        return new ClassStatistics(counts.clone(), sums.copy(), moment == null ? null : moment.copy());
    }

    /**
     * A noisy copy: independent Gaussian noise of std {@code sCount * Delta_count} on every count,
     * {@code sSum * Delta_sum} on every sum coordinate and {@code sMoment * Delta_moment} on every coordinate of the
     * moment's scaled upper triangle (so the diagonal gets that std and each mirrored off-diagonal pair one draw of
     * that std over sqrt 2). A multiplier of +infinity withholds its block (NaN counts, no moment).
     */
    public ClassStatistics withNoise(double sCount, double sSum, double sMoment, Sensitivities delta, NoiseAndSampling rnd) {
        if (!(sSum > 0) || Double.isInfinite(sSum)) {
            throw new IllegalArgumentException("the sums are always released: their multiplier must be finite and > 0, got " + sSum);
        }
        double[] c = counts.clone();
        if (Double.isInfinite(sCount)) {
            java.util.Arrays.fill(c, Double.NaN);
        } else {
            rnd.addGaussian(c, sCount * delta.count());
        }
        double[] s = sums.data().clone();
        rnd.addGaussian(s, sSum * delta.sum());
        DenseMatrix m = null;
        if (moment != null && !Double.isInfinite(sMoment)) {
            int d = moment.rows();
            double[] tri = new double[d * (d + 1) / 2];
            int t = 0;
            for (int j = 0; j < d; j++) {
                tri[t++] = moment.get(j, j);
                for (int i = j + 1; i < d; i++) {
                    tri[t++] = SQRT2 * moment.get(i, j);
                }
            }
            rnd.addGaussian(tri, sMoment * delta.moment());
            m = DenseMatrix.zeros(d, d);
            t = 0;
            for (int j = 0; j < d; j++) {
                m.set(j, j, tri[t++]);
                for (int i = j + 1; i < d; i++) {
                    double v = tri[t++] / SQRT2;
                    m.set(i, j, v);
                    m.set(j, i, v);
                }
            }
        }
        return new ClassStatistics(c, new DenseMatrix(sums.rows(), sums.cols(), s), m);
    }

    /** The multiplier of the single Gaussian the blocks compose into: {@code (sum_b 1/s_b^2)^(-1/2)}. */
    public static double composedMultiplier(double sCount, double sSum, double sMoment) {
        double precision = 0;
        for (double s : new double[] {sCount, sSum, sMoment}) {
            if (!(s > 0)) {
                throw new IllegalArgumentException("noise multipliers must be > 0, got " + s);
            }
            if (!Double.isInfinite(s)) {
                precision += 1 / (s * s);
            }
        }
        return 1 / Math.sqrt(precision);
    }

    public int classes() {
        return sums.rows();
    }

    public int dimension() {
        return sums.cols();
    }

    /** The counts (NaN when they were not released); a copy. */
    public double[] counts() {
        return counts.clone();
    }

    /** The class sums, K x d; a copy. */
    public DenseMatrix sums() {
        return sums.copy();
    }

    /** The shared second moment (d x d), or null when it was not released. */
    public DenseMatrix moment() {
        return moment == null ? null : moment.copy();
    }

    /**
     * Nearest class mean by direction: class c scores {@code <x, S_c / ||S_c||>}, a linear model without bias (so
     * the prediction does not depend on the row's norm). With rows normalised to unit length this is the
     * cosine-similarity rule against each class's mean direction, and it needs neither the counts nor R.
     */
    public Network nearestClassMean(List<String> classNames) {
        int k = classes();
        int d = dimension();
        DenseMatrix w = DenseMatrix.zeros(d, k);
        for (int c = 0; c < k; c++) {
            double[] s = sums.row(c);
            double norm = 0;
            for (double v : s) {
                norm += v * v;
            }
            norm = Math.sqrt(norm);
            for (int j = 0; j < d; j++) {
                w.set(j, c, norm > 0 ? s[j] / norm : 0.0);
            }
        }
        return Network.fromParameters(new int[] {d, k}, Activation.IDENTITY, List.of(w), List.of(new double[k]), classNames);
    }

    /**
     * Linear discriminant analysis from the noisy statistics: means {@code mu_c = S_c / max(n_c, countFloor)}, the
     * pooled within-class covariance {@code W = (M - sum_c n_c mu_c mu_c^T) / max(sum_c n_c - K, countFloor)} made
     * positive semi-definite by flooring its eigenvalues at 0, shrunk towards its mean eigenvalue,
     * {@code (1 - alpha) W + alpha (tr W / d) I} (plus {@code 1e-9} of that scale, so the inverse exists), and priors
     * from the counts; class c scores {@code x^T Sigma^-1 mu_c - mu_c^T Sigma^-1 mu_c / 2 + log pi_c}.
     *
     * @param alpha shrinkage in [0, 1] (public)
     */
    public Network lda(List<String> classNames, double alpha, double countFloor) {
        if (moment == null || Double.isNaN(counts[0])) {
            throw new IllegalStateException("LDA needs the counts and the second moment, which this release does not hold");
        }
        if (!(alpha >= 0 && alpha <= 1)) {
            throw new IllegalArgumentException("alpha must be in [0, 1], got " + alpha);
        }
        int k = classes();
        int d = dimension();
        double[] nc = new double[k];
        double total = 0;
        for (int c = 0; c < k; c++) {
            nc[c] = Math.max(counts[c], countFloor);
            total += nc[c];
        }
        DenseMatrix mu = DenseMatrix.zeros(k, d);
        for (int c = 0; c < k; c++) {
            for (int j = 0; j < d; j++) {
                mu.set(c, j, sums.get(c, j) / nc[c]);
            }
        }
        // sum_c n_c mu_c mu_c^T = mu^T diag(n) mu
        DenseMatrix between = LinAlg.multiplyTransA(mu, mu.scaleRows(nc));
        DenseMatrix within = moment.minus(between).scale(1.0 / Math.max(total - k, countFloor));
        within.symmetrizeInPlace();
        SymmetricEigen eig = LinAlg.eigh(within);
        double[] lambda = eig.values();
        double mean = 0;
        for (int j = 0; j < d; j++) {
            lambda[j] = Math.max(lambda[j], 0.0);
            mean += lambda[j] / d;
        }
        double floor = mean > 0 ? 1e-9 * mean : 1e-12;
        DenseMatrix v = eig.vectors();
        double[] inv = new double[d];
        for (int j = 0; j < d; j++) {
            inv[j] = 1.0 / ((1 - alpha) * lambda[j] + alpha * mean + floor);
        }
        // Sigma^-1 mu^T = V diag(inv) V^T mu^T
        DenseMatrix vtMu = LinAlg.multiplyTransA(v, mu.transpose());   // d x K
        DenseMatrix w = v.multiply(vtMu.scaleRows(inv));                // d x K
        double[] b = new double[k];
        for (int c = 0; c < k; c++) {
            double q = 0;
            for (int j = 0; j < d; j++) {
                q += mu.get(c, j) * w.get(j, c);
            }
            b[c] = -0.5 * q + Math.log(nc[c] / total);
        }
        return Network.fromParameters(new int[] {d, k}, Activation.IDENTITY, List.of(w), List.of(b), classNames);
    }

    /** Scaled rows land this far inside the bound, so that rounding cannot push a norm past it. */
    private static final double INSIDE = 1 - 1e-12;

    /**
     * Rows scaled to L2 norm at most R (row-local; rows inside the ball are unchanged, scaled rows land a relative
     * 1e-12 inside it, and a row with a non-finite norm becomes zero).
     */
    public static FeatureMatrix clipRows(FeatureMatrix x, double rowBound) {
        double[] sq = x.rowSquaredNorms();
        double[] f = new double[sq.length];
        boolean any = false;
        for (int i = 0; i < sq.length; i++) {
            double norm = Math.sqrt(sq[i]);
            f[i] = !Double.isFinite(norm) ? 0.0 : norm > rowBound ? INSIDE * rowBound / norm : 1.0;
            any |= f[i] != 1.0;
        }
        return any ? zeroNonFinite(x.scaleRows(f), sq) : x;
    }

    /**
     * One row as {@link #clipRows} maps it (row-local): scaled to L2 norm at most R, a relative 1e-12 inside it when
     * scaled, zero when its norm is not finite. A new array; the squared norm is summed in column order, as
     * {@link FeatureMatrix#rowSquaredNorms} does for a dense matrix.
     */
    public static double[] clipRow(double[] row, double rowBound) {
        double sq = 0;
        for (double v : row) {
            sq += v * v;
        }
        double norm = Math.sqrt(sq);
        if (!Double.isFinite(norm)) {
            return new double[row.length];
        }
        double f = norm > rowBound ? INSIDE * rowBound / norm : 1.0;
        double[] out = row.clone();
        if (f != 1.0) {
            for (int j = 0; j < out.length; j++) {
                out[j] *= f;
            }
        }
        return out;
    }

    /** One row as {@link #normaliseRows} maps it (row-local): unit L2 norm a relative 1e-12 inside, or zero. A new array. */
    public static double[] normaliseRow(double[] row) {
        double sq = 0;
        for (double v : row) {
            sq += v * v;
        }
        if (!Double.isFinite(sq)) {
            return new double[row.length];
        }
        double f = sq > 0 ? INSIDE / Math.sqrt(sq) : 0.0;
        double[] out = new double[row.length];
        for (int j = 0; j < out.length; j++) {
            out[j] = row[j] * f;
        }
        return out;
    }

    /** Rows whose squared norm was not finite set to exactly zero (scaling by 0 leaves a NaN a NaN). */
    private static FeatureMatrix zeroNonFinite(FeatureMatrix scaled, double[] sq) {
        DenseMatrix dense = null;
        for (int i = 0; i < sq.length; i++) {
            if (!Double.isFinite(sq[i])) {
                if (dense == null) {
                    dense = scaled.toDense().copy();
                }
                dense.setRow(i, new double[dense.cols()]);
            }
        }
        return dense == null ? scaled : dense;
    }

    /** Rows scaled to unit L2 norm, a relative 1e-12 inside it (zero rows and rows with a non-finite norm become zero). */
    public static FeatureMatrix normaliseRows(FeatureMatrix x) {
        double[] sq = x.rowSquaredNorms();
        double[] f = new double[sq.length];
        for (int i = 0; i < sq.length; i++) {
            f[i] = sq[i] > 0 && Double.isFinite(sq[i]) ? INSIDE / Math.sqrt(sq[i]) : 0.0;
        }
        return zeroNonFinite(x.scaleRows(f), sq);
    }
}
