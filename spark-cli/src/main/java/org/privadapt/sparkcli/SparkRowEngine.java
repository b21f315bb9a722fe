package org.privadapt.sparkcli;

import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.privadapt.cli.engine.RowEngine;
import org.privadapt.data.DataException;
import org.privadapt.data.PublicFacts;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.prima.SourceModel;
import org.privadapt.methods.prima.PrimaConfig;
import org.privadapt.methods.prima.TargetRelease;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.ledger.BudgetLedger;
import org.privadapt.spark.SparkData;
import org.privadapt.spark.SparkPreprocessing;
import org.privadapt.spark.SparkPrima;
import org.privadapt.spark.SparkPrimaTrain;
import org.privadapt.spark.SparkTable;

/**
 * The CLI's {@code --engine spark} (a {@link RowEngine} service): reads the rows with {@link SparkData}, checks them
 * column by column ({@link SparkData#firstProblem}), applies the row-local preprocessing on the executors
 * ({@link SparkPreprocessing}) and computes the release with the spark module ({@link SparkPrima#release}); the
 * caller's session (plan, charge, noise, ledger) is used on this JVM, the driver, only.
 *
 * <p>The session ({@link SparkSessions}): the active one if the JVM has one (a test, a notebook), else one made with
 * {@code --spark-master}, else with the master spark-submit set ({@code spark.master}), else {@code local[*]}; quiet and
 * without UI unless asked. The files and the columns' types are checked before any row is read ({@link SparkInputs}).
 * A session this engine made is stopped when the rows are closed.
 */
public final class SparkRowEngine implements RowEngine {
    @Override
    public String name() {
        return "spark";
    }

    @Override
    public PartyRows open(Request request) throws DataException {
        String where = request.data().substring(request.data().indexOf(':') + 1);
        boolean made = SparkSession.getActiveSession().isEmpty() && SparkSession.getDefaultSession().isEmpty();
        SparkSession spark = SparkSessions.session(request.master(), request.verbose(), request.ui());
        made |= spark == madeForDimension; // made by dimension(), before the rows were opened
        boolean ok = false;
        try {
            SparkInputs.checkFiles(spark, request.data());
            Dataset<Row> frame;
            try {
                frame = SparkData.frame(spark, request.data());
                frame.schema(); // resolves the path or table now
            } catch (Exception e) { // AnalysisException (PATH_NOT_FOUND, TABLE_OR_VIEW_NOT_FOUND) is a checked exception
                throw new DataException(where, null, "cannot be read by Spark: " + firstLine(e));
            }
            List<String> present = List.of(frame.columns());
            if (request.featuresColumn() != null) {
                Rows rows = openColumn(spark, made, frame, request, where);
                ok = true;
                return rows;
            }
            for (String c : request.featureColumns()) {
                if (!present.contains(c)) {
                    throw new DataException(where, "column '" + c + "'", "no such column (columns: " + String.join(", ", present) + ")");
                }
            }
            if (request.labelColumn() != null && !present.contains(request.labelColumn())) {
                throw new DataException(where, "column '" + request.labelColumn() + "'", "no such label column (columns: "
                        + String.join(", ", present) + ")");
            }
            SparkInputs.checkTypes(frame.schema(), request.featureColumns(), where);
            String problem;
            try {
                problem = SparkData.firstProblem(frame, request.featureColumns(), request.labelColumn());
            } catch (Exception e) { // an unreadable file found while reading it
                throw new DataException(where, null, "cannot be read by Spark: " + firstLine(e));
            }
            if (problem != null) {
                throw new DataException(where, null, problem);
            }
            SparkTable table = SparkPreprocessing.apply(SparkData.of(frame, request.featureColumns(), request.labelColumn()),
                    request.preprocessing());
            long n = table.requireValid().rows(); // after the preprocessing: finite, as in process
            ok = true;
            return new Rows(spark, made, table, table, n, where, new java.util.concurrent.atomic.AtomicBoolean(true));
        } catch (IllegalArgumentException e) {
            throw new DataException(where, null, e.getMessage());
        } finally {
            if (!ok && made) {
                spark.stop();
            }
        }
    }

    /** d of the features columns this engine has read (data and column): the command asks, then opens the rows. */
    private final java.util.Map<String, Integer> dimensions = new java.util.concurrent.ConcurrentHashMap<>();
    private volatile SparkSession madeForDimension;

    @Override
    public int dimension(Request request) throws DataException {
        if (request.featuresColumn() == null) {
            return request.featureColumns().size();
        }
        Integer known = dimensions.get(request.data() + "\u0000" + request.featuresColumn());
        if (known != null) {
            return known;
        }
        String where = request.data().substring(request.data().indexOf(':') + 1);
        boolean none = SparkSession.getActiveSession().isEmpty() && SparkSession.getDefaultSession().isEmpty();
        SparkSession spark = SparkSessions.session(request.master(), request.verbose(), request.ui());
        if (none) {
            madeForDimension = spark;
        }
        SparkInputs.checkFiles(spark, request.data());
        Dataset<Row> frame = frame(spark, request, where);
        int d = columnDimension(frame, request.featuresColumn(), where);
        dimensions.put(request.data() + "\u0000" + request.featuresColumn(), d);
        return d;
    }

    private static Dataset<Row> frame(SparkSession spark, Request request, String where) throws DataException {
        try {
            Dataset<Row> frame = SparkData.frame(spark, request.data());
            frame.schema();
            return frame;
        } catch (Exception e) {
            throw new DataException(where, null, "cannot be read by Spark: " + firstLine(e));
        }
    }

    /** d of a features column (its type checked): the layout, from the column's metadata or first row. */
    private static int columnDimension(Dataset<Row> frame, String column, String where) throws DataException {
        List<String> present = List.of(frame.columns());
        if (!present.contains(column)) {
            throw new DataException(where, "column '" + column + "'", "no such column (columns: " + String.join(", ", present) + ")");
        }
        org.apache.spark.sql.types.DataType t = frame.schema().apply(column).dataType();
        if (org.privadapt.spark.SparkVectors.kind(t) == null) {
            throw new DataException(where, "column '" + column + "'", "its type is " + t.simpleString() + ", not a vector or "
                    + "array<double> (--features-column); name scalar columns with --feature-columns");
        }
        int d;
        try {
            d = org.privadapt.spark.SparkVectors.dimension(frame, column);
        } catch (Exception e) {
            throw new DataException(where, "column '" + column + "'", "cannot be read by Spark: " + firstLine(e));
        }
        if (d < 1) {
            throw new DataException(where, "column '" + column + "'", "no rows with a vector");
        }
        return d;
    }

    /**
     * A features column's rows (issue 45 item 1): the layout from the column, the row count from Spark's count (Parquet's
     * footers), no pass over the values here: the release's one aggregate reads each partition's rows into blocks (the
     * vectors decoded with typed bulk reads), preprocesses each block with the in-process code, checks every value
     * (missing, non-finite, a vector of another length: refused before the charge) and sums the moments with one BLAS
     * call per block. Other releases would read the rows as a preprocessed table of arrays.
     */
    private Rows openColumn(SparkSession spark, boolean made, Dataset<Row> frame, Request request, String where) throws DataException {
        Integer known = dimensions.get(request.data() + "\u0000" + request.featuresColumn());
        int d = known != null ? known : columnDimension(frame, request.featuresColumn(), where);
        if (request.labelColumn() != null && !List.of(frame.columns()).contains(request.labelColumn())) {
            throw new DataException(where, "column '" + request.labelColumn() + "'", "no such label column (columns: "
                    + String.join(", ", frame.columns()) + ")");
        }
        SparkTable raw = org.privadapt.spark.SparkVectors.table(frame, request.featuresColumn(), d, request.labelColumn());
        long n;
        try {
            n = frame.count();
        } catch (Exception e) {
            throw new DataException(where, null, "cannot be read by Spark: " + firstLine(e));
        }
        if (n == 0) {
            throw new DataException(where, null, "the table has no rows");
        }
        return new Rows(spark, made, SparkPreprocessing.apply(raw, request.preprocessing()), raw.withBlockMap(request.preprocessing()),
                n, where, new java.util.concurrent.atomic.AtomicBoolean(false));
    }

    private static String firstLine(Throwable e) {
        return SparkSessions.firstLine(e);
    }

    /**
     * @param table the rows, preprocessed, as every release reads them
     * @param aggregated the rows as the target release's aggregate reads them: {@code table}, or (a features column) the raw
     *                   vectors with the preprocessing applied block by block inside the aggregate
     */
    private record Rows(SparkSession spark, boolean made, SparkTable table, SparkTable aggregated, long size, String where,
                        java.util.concurrent.atomic.AtomicBoolean valid) implements PartyRows {
        /**
         * The rows as every release but the target's reads them, checked first (once): a features column is not checked
         * when it is opened (the target release checks in its own first aggregate), so a missing or non-finite value, a
         * vector of another length or a missing label is refused here, before anything is charged, naming the data.
         */
        private SparkTable checked() throws DataException {
            checkOnce();
            return table;
        }

        /** {@link #checked()} for the aggregates that read the rows as the target release does (block by block). */
        private SparkTable checkedAggregated() throws DataException {
            checkOnce();
            return aggregated;
        }

        @Override
        public void check() throws DataException {
            checkOnce();
        }

        /** The aggregated rows where a checked exception cannot be thrown: checked before ({@link #check}) by the caller. */
        private SparkTable checkedBefore() {
            if (!valid.get()) {
                throw new IllegalStateException("the rows of " + where + " were not checked before this statistic");
            }
            return aggregated;
        }

        private void checkOnce() throws DataException {
            if (!valid.get()) {
                try {
                    aggregated.requireValid();
                } catch (IllegalArgumentException e) {
                    throw new DataException(where, null, e.getMessage());
                }
                valid.set(true);
            }
        }

        @Override
        public int dimension() {
            return table.dimension();
        }

        @Override
        public TargetRelease targetRelease(PrimaConfig cfg, String preprocessing, String method, String runId, PrivacySession session)
                throws DataException, BudgetExceededException, BudgetLedger.LedgerException {
            try {
                return SparkPrima.release(aggregated, cfg, preprocessing, method, 1L, runId, session);
            } catch (IllegalArgumentException e) { // a row refused by the release's check pass, before the charge
                throw new DataException(where, null, e.getMessage());
            }
        }

        @Override
        public SourceModel sourceModel(TargetRelease release, MethodConfig mc, List<String> classes, PublicFacts declared,
                                       PrivacySession session) throws DataException, BudgetExceededException, BudgetLedger.LedgerException {
            // bad input, before anything is charged: the rows and their labels checked in one pass, then not again
            long rows;
            try {
                SparkTable.ClassCheck c = aggregated.checkClasses(classes);
                rows = org.privadapt.spark.SparkTable.checked(c.check()).rows();
                if (c.outside() > 0) {
                    throw new DataException(where, "column '" + table.labelColumn() + "'", org.privadapt.data.PrivateText.count(c.outside())
                            + " row(s) have a label outside --classes " + String.join(",", classes));
                }
            } catch (IllegalArgumentException e) {
                throw new DataException(where, null, e.getMessage());
            }
            valid.set(true);
            return SparkPrimaTrain.train(table, aggregated, release, mc, classes, declared, session, rows);
        }

        @Override
        public org.privadapt.methods.dpot.DpotRelease dpotRelease(List<String> classes, org.privadapt.methods.dpot.DpotConfig cfg,
                                                                  PrivacySession session, String runId, String preprocessing)
                throws DataException, BudgetExceededException, BudgetLedger.LedgerException {
            requireClasses(classes);
            // the rows as the aggregates read them: a sparse vector column projected by its non-zeros
            return org.privadapt.spark.SparkDpot.release(checkedAggregated(), classes, cfg, session, runId, preprocessing);
        }

        @Override
        public Predictions predict(SourceModel model) throws DataException {
            try {
                org.privadapt.spark.SparkPredictions.Predicted p = org.privadapt.spark.SparkPredictions.predict(checked(), model, "predict");
                return new Predictions(p.classes(), p.labels());
            } catch (IllegalArgumentException e) {
                throw new DataException(where, null, e.getMessage());
            }
        }

        @Override
        public long[] correct(SourceModel model, String runId) throws DataException {
            requireClasses(model.classNames());
            return org.privadapt.spark.SparkEvaluation.correct(checkedAggregated(), model, runId);
        }

        @Override
        public org.privadapt.models.nn.Network classStatisticsModel(org.privadapt.methods.core.PrivateLearners.Plan plan,
                                                                    List<String> classes, org.privadapt.privacy.noise.NoiseSource noise)
                throws DataException {
            requireClasses(classes);
            return org.privadapt.spark.SparkClassStatistics.model(plan, checkedAggregated(), classes, noise);
        }

        @Override
        public double[] sum(org.privadapt.models.uda.MapPrototypeSums.BlockStatistic statistic) {
            return org.privadapt.spark.SparkRowSums.sum(checkedBefore(), statistic);
        }

        @Override
        public long[] correct(org.privadapt.models.nn.Network model) throws DataException {
            requireClasses(model.classNames());
            return org.privadapt.spark.SparkEvaluation.correct(checkedAggregated(), model);
        }

        @Override
        public org.privadapt.models.nn.Network gradientModel(org.privadapt.methods.core.PrivateLearners.Plan plan,
                                                             List<String> classes, org.privadapt.privacy.noise.NoiseSource noise)
                throws DataException {
            requireClasses(classes);
            // the rows as the aggregates read them: a sparse vector column is cached by its non-zeros
            return org.privadapt.spark.SparkDpSgd.train(plan, checkedAggregated(), classes, noise);
        }

        @Override
        public Moments moments() {
            org.privadapt.spark.SparkBaselines.Moments m = org.privadapt.spark.SparkBaselines.moments(checkedBefore());
            return new Moments(m.count(), m.mean(), m.covariance());
        }

        @Override
        public org.privadapt.models.LogisticRegression logisticRegression(org.privadapt.math.DenseMatrix map, List<String> classes,
                                                                          double l2, int maxIterations) throws DataException {
            requireClasses(classes);
            return org.privadapt.spark.SparkLogisticRegression.fit(checked(), map, classes, l2, maxIterations);
        }

        @Override
        public long[] correct(org.privadapt.models.LogisticRegression model, org.privadapt.math.DenseMatrix map) throws DataException {
            requireClasses(model.classNames());
            return org.privadapt.spark.SparkEvaluation.correct(checkedAggregated(), model, map);
        }

        /** A label outside the given classes is bad input: refused before anything is charged, naming the data. */
        private void requireClasses(List<String> classes) throws DataException {
            long outside;
            if (valid.get()) {
                outside = SparkPrimaTrain.outsideClasses(aggregated, classes);
            } else { // the rows' check and the labels' in one pass
                try {
                    SparkTable.ClassCheck c = aggregated.checkClasses(classes);
                    SparkTable.checked(c.check());
                    outside = c.outside();
                } catch (IllegalArgumentException e) {
                    throw new DataException(where, null, e.getMessage());
                }
                valid.set(true);
            }
            if (outside > 0) {
                throw new DataException(where, "column '" + table.labelColumn() + "'", org.privadapt.data.PrivateText.count(outside) + " row(s) have a label outside --classes "
                        + String.join(",", classes));
            }
        }

        @Override
        public org.privadapt.data.Dataset publicRegressionRows(String domain) throws DataException {
            try {
                return org.privadapt.spark.SparkSupervised.collect(checked(), domain);
            } catch (IllegalArgumentException e) {
                throw new DataException(where, null, e.getMessage());
            }
        }

        @Override
        public Supervised supervised(org.privadapt.data.Dataset source, MethodConfig config) throws DataException {
            org.privadapt.spark.SparkSupervised.Drawn d;
            try {
                d = org.privadapt.spark.SparkSupervised.draw(source, checked(), config);
            } catch (IllegalArgumentException e) {
                if (e.getMessage() != null && e.getMessage().contains("not a number")) {
                    throw new DataException(where, null, e.getMessage());
                }
                throw e;
            }
            return new Supervised(d.protocol(), d.sample());
        }

        @Override
        public org.privadapt.methods.gmmuda.SourceRelease gmmUdaRelease(List<String> classes,
                                                                        org.privadapt.methods.gmmuda.GmmUdaConfig cfg, PrivacySession session)
                throws DataException, BudgetExceededException, BudgetLedger.LedgerException {
            requireClasses(classes);
            return org.privadapt.spark.SparkGmmUdaSource.trainPrivate(
                    org.privadapt.spark.SparkGmmUdaSource.rowNormalised(checked(), cfg.rowNorm(true)), classes, cfg, session);
        }

        @Override
        public void close() {
            if (made) {
                spark.stop();
            }
        }
    }
}
