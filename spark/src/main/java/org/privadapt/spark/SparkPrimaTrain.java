package org.privadapt.spark;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.catalyst.InternalRow;
import org.privadapt.data.PublicFacts;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.AdaSspRowMap;
import org.privadapt.methods.core.PrivateLearners;
import org.privadapt.models.dp.AdaSsp;
import org.privadapt.methods.prima.Prima;
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
 * PRIMA's (and PRISA's) <b>source training</b> on Spark for the learners that train by sums ({@code ncm}, {@code lda},
 * {@code adassp}, whose mapped rows are then projected and bounded by {@link AdaSspRowMap} on the executor too):
 * {@link Prima#train} with its three row passes where the rows are. (1) The source's own moments
 * ({@link SparkPrimaSource}); (2) on the driver, from them and the target's release, the per-row map
 * ({@link Prima#sourceAlignment}: standardise, per block the CORAL/SA map), a post-processing of DP outputs shipped to
 * the executors as plain arrays; (3) per model (one, or one per block when voting) the class statistics of the mapped
 * rows, each row clipped by {@link Prima#clipRow} then mapped by {@link Prima.SourceTransform#rowFeatures} on the
 * executor, summed by {@link SparkClassStatistics}, the noise drawn on the driver by the in-process step
 * ({@link PrivateLearners#ncmNoise}, {@link PrivateLearners#ldaNoise}). The plan, the one atomic charge and the artifact
 * are the in-process code's ({@link Prima#sourcePlan}, {@link Prima#chargeSource}, {@link Prima#sourceModel}).
 *
 * <p>The class set is given ({@code classes}: public, never read from the rows; a label outside it is refused before
 * anything is charged), and the layout is the named columns (public). A gradient learner (dp-sgd, dp-gd, through
 * {@code learner=auto} or given) trains on the mapped rows where they are ({@link SparkDpSgd#train}: each step's
 * Poisson batch sampled on the driver from the session's noise, its clipped sum on the executors); it needs n public
 * (declared, or replace-one), as in process, and one network per group (one-vs-rest runs in process). The
 * perturbation learners are refused before anything is charged: they are not sums.
 */
public final class SparkPrimaTrain {
    private SparkPrimaTrain() {
    }

    /**
     * The source's model artifact, as {@link Prima#train} makes it in process from the same rows (labels coded by their
     * position in {@code classes}) with the same seeded noise.
     *
     * @param declared the facts the source declared public (their names go into the artifact, as in process)
     */
    public static SourceModel train(SparkTable source, TargetRelease release, MethodConfig mc, List<String> classes,
                                    PublicFacts declared, PrivacySession session)
            throws BudgetExceededException, BudgetLedger.LedgerException {
        return train(source, source, release, mc, classes, declared, session);
    }

    /**
     * As {@link #train(SparkTable, TargetRelease, MethodConfig, List, PublicFacts, PrivacySession)}, with the same rows
     * also as the aggregates read them ({@code aggregated}: a features column's raw vectors preprocessed block by block
     * inside each aggregate, {@link SparkTable#withBlockMap}): the checks, the moments and ncm's and lda's class
     * statistics (the rows clipped and mapped where they are, {@link RowAggregation.RowMap}) read {@code aggregated};
     * the gradient learners, which cache the mapped rows, read {@code source}.
     */
    public static SourceModel train(SparkTable source, SparkTable aggregated, TargetRelease release, MethodConfig mc,
                                    List<String> classes, PublicFacts declared, PrivacySession session)
            throws BudgetExceededException, BudgetLedger.LedgerException {
        return train(source, aggregated, release, mc, classes, declared, session, -1);
    }

    /**
     * As {@link #train(SparkTable, SparkTable, TargetRelease, MethodConfig, List, PublicFacts, PrivacySession)}; with
     * {@code checkedRows >= 0} the caller has already checked the rows and their labels against {@code classes} in one
     * pass ({@link SparkTable#checkClasses}) and counted them, so no check pass is made here.
     */
    public static SourceModel train(SparkTable source, SparkTable aggregated, TargetRelease release, MethodConfig mc,
                                    List<String> classes, PublicFacts declared, PrivacySession session, long checkedRows)
            throws BudgetExceededException, BudgetLedger.LedgerException {
        if (aggregated.dimension() != source.dimension() || aggregated.labelled() != source.labelled()) {
            throw new IllegalArgumentException("the aggregated rows are not the source's rows");
        }
        if (!source.labelled()) {
            throw new IllegalArgumentException("the source's training needs a label column");
        }
        if (source.dimension() != release.dimension()) {
            throw new IllegalArgumentException("the source has " + source.dimension() + " features; the release is for "
                    + release.dimension());
        }
        List<String> names = List.copyOf(classes);
        if (names.isEmpty() || new HashSet<>(names).size() != names.size()) {
            throw new IllegalArgumentException("the class set must be non-empty without repeats, got " + names);
        }
        long n = checkedRows; // the plan's n (used by the gradient learners)
        if (n < 0) { // the rows and their labels checked in one pass, before anything is charged
            SparkTable.ClassCheck c = aggregated.checkClasses(names);
            n = SparkTable.require(c.check()).rows();
            if (c.outside() > 0) {
                throw new IllegalArgumentException(c.outside() + " row(s) have a label outside the declared classes " + names);
            }
        }
        boolean sizePublic = declared.sizePublic() || session.relation() == org.privadapt.privacy.NeighbouringRelation.REPLACE_ONE;
        PrivateLearners.Kind kind = Prima.sourceKind(release, mc, names.size(), sizePublic, session);
        boolean gradient = kind == PrivateLearners.Kind.DP_SGD || kind == PrivateLearners.Kind.DP_GD;
        if (kind != PrivateLearners.Kind.NCM && kind != PrivateLearners.Kind.LDA && kind != PrivateLearners.Kind.ADASSP && !gradient) {
            throw new IllegalArgumentException("learner " + kind.label() + ": on Spark the source trains ncm, lda, adassp (class "
                    + "statistics and moments, sums over rows), dp-sgd or dp-gd (clipped sums per step); give one of them");
        }
        if (gradient && !sizePublic) {
            throw new IllegalArgumentException("the source's " + kind.label() + " model reveals n (its sampling rate and normaliser): "
                    + "declare the size public, or use the replace-one relation");
        }
        Prima.SourcePlan sp = Prima.sourcePlan(release, mc, kind, (int) Math.min(Integer.MAX_VALUE, n), names.size(), session);
        if (gradient && sp.oneVsRest()) {
            throw new IllegalArgumentException("learner " + kind.label() + " one-vs-rest runs in process; on Spark the source "
                    + "trains one multi-class network per group");
        }
        Prima.chargeSource(sp, release, session);
        // the rows were checked above (requireValid): the moments' pass does not check them again
        SecondMoments sm = SparkPrimaSource.noisyMomentsOfChecked(aggregated, release, sp.momentsMultiplier(), session.relation(),
                session.noise());
        Prima.SourceAlignment alignment = Prima.sourceAlignment(sm, release);
        PrivateLearners.Plan plan = sp.plan();
        List<List<Network>> models = new ArrayList<>();
        for (int g = 0; g < sp.groups(); g++) {
            SessionRandomness rnd = new SessionRandomness(session.noise());
            Network net;
            if (gradient) {
                // DP-SGD (Poisson batches sampled on the driver, clipped sums where the mapped rows are) or DP-GD
                net = SparkDpSgd.train(plan, mapped(source, release, alignment.transform(), g), names, session.noise());
            } else if (kind == PrivateLearners.Kind.ADASSP) {
                // the group's mapped rows, then adassp's own row map (projection, bound), both where the rows are
                int width = alignment.transform().groupWidth(g);
                AdaSspRowMap adassp = PrivateLearners.adasspRowMap(plan, width);
                RowAggregation.RowMap both = SparkClassStatistics.adasspMap(rowMap(aggregated, release, alignment.transform(), g),
                        adassp);
                ClassStatistics exact = SparkClassStatistics.exact(aggregated, both, adassp.outputDim(), names, adassp.rowBound(), true);
                net = PrivateLearners.adasspModel(plan, PrivateLearners.adasspNoise(plan,
                        AdaSsp.ofSums(exact.counts(), exact.sums().transpose(), exact.moment()), rnd), width, names);
            } else if (kind == PrivateLearners.Kind.NCM) {
                net = PrivateLearners.ncmNoise(plan, SparkClassStatistics.exact(aggregated, rowMap(aggregated, release,
                        alignment.transform(), g), alignment.transform().groupWidth(g), names, Double.NaN, false), rnd)
                        .nearestClassMean(names);
            } else {
                double bound = PrivateLearners.ldaRowBound(plan);
                if (!(bound > 0) || Double.isInfinite(bound)) {
                    throw new IllegalArgumentException("row bound must be finite and > 0, got " + bound);
                }
                ClassStatistics exact = SparkClassStatistics.exact(aggregated, rowMap(aggregated, release, alignment.transform(), g),
                        alignment.transform().groupWidth(g), names, bound, true);
                net = PrivateLearners.ldaNoise(plan, exact, rnd).lda(names, plan.config().param("lda-shrinkage", 0.5), 1.0);
            }
            models.add(List.of(net));
        }
        return Prima.sourceModel(release, sp, alignment, models, names, declared.describe(), session);
    }

    /** The row map of {@link #mapped}: a source row clipped as {@link Prima#train} clips it and mapped to group g's features. */
    static RowAggregation.RowMap rowMap(SparkTable source, TargetRelease release, Prima.SourceTransform transform, int g) {
        double rowBound = release.config().rowBound();
        int[] blockOf = Prima.blockIndex(release.partition());
        double[] blockBounds = release.config().blockBounds(release.partition());
        return new RowAggregation.RowMap() {
            private static final long serialVersionUID = 1L;

            @Override
            public double[] apply(double[] row) {
                return transform.rowFeatures(Prima.clipRow(row, rowBound, blockOf, blockBounds), g);
            }

            /** A block's rows clipped one by one, then mapped by the transform's matrix products on the whole block. */
            @Override
            public double[][] applyBlock(double[][] rows, int m) {
                double[][] clipped = new double[m][];
                for (int i = 0; i < m; i++) {
                    clipped[i] = Prima.clipRow(rows[i], rowBound, blockOf, blockBounds);
                }
                org.privadapt.math.DenseMatrix z = transform.rowsFeatures(org.privadapt.math.DenseMatrix.fromRows(clipped), g);
                double[][] out = new double[rows.length][];
                for (int i = 0; i < m; i++) {
                    out[i] = z.row(i);
                }
                return out;
            }
        };
    }

    /** The source's rows clipped as {@link Prima#train} clips them and mapped to group {@code g}'s features (labels kept). */
    static SparkTable mapped(SparkTable source, TargetRelease release, Prima.SourceTransform transform, int g) {
        int d = source.dimension();
        double rowBound = release.config().rowBound();
        int[] blockOf = Prima.blockIndex(release.partition());
        double[] blockBounds = release.config().blockBounds(release.partition());
        SparkVectors.Kind kind = SparkVectors.kind(source);
        JavaRDD<InternalRow> out = InternalRows.of(source).mapPartitions(it -> new Iterator<InternalRow>() {
            @Override
            public boolean hasNext() {
                return it.hasNext();
            }

            @Override
            public InternalRow next() {
                InternalRow r = it.next();
                double[] z = Prima.clipRow(SparkVectors.features(r, d, kind), rowBound, blockOf, blockBounds);
                return InternalRows.row(transform.rowFeatures(z, g), InternalRows.label(r), true);
            }
        }, true);
        int m = transform.groupWidth(g);
        List<String> names = new ArrayList<>();
        for (int j = 0; j < m; j++) {
            names.add("z" + j);
        }
        return new SparkTable(InternalRows.dataFrame(source, out, true), names, source.labelColumn());
    }

    /** The number of rows whose label is not in {@code classes} (a check before any charge; nothing leaves the party). */
    public static long outsideClasses(SparkTable source, List<String> classes) {
        Set<String> known = new HashSet<>(classes);
        return RowAggregation.aggregate(source, () -> new Outside(known)).count;
    }

    private static final class Outside implements RowAggregation.Accumulator<Outside> {
        private static final long serialVersionUID = 1L;
        private final Set<String> known;
        long count;

        Outside(Set<String> known) {
            this.known = new HashSet<>(known);
        }

        @Override
        public void add(double[] features, String label) {
            if (label == null || !known.contains(label)) {
                count++;
            }
        }

        /** Reads the labels only: a vector column's rows need not be densified. */
        @Override
        public boolean takesSparseBlocks() {
            return true;
        }

        @Override
        public void addSparseBlock(SparseBlock rows, String[] labels) {
            for (int i = 0; i < rows.rows(); i++) {
                add(null, labels == null ? null : labels[i]);
            }
        }

        @Override
        public void merge(Outside o) {
            count += o.count;
        }
    }
}
