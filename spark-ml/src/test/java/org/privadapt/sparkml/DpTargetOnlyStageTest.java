package org.privadapt.sparkml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.bassily.DpTargetOnlyModel;
import org.privadapt.methods.bassily.NoisyGradientDescent;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.events.ApproximateDpEvent;
import org.privadapt.privacy.ledger.BudgetLedger;
import org.privadapt.privacy.noise.PartyNoise;

/**
 * {@link DpTargetOnlyRegressor} on local[2]: with a seed, the model equals the in-process noisy descent
 * ({@link NoisyGradientDescent#fitSquaredLoss}, the charge and descent the CLI's dp-target-only runs) on the same rows
 * and per-party seeded stream (w and the predictions to 1e-9 relative, the same privacy statement, marked NOT
 * private) and the ledger holds the in-process session's entry; a spent, short or damaged ledger refuses fit before any
 * row is read (the rows here fail when read), and so does a relation other than replace-one, before even the ledger is
 * opened; a bad row (NaN, another length, no label, a label NaN) is refused with nothing charged; save then load keeps
 * the artifact and the predictions, and a Pipeline with VectorAssembler fits (secure noise), saves and loads.
 */
class DpTargetOnlyStageTest {
    static final int D = 5;
    static final int T = 20;
    static SparkSession spark;
    static final StageTestSupport.Targets target = StageTestSupport.regression(240, D, 41);
    static Dataset<Row> assembled;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() {
        spark = StageTestSupport.spark();
        assembled = target.assembled(spark);
    }

    static DpTargetOnlyRegressor estimator() {
        return new DpTargetOnlyRegressor().setLabelCol("y").setEpsilon(2.0).setSeed(7).setRunId("run-stage").setRadius(2.0)
                .setIterations(T);
    }

    /** A target session as the stage's (replace-one, the per-party seeded stream of seed 7), on {@code ledger} or none. */
    static PrivacySession targetSession(Path ledger, double budget) throws Exception {
        BudgetLedger l = ledger == null ? null : BudgetLedger.openOrCreateLazily(ledger, "target", new PrivacyBudget(budget, 1e-5),
                NeighbouringRelation.REPLACE_ONE, false);
        return new PrivacySession("target", new PrivacyBudget(2.0, 1e-5), NeighbouringRelation.REPLACE_ONE,
                PartyNoise.of(7L, 0, "target"), l);
    }

    static double[] predictions(Dataset<Row> predicted) {
        return predicted.select("prediction").collectAsList().stream().mapToDouble(r -> r.getDouble(0)).toArray();
    }

    /** An array&lt;double&gt; features column (rows may have other lengths) and a nullable double y, in two partitions. */
    static Dataset<Row> arrays(double[][] x, Double[] y) {
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < x.length; i++) {
            rows.add(RowFactory.create(scala.jdk.javaapi.CollectionConverters.asScala(
                    java.util.Arrays.stream(x[i]).boxed().toList()).toSeq(), y[i]));
        }
        return spark.createDataFrame(new org.apache.spark.api.java.JavaSparkContext(spark.sparkContext()).parallelize(rows, 2),
                DataTypes.createStructType(List.of(
                        DataTypes.createStructField("features", DataTypes.createArrayType(DataTypes.DoubleType, true), true),
                        DataTypes.createStructField("y", DataTypes.DoubleType, true))));
    }

    @Test
    void theStagesModelEqualsTheInProcessDescentOnTheSameSeedAndIsChargedAsIt() throws Exception {
        Path ledger = dir.resolve("target.ledger");
        DpTargetOnlyRegressionModel model = estimator().setLedgerPath(ledger.toString()).fit(assembled);
        Path localLedger = dir.resolve("in-process.ledger");
        PrivacySession local = targetSession(localLedger, 2.0);
        NoisyGradientDescent.Result expected = NoisyGradientDescent.fitSquaredLoss(DenseMatrix.fromRows(target.x()), target.y(),
                2.0, 1.0, T, local);
        StageTestSupport.assertClose(model.weights(), expected.w(), 1e-9, "w");
        double[] inProcess = DpTargetOnlyModel.of(expected, 2.0, 1.0, T, local, "run-stage").predict(DenseMatrix.fromRows(target.x()));
        StageTestSupport.assertClose(predictions(model.transform(assembled)), inProcess, 1e-9, "predictions");
        assertThat(model.model().privacy().toString()).isEqualTo(DpTargetOnlyModel.of(expected, 2.0, 1.0, T, local, "x").privacy().toString());
        assertThat(model.isPrivate()).isFalse();
        assertThat(model.artifact().privacy().toString()).contains("NOT").contains("\"relation\":\"replace\"");
        // the ledger's one entry is the in-process session's: label, mechanism, event, parameters, relation, sampler
        BudgetLedger.Snapshot got = BudgetLedger.open(ledger).read();
        BudgetLedger.Snapshot want = BudgetLedger.open(localLedger).read();
        assertThat(got.entries()).hasSize(1);
        assertThat(got.entries()).usingRecursiveFieldByFieldElementComparatorIgnoringFields("time", "hash")
                .isEqualTo(want.entries());
        assertThat(got.entries().get(0).label()).isEqualTo("dp-target-only descent");
        assertThat(got.epsilonSpent()).isEqualTo(want.epsilonSpent()).isEqualTo(local.spent().epsilon()).isPositive();
        assertThat(got.relation()).isEqualTo(NeighbouringRelation.REPLACE_ONE);
    }

    @Test
    void aSpentShortOrDamagedLedgerRefusesFitBeforeAnyRowIsRead() throws Exception {
        Dataset<Row> poisoned = StageTestSupport.poisoned(assembled);
        assertThatThrownBy(poisoned::collectAsList).hasStackTraceContaining("a row was read");
        Path spent = dir.resolve("spent.ledger");
        targetSession(spent, 2.0).charge("an earlier release", "test", new ApproximateDpEvent(2.0, 1e-5), Map.of());
        byte[] before = Files.readAllBytes(spent);
        assertThatThrownBy(() -> estimator().setLedgerPath(spent.toString()).fit(poisoned))
                .isInstanceOf(PrivateFitException.class).hasCauseInstanceOf(BudgetExceededException.class)
                .hasMessageContaining("spent").hasMessageNotContaining("a row was read");
        assertThat(Files.readAllBytes(spent)).isEqualTo(before);
        // a new ledger too small for the plan (known from the public settings): refused, nothing written
        Path shortLedger = dir.resolve("short.ledger");
        assertThatThrownBy(() -> estimator().setLedgerPath(shortLedger.toString()).setLedgerBudget(0.5).fit(poisoned))
                .isInstanceOf(PrivateFitException.class).hasCauseInstanceOf(BudgetExceededException.class)
                .hasMessageNotContaining("a row was read");
        assertThat(shortLedger).doesNotExist();
        Path damaged = dir.resolve("damaged.ledger");
        Files.writeString(damaged, "{ not a ledger");
        assertThatThrownBy(() -> estimator().setLedgerPath(damaged.toString()).fit(poisoned))
                .isInstanceOf(PrivateFitException.class).hasCauseInstanceOf(BudgetLedger.LedgerException.class);
        assertThat(Files.readString(damaged)).isEqualTo("{ not a ledger");
    }

    @Test
    void aRelationOtherThanReplaceOneIsRefusedBeforeTheLedgerOrAnyRowIsRead() throws Exception {
        Dataset<Row> poisoned = StageTestSupport.poisoned(assembled);
        Path damaged = dir.resolve("damaged.ledger"); // were it opened, this would be the refusal
        Files.writeString(damaged, "{ not a ledger");
        assertThatThrownBy(() -> estimator().setRelation("add-remove").setLedgerPath(damaged.toString()).fit(poisoned))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("replace-one")
                .hasMessageContaining("set relation to replace").hasMessageNotContaining("a row was read");
        Path ledger = dir.resolve("target.ledger");
        assertThatThrownBy(() -> estimator().setRelation("add-remove").setLedgerPath(ledger.toString()).fit(assembled))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("replace-one");
        assertThat(ledger).doesNotExist();
        DpTargetOnlyRegressor byDefault = new DpTargetOnlyRegressor();
        assertThat(byDefault.getOrDefault(byDefault.relation())).isEqualTo("replace");
    }

    @Test
    void aBadRowIsRefusedBeforeTheChargeWithNothingCharged() throws Exception {
        Path ledger = dir.resolve("target.ledger");
        targetSession(ledger, 10.0).charge("an earlier release", "test", new ApproximateDpEvent(0.5, 1e-6), Map.of());
        byte[] before = Files.readAllBytes(ledger);
        double[][] x = target.x();
        Double[] y = java.util.Arrays.stream(target.y()).boxed().toArray(Double[]::new);
        // the good rows as an array<double> column fit (the check passes); then each bad row is refused
        DpTargetOnlyRegressor est = estimator().setIterations(2);
        assertThat(est.fit(arrays(x, y)).weights()).hasSize(D);
        record Bad(String what, double[][] x, Double[] y, String message) {
        }
        double[][] nan = x.clone();
        nan[17] = x[17].clone();
        nan[17][2] = Double.NaN;
        double[][] shorter = x.clone();
        shorter[100] = java.util.Arrays.copyOf(x[100], D - 1);
        Double[] missing = y.clone();
        missing[5] = null;
        Double[] nanLabel = y.clone();
        nanLabel[200] = Double.NaN;
        for (Bad b : List.of(new Bad("NaN feature", nan, y, "1 row(s) have a missing or non-finite feature value"),
                new Bad("another length", shorter, y, "1 row(s) have a missing or non-finite feature value"),
                new Bad("no label", x, missing, "1 row(s) have no label"),
                new Bad("label NaN", x, nanLabel, "1 row(s) have a target that is not a number"))) {
            assertThatThrownBy(() -> est.setLedgerPath(ledger.toString()).setLedgerBudget(10.0).setNumFeatures(D)
                    .fit(arrays(b.x(), b.y()))).as(b.what()).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(b.message());
            assertThat(Files.readAllBytes(ledger)).as(b.what()).isEqualTo(before);
        }
    }

    @Test
    void saveLoadAndAPipelineWithVectorAssemblerGiveTheSamePredictions() throws Exception {
        DpTargetOnlyRegressionModel model = estimator().fit(assembled);
        String path = dir.resolve("model").toString();
        model.write().overwrite().save(path);
        DpTargetOnlyRegressionModel loaded = DpTargetOnlyRegressionModel.load(path);
        assertThat(loaded.uid()).isEqualTo(model.uid());
        assertThat(loaded.artifact().checksum()).isEqualTo(model.artifact().checksum());
        assertThat(loaded.artifact().privacy()).isEqualTo(model.artifact().privacy()).isNotEmpty();
        assertThat(loaded.isPrivate()).isFalse();
        assertThat(loaded.weights()).isEqualTo(model.weights());
        assertThat(predictions(loaded.transform(assembled))).isEqualTo(predictions(model.transform(assembled)));
        DpTargetOnlyRegressor est = estimator();
        String estPath = dir.resolve("estimator").toString();
        est.write().overwrite().save(estPath);
        DpTargetOnlyRegressor back = DpTargetOnlyRegressor.load(estPath);
        assertThat(back.getOrDefault(back.radius())).isEqualTo(2.0);
        assertThat(back.getOrDefault(back.iterations())).isEqualTo(T);
        assertThat(back.getOrDefault(back.seed())).isEqualTo(7L);
        assertThat(back.getOrDefault(back.relation())).isEqualTo("replace");
        // a Pipeline: VectorAssembler then the stage, secure noise, its own ledger; saved and loaded as a whole
        Path ledger = dir.resolve("pipeline.ledger");
        PipelineModel fitted = new Pipeline().setStages(new PipelineStage[] {StageTestSupport.assembler(D),
                new DpTargetOnlyRegressor().setLabelCol("y").setEpsilon(1.0).setRadius(2.0).setIterations(T)
                        .setLedgerPath(ledger.toString())}).fit(target.frame(spark));
        DpTargetOnlyRegressionModel stage = (DpTargetOnlyRegressionModel) fitted.stages()[1];
        assertThat(stage.isPrivate()).isTrue();
        assertThat(BudgetLedger.open(ledger).read().allNoiseSecure()).isTrue();
        String pipePath = dir.resolve("pipeline").toString();
        fitted.write().overwrite().save(pipePath);
        PipelineModel back2 = PipelineModel.load(pipePath);
        double[] p = predictions(fitted.transform(target.frame(spark)));
        assertThat(predictions(back2.transform(target.frame(spark)))).isEqualTo(p);
        StageTestSupport.assertClose(p, stage.model().predict(DenseMatrix.fromRows(target.x())), 1e-12, "pipeline predictions");
        // a row with a non-finite value is predicted NaN, the others w . x
        double[][] x = {target.x()[0], {1, Double.NaN, 0, 0, 1}};
        double[] q = predictions(stage.transform(arrays(x, new Double[] {0.0, 0.0})));
        assertThat(q[0]).isCloseTo(p[0], org.assertj.core.api.Assertions.within(1e-12));
        assertThat(q[1]).isNaN();
    }
}
