package org.privadapt.cli.engine;

import java.util.List;
import org.privadapt.data.DataException;
import org.privadapt.data.PublicFacts;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.prima.SourceModel;
import org.privadapt.methods.prima.PrimaConfig;
import org.privadapt.methods.prima.TargetRelease;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.ledger.BudgetLedger;

/**
 * An engine that computes a party's releases where its rows are, other than in this JVM's heap: the service the
 * {@code spark-cli} module provides ({@code --engine spark}), found by {@link java.util.ServiceLoader} so that the CLI
 * needs no Spark class to compile or to run its in-process commands (docs/spark.md). The engine computes the exact
 * statistic where the rows are; the plan, the charge, the noise and the ledger stay with the caller's
 * {@link PrivacySession} in this JVM (the driver).
 */
public interface RowEngine {
    /** The {@code --engine} name. */
    String name();

    /**
     * Opens a party's rows and checks them, before anything is charged or written: the data exist, the named columns
     * are there, every feature value is a finite number (and every label is there, for labelled rows).
     *
     * @throws DataException naming the data and the column at fault
     */
    PartyRows open(Request request) throws DataException;

    /**
     * What to read.
     *
     * @param data           {@code parquet:PATH}, {@code csv:PATH} (with a header line) or {@code table:NAME}
     * @param featureColumns the feature columns, in order (the layout: given, so public), or empty with a features column
     * @param featuresColumn one column holding each row's features (a Spark ML vector or an array), or null
     * @param labelColumn    the label column, or null (rows read unlabelled)
     * @param preprocessing  row-local preprocessing applied to every row where it is ({@code none} for none)
     * @param master         the cluster to run on, or null for the engine's default
     * @param verbose        the engine's own logging at its default level (else warnings and errors only)
     * @param ui             the engine's web UI on (else off: a command that handles private rows opens no UI port)
     */
    record Request(String data, List<String> featureColumns, String featuresColumn, String labelColumn, String preprocessing,
                   String master, boolean verbose, boolean ui) {
        public Request {
            featureColumns = List.copyOf(featureColumns);
        }

        /** Named columns, quiet, no UI. */
        public Request(String data, List<String> featureColumns, String labelColumn, String preprocessing, String master) {
            this(data, featureColumns, null, labelColumn, preprocessing, master, false, false);
        }
    }

    /**
     * The number of features of a request's rows, from the layout only: the named columns', or (a features column) the
     * column's metadata or first row, as a CSV header gives it in process.
     *
     * @throws DataException when the data or the column cannot be read
     */
    default int dimension(Request request) throws DataException {
        return request.featureColumns().size();
    }

    /** Predictions of every row in order, and the rows' labels (null: unlabelled). */
    record Predictions(int[] classes, String[] labels) {
    }

    /** A domain's exact moments: n, the column means, the sample covariance (d x d). */
    record Moments(long count, double[] mean, org.privadapt.math.DenseMatrix covariance) {
    }

    /** A party's opened rows. */
    interface PartyRows extends AutoCloseable {
        /** The number of rows: private, used only locally (the delta policy), as the in-process commands use it. */
        long size();

        /** The number of features (public: the named columns). */
        int dimension();

        /**
         * Refuses, before anything is charged, rows the in-process path refuses (no rows, a missing or non-finite value,
         * a missing label), naming the data; a no-op where opening the rows checked them already. Called by the commands
         * before they charge; the methods below check on first use too.
         */
        default void check() throws DataException {
        }

        /**
         * A received model's predicted class index for every row, in the table's order, and the rows' labels (null when
         * read unlabelled): {@code target predict} on these rows (the target's own rows, for the target).
         */
        default Predictions predict(SourceModel model) throws DataException {
            throw new UnsupportedOperationException("predict");
        }

        /** PRIMA/PRISA's target release of these rows, as {@code Prima.release} computes it in process. */
        TargetRelease targetRelease(PrimaConfig cfg, String preprocessing, String method, String runId, PrivacySession session)
                throws DataException, BudgetExceededException, BudgetLedger.LedgerException;

        /**
         * PRIMA/PRISA's source model from these labelled rows, as {@code Prima.train} computes it in process with the
         * labels coded by their position in {@code classes} (learner ncm or lda: class statistics, sums over rows; dp-sgd or
         * dp-gd: clipped sums per step; a perturbation learner is refused before anything is charged, as is a label
         * outside {@code classes}).
         *
         * @param classes  the class set, given (public), never read from the rows
         * @param declared the facts the source declared public (their names go into the artifact)
         * @throws DataException naming the data when a row's label is outside {@code classes}
         */
        SourceModel sourceModel(TargetRelease release, MethodConfig mc, List<String> classes, PublicFacts declared,
                                PrivacySession session) throws DataException, BudgetExceededException, BudgetLedger.LedgerException;

        /**
         * DPOT's source release of these labelled rows, as {@code Dpot.release} computes it in process with the labels
         * coded by their position in {@code classes} (the per-row JL map where the rows are; the order, the noise and
         * the counts on this JVM). Replace-one only.
         *
         * @throws DataException naming the data when a row's label is outside {@code classes}
         */
        org.privadapt.methods.dpot.DpotRelease dpotRelease(List<String> classes, org.privadapt.methods.dpot.DpotConfig cfg,
                                                           PrivacySession session, String runId, String preprocessing)
                throws DataException, BudgetExceededException, BudgetLedger.LedgerException;

        /**
         * The target's evaluation of a received PRIMA/PRISA model on these labelled rows (not a release: the result
         * stays with the target): {@code {rows predicted their label, rows}}.
         *
         * @throws DataException naming the data when a row's label is outside the model's classes
         */
        long[] correct(SourceModel model, String runId) throws DataException;

        /**
         * dp-source-only's model from these labelled rows with an ncm or lda plan (its event already charged), as
         * {@code PrivateLearners.train} fits it in process with the labels coded by their position in {@code classes}.
         *
         * @throws DataException naming the data when a row's label is outside {@code classes}
         */
        org.privadapt.models.nn.Network classStatisticsModel(org.privadapt.methods.core.PrivateLearners.Plan plan, List<String> classes,
                                                             org.privadapt.privacy.noise.NoiseSource noise) throws DataException;

        /**
         * dp-source-only's model from these labelled rows with a dp-sgd or dp-gd plan (its event already charged; n
         * public), as {@code PrivateLearners.train} fits it in process: each step's clipped sum of the sampled rows
         * where they are, the sampling and the noise on this JVM.
         *
         * @throws DataException naming the data when a row's label is outside {@code classes}
         */
        org.privadapt.models.nn.Network gradientModel(org.privadapt.methods.core.PrivateLearners.Plan plan, List<String> classes,
                                                      org.privadapt.privacy.noise.NoiseSource noise) throws DataException;

        /** {@link #correct(SourceModel, String)} for a network's predictions. */
        long[] correct(org.privadapt.models.nn.Network model) throws DataException;

        /**
         * A statistic of blocks of rows summed over these rows where they are (the target's refinement from sums,
         * {@link org.privadapt.methods.core.AggregatedRefinements}): the rows' own statistic, to this party's driver.
         */
        default double[] sum(org.privadapt.models.uda.MapPrototypeSums.BlockStatistic statistic) {
            throw new UnsupportedOperationException("sums of row statistics");
        }

        /**
         * The rows' exact mean and covariance ({@code LinAlg.covariance}: centred, divided by n - 1), for the
         * <b>non-private</b> baselines (CORAL, SA): no clipping, no noise.
         */
        Moments moments();

        /**
         * A non-private baseline's classifier: {@code new LogisticRegressionTrainer(l2, maxIterations).fit(rows * map,
         * labels)} with the labels coded by their position in {@code classes} and the rows mapped where they are
         * ({@code map} null: as they are).
         *
         * @throws DataException naming the data when a row's label is outside {@code classes}
         */
        org.privadapt.models.LogisticRegression logisticRegression(org.privadapt.math.DenseMatrix map, List<String> classes,
                                                                   double l2, int maxIterations) throws DataException;

        /** {@link #correct(SourceModel, String)} for a logistic regression applied to the rows mapped by {@code map} (or null). */
        long[] correct(org.privadapt.models.LogisticRegression model, org.privadapt.math.DenseMatrix map) throws DataException;

        /**
         * These rows, public (paper 003's labelled source), brought into this JVM in their order with real targets (the
         * labels read as numbers).
         *
         * @throws DataException naming the data when a label is not a number
         */
        org.privadapt.data.Dataset publicRegressionRows(String domain) throws DataException;

        /**
         * Paper 003's supervised protocol with these rows as the target's labelled pool and {@code source} (public, in
         * this JVM): the in-process split by the rows' positions, the public parts brought into this JVM, the private
         * training part left where it is and summed there ({@code PrivateSample}).
         *
         * @throws DataException naming the data when a label is not a number
         */
        Supervised supervised(org.privadapt.data.Dataset source, MethodConfig config) throws DataException;

        /**
         * dp-uda-gmm's source release of these labelled rows (paper 004), as {@code SourceRelease.trainPrivate} makes it
         * in process on the rows scaled to {@code row-norm}: the encoder's DP-SGD steps and DP-EM's releases summed where
         * the rows are, the plan, the one charge and the noise on this JVM; labels coded by their position in
         * {@code classes} (given, public).
         *
         * @throws DataException naming the data when a label is outside {@code classes}
         */
        org.privadapt.methods.gmmuda.SourceRelease gmmUdaRelease(List<String> classes, org.privadapt.methods.gmmuda.GmmUdaConfig cfg,
                                                                 PrivacySession session)
                throws DataException, BudgetExceededException, BudgetLedger.LedgerException;

        @Override
        void close();
    }

    /** Paper 003's drawn protocol (its public parts, n) and its private sample where the rows are. */
    record Supervised(org.privadapt.methods.bassily.SupervisedProtocol protocol, org.privadapt.methods.bassily.PrivateSample sample) {
    }
}
