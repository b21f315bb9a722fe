package org.privadapt.methods.dpot;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.math.ot.BarycentricMapping;
import org.privadapt.math.ot.CostMatrices;
import org.privadapt.math.ot.Coupling;
import org.privadapt.math.ot.GroupLassoOt;
import org.privadapt.math.ot.SinkhornOptions;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.accounting.NoiseCalibration;
import org.privadapt.privacy.accounting.PrivacyAccountant;
import org.privadapt.privacy.accounting.RdpAccountant;
import org.privadapt.privacy.events.ComposedEvent;
import org.privadapt.privacy.events.DpEvent;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.events.PoissonSampledRowsEvent;
import org.privadapt.privacy.events.SelfComposedEvent;
import org.privadapt.privacy.ledger.BudgetLedger;
import org.privadapt.privacy.mechanisms.GaussianMechanism;
import org.privadapt.privacy.mechanisms.LaplaceMechanism;
import org.privadapt.privacy.mechanisms.Sensitivities;
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
        NeighbouringRelation rel = session.relation();
        if (rel != NeighbouringRelation.REPLACE_ONE) {
            throw new IllegalArgumentException("DPOT releases one row per source record, so the number of rows reveals n_s: it is "
                    + "differentially private under replace-one neighbours only (use --relation replace)");
        }
        int q = classNames.size();
        if (n < 1 || y.length != n) {
            throw new IllegalArgumentException("need one label per source row (" + n + " rows, " + y.length + " labels)");
        }
        for (int v : y) {
            if (v < 0 || v >= q) {
                throw new IllegalArgumentException("label code " + v + " outside 0.." + (q - 1));
            }
        }
        int l = cfg.projectionDim(k);
        NoiseSource noise = session.noise();
        JlProjection proj = JlProjection.draw(k, l, noise); // data-independent, published
        double dRows = rowSensitivity(cfg, proj, q);
        double eps = session.target().epsilon();
        double delta = session.target().delta();
        List<DpotRelease.Batch> batches = new ArrayList<>();
        ObjectNode extra = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        // n x l, the rows clipped at the record level; rows are selected and ordered below
        DenseMatrix projected = projector.project(proj.matrix(), cfg.level() == DpotConfig.Level.RECORD ? cfg.clip() : Double.NaN);
        if (projected.rows() != n || projected.cols() != l) {
            throw new IllegalStateException("the projection gave " + projected.rows() + " x " + projected.cols() + ", expected "
                    + n + " x " + l);
        }
        double rowNoise;
        if (!cfg.minibatch()) {
            LaplaceMechanism lap = new LaplaceMechanism(cfg.labelShare() * eps, Sensitivities.histogramL1(rel), rel);
            double s;
            if (Double.isNaN(cfg.noiseRatio())) {
                // calibrated with the RDP accountant (fast); the spend is then certified by the tightest accountant
                java.util.function.DoubleFunction<DpEvent> family = v -> ComposedEvent.of(new GaussianEvent(v), lap.event());
                s = NoiseCalibration.smallest(family, new RdpAccountant(rel, RdpAccountant.DEFAULT_ORDERS, w -> { }),
                        eps * (1 - 1e-9), delta, "DPOT whole-batch release");
            } else {
                s = cfg.noiseRatio();
            }
            GaussianMechanism gm = GaussianMechanism.forNoiseMultiplier(s, dRows, rel, (long) n * l);
            // one charge for both releases, so that a refusal leaves nothing recorded
            session.charge("dpot source: label histogram and JL release", "Laplace (label counts, L1 sensitivity " + lap.sensitivity()
                    + ") + Gaussian (rows X M ordered by label, " + n + " x " + l + ")", ComposedEvent.of(lap.event(), gm.event()),
                    Map.of("label_epsilon", lap.epsilon(), "classes", q, "noise_multiplier", s, "sensitivity", dRows,
                            "level", cfg.level().name().toLowerCase(java.util.Locale.ROOT)));
            int[] order = labelOrder(allRows(n), y, q, noise.bits());
            DenseMatrix sel = projected.selectRows(order);
            double[] noisy = gm.releaseVector(sel.data(), noise);
            int[] counts = new int[q];
            for (int v : y) {
                counts[v]++;
            }
            double[] noisyCounts = lap.releaseVector(toDouble(counts), noise);
            batches.add(new DpotRelease.Batch(new DenseMatrix(n, l, noisy), validCounts(noisyCounts, n)));
            rowNoise = gm.sigma();
            extra.put("label_laplace_scale", lap.sensitivity() / lap.epsilon());
            extra.put("noise_multiplier", s);
        } else {
            double qRate = Math.min(1.0, (double) cfg.batch() / n);
            RdpAccountant rdp = new RdpAccountant(rel, RdpAccountant.DEFAULT_ORDERS, w -> { });
            double dJoint = Math.sqrt(2) * dRows;
            long steps;
            double s;
            if (!Double.isNaN(cfg.noiseRatio())) {
                s = cfg.noiseRatio() / Math.sqrt(2); // sigma = ratio * Delta_rows, joint sensitivity sqrt2 Delta_rows
                steps = cfg.batches() > 0 ? cfg.batches() : maxSteps(s, qRate, rdp, eps, delta);
                if (steps < 1) {
                    throw new BudgetExceededException("a noise ratio of " + cfg.noiseRatio() + " does not allow even one batch within epsilon "
                            + eps + " at delta " + delta);
                }
            } else {
                steps = cfg.batches() > 0 ? cfg.batches() : (long) Math.ceil((double) n / cfg.batch());
                final long st = steps;
                s = NoiseCalibration.smallest(v -> minibatchEvent(v, qRate, st), rdp, eps * (1 - 1e-9), delta,
                        steps + " DPOT minibatch releases");
            }
            // per batch: m x l rows plus q counts; the largest batch is n rows
            GaussianMechanism gm = GaussianMechanism.forNoiseMultiplier(s, dJoint, rel, (long) n * l + q);
            DpEvent event = new SelfComposedEvent(new PoissonSampledRowsEvent(qRate, gm.event()), steps);
            session.charge("dpot source: JL minibatch releases", "Gaussian (Poisson batches of rows X_b M and label counts, "
                    + steps + " batches, q=" + qRate + ")", event,
                    Map.of("noise_multiplier", s, "row_sensitivity", dRows, "batches", steps, "sampling_rate", qRate));
            double tau = dRows / Math.sqrt(2);
            for (long t = 0; t < steps; t++) {
                int[] sample = poissonSample(n, qRate, noise);
                int[] order = labelOrder(sample, y, q, noise.bits());
                DenseMatrix sel = projected.selectRows(order);
                int[] counts = new int[q];
                for (int i : order) {
                    counts[y[i]]++;
                }
                double[] joint = new double[order.length * l + q];
                System.arraycopy(sel.data(), 0, joint, 0, order.length * l);
                for (int c = 0; c < q; c++) {
                    joint[order.length * l + c] = tau * counts[c];
                }
                double[] noisy = gm.releaseVector(joint, noise);
                double[] noisyCounts = new double[q];
                for (int c = 0; c < q; c++) {
                    noisyCounts[c] = noisy[order.length * l + c] / tau;
                }
                batches.add(new DpotRelease.Batch(new DenseMatrix(order.length, l, Arrays.copyOf(noisy, order.length * l)),
                        validCounts(noisyCounts, order.length)));
            }
            rowNoise = gm.sigma();
            extra.put("count_noise_std", gm.sigma() / tau);
            extra.put("noise_multiplier", s);
            extra.put("sampling_rate", qRate);
            extra.put("batches", steps);
        }
        ObjectNode privacy = org.privadapt.methods.prima.Prima.statement(session, "source", delta);
        privacy.put("level", cfg.level().name().toLowerCase(java.util.Locale.ROOT));
        privacy.put("row_sensitivity", dRows);
        privacy.put("row_noise_std", rowNoise);
        privacy.put("projection_max_row_norm", proj.maxRowNorm());
        privacy.put("projection_spectral_norm", proj.spectralNorm());
        privacy.put("guarantee", guarantee(cfg));
        double ratio = classMeanNoiseToSignal(cfg, preprocessing, rowNoise, l, proj.spectralNorm(), n, q);
        if (Double.isFinite(ratio)) {
            privacy.put("class_mean_noise_to_signal", ratio);
        }
        privacy.setAll(extra);
        String created = java.time.Instant.now().toString();
        DpotRelease r = new DpotRelease(runId, cfg, preprocessing, List.copyOf(classNames), proj.matrix(), rowNoise, batches, privacy,
                created, null);
        String checksum = r.toArtifact().seal();
        return new DpotRelease(runId, cfg, preprocessing, List.copyOf(classNames), proj.matrix(), rowNoise, batches, privacy, created,
                checksum);
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

    static DpEvent minibatchEvent(double s, double q, long steps) {
        return new SelfComposedEvent(new PoissonSampledRowsEvent(q, new GaussianEvent(s)), steps);
    }

    /** The largest number of batches whose composition stays within (eps, delta) at noise multiplier s (0 if none). */
    static long maxSteps(double s, double q, PrivacyAccountant acc, double eps, double delta) {
        if (acc.epsilon(minibatchEvent(s, q, 1), delta) > eps) {
            return 0;
        }
        long lo = 1, hi = 2;
        while (acc.epsilon(minibatchEvent(s, q, hi), delta) <= eps) {
            lo = hi;
            hi *= 2;
            if (hi > 1L << 30) {
                return lo;
            }
        }
        while (hi - lo > 1) {
            long mid = (lo + hi) >>> 1;
            if (acc.epsilon(minibatchEvent(s, q, mid), delta) <= eps) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
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

    private static int[] allRows(int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        return a;
    }

    /** Poisson sample: each index independently with probability q (exact Bernoulli draws). */
    static int[] poissonSample(int n, double q, NoiseSource noise) {
        int[] out = new int[n];
        int m = 0;
        for (int i = 0; i < n; i++) {
            if (q >= 1 || noise.bernoulli(q)) {
                out[m++] = i;
            }
        }
        return Arrays.copyOf(out, m);
    }

    /** The given indices grouped by label (class 0 first), in a uniformly random order within each class. */
    static int[] labelOrder(int[] idx, int[] y, int q, RandomBits bits) {
        int[] shuffled = idx.clone();
        for (int i = shuffled.length - 1; i > 0; i--) { // Fisher-Yates
            int j = bits.nextInt(i + 1);
            int t = shuffled[i];
            shuffled[i] = shuffled[j];
            shuffled[j] = t;
        }
        int[] out = new int[idx.length];
        int p = 0;
        for (int c = 0; c < q; c++) {
            for (int i : shuffled) {
                if (y[i] == c) {
                    out[p++] = i;
                }
            }
        }
        return out;
    }

    private static double[] toDouble(int[] a) {
        double[] d = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            d[i] = a[i];
        }
        return d;
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
        FeatureMatrix xt = targetRows(xtRaw, r.config());
        if (xt.cols() != r.inputDim()) {
            throw new IllegalArgumentException("the target has " + xt.cols() + " features, the release was made for " + r.inputDim());
        }
        DpotConfig cfg = r.config();
        int l = r.outputDim();
        DenseMatrix xtDense = xt.toDense();
        DenseMatrix xtProj = xt.multiply(r.projection());
        double bias = l * r.rowNoiseStd() * r.rowNoiseStd();
        List<double[]> images = new ArrayList<>();
        List<Integer> labels = new ArrayList<>();
        int zeroMass = 0;
        int nt = xt.rows();
        SinkhornOptions inner = SinkhornOptions.defaults();
        for (DpotRelease.Batch b : r.batches()) {
            if (b.rows().rows() == 0) {
                continue;
            }
            int[] sel = cfg.minibatch() ? sampleWithoutReplacement(nt, Math.min(nt, cfg.batch()), bits) : allRows(nt);
            DenseMatrix cost = CostMatrices.squaredEuclidean(b.rows(), xtProj.selectRows(sel));
            normaliseInPlace(cost, bias);
            int[] ys = b.labels();
            if (targetLabels != null) {
                int[] yt = new int[sel.length];
                for (int j = 0; j < sel.length; j++) {
                    yt[j] = targetLabels[sel[j]];
                }
                cost = CostMatrices.maskDifferentLabels(cost, ys, yt);
            }
            Coupling g = GroupLassoOt.solve(CostMatrices.uniform(ys.length), CostMatrices.uniform(sel.length), cost, ys,
                    cfg.regEntropic(), cfg.regGroup(), cfg.outer(), inner);
            DenseMatrix img = BarycentricMapping.map(g.plan(), xtDense.selectRows(sel));
            boolean[] zero = new boolean[ys.length];
            for (int i : BarycentricMapping.zeroMassRows(g.plan())) {
                zero[i] = true;
                zeroMass++;
            }
            for (int i = 0; i < ys.length; i++) {
                if (!zero[i]) {
                    images.add(img.row(i));
                    labels.add(ys[i]);
                }
            }
        }
        DenseMatrix x = DenseMatrix.fromRows(images.toArray(new double[0][]));
        Map<String, Object> diag = new LinkedHashMap<>();
        diag.put("released_rows", r.releasedRows());
        diag.put("batches", r.batches().size());
        diag.put("transported_rows", images.size());
        diag.put("zero_mass_rows", zeroMass);
        diag.put("projection_dim", l);
        diag.put("row_noise_std", r.rowNoiseStd());
        return new Transported(x, labels.stream().mapToInt(Integer::intValue).toArray(), diag);
    }

    /**
     * Subtracts the noise bias l sigma^2 (a constant shift: it changes the transport cost estimate, not the coupling)
     * and maps the cost affinely onto [0, 1], so that the regularisation weights mean the same on every problem.
     */
    static void normaliseInPlace(DenseMatrix c, double bias) {
        double[] a = c.data();
        double lo = Double.POSITIVE_INFINITY, hi = Double.NEGATIVE_INFINITY;
        for (double v : a) {
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
        }
        double span = hi - lo > 0 ? hi - lo : 1.0;
        for (int i = 0; i < a.length; i++) {
            a[i] = (a[i] - lo) / span;
        }
    }

    static int[] sampleWithoutReplacement(int n, int m, RandomBits bits) {
        int[] a = allRows(n);
        for (int i = 0; i < m; i++) {
            int j = i + bits.nextInt(n - i);
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
        return Arrays.copyOf(a, m);
    }
}
