package org.privadapt.methods.prima;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.privadapt.data.DataException;
import org.privadapt.data.Dataset;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.methods.artifacts.ArtifactException;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.PrivateLearners;
import org.privadapt.models.nn.Network;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.accounting.Accountants;
import org.privadapt.privacy.events.DpEvent;
import org.privadapt.privacy.events.EventJson;
import org.privadapt.privacy.ledger.BudgetLedger;
import org.privadapt.privacy.mechanisms.GaussianCalibration;
import org.privadapt.privacy.mechanisms.GaussianMechanism;

/**
 * PRIMA and PRISA (Jin et al., IJCAI 2021, paper 000) as three steps, each run by the party that holds the data:
 * <ol>
 *   <li>{@link #release} (target): DP moments, subspaces, PSD recovery, the release artifact;</li>
 *   <li>{@link #train} (source): its own DP moments, per-subspace CORAL or SA, DP-SGD, the model artifact;</li>
 *   <li>{@link #predict} (target): the model applied to the target's rows.</li>
 * </ol>
 * See docs/privacy/prima.md for the privacy analysis as implemented, and where it departs from the paper's.
 *
 * <p>This class holds the public entry points and types of the three steps and the row clipping both parties share.
 * The target's release is computed by {@link PrimaTarget}, the source's training by {@link PrimaSource}, and the
 * standardisation and shrinking both use by {@link PrimaScaling} (all package-private).
 */
public final class Prima {
    private Prima() {
    }

    // ------------------------------------------------------------------ target: release

    /**
     * The target's release. Its whole cost is charged to {@code session} before any noise is drawn: with forward
     * selection two Gaussian releases (the full moments for the selection, the subspace moments) whose noise
     * multipliers split the precision {@code 1/s^2} of the single Gaussian that meets the session's target
     * (epsilon, delta) exactly (Gaussian compositions are Gaussian); without it, one release.
     *
     * @param target        the target's rows, already preprocessed row-locally with {@code preprocessing}
     */
    public static TargetRelease release(Dataset target, PrimaConfig cfg, String preprocessing, String method, long seed,
                                        String runId, PrivacySession session)
            throws DataException, BudgetExceededException, BudgetLedger.LedgerException {
        return release(noisyMoments(target, cfg, method, seed, session), cfg, preprocessing, method, runId, session);
    }

    /**
     * The target release's plan for {@code d} features (what {@link #noisyMoments} charges in one atomic charge): from
     * public settings and the session's target only, so that it can be checked against the party's ledger before any
     * row is read.
     */
    public static java.util.List<PrivacySession.Release> targetPlan(PrimaConfig cfg, String method, int d, PrivacySession session) {
        return PrimaTarget.plan(cfg, method, d, session);
    }

    /**
     * The target's release from noisy moments drawn by {@link #noisyMoments} (in process or over a {@link MomentSource}
     * such as the spark module's): post-processing of them and public settings only.
     */
    public static TargetRelease release(NoisyMoments noisy, PrimaConfig cfg, String preprocessing, String method, String runId,
                                        PrivacySession session) {
        return PrimaTarget.release(noisy, cfg, preprocessing, method, runId, session);
    }

    /**
     * The target's DP releases before any post-processing: charges the whole plan to {@code session}, then draws the
     * stage-1 moments (forward selection) and the stage-2 subspace moments. Everything {@link #release} publishes is
     * computed from these alone (and public settings); {@code privadapt audit --release prima-target} attacks them.
     */
    public static NoisyMoments noisyMoments(Dataset target, PrimaConfig cfg, String method, long seed, PrivacySession session)
            throws DataException, BudgetExceededException, BudgetLedger.LedgerException {
        target.requireNonEmpty().requireFinite();
        org.privadapt.methods.core.Disclosures.require(target, session, "the target's release",
                org.privadapt.methods.core.Disclosures.Fact.SCHEMA);
        return noisyMoments(inProcess(target.features(), cfg), cfg, method, seed, session);
    }

    /**
     * Where the target's exact moments come from: the rows clipped to the config's R, then (for a partition with block
     * bounds) per block, summed into {@link SecondMomentRelease.ExactMoments}. The in-process source is
     * {@link #inProcess}; the spark module sums the same row-local clipping ({@link #clipRow}) on a cluster. A source
     * has already checked that its rows are non-empty and finite, and that its layout may be carried.
     */
    public interface MomentSource {
        /** The number of features d (public: the layout is declared or given). */
        int dimension();

        /**
         * The exact moments over {@code partition} of the rows clipped to R and then, when {@code blockBounds} is not
         * null, each block to its bound.
         */
        SecondMomentRelease.ExactMoments moments(Partition partition, double[] blockBounds);
    }

    /**
     * The moments {@link Prima#noisyMoments(MomentSource, PrimaConfig, String, long, PrivacySession)} asks its source for
     * first with {@code cfg} and {@code seed}: the final partition and its block bounds for single and random
     * partitions (public: the partition comes from the seed), the full moments (one block, no bounds) for forward
     * selection. A source that must read its rows before the charge anyway (a file to check, a Spark table) sums these
     * in that same pass and answers this ask from them ({@link Prima#answeringFirst}).
     */
    public record FirstAsk(Partition partition, double[] blockBounds) {
        /** The ask for {@code cfg} and {@code seed} over {@code d} features. */
        public static FirstAsk of(PrimaConfig cfg, int d, long seed) {
            return switch (cfg.partitioning()) {
                case SINGLE -> {
                    Partition p = Partition.single(d);
                    yield new FirstAsk(p, cfg.blockBounds(p));
                }
                case RANDOM -> {
                    Partition p = Partition.random(d, cfg.blockSize(), seed);
                    yield new FirstAsk(p, cfg.blockBounds(p));
                }
                default -> new FirstAsk(Partition.single(d), null);
            };
        }

        /** Whether an ask for {@code partition} and {@code bounds} is this one (the same blocks, the same bounds). */
        public boolean is(Partition partition, double[] bounds) {
            if (partition.dimension() != this.partition.dimension() || partition.size() != this.partition.size()
                    || !Arrays.equals(bounds, blockBounds)) {
                return false;
            }
            for (int i = 0; i < partition.size(); i++) {
                if (!Arrays.equals(partition.block(i), this.partition.block(i))) {
                    return false;
                }
            }
            return true;
        }
    }

    /**
     * A source that answers {@code ask} with {@code first} (moments already summed for it) and any other ask from
     * {@code rest}.
     */
    public static MomentSource answeringFirst(FirstAsk ask, SecondMomentRelease.ExactMoments first, MomentSource rest) {
        return PrimaTarget.answeringFirst(ask, first, rest);
    }

    /** The in-process source: the rows of one matrix, clipped as {@link #noisyMoments} has always clipped them. */
    public static MomentSource inProcess(FeatureMatrix features, PrimaConfig cfg) {
        return PrimaTarget.inProcess(features, cfg);
    }

    /**
     * {@link #noisyMoments(Dataset, PrimaConfig, String, long, PrivacySession)} on moments summed by {@code source}:
     * the same plan, the same single charge before any noise, the same noise steps in the same order of draws. The
     * caller has made the checks on the data (non-empty, finite, the layout's disclosure) that the dataset overload
     * makes.
     */
    public static NoisyMoments noisyMoments(MomentSource source, PrimaConfig cfg, String method, long seed, PrivacySession session)
            throws BudgetExceededException, BudgetLedger.LedgerException {
        return PrimaTarget.noisyMoments(source, cfg, method, seed, session);
    }

    /** The target's noisy moments, the partition they were released over, and the two stages' noise. */
    public record NoisyMoments(Partition partition, SecondMoments moments, double stage1NoiseStd, GaussianMechanism stage2) {
    }

    // ------------------------------------------------------------------ source: train

    /**
     * The source's training. Charges, before drawing any noise, its own moment release (share {@code sourceShare}
     * of its epsilon) and the DP-SGD run(s) calibrated so the composition stays within its (epsilon, delta).
     *
     * @param source the source's labelled rows, preprocessed row-locally with the release's preprocessing
     * @throws DataException if the source's data do not fit the release (dimension)
     */
    public static SourceModel train(Dataset source, TargetRelease release, MethodConfig mc, PrivacySession session)
            throws DataException, ArtifactException, BudgetExceededException, BudgetLedger.LedgerException {
        return PrimaSource.train(source, release, mc, session);
    }

    /**
     * The source's learner for {@code k} classes (public: the configuration, the release's partition, k, epsilon and
     * whether n is public); the caller checks its disclosures ({@link PrivateLearners#requireDisclosures}) next.
     */
    public static PrivateLearners.Kind sourceKind(TargetRelease release, MethodConfig mc, int k, boolean sizePublic,
                                                  PrivacySession session) {
        return PrivateLearners.kind(mc, learnerDimension(release.config(), release.partition()), k, session.target().epsilon(),
                sizePublic);
    }

    /**
     * The source's plan: its moment release's multiplier, the learner's plan for the composition, and how many models
     * (one per block when voting, one per class when one-vs-rest with a gradient learner).
     */
    public record SourcePlan(PrivateLearners.Kind kind, double momentsMultiplier, PrivateLearners.Plan plan, int groups,
                             boolean oneVsRest, int runs) {
    }

    /** Plans {@link #train}'s releases for n rows (n is used by the gradient learners only) and k classes. */
    public static SourcePlan sourcePlan(TargetRelease release, MethodConfig mc, PrivateLearners.Kind kind, int n, int k,
                                        PrivacySession session) {
        return PrimaSource.sourcePlan(release, mc, kind, n, k, 0, session);
    }

    /** Charges the source's moments and model(s) as one atomic charge: a refusal leaves nothing spent (issue 14). */
    public static void chargeSource(SourcePlan sp, TargetRelease release, PrivacySession session)
            throws BudgetExceededException, BudgetLedger.LedgerException {
        PrimaSource.chargeSource(sp, release, session);
    }

    /**
     * The source's per-row map given its noisy moments and the target's release (post-processing of DP outputs):
     * standardise with the released mean and standard deviations, then per block the CORAL or SA map from the source's
     * shrunk block covariance to the target's. Row-local, so it may run where the rows are
     * ({@link SourceTransform#blockFeatures}). With the target's SA bases, which the model carries.
     */
    public record SourceAlignment(SourceTransform transform, List<DenseMatrix> targetBases) {
    }

    /** {@link SourceAlignment} from the source's noisy moments {@code sm} and the target's release. */
    public static SourceAlignment sourceAlignment(SecondMoments sm, TargetRelease release) {
        return PrimaSource.sourceAlignment(sm, release);
    }

    /**
     * The source's row map as plain arrays (serializable: an engine ships it to where the rows are): standardisation
     * ({@code (x - mean) / sd} when on), then per block its columns times the block's map (d_b x k_b, column-major).
     */
    public record SourceTransform(boolean standardize, double[] mean, double[] inverseSd, int[][] blocks, int[] mapColumns,
                                  double[][] maps, boolean vote) implements java.io.Serializable {
        /** One model per block when voting, else one on the blocks' features side by side. */
        public int groups() {
            return vote ? blocks.length : 1;
        }

        /** Each block's features of {@code clippedRows} (clipped by {@link #clipRows} / {@link #clipRow}). */
        public List<DenseMatrix> blockFeatures(FeatureMatrix clippedRows) {
            DenseMatrix d = clippedRows.toDense();
            DenseMatrix z = standardize ? d.minusRowVector(mean).scaleColumnsCopy(inverseSd) : d;
            List<DenseMatrix> out = new ArrayList<>();
            for (int b = 0; b < blocks.length; b++) {
                DenseMatrix map = new DenseMatrix(blocks[b].length, mapColumns[b], maps[b].clone());
                out.add(z.selectColumns(blocks[b]).multiply(map));
            }
            return out;
        }

        /** Group {@code g}'s features: block g's when voting, else all blocks' side by side. */
        public static DenseMatrix group(List<DenseMatrix> blockFeatures, int g, boolean vote) {
            return vote ? blockFeatures.get(g) : concat(blockFeatures);
        }

        /** The number of features of group {@code g} (public: the partition and the configuration). */
        public int groupWidth(int g) {
            if (vote) {
                return mapColumns[g];
            }
            int w = 0;
            for (int c : mapColumns) {
                w += c;
            }
            return w;
        }

        /** Group {@code g}'s features of one clipped row. */
        /** Group g's features of clipped rows, a block at a time (as {@link #rowFeatures} row by row, by matrix products). */
        public DenseMatrix rowsFeatures(DenseMatrix clippedRows, int g) {
            return group(blockFeatures(clippedRows), g, vote);
        }

        public double[] rowFeatures(double[] clippedRow, int g) {
            return group(blockFeatures(new DenseMatrix(1, clippedRow.length, clippedRow.clone())), g, vote).row(0);
        }
    }

    /** The model artifact of {@link #train} from its parts ({@code declaredPublic}: the facts the source declared). */
    public static SourceModel sourceModel(TargetRelease release, SourcePlan sp, SourceAlignment alignment, List<List<Network>> models,
                                          List<String> classNames, List<String> declaredPublic, PrivacySession session) {
        return PrimaSource.sourceModel(release, sp, alignment, models, classNames, false, declaredPublic, session);
    }

    /**
     * The noise multiplier of the source's own moment release: the analytic Gaussian for the share
     * {@code sourceShare} of the session's epsilon (public: settings and the target only). {@link #train} charges it
     * with the model(s) in one atomic charge.
     */
    public static double sourceMomentsMultiplier(PrimaConfig cfg, PrivacySession session) {
        double eps = session.target().epsilon() * (1 - 1e-9);
        return GaussianCalibration.analyticSigma(cfg.sourceShare() * eps, session.target().delta(), 1.0);
    }

    /**
     * The exact statistic of the source's moment release over the release's partition, from the source's rows already
     * clipped by {@link #clipRows} with that partition (row bound R, then each block to its bound; row by row:
     * {@link #clipRow} with {@code cfg.blockBounds(partition)}). An engine that sums the rows elsewhere (the spark
     * module) builds the same {@link SecondMomentRelease.ExactMoments} itself.
     */
    public static SecondMomentRelease.ExactMoments sourceExact(FeatureMatrix clippedRows, Partition partition) {
        return SecondMomentRelease.exactStatistic(clippedRows, partition);
    }

    /**
     * The source's moment release's noise step on its exact statistic: one Gaussian mechanism of multiplier
     * {@code noiseMultiplier} ({@link #sourceMomentsMultiplier}) on the release's sensitivity for the partition's block
     * bounds ({@link SecondMomentRelease#addNoise}: blocks, sums, count, in that order of draws). It charges nothing:
     * the plan and its charge are the caller's ({@link #train} charges it with the model(s) before any noise).
     */
    public static SecondMoments sourceMomentsNoise(SecondMomentRelease.ExactMoments exact, PrimaConfig cfg, double noiseMultiplier,
                                                   NeighbouringRelation rel, org.privadapt.privacy.noise.NoiseSource noise) {
        return PrimaSource.sourceMomentsNoise(exact, cfg, noiseMultiplier, rel, noise);
    }

    /** The dimension of the features the source's learner sees (per group when voting): public, from the config. */
    static int learnerDimension(PrimaConfig cfg, Partition partition) {
        return PrimaSource.learnerDimension(cfg, partition);
    }

    // ------------------------------------------------------------------ target: predict

    /** The model's predictions for the target's rows (preprocessed as the model says). */
    public static int[] predict(SourceModel model, Dataset target) throws DataException {
        if (target.dimension() != model.dimension()) {
            throw new DataException(target.firstFile(), null, "has " + target.dimension() + " features; the model is for "
                    + model.dimension());
        }
        return model.predict(target.features());
    }

    /** A multi-label model's 0/1 predictions (rows x labels) for the target's rows (preprocessed as the model says). */
    public static int[][] predictLabels(SourceModel model, Dataset target) throws DataException {
        if (target.dimension() != model.dimension()) {
            throw new DataException(target.firstFile(), null, "has " + target.dimension() + " features; the model is for "
                    + model.dimension());
        }
        return model.predictLabels(target.features());
    }

    // ------------------------------------------------------------------ shared helpers

    /** Row clipping to R, then (when a partition is given) per-block clipping to the blocks' bounds: row-local. */
    public static FeatureMatrix clipRows(FeatureMatrix x, PrimaConfig cfg, Partition partition) {
        FeatureMatrix rows = BlockClipping.clip(x, Partition.single(x.cols()), cfg.rowBound());
        return partition == null ? rows : BlockClipping.clip(rows, partition, cfg.blockBounds(partition));
    }

    /**
     * One row as {@link #clipRows} followed by {@link BlockClipping#clip} map it (row-local): scaled to L2 norm at most
     * R, then, when {@code blockBounds} is not null, each block of {@code partition} scaled to its bound. A new array;
     * the arithmetic is the dense in-process path's, entry for entry.
     *
     * @param blockOf the block of each feature ({@link #blockIndex}), or null with {@code blockBounds} null
     */
    public static double[] clipRow(double[] row, double rowBound, int[] blockOf, double[] blockBounds) {
        double[] out = BlockClipping.clipRow(row, new int[row.length], new double[] {rowBound});
        return blockBounds == null ? out : BlockClipping.clipRow(out, blockOf, blockBounds);
    }

    /**
     * {@link #clipRow} on a row held by its non-zeros ({@code values[from..to)} at the increasing columns
     * {@code cols[from..to)}), in place: the dense row's clipped values at those columns.
     */
    public static void clipEntriesInPlace(double[] values, int[] cols, int from, int to, double rowBound, int[] blockOf,
                                          double[] blockBounds) {
        BlockClipping.clipEntriesInPlace(values, cols, from, to, null, new double[] {rowBound});
        if (blockBounds != null) {
            BlockClipping.clipEntriesInPlace(values, cols, from, to, blockOf, blockBounds);
        }
    }

    /** The block of each feature under a partition (for {@link #clipRow}). */
    public static int[] blockIndex(Partition p) {
        return BlockClipping.blockIndex(p);
    }

    static PsdShrinking.Result shrink(DenseMatrix c, PrimaConfig cfg) {
        return PrimaScaling.shrink(c, cfg);
    }

    /** Standard deviations from DP variances, floored at a fraction of the median positive variance; 1 when off. */
    static double[] standardDeviations(SecondMoments m, PrimaConfig cfg) {
        return PrimaScaling.standardDeviations(m, cfg);
    }

    /** {@code D^-1/2 C D^-1/2} for the block's standard deviations (the covariance of standardised features). */
    static DenseMatrix scaled(DenseMatrix cov, int[] idx, double[] sd) {
        return PrimaScaling.scaled(cov, idx, sd);
    }

    /** Rows standardised with the given (DP) mean and sd, when the settings ask for it; dense. */
    static DenseMatrix standardized(FeatureMatrix x, double[] mean, double[] sd, PrimaConfig cfg) {
        return PrimaScaling.standardized(x, mean, sd, cfg);
    }

    static DenseMatrix concat(List<DenseMatrix> blocks) {
        return PrimaScaling.concat(blocks);
    }

    /** The privacy statement of an artifact: the party's target, what it charged, and how the noise was drawn. */
    public static ObjectNode statement(PrivacySession session, String party, double delta) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("party", party);
        o.put("epsilon", session.target().epsilon());
        o.put("delta", delta);
        o.put("relation", session.relation().id());
        Accountants.Certified c = Accountants.certify(session.relation(),
                new org.privadapt.privacy.events.ComposedEvent(session.events()), delta);
        o.put("epsilon_spent", c == null ? Double.POSITIVE_INFINITY : c.epsilon());
        o.put("accountant", c == null ? "none" : c.accountant());
        ArrayNode ev = o.putArray("events");
        for (DpEvent e : session.events()) {
            ev.add(EventJson.write(e));
        }
        o.put("sampler", session.noise().samplerDescription());
        o.put("private", session.isPrivate());
        if (!session.isPrivate()) {
            o.put("warning", "seeded noise: NOT differentially private");
        }
        return o;
    }

    /** Diagnostics of a release, for reports. */
    static Map<String, Object> describe(TargetRelease r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("subspaces", r.partition().size());
        m.put("largest_subspace", r.partition().largestBlock());
        double meanAlpha = Arrays.stream(r.shrinkAlphas()).average().orElse(0);
        m.put("mean_shrink_alpha", meanAlpha);
        m.put("stage2_noise_std", r.privacy().path("stage2_noise_std").asDouble());
        return m;
    }
}
