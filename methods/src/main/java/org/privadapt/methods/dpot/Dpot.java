package org.privadapt.methods.dpot;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.events.DpEvent;
import org.privadapt.privacy.events.PoissonSampledRowsEvent;
import org.privadapt.privacy.ledger.BudgetLedger;
import org.privadapt.privacy.mechanisms.LaplaceMechanism;
import org.privadapt.privacy.noise.NoiseSource;
import org.privadapt.privacy.noise.RandomBits;

/**
 * DPOT and its domain adaptation (LeTien, Habrard, Sebban, IJCAI 2019; paper 002), as two steps run by the party
 * that holds the data:
 * <ol>
 *   <li>{@link #release} (source; Alg. 2 steps 1-2 with Alg. 1 steps 1-2): draw the JL matrix M, order the rows by
 *       label (uniformly random order within a class), release {@code X M + Delta} and the label counts, noised;</li>
 *   <li>{@link #adapt} (target; Alg. 1 steps 3-4, Alg. 2 steps 3-4): the debiased cost
 *       {@code ||x~_i - x_t_j M||^2 - l sigma^2}, the group-lasso regularised coupling of Eq. (3), the barycentric images
 *       {@code n_s gamma X_t} of the source rows in the target's own feature space, labelled from the released
 *       counts. The target then trains its own model on them (and on its labelled rows, if any).</li>
 * </ol>
 *
 * <p><b>Privacy, as implemented</b> (docs/privacy/dpot.md). The release has one row per source record (per sampled
 * record in the minibatch mode), so its size reveals n_s: the guarantee is stated under <b>replace-one</b>
 * neighbours, and an add/remove session is refused.
 * <ul>
 *   <li>Record level: rows clipped to L2 norm R. Ordering by label with a uniformly random order within each class,
 *       replacing one record of class a (features and label) by one of class b can be coupled so that the ordered
 *       outputs differ in at most |b - a| + 2 &lt;= q + 1 rows (the replaced record's slot, one row at each block
 *       boundary crossed, the new record's slot), each by at most {@code 2 R ||M||_2}: L2 sensitivity
 *       {@code 2 sqrt(q + 1) R ||M||_2} for q classes; the release is a mixture over the couplings
 *       with equal weights on both sides, and joint convexity of the divergences carries the Gaussian mechanism's
 *       guarantee over to it. Label counts: Laplace, L1 sensitivity 2.</li>
 *   <li>Attribute level (the paper's Theorem 2 after Kenthapadi et al. 2013): one attribute of one record changes by at
 *       most 1 and its label does not; sensitivity w = the largest row norm of M. This protects far less than a
 *       record: see the docs.</li>
 *   <li>Whole batch: the Gaussian release and the Laplace histogram compose; the noise multiplier
 *       is calibrated (RDP) so the composition meets the source's (epsilon, delta), or fixed by {@code noise-ratio} and
 *       checked.</li>
 *   <li>Minibatch: each batch is a Poisson sample (rate q = batch / n); its rows and its label counts are released
 *       in one Gaussian mechanism (counts scaled by {@code tau = Delta_rows / sqrt 2}, so the joint sensitivity is
 *       {@code sqrt 2 Delta_rows} and each count gets noise of std {@code 2 s}); a per-record release from a Poisson
 *       sample is accounted by {@link PoissonSampledRowsEvent} (amplification linear in q, joint convexity), not by
 *       the sampled-Gaussian analysis of noisy sums, which does not apply to released rows.</li>
 * </ul>
 *
 * <p>This class holds the two steps' entry points, the sensitivities and the public post-processing. The source's
 * release is computed by {@link DpotSourceRelease}, the target's transport by {@link DpotTransport}, and the random
 * row selections and orders both draw by {@link DpotOrders} (all package-private).
 */
public final class Dpot {
    private Dpot() {
    }

    /** The (clipped) rows, projection and sensitivities a release is computed from. */
    record Plan(JlProjection projection, double rowSensitivity, double noiseMultiplier, long batches, double samplingRate,
                DpEvent event, LaplaceMechanism labels) {
    }

    /**
     * The source's step: draws M, plans and charges the release, then draws the noise.
     *
     * @param y class codes in 0..classNames.size()-1
     * @throws IllegalArgumentException for an add/remove session or invalid settings (nothing charged)
     */
    public static DpotRelease release(FeatureMatrix x, int[] y, List<String> classNames, DpotConfig cfg, PrivacySession session,
                                      String runId, String preprocessing)
            throws BudgetExceededException, BudgetLedger.LedgerException {
        return release(x.rows(), x.cols(), inProcess(x), y, classNames, cfg, session, runId, preprocessing);
    }

    /**
     * The per-row map a DPOT release noises: each row, clipped to norm {@code clip} at the record level (NaN: not
     * clipped, the attribute level), times the JL matrix {@code m} (k x l); the result n x l in row order. In process
     * one matrix product ({@link #inProcess}); the spark module computes it on the executors. A function of each row
     * alone, with no noise: the release's noise, order and counts are {@link #release(int, int, Projector, int[], List,
     * DpotConfig, PrivacySession, String, String)}'s.
     */
    @FunctionalInterface
    public interface Projector {
        DenseMatrix project(DenseMatrix m, double clip);
    }

    /** The in-process {@link Projector}: {@code clipRows(x, clip) M} as one product. */
    public static Projector inProcess(FeatureMatrix x) {
        return (m, clip) -> (Double.isNaN(clip) ? x : clipRows(x, clip)).multiply(m);
    }

    /**
     * The source's step on n rows of k features whose projection {@code projector} computes (the rows stay where they
     * are): draws M, plans and charges the release, then draws the order and the noise, as
     * {@link #release(FeatureMatrix, int[], List, DpotConfig, PrivacySession, String, String)} does (it is this with
     * {@link #inProcess}).
     */
    public static DpotRelease release(int n, int k, Projector projector, int[] y, List<String> classNames, DpotConfig cfg,
                                      PrivacySession session, String runId, String preprocessing)
            throws BudgetExceededException, BudgetLedger.LedgerException {
        return DpotSourceRelease.release(n, k, projector, y, classNames, cfg, session, runId, preprocessing);
    }

    /**
     * The release carries the source's class set (its size q sets the sensitivity, the names label the counts) and
     * its feature layout; both must be public ({@link org.privadapt.methods.core.Disclosures}). n is public under the
     * replace-one relation the release requires.
     */
    public static void requirePublicFacts(org.privadapt.data.Dataset source, PrivacySession session) {
        org.privadapt.methods.core.Disclosures.require(source, session, "the source's DPOT release",
                org.privadapt.methods.core.Disclosures.Fact.CLASSES, org.privadapt.methods.core.Disclosures.Fact.SCHEMA);
    }

    /**
     * How much of a class's mean survives the noise: the norm of the noise on the mean of n/q released rows,
     * sigma sqrt(k) / sqrt(n/q), over the largest projected row norm ||M||_2 R (R the record-level clip, or at the
     * attribute level the row bound the preprocessing guarantees; NaN when there is none). Above about 1 the
     * transported rows carry no usable class structure and the target's accuracy falls to chance (record level at
     * epsilon 8 on Office-Caltech10: about 3, accuracy 10 %; attribute level: below 0.01, about 30 %). Public: it
     * depends only on sigma, the projection, the clip, n and q.
     */
    public static double classMeanNoiseToSignal(DpotConfig cfg, String preprocessing, double rowNoise, int k, double spectralNorm,
                                                int n, int q) {
        double r = cfg.level() == DpotConfig.Level.RECORD ? cfg.clip()
                : preprocessing == null ? Double.NaN : org.privadapt.data.preprocess.Preprocessing.parse(preprocessing).rowNormBound();
        if (!(r > 0) || !(spectralNorm > 0) || n < 1 || q < 1) {
            return Double.NaN;
        }
        return rowNoise * Math.sqrt(k) / Math.sqrt((double) n / q) / (spectralNorm * r);
    }

    /** One sentence stating what the release protects. */
    public static String guarantee(DpotConfig cfg) {
        return cfg.level() == DpotConfig.Level.RECORD
                ? "record-level: (epsilon, delta)-DP for replacing one source record (features, clipped to L2 norm " + cfg.clip()
                + ", and label); n_s is public"
                : "attribute-level only (paper 002, Thm 2): (epsilon, delta)-DP for changing one attribute of one source record "
                + "by at most 1 with its label fixed; NOT a guarantee for whole records";
    }

    /**
     * L2 sensitivity of the label-ordered projected rows with {@code classes} classes (see the class comment and
     * docs/privacy/dpot.md): at the record level, replacing a record of class a by one of class b changes, under the
     * coupling of the within-class orders, the old slot, one row at each of the |b - a| block boundaries crossed and
     * the new slot, at most {@code classes + 1} rows, each by at most {@code 2 R ||M||_2}.
     */
    public static double rowSensitivity(DpotConfig cfg, JlProjection p, int classes) {
        if (classes < 1) {
            throw new IllegalArgumentException("need at least one class, got " + classes);
        }
        return cfg.level() == DpotConfig.Level.RECORD ? 2 * Math.sqrt(changedRows(classes)) * cfg.clip() * p.spectralNorm()
                : p.maxRowNorm();
    }

    /** The most rows of the label-ordered release that replacing one record can change: q + 1 (one for q = 1). */
    static int changedRows(int classes) {
        return classes == 1 ? 1 : classes + 1;
    }

    /** Each row scaled to norm at most {@code r} (the record-level clipping; the same arithmetic row by row). */
    public static FeatureMatrix clipRows(FeatureMatrix x, double r) {
        double[] sq = x.rowSquaredNorms();
        double[] f = new double[sq.length];
        boolean any = false;
        for (int i = 0; i < sq.length; i++) {
            double norm = Math.sqrt(sq[i]);
            f[i] = norm > r ? r / norm : 1.0;
            any |= norm > r;
        }
        return any ? x.scaleRows(f) : x;
    }

    /**
     * Post-processing of noisy counts to non-negative integers summing to m (public): negatives to 0, rescaled to sum
     * m, rounded by largest remainder; uniform when every count is non-positive.
     */
    public static int[] validCounts(double[] noisy, int m) {
        int q = noisy.length;
        double[] v = new double[q];
        double total = 0;
        for (int c = 0; c < q; c++) {
            v[c] = Math.max(0, noisy[c]);
            total += v[c];
        }
        if (!(total > 0)) {
            Arrays.fill(v, 1.0);
            total = q;
        }
        int[] out = new int[q];
        double[] rem = new double[q];
        int sum = 0;
        for (int c = 0; c < q; c++) {
            double x = v[c] * m / total;
            out[c] = (int) Math.floor(x);
            rem[c] = x - out[c];
            sum += out[c];
        }
        while (sum < m) {
            int best = 0;
            for (int c = 1; c < q; c++) {
                if (rem[c] > rem[best]) {
                    best = c;
                }
            }
            out[best]++;
            rem[best] = -1;
            sum++;
        }
        return out;
    }

    /**
     * The row-local step the target applies to its own rows so that they live where the source's released rows do:
     * at the record level, the same clipping to L2 norm R (a no-op when the preprocessing already bounds rows by R).
     */
    public static FeatureMatrix targetRows(FeatureMatrix x, DpotConfig cfg) {
        return cfg.level() == DpotConfig.Level.RECORD ? clipRows(x, cfg.clip()) : x;
    }

    /** The target's adapted training set: barycentric images of the released rows, in its own feature space. */
    public record Transported(DenseMatrix features, int[] labels, Map<String, Object> diagnostics) {
    }

    /**
     * The target's step (Alg. 1 steps 3-4, Alg. 2 steps 3-4).
     *
     * @param xtRaw        the target's rows (same k features, same preprocessing as the source's; clipped here as the
     *                     source's were, see {@link #targetRows})
     * @param targetLabels per target row its class code in the release's classes, or -1 (unlabelled); null when none
     * @param bits         the target's own randomness (which target rows meet each minibatch)
     */
    public static Transported adapt(DpotRelease r, FeatureMatrix xtRaw, int[] targetLabels, RandomBits bits) {
        return DpotTransport.adapt(r, xtRaw, targetLabels, bits);
    }

    /** Poisson sample: each index independently with probability q ({@link DpotOrders#poissonSample}). */
    static int[] poissonSample(int n, double q, NoiseSource noise) {
        return DpotOrders.poissonSample(n, q, noise);
    }

    /** The given indices grouped by label, uniformly random within a class ({@link DpotOrders#labelOrder}). */
    static int[] labelOrder(int[] idx, int[] y, int q, RandomBits bits) {
        return DpotOrders.labelOrder(idx, y, q, bits);
    }

    /** {@code m} of {@code 0..n-1} without replacement ({@link DpotOrders#sampleWithoutReplacement}). */
    static int[] sampleWithoutReplacement(int n, int m, RandomBits bits) {
        return DpotOrders.sampleWithoutReplacement(n, m, bits);
    }
}
