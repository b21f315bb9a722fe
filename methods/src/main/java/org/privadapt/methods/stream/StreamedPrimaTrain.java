package org.privadapt.methods.stream;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.privadapt.data.DataException;
import org.privadapt.data.PublicFacts;
import org.privadapt.data.io.RowChunks;
import org.privadapt.data.preprocess.Preprocessing;
import org.privadapt.math.CompensatedSums;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.PrivateLearners;
import org.privadapt.methods.prima.Partition;
import org.privadapt.methods.prima.Prima;
import org.privadapt.methods.prima.PrimaConfig;
import org.privadapt.methods.prima.SecondMomentRelease;
import org.privadapt.methods.prima.SecondMoments;
import org.privadapt.methods.prima.SourceModel;
import org.privadapt.methods.prima.TargetRelease;
import org.privadapt.models.dp.ClassStatistics;
import org.privadapt.models.dp.SessionRandomness;
import org.privadapt.models.nn.Network;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.ledger.BudgetLedger;

/**
 * PRIMA/PRISA's source training with {@code learner=ncm} or {@code lda} from a file read in blocks, memory one block
 * and the statistics ({@code O(d^2)}), not the rows: the same steps as {@link Prima#train} and the spark module's
 * {@code SparkPrimaTrain}, in two passes over the file.
 * <ol>
 *   <li>Before anything is charged, one pass checks every row as the whole-file loader does, checks every label
 *       against the given classes and sums the source's exact moment statistic ({@link Prima#clipRows} with the
 *       release's partition, then {@link Prima#sourceExact}) block by block with compensated sums.</li>
 *   <li>The plan and its one charge ({@link Prima#sourcePlan}, {@link Prima#chargeSource}), the moments' noise
 *       ({@link Prima#sourceMomentsNoise}) and the per-row map ({@link Prima#sourceAlignment}).</li>
 *   <li>A second pass (the file's SHA-256 must be the first pass's, else it is refused: charged, nothing written, as
 *       a crash after the charge would be) sums per model the class statistics of the clipped, mapped rows
 *       ({@link PrivateLearners#ncmExact} / {@link PrivateLearners#ldaExact}); the noise is the in-process step's
 *       ({@link PrivateLearners#ncmNoise} / {@link PrivateLearners#ldaNoise}), in the same order of draws.</li>
 * </ol>
 * The class set is given (public, never read from the rows). A learner that is not a sum over rows (DP-SGD, DP-GD,
 * the perturbation learners) is refused before anything is charged.
 */
public final class StreamedPrimaTrain {
    private StreamedPrimaTrain() {
    }

    /**
     * The source's model artifact, as {@link Prima#train} makes it from the same rows (labels coded by their position
     * in {@code classes}) with the same seeded noise.
     *
     * @param preprocessing the release's row-local preprocessing (the rows are read and preprocessed block by block)
     * @param declared      the facts the source declared public (their names go into the artifact, as in process)
     * @throws DataException as the whole-file loader would refuse the file, or for a label outside {@code classes}
     */
    public static SourceModel train(RowChunks rows, Preprocessing preprocessing, int chunkRows, TargetRelease release, MethodConfig mc,
                                    List<String> classes, PublicFacts declared, PrivacySession session)
            throws DataException, BudgetExceededException, BudgetLedger.LedgerException {
        return train(rows, preprocessing, chunkRows, release, mc, classes, declared, session, n -> { }).model();
    }

    /** The model and the number of rows read (private: for the party's local checks and its own summary, as in process). */
    public record Trained(SourceModel model, long rows) {
    }

    /**
     * As {@link #train(RowChunks, Preprocessing, int, TargetRelease, MethodConfig, List, PublicFacts, PrivacySession)},
     * calling {@code beforeCharge} with the row count after the first pass and before anything is charged (the CLI's
     * delta policy; it may throw to refuse).
     */
    public static Trained train(RowChunks rows, Preprocessing preprocessing, int chunkRows, TargetRelease release, MethodConfig mc,
                                List<String> classes, PublicFacts declared, PrivacySession session,
                                java.util.function.LongConsumer beforeCharge)
            throws DataException, BudgetExceededException, BudgetLedger.LedgerException {
        if (!rows.labelled()) {
            throw new DataException(rows.file(), null, "domain '" + rows.domain() + "' has no labels, but labels are required here");
        }
        if (rows.dimension() != release.dimension()) {
            throw new DataException(rows.file(), null, "has " + rows.dimension() + " features; the release is for " + release.dimension());
        }
        List<String> names = List.copyOf(classes);
        if (names.isEmpty() || new HashSet<>(names).size() != names.size()) {
            throw new IllegalArgumentException("the class set must be non-empty without repeats, got " + names);
        }
        int k = names.size();
        Map<String, Integer> code = new HashMap<>();
        for (int c = 0; c < k; c++) {
            code.put(names.get(c), c);
        }
        PrimaConfig cfg = release.config();
        Partition partition = release.partition();
        // pass 1: every row checked, every label against the classes, the source's exact moments summed
        List<CompensatedSums> grams = new ArrayList<>();
        for (int b = 0; b < partition.size(); b++) {
            int len = partition.block(b).length;
            grams.add(new CompensatedSums(len * len));
        }
        CompensatedSums sums = new CompensatedSums(partition.dimension());
        long[] count = new long[1];
        String[] outside = new String[2];
        RowChunks.Summary first = rows.scan(chunkRows, preprocessing, chunk -> {
            if (outside[0] != null || codes(chunk, code, outside) == null) {
                return;
            }
            SecondMomentRelease.ExactMoments m = Prima.sourceExact(Prima.clipRows(chunk.features(), cfg, partition), partition);
            for (int b = 0; b < grams.size(); b++) {
                grams.get(b).addAll(m.grams().get(b).data());
            }
            sums.addAll(m.sums());
            count[0] += m.count();
        }, null);
        if (outside[0] != null) {
            throw new DataException(rows.file(), "row " + org.privadapt.data.PrivateText.row(Long.parseLong(outside[1])), "label "
                    + org.privadapt.data.PrivateText.quoted(outside[0]) + " is not one of the classes " + names);
        }
        List<DenseMatrix> g = new ArrayList<>();
        for (int b = 0; b < grams.size(); b++) {
            int len = partition.block(b).length;
            g.add(new DenseMatrix(len, len, grams.get(b).values()));
        }
        SecondMomentRelease.ExactMoments exact = new SecondMomentRelease.ExactMoments(partition, g, sums.values(), count[0]);
        long n = count[0];
        boolean sizePublic = declared.sizePublic() || session.relation() == org.privadapt.privacy.NeighbouringRelation.REPLACE_ONE;
        PrivateLearners.Kind kind = Prima.sourceKind(release, mc, k, sizePublic, session);
        if (kind != PrivateLearners.Kind.NCM && kind != PrivateLearners.Kind.LDA) {
            throw new IllegalArgumentException("learner " + kind.label() + ": streamed, the source trains ncm or lda (class statistics, "
                    + "a sum over rows); give learner=ncm or learner=lda");
        }
        Prima.SourcePlan sp = Prima.sourcePlan(release, mc, kind, (int) Math.min(Integer.MAX_VALUE, n), k, session);
        beforeCharge.accept(n);
        Prima.chargeSource(sp, release, session);
        SecondMoments sm = Prima.sourceMomentsNoise(exact, cfg, sp.momentsMultiplier(), session.relation(), session.noise());
        Prima.SourceAlignment alignment = Prima.sourceAlignment(sm, release);
        PrivateLearners.Plan plan = sp.plan();
        Prima.SourceTransform transform = alignment.transform();
        boolean lda = kind == PrivateLearners.Kind.LDA;
        int groups = sp.groups();
        // pass 2, after the charge, on the same bytes: per model the class statistics of the clipped, mapped rows
        List<CompensatedSums> counts = new ArrayList<>();
        List<CompensatedSums> classSums = new ArrayList<>();
        List<CompensatedSums> moments = new ArrayList<>();
        for (int gi = 0; gi < groups; gi++) {
            int w = transform.groupWidth(gi);
            counts.add(new CompensatedSums(k));
            classSums.add(new CompensatedSums(k * w));
            moments.add(lda ? new CompensatedSums(w * w) : null);
        }
        rows.scan(chunkRows, preprocessing, chunk -> {
            int[] y = codes(chunk, code, outside);
            FeatureMatrix clipped = Prima.clipRows(chunk.features(), cfg, partition);
            List<DenseMatrix> features = transform.blockFeatures(clipped);
            for (int gi = 0; gi < groups; gi++) {
                DenseMatrix x = Prima.SourceTransform.group(features, gi, transform.vote());
                ClassStatistics s = lda ? PrivateLearners.ldaExact(plan, x, y, k) : PrivateLearners.ncmExact(x, y, k);
                counts.get(gi).addAll(s.counts());
                classSums.get(gi).addAll(s.sums().data());
                if (lda) {
                    moments.get(gi).addAll(s.moment().data());
                }
            }
        }, first.sha256());
        List<List<Network>> models = new ArrayList<>();
        for (int gi = 0; gi < groups; gi++) {
            int w = transform.groupWidth(gi);
            ClassStatistics stats = ClassStatistics.ofExact(counts.get(gi).values(), new DenseMatrix(k, w, classSums.get(gi).values()),
                    lda ? new DenseMatrix(w, w, moments.get(gi).values()) : null);
            SessionRandomness rnd = new SessionRandomness(session.noise());
            Network net = lda
                    ? PrivateLearners.ldaNoise(plan, stats, rnd).lda(names, plan.config().param("lda-shrinkage", 0.5), 1.0)
                    : PrivateLearners.ncmNoise(plan, stats, rnd).nearestClassMean(names);
            models.add(List.of(net));
        }
        return new Trained(Prima.sourceModel(release, sp, alignment, models, names, declared.describe(), session), n);
    }

    /** The block's labels coded by the classes; null (and {@code outside} set: the label, its 1-based row) for one outside them. */
    static int[] codes(RowChunks.Chunk chunk, Map<String, Integer> code, String[] outside) {
        String[] labels = chunk.labels();
        int[] y = new int[labels.length];
        for (int a = 0; a < y.length; a++) {
            Integer c = code.get(RowChunks.className(labels[a]));
            if (c == null) {
                outside[0] = labels[a];
                outside[1] = Long.toString(chunk.firstRow() + a + 1);
                return null;
            }
            y[a] = c;
        }
        return y;
    }
}
