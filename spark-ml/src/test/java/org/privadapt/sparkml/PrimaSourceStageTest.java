package org.privadapt.sparkml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.Provenance;
import org.privadapt.data.PublicFacts;
import org.privadapt.data.preprocess.Preprocessing;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.prima.Prima;
import org.privadapt.methods.prima.SourceModel;
import org.privadapt.methods.prima.TargetRelease;
import org.privadapt.models.nn.Network;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.ledger.BudgetLedger;
import org.privadapt.privacy.noise.PartyNoise;

/**
 * {@link PrimaSourceTrainer} on local[2] (learner ncm: noisy class sums; dp-sgd: clipped sums per step): with a seed the
 * model equals the in-process {@code source train --seed} model on the same rows and release (weights to 1e-9
 * relative, the same privacy statement and ledger charge); a spent ledger refuses fit before any row is read; the
 * fitted and the saved-then-loaded model predict the same class for every target row, equal to the in-process
 * model's prediction, and the loaded one carries the artifact's privacy block.
 */
class PrimaSourceStageTest {
    static SparkSession spark;
    static StageTestSupport.Rows source;
    static StageTestSupport.Rows target;
    static TargetRelease release;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() throws Exception {
        spark = StageTestSupport.spark();
        source = StageTestSupport.generate(300, 6, 31, 0.0);
        target = StageTestSupport.generate(200, 6, 21, 0.5);
        release = PrimaTargetReleaseStageTest.inProcess(PrimaTargetReleaseStageTest.targetSession());
    }

    Path releaseFile() throws Exception {
        Path file = dir.resolve("release.json");
        release.toArtifact().write(file);
        return file;
    }

    PrimaSourceTrainer trainer(String learner) throws Exception {
        return new PrimaSourceTrainer().setReleasePath(releaseFile().toString()).setClasses("a", "b", "c").setLabelCol("y")
                .setLearner(learner).setEpsilon(2.0).setSeed(11).setRunId("run-src").setPublicFacts("size")
                .setMethodParams("learner-row-bound=2.0");
    }

    /**
     * As {@code source train --seed 11 --classes a,b,c --public size --param learner=L} in process (the declarations'
     * provenance names the stage's Params instead of the CLI's options: the one difference in the privacy block).
     */
    static SourceModel inProcess(String learner, PrivacySession session) throws Exception {
        PublicFacts declared = PublicFacts.parse(List.of("size"), "declared by the user (publicFacts)")
                .declaring(new PublicFacts(null, "declared by the user (classes)", null, false));
        org.privadapt.data.Dataset raw = new org.privadapt.data.Dataset("s", DenseMatrix.fromRows(source.x()),
                ClassLabels.fromStrings(Arrays.asList(source.y())), null, Provenance.generated("stage test"));
        org.privadapt.data.Dataset rows = Preprocessing.parse(release.preprocessing()).fitAndApply(raw).withPublicFacts(declared);
        rows = rows.withLabels(rows.classLabels().recodeTo(StageTestSupport.CLASSES), "--classes");
        return Prima.train(rows, release, new MethodConfig("lr", 0.0, 1L, Map.of("learner", learner, "learner-row-bound", "2.0")),
                session);
    }

    static PrivacySession sourceSession() {
        return new PrivacySession("source", new PrivacyBudget(2.0, 1e-5), NeighbouringRelation.ADD_OR_REMOVE_ONE,
                PartyNoise.of(11L, 0, "source"), null);
    }

    static void assertSameModel(SourceModel got, SourceModel expected, String what) {
        assertThat(got.classNames()).isEqualTo(expected.classNames());
        assertThat(got.groups()).hasSameSizeAs(expected.groups());
        for (int g = 0; g < expected.groups().size(); g++) {
            for (int m = 0; m < expected.groups().get(g).size(); m++) {
                Network a = got.groups().get(g).get(m);
                Network b = expected.groups().get(g).get(m);
                for (int l = 0; l < b.layers(); l++) {
                    StageTestSupport.assertClose(a.weights(l).data(), b.weights(l).data(), 1e-9, what + " weights " + l);
                    StageTestSupport.assertClose(a.bias(l), b.bias(l), 1e-9, what + " bias " + l);
                }
            }
        }
        assertThat(got.privacy().toString()).as(what + " privacy statement").isEqualTo(expected.privacy().toString());
    }

    @Test
    void theStagesModelEqualsTheInProcessModelOnTheSameSeedAndIsChargedAsIt() throws Exception {
        Dataset<Row> src = source.assembled(spark).coalesce(1); // dp-sgd samples by position: the rows in their order
        for (String learner : List.of("ncm", "adassp", "dp-sgd")) {
            Path ledger = dir.resolve(learner + ".ledger");
            PrimaSourceClassifier model = trainer(learner).setLedgerPath(ledger.toString()).fit(src);
            PrivacySession local = sourceSession();
            SourceModel expected = inProcess(learner, local);
            assertSameModel(model.model(), expected, learner);
            assertThat(model.isPrivate()).isFalse();
            assertThat(BudgetLedger.open(ledger).read().epsilonSpent()).as(learner).isEqualTo(local.spent().epsilon()).isPositive();
        }
    }

    @Test
    void aSpentOrDamagedLedgerRefusesFitBeforeAnyRowIsRead() throws Exception {
        Dataset<Row> poisoned = StageTestSupport.poisoned(source.assembled(spark));
        Path ledger = dir.resolve("spent.ledger");
        PrivacySession earlier = new PrivacySession("source", new PrivacyBudget(2.0, 1e-5), NeighbouringRelation.ADD_OR_REMOVE_ONE,
                PartyNoise.of(1L, 0, "source"), BudgetLedger.openOrCreateLazily(ledger, "source", new PrivacyBudget(2.0, 1e-5),
                        NeighbouringRelation.ADD_OR_REMOVE_ONE, false));
        earlier.charge("an earlier release", "test", new org.privadapt.privacy.events.ApproximateDpEvent(2.0, 1e-5), Map.of());
        byte[] before = Files.readAllBytes(ledger);
        assertThatThrownBy(() -> trainer("ncm").setLedgerPath(ledger.toString()).fit(poisoned))
                .isInstanceOf(PrivateFitException.class).hasCauseInstanceOf(BudgetExceededException.class)
                .hasMessageNotContaining("a row was read");
        assertThat(Files.readAllBytes(ledger)).isEqualTo(before);
        Path damaged = dir.resolve("damaged.ledger");
        Files.writeString(damaged, "{ not a ledger");
        assertThatThrownBy(() -> trainer("ncm").setLedgerPath(damaged.toString()).fit(poisoned))
                .isInstanceOf(PrivateFitException.class).hasCauseInstanceOf(BudgetLedger.LedgerException.class);
        assertThat(Files.readString(damaged)).isEqualTo("{ not a ledger");
    }

    @Test
    void saveLoadTransformGivesTheSamePredictionsAsTheFittedAndTheInProcessModel() throws Exception {
        PrimaSourceClassifier model = trainer("ncm").fit(source.assembled(spark));
        String path = dir.resolve("source-model").toString();
        model.write().overwrite().save(path);
        PrimaSourceClassifier loaded = PrimaSourceClassifier.load(path);
        assertThat(loaded.artifact().checksum()).isEqualTo(model.artifact().checksum());
        assertThat(loaded.artifact().privacy()).isEqualTo(model.artifact().privacy()).isNotEmpty();
        assertThat(loaded.artifact().privacy().path("private").asBoolean(true)).isFalse();
        Dataset<Row> t = target.assembled(spark).coalesce(1);
        double[] fitted = predictions(model.transform(t));
        double[] back = predictions(loaded.transform(t));
        assertThat(back).isEqualTo(fitted);
        DenseMatrix pre = Preprocessing.parse(release.preprocessing()).fitAndApply(new org.privadapt.data.Dataset("t",
                DenseMatrix.fromRows(target.x()), null, null, Provenance.generated("stage test"))).features().toDense();
        int[] local = model.model().predict(pre);
        assertThat(Arrays.stream(local).asDoubleStream().toArray()).isEqualTo(fitted);
    }

    static double[] predictions(Dataset<Row> predicted) {
        return predicted.select("prediction").collectAsList().stream().mapToDouble(r -> r.getDouble(0)).toArray();
    }
}
