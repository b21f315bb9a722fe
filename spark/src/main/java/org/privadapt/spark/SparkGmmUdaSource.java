package org.privadapt.spark;

import java.util.List;
import org.apache.spark.storage.StorageLevel;
import org.privadapt.methods.gmmuda.GmmUdaConfig;
import org.privadapt.methods.gmmuda.SourceRelease;
import org.privadapt.models.dp.SessionRandomness;
import org.privadapt.models.dp.StackDpSgdTrainer;
import org.privadapt.models.mixture.DpGaussianMixtureEm;
import org.privadapt.models.nn.graph.EncoderClassifier;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.ledger.BudgetLedger;

/**
 * Paper 004's source release ({@code dp-uda-gmm}, {@link SourceRelease#trainPrivate}) with the source's rows on Spark:
 * the same plan ({@link SourceRelease#plan}) and the same one atomic charge ({@link SourceRelease#charge}), then, with
 * the session's noise on the driver, DP-SGD of the encoder and classifier on the rows where they are
 * ({@link SparkStackDpSgd}: the rows cached as blocks, each step's Poisson batch sampled on the driver, its clipped sum
 * on the executors), then DP-EM on the trained encoder's features of the same rows, the rows mapped through the encoder
 * on the executors ({@link SparkStackDpSgd#features}) and the T + 1 releases' statistics summed there
 * ({@link SparkDpEm}); the release is assembled by {@link SourceRelease#privateRelease}, so it is the in-process
 * {@link SourceRelease}. With the same seeded noise and the rows in the same order it equals the in-process release
 * (within rounding: the partitions' sums are merged, compensated).
 *
 * <p>Single-label targets only: the class set is given (public, never read from the rows) and the labels are coded by
 * their position in it; multi-label targets are in process only. The rows are used as they are: the in-process
 * pipeline's row normalisation ({@code GmmUdaMethod.rows}, row-local) is the caller's, as the preprocessing is. As in
 * process, the caller has checked that n, the class set and the layout are public
 * ({@code Disclosures.requireForDpSgdModel}); n is read here from the rows (one counting pass) and charged.
 */
public final class SparkGmmUdaSource {
    private SparkGmmUdaSource() {
    }

    /**
     * The private source release of the table's rows. Refused before anything is charged: a session under another
     * relation than add/remove-one (as in process), an unlabelled table, fewer than two or repeated classes, no rows, a
     * missing or non-finite feature, a missing label or one outside {@code classes} ({@link SparkTable#requireValid},
     * {@link SparkDpSgd#cache}); a plan that does not fit the session is refused whole with nothing spent.
     */
    public static SourceRelease trainPrivate(SparkTable table, List<String> classes, GmmUdaConfig c, PrivacySession s)
            throws BudgetExceededException, BudgetLedger.LedgerException {
        SourceRelease.requireAddOrRemove(s);
        SparkStackDpSgd.requireClasses(table, classes);
        List<String> names = List.copyOf(classes);
        EncoderClassifier init = SourceRelease.init(table.dimension(), names.size(), c);
        SparkStackDpSgd.requireFits(init, table, names);
        SourceRelease.Plan plan;
        SessionRandomness rnd;
        EncoderClassifier model;
        int n;
        // the caching pass checks the rows (what requireValid refuses, labels outside the classes) before the charge
        try (SparkDpSgd.Cached cached = SparkDpSgd.cache(table, names, StorageLevel.MEMORY_AND_DISK())) {
            if (cached.rows() > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("at most " + Integer.MAX_VALUE + " rows, got " + cached.rows());
            }
            n = (int) cached.rows();
            plan = SourceRelease.charge(n, c, s);
            rnd = new SessionRandomness(s.noise());
            StackDpSgdTrainer.Result r = SparkStackDpSgd.train(init, cached, plan.sgd(), SparkDpSgd.randomness(s.noise()));
            model = r.model();
        }
        SparkTable z = SparkStackDpSgd.features(table, model);
        z.rows().persist(StorageLevel.MEMORY_AND_DISK()); // T + 1 passes: the encoder maps each row once
        try {
            DpGaussianMixtureEm.Result em = SparkDpEm.fit(z, plan.em(), rnd, null);
            return SourceRelease.privateRelease(plan, n, c, model, em.model());
        } finally {
            z.rows().unpersist(false);
        }
    }

    /**
     * The rows scaled to L2 norm {@code norm} where they are (dp-uda-gmm's {@code row-norm}), as
     * {@code GmmUdaMethod.rows} scales the matrix in process: the methods module's own map on each chunk of rows (a
     * zero row stays zero). Row-local with a public constant, so not a release.
     */
    public static SparkTable rowNormalised(SparkTable table, double norm) {
        return ChunkedRows.map(table, table.featureNames(), true, SparkPreprocessing.CHUNK,
                () -> block -> org.privadapt.methods.gmmuda.GmmUdaMethod.rows(block, norm).toDense());
    }
}
