package org.privadapt.models.mixture;

import org.privadapt.math.DenseMatrix;
import org.privadapt.math.LinAlg;
import org.privadapt.models.dp.NoiseAndSampling;

/**
 * Per-component sufficient statistics of a Gaussian mixture under soft assignments r (n x K, rows summing to 1):
 * <ul>
 *   <li>counts {@code N_k = sum_i r_ik} (K),</li>
 *   <li>sums {@code S_k = sum_i r_ik z_i} (K x d),</li>
 *   <li>second moments {@code M_k = sum_i r_ik z_i z_i^T} (K symmetric d x d) for {@link CovarianceType#FULL}, or only
 *       their diagonals {@code sum_i r_ik z_i o z_i} (K x d) for {@link CovarianceType#DIAGONAL}.</li>
 * </ul>
 * These are what DP-EM releases with noise ({@link DpGaussianMixtureEm}). The three blocks are exposed as the vectors
 * the Gaussian mechanism perturbs: {@link #countVector()}, {@link #sumVector()} and {@link #secondMomentVector()};
 * for a full second moment the latter holds, per component, the upper triangle with every off-diagonal entry
 * multiplied by sqrt(2), so that its Euclidean norm equals the Frobenius norm of the symmetric matrix
 * (docs/privacy/dp-em.md). Immutable.
 */
public final class SufficientStatistics {
    private static final double SQRT2 = Math.sqrt(2.0);

    private final CovarianceType type;
    private final double[] counts;
    private final DenseMatrix sums; // K x d
    private final DenseMatrix diagonalMoments; // K x d (DIAGONAL)
    private final DenseMatrix[] fullMoments; // d x d each (FULL)

    private SufficientStatistics(CovarianceType type, double[] counts, DenseMatrix sums, DenseMatrix diagonalMoments,
                                 DenseMatrix[] fullMoments) {
        this.type = type;
        this.counts = counts;
        this.sums = sums;
        this.diagonalMoments = diagonalMoments;
        this.fullMoments = fullMoments;
    }

    /**
     * The statistics of {@code rows} (n x d) under {@code responsibilities} (n x K): products {@code r^T Z} and
     * {@code r^T (Z o Z)}, and for full moments one symmetric rank-n update per component on the rows scaled by
     * {@code sqrt(r_ik)}.
     */
    public static SufficientStatistics of(DenseMatrix rows, DenseMatrix responsibilities, CovarianceType type) {
        if (responsibilities.rows() != rows.rows()) {
            throw new IllegalArgumentException(responsibilities.rows() + " responsibility rows for " + rows.rows() + " rows");
        }
        int k = responsibilities.cols();
        int n = rows.rows();
        double[] counts = new double[k];
        double[] r = responsibilities.data();
        for (int c = 0; c < k; c++) {
            double s = 0;
            for (int i = 0; i < n; i++) {
                s += r[i + c * n];
            }
            counts[c] = s;
        }
        DenseMatrix sums = LinAlg.multiplyTransA(responsibilities, rows);
        if (type == CovarianceType.DIAGONAL) {
            DenseMatrix diag = LinAlg.multiplyTransA(responsibilities, rows.map(v -> v * v));
            return new SufficientStatistics(type, counts, sums, diag, null);
        }
        DenseMatrix[] full = new DenseMatrix[k];
        for (int c = 0; c < k; c++) {
            double[] f = new double[n];
            for (int i = 0; i < n; i++) {
                f[i] = Math.sqrt(r[i + c * n]);
            }
            full[c] = LinAlg.gram(rows.scaleRows(f));
        }
        return new SufficientStatistics(type, counts, sums, null, full);
    }

    /**
     * Statistics summed elsewhere (e.g. an aggregate over rows held on a cluster): the arrays are copied.
     *
     * @param counts          N (K)
     * @param sums            S, K x d
     * @param diagonalMoments K x d, for {@link CovarianceType#DIAGONAL} (else null)
     * @param fullMoments     K symmetric d x d matrices, for {@link CovarianceType#FULL} (else null)
     */
    public static SufficientStatistics ofExact(CovarianceType type, double[] counts, DenseMatrix sums, DenseMatrix diagonalMoments,
                                               DenseMatrix[] fullMoments) {
        int k = counts.length;
        if (sums.rows() != k) {
            throw new IllegalArgumentException(sums.rows() + " sums for " + k + " counts");
        }
        int d = sums.cols();
        if (type == CovarianceType.DIAGONAL) {
            if (diagonalMoments == null || diagonalMoments.rows() != k || diagonalMoments.cols() != d || fullMoments != null) {
                throw new IllegalArgumentException("diagonal statistics need K x d diagonal moments only");
            }
            return new SufficientStatistics(type, counts.clone(), sums.copy(), diagonalMoments.copy(), null);
        }
        if (fullMoments == null || fullMoments.length != k || diagonalMoments != null) {
            throw new IllegalArgumentException("full statistics need K d x d moments only");
        }
        DenseMatrix[] full = new DenseMatrix[k];
        for (int c = 0; c < k; c++) {
            if (fullMoments[c].rows() != d || fullMoments[c].cols() != d) {
                throw new IllegalArgumentException("moment " + c + " is not " + d + " x " + d);
            }
            full[c] = fullMoments[c].copy();
        }
        return new SufficientStatistics(type, counts.clone(), sums.copy(), null, full);
    }

    /**
     * A copy with independent Gaussian noise from {@code rnd}: std {@code sigma} on each count, {@code sigma R} on
     * each sum coordinate and {@code sigma R^2} on each coordinate of {@link #secondMomentVector()} (for a full
     * moment: the diagonal gets std sigma R^2 and each off-diagonal pair one shared draw of std sigma R^2 / sqrt(2),
     * mirrored, so the matrix stays exactly symmetric).
     */
    public SufficientStatistics withNoise(double sigma, double clipNorm, NoiseAndSampling rnd) {
        double[] c = countVector();
        rnd.addGaussian(c, sigma);
        double[] s = sumVector();
        rnd.addGaussian(s, sigma * clipNorm);
        double[] m = secondMomentVector();
        rnd.addGaussian(m, sigma * clipNorm * clipNorm);
        return fromVectors(type, components(), dimension(), c, s, m);
    }

    /** Rebuilds statistics from the three release vectors (inverse of the vector accessors). */
    static SufficientStatistics fromVectors(CovarianceType type, int k, int d, double[] counts, double[] sums, double[] moments) {
        if (counts.length != k || sums.length != k * d || moments.length != momentLength(type, k, d)) {
            throw new IllegalArgumentException("release vectors do not match K=" + k + ", d=" + d + ", " + type);
        }
        DenseMatrix s = DenseMatrix.fromRowMajor(k, d, sums);
        if (type == CovarianceType.DIAGONAL) {
            return new SufficientStatistics(type, counts.clone(), s, DenseMatrix.fromRowMajor(k, d, moments), null);
        }
        DenseMatrix[] full = new DenseMatrix[k];
        int t = 0;
        for (int c = 0; c < k; c++) {
            DenseMatrix m = DenseMatrix.zeros(d, d);
            for (int j = 0; j < d; j++) {
                m.set(j, j, moments[t++]);
                for (int i = j + 1; i < d; i++) {
                    double v = moments[t++] / SQRT2;
                    m.set(j, i, v);
                    m.set(i, j, v);
                }
            }
            full[c] = m;
        }
        return new SufficientStatistics(type, counts.clone(), s, null, full);
    }

    private static int momentLength(CovarianceType type, int k, int d) {
        return type == CovarianceType.DIAGONAL ? k * d : k * (d * (d + 1) / 2);
    }

    public CovarianceType covarianceType() {
        return type;
    }

    /** K. */
    public int components() {
        return counts.length;
    }

    /** d. */
    public int dimension() {
        return sums.cols();
    }

    /** N (K; a copy): the first release block. */
    public double[] countVector() {
        return counts.clone();
    }

    /** S_1, ..., S_K concatenated (K d): the second release block. */
    public double[] sumVector() {
        int k = components();
        int d = dimension();
        double[] v = new double[k * d];
        for (int c = 0; c < k; c++) {
            for (int j = 0; j < d; j++) {
                v[c * d + j] = sums.get(c, j);
            }
        }
        return v;
    }

    /**
     * The third release block: for {@link CovarianceType#DIAGONAL} the K diagonals concatenated (K d); for
     * {@link CovarianceType#FULL}, per component and column j, {@code M_jj} then {@code sqrt(2) M_ij} for i > j
     * (K d(d+1)/2 coordinates, Euclidean norm = Frobenius norm of (M_1, ..., M_K)).
     */
    public double[] secondMomentVector() {
        int k = components();
        int d = dimension();
        double[] v = new double[momentLength(type, k, d)];
        int t = 0;
        for (int c = 0; c < k; c++) {
            if (type == CovarianceType.DIAGONAL) {
                for (int j = 0; j < d; j++) {
                    v[t++] = diagonalMoments.get(c, j);
                }
            } else {
                DenseMatrix m = fullMoments[c];
                for (int j = 0; j < d; j++) {
                    v[t++] = m.get(j, j);
                    for (int i = j + 1; i < d; i++) {
                        v[t++] = SQRT2 * m.get(i, j);
                    }
                }
            }
        }
        return v;
    }

    /** N_c. */
    public double count(int c) {
        return counts[c];
    }

    /** S_c (a copy). */
    public double[] sum(int c) {
        return sums.row(c);
    }

    /** M_c as a symmetric d x d matrix (a copy; diagonal for {@link CovarianceType#DIAGONAL}). */
    public DenseMatrix secondMoment(int c) {
        return type == CovarianceType.FULL ? fullMoments[c].copy() : DenseMatrix.diagonal(diagonalMoments.row(c));
    }

    /** The diagonal of M_c (a copy). */
    public double[] secondMomentDiagonal(int c) {
        return type == CovarianceType.FULL ? fullMoments[c].diagonal() : diagonalMoments.row(c);
    }
}
