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
 * AdaSSP (Wang, "Revisiting differentially private linear regression", UAI 2018): one DP release of the sufficient
 * statistics of ridge regression on one-hot labels, with the ridge chosen from a privately estimated smallest
 * eigenvalue (docs/privacy/private-learners.md, "AdaSSP").
 *
 * <p>The rows z (already projected, {@link RandomProjection}, and bounded by R, {@link #boundRows}) are augmented with
 * a constant 1, {@code z~ = [z, 1]}, {@code ||z~||^2 <= R^2 + 1 = R'^2}. Three statistics, each with its own Gaussian
 * noise (std {@code s_b Delta_b}), composing into one Gaussian mechanism of multiplier
 * {@code (sum_b 1/s_b^2)^(-1/2)} as {@link ClassStatistics}' blocks do:
 * <ul>
 *   <li>the second moment {@code A = Z~^T Z~}, (p+1) x (p+1), released as its upper triangle with the off-diagonal
 *       entries times sqrt 2 (its L2 norm is A's Frobenius norm; {@link ClassStatistics#withNoise});</li>
 *   <li>the cross moment {@code B = Z~^T Y}, (p+1) x K: the per-class sums of the rows and, in its last row, the
 *       class counts;</li>
 *   <li>the smallest eigenvalue {@code lambda_min(A)}.</li>
 * </ul>
 * Sensitivities ({@link #sensitivities}): add/remove {@code (R'^2, R', R'^2)}; replace-one
 * {@code (sqrt 2 R'^2, max(2R, sqrt 2 R'), R'^2)} (the eigenvalue by Weyl's inequality: one record moves A by a
 * rank-one PSD matrix of norm at most R'^2, or by the difference of two, whose spectral norm is at most R'^2).
 *
 * <p>The model ({@link #ridge}) reads only the noisy statistics and public settings: post-processing.
 */
public final class AdaSsp {
    private static final double SQRT2 = Math.sqrt(2.0);

    /** The one-sided failure probability of the eigenvalue's lower bound and of the noise's spectral bound. */
    public static final double RHO = 0.05;

    /** The standard normal quantile at 1 - {@link #RHO}. */
    static final double Z_RHO = 1.6448536269514722;

    private final DenseMatrix moment;   // (p+1) x (p+1)
    private final DenseMatrix cross;    // (p+1) x K
    private final double eigen;

    private AdaSsp(DenseMatrix moment, DenseMatrix cross, double eigen) {
        this.moment = moment;
        this.cross = cross;
        this.eigen = eigen;
    }

    /** The L2 sensitivities of the three blocks: (second moment, cross moment, smallest eigenvalue). */
    public record Sensitivities(double moment, double cross, double eigen) {
    }

    /** The sensitivities for rows bounded by R, augmented with 1, under a relation. */
    public static Sensitivities sensitivities(NeighbouringRelation relation, double rowBound) {
        if (!(rowBound > 0) || Double.isInfinite(rowBound)) {
            throw new IllegalArgumentException("row bound must be finite and > 0, got " + rowBound);
        }
        double r2 = rowBound * rowBound + 1; // R'^2
        double r = Math.sqrt(r2);
        return relation == NeighbouringRelation.REPLACE_ONE
                ? new Sensitivities(SQRT2 * r2, Math.max(2 * rowBound, SQRT2 * r), r2)
                : new Sensitivities(r2, r, r2);
    }

    /**
     * Rows bounded by R, row-locally: {@code clip} scales rows longer than R down to R ({@link ClassStatistics#clipRows});
     * otherwise every non-zero row is scaled to norm R (a relative 1e-12 inside; {@link ClassStatistics#normaliseRows}).
     */
    public static FeatureMatrix boundRows(FeatureMatrix z, double rowBound, boolean clip) {
        if (clip) {
            return ClassStatistics.clipRows(z, rowBound);
        }
        FeatureMatrix unit = ClassStatistics.normaliseRows(z);
        double[] f = new double[unit.rows()];
        java.util.Arrays.fill(f, rowBound);
        return unit.scaleRows(f);
    }

    /**
     * The exact statistics of bounded rows {@code z} (n x p, every row within the R the release states) with class
     * codes y in 0..k-1: the augmented second moment, the cross moment and the moment's smallest eigenvalue. Memory
     * (p+1)^2 + (p+1) K doubles; time one Gram product and one (p+1) x (p+1) eigenvalue problem.
     */
    public static AdaSsp exact(FeatureMatrix z, int[] y, int k) {
        int n = z.rows();
        int p = z.cols();
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
        return ofSums(counts, z.transposeMultiply(onehot), z.gram());
    }

    /**
     * The exact statistics from sums computed elsewhere (an engine's aggregate over the bounded rows): the class counts
     * (K), the per-class sums of the rows as columns ({@code Z^T Y}, p x K) and the rows' Gram matrix ({@code Z^T Z},
     * p x p). {@link #exact} is this on in-memory rows.
     */
    public static AdaSsp ofSums(double[] counts, DenseMatrix zy, DenseMatrix g) {
        int p = g.rows();
        int k = counts.length;
        if (g.cols() != p || zy.rows() != p || zy.cols() != k) {
            throw new IllegalArgumentException("Gram " + g.rows() + "x" + g.cols() + ", class sums " + zy.rows() + "x" + zy.cols()
                    + ", " + k + " counts");
        }
        double n = 0;
        for (double c : counts) {
            n += c;
        }
        DenseMatrix a = DenseMatrix.zeros(p + 1, p + 1);
        DenseMatrix b = DenseMatrix.zeros(p + 1, k);
        for (int j = 0; j < p; j++) {
            System.arraycopy(g.data(), j * p, a.data(), j * (p + 1), p);
        }
        for (int c = 0; c < k; c++) {
            System.arraycopy(zy.data(), c * p, b.data(), c * (p + 1), p);
            b.set(p, c, counts[c]);
        }
        double[] colSum = LinAlg.multiply(zy, onesOf(k)); // Z^T 1: each row is in exactly one class
        for (int j = 0; j < p; j++) {
            a.set(j, p, colSum[j]);
            a.set(p, j, colSum[j]);
        }
        a.set(p, p, n);
        return new AdaSsp(a, b, LinAlg.smallestEigenvalue(a));
    }

    private static double[] onesOf(int k) {
        double[] v = new double[k];
        java.util.Arrays.fill(v, 1.0);
        return v;
    }

    /** Statistics computed elsewhere (tests, other engines): copied. */
    public static AdaSsp of(DenseMatrix moment, DenseMatrix cross, double eigen) {
        if (moment.rows() != moment.cols() || cross.rows() != moment.rows()) {
            throw new IllegalArgumentException("moment " + moment.rows() + "x" + moment.cols() + ", cross " + cross.rows() + "x" + cross.cols());
        }
        return new AdaSsp(moment.copy(), cross.copy(), eigen);
    }

    /**
     * A noisy copy: Gaussian noise of std {@code sMoment * Delta_moment} on each coordinate of the moment's scaled upper
     * triangle, {@code sCross * Delta_cross} on each entry of the cross moment and {@code sEigen * Delta_eigen} on the
     * eigenvalue; the moment is rebuilt exactly symmetric. All three multipliers must be finite and positive.
     */
    public AdaSsp withNoise(double sMoment, double sCross, double sEigen, Sensitivities delta, NoiseAndSampling rnd) {
        for (double s : new double[] {sMoment, sCross, sEigen}) {
            if (!(s > 0) || Double.isInfinite(s)) {
                throw new IllegalArgumentException("AdaSSP releases three blocks: multipliers must be finite and > 0, got " + s);
            }
        }
        int k = cross.cols();
        // the cross moment and the second moment through ClassStatistics' release (sums K x (p+1); counts withheld)
        ClassStatistics blocks = ClassStatistics.ofExact(new double[k], cross.transpose(), moment)
                .withNoise(Double.POSITIVE_INFINITY, sCross, sMoment,
                        new ClassStatistics.Sensitivities(1.0, delta.cross(), delta.moment()), rnd);
        double[] e = {eigen};
        rnd.addGaussian(e, sEigen * delta.eigen());
        return new AdaSsp(blocks.moment(), blocks.sums().transpose(), e[0]);
    }

    /** The augmented second moment, (p+1) x (p+1); a copy. */
    public DenseMatrix moment() {
        return moment.copy();
    }

    /** The cross moment, (p+1) x K (the last row: the class counts); a copy. */
    public DenseMatrix cross() {
        return cross.copy();
    }

    /** The (noisy, for a release) smallest eigenvalue of the moment. */
    public double eigen() {
        return eigen;
    }

    /** p + 1. */
    public int dimension() {
        return moment.rows();
    }

    public int classes() {
        return cross.cols();
    }

    /**
     * The ridge AdaSSP adds, from the released eigenvalue and public quantities only (post-processing):
     * {@code lambda = max(0, scale * sigma_A (sqrt(2 q) + sqrt(2 ln(1/rho))) - max(0, lambda~_min - z_rho sigma_L))},
     * where q = p + 1 is the moment's size, {@code sigma_A} the std of its upper-triangle noise (the off-diagonal noise
     * has std sigma_A / sqrt 2, a Gaussian Wigner matrix whose spectral norm is about {@code sigma_A sqrt(2 q)}, with a
     * Gaussian tail: the norm is 1-Lipschitz in the triangle vector), {@code sigma_L} the eigenvalue's noise std and
     * rho = {@value #RHO}: with probability about 1 - 2 rho the lower bound is below the true smallest eigenvalue and
     * the noise's norm below the first term, so the regularised noisy moment is positive definite.
     */
    public static double ridgeLambda(double noisyEigen, double sigmaMoment, double sigmaEigen, int q, double scale) {
        double lower = Math.max(0, noisyEigen - Z_RHO * sigmaEigen);
        double bound = scale * sigmaMoment * (Math.sqrt(2.0 * q) + Math.sqrt(2 * Math.log(1 / RHO)));
        return Math.max(0, bound - lower);
    }

    /**
     * The ridge solution {@code (A + lambda I)^-1 B}, (p+1) x K, by A's eigendecomposition. An eigenvalue of
     * {@code A + lambda I} below {@code floor} (the noise beat its bound, probability about 2 rho) is raised to it.
     */
    public DenseMatrix ridge(double lambda, double floor) {
        if (!(lambda >= 0) || !(floor > 0)) {
            throw new IllegalArgumentException("lambda must be >= 0 and floor > 0, got " + lambda + " and " + floor);
        }
        SymmetricEigen eig = LinAlg.eigh(moment);
        double[] mu = eig.values();
        double[] inv = new double[mu.length];
        for (int j = 0; j < mu.length; j++) {
            inv[j] = 1.0 / Math.max(mu[j] + lambda, floor);
        }
        DenseMatrix v = eig.vectors();
        DenseMatrix vtB = LinAlg.multiplyTransA(v, cross);
        return v.multiply(vtB.scaleRows(inv));
    }

    /**
     * The linear network of a ridge solution theta ((p+1) x K): weights {@code P theta[0..p)} in the input space
     * ({@link RandomProjection#backProject}), biases {@code theta[p]} (the weight of the constant 1).
     */
    public static Network network(DenseMatrix theta, RandomProjection projection, List<String> classNames) {
        return network(theta, projection, classNames, false);
    }

    /**
     * As {@link #network(DenseMatrix, RandomProjection, List)}; with {@code cosine}, each class's weight vector (in the
     * projected space) scaled to unit norm and the biases dropped: the class-size weighting of a heavily regularised
     * one-hot fit ({@code theta_c ~ S_c / lambda}, the class sum, whose norm grows with the class's count) removed, so
     * that in the limit of a large ridge the model is ncm's cosine rule on the released sums.
     */
    public static Network network(DenseMatrix theta, RandomProjection projection, List<String> classNames, boolean cosine) {
        int q = theta.rows();
        int k = theta.cols();
        int p = q - 1;
        if (p != projection.outputDim()) {
            throw new IllegalArgumentException("theta has " + q + " rows, the projection gives " + projection.outputDim() + " + 1");
        }
        DenseMatrix w = DenseMatrix.zeros(p, k);
        double[] b = new double[k];
        for (int c = 0; c < k; c++) {
            System.arraycopy(theta.data(), c * q, w.data(), c * p, p);
            b[c] = theta.get(p, c);
            if (cosine) {
                double norm = 0;
                for (int j = 0; j < p; j++) {
                    norm += w.get(j, c) * w.get(j, c);
                }
                norm = Math.sqrt(norm);
                for (int j = 0; j < p; j++) {
                    w.set(j, c, norm > 0 ? w.get(j, c) / norm : 0.0);
                }
                b[c] = 0;
            }
        }
        DenseMatrix full = projection.backProject(w);
        return Network.fromParameters(new int[] {projection.inputDim(), k}, Activation.IDENTITY, List.of(full), List.of(b), classNames);
    }
}
