package org.privadapt.sparkml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.data.Provenance;
import org.privadapt.data.preprocess.Preprocessing;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.prima.Prima;
import org.privadapt.methods.prima.PrimaConfig;
import org.privadapt.methods.prima.PrimaMethod;
import org.privadapt.methods.prima.TargetRelease;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.ledger.BudgetLedger;
import org.privadapt.privacy.noise.PartyNoise;

/**
 * {@link PrimaTargetRelease} on local[2]: with a seed, the release equals the in-process release the CLI's
 * {@code target release --seed} makes on the same rows (the same per-party seeded stream, settings, preprocessing and
 * run id: numbers to 1e-9 relative, the same privacy statement, marked NOT private) and its ledger charge is the
 * in-process session's; a budget too short for the plan, or a spent ledger, refuses fit before any row is read
 * (the rows here fail when read) and charges nothing; save then load keeps the artifact (its checksum and privacy
 * block) and the Params.
 */
class PrimaTargetReleaseStageTest {
    static final String PRE = "l2,scale=2";
    static final String[] PARAMS = {"block-size=3", "max-block=4"};
    static SparkSession spark;
    static final StageTestSupport.Rows target = StageTestSupport.generate(240, 6, 21, 0.5);
    static Dataset<Row> assembled;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() {
        spark = StageTestSupport.spark();
        assembled = target.assembled(spark);
    }

    static PrimaTargetRelease estimator() {
        return new PrimaTargetRelease().setEpsilon(2.0).setSeed(7).setRunId("run-stage").setPreprocessing(PRE)
                .setMethodParams(PARAMS);
    }

    /** As {@code target release --seed 7 --preprocess l2,scale=2 --param ...} in process. */
    static TargetRelease inProcess(PrivacySession session) throws Exception {
        PrimaConfig cfg = PrimaMethod.prima().config(new MethodConfig("lr", 0.0, 1L, Map.of("block-size", "3", "max-block", "4")), PRE);
        org.privadapt.data.Dataset rows = Preprocessing.parse(PRE).fitAndApply(new org.privadapt.data.Dataset("t",
                DenseMatrix.fromRows(target.x()), null, null, Provenance.generated("stage test")));
        return Prima.release(rows, cfg, PRE, "prima", 1L, "run-stage", session);
    }

    static PrivacySession targetSession() {
        return new PrivacySession("target", new PrivacyBudget(2.0, 1e-5), NeighbouringRelation.ADD_OR_REMOVE_ONE,
                PartyNoise.of(7L, 0, "target"), null);
    }

    @Test
    void theStagesReleaseEqualsTheInProcessReleaseOnTheSameSeedAndIsChargedAsIt() throws Exception {
        Path ledger = dir.resolve("target.ledger");
        PrimaTargetReleaseModel model = estimator().setLedgerPath(ledger.toString()).fit(assembled);
        PrivacySession local = targetSession();
        TargetRelease expected = inProcess(local);
        TargetRelease got = model.release();
        assertThat(got.partition().blocks()).usingRecursiveComparison().isEqualTo(expected.partition().blocks());
        StageTestSupport.assertClose(got.mean(), expected.mean(), 1e-9, "mean");
        StageTestSupport.assertClose(got.sd(), expected.sd(), 1e-9, "sd");
        for (int b = 0; b < expected.blocks().size(); b++) {
            StageTestSupport.assertClose(got.blocks().get(b).data(), expected.blocks().get(b).data(), 1e-9, "block " + b);
        }
        assertThat(got.privacy()).isEqualTo(expected.privacy());
        assertThat(model.isPrivate()).isFalse();
        assertThat(model.artifact().privacy().toString()).contains("NOT");
        BudgetLedger.Snapshot s = BudgetLedger.open(ledger).read();
        assertThat(s.epsilonSpent()).isEqualTo(local.spent().epsilon()).isPositive();
        assertThat(model.transform(assembled).columns()).isEqualTo(assembled.columns()); // a release, not a predictor
    }

    @Test
    void aBudgetTooShortOrASpentLedgerRefusesFitBeforeAnyRowIsRead() throws Exception {
        Dataset<Row> poisoned = StageTestSupport.poisoned(assembled);
        assertThatThrownBy(poisoned::collectAsList).hasStackTraceContaining("a row was read");
        Path ledger = dir.resolve("short.ledger");
        assertThatThrownBy(() -> estimator().setLedgerPath(ledger.toString()).setLedgerBudget(0.5).fit(poisoned))
                .isInstanceOf(PrivateFitException.class).hasCauseInstanceOf(BudgetExceededException.class)
                .hasMessageNotContaining("a row was read");
        assertThat(ledger).doesNotExist();
        // a ledger spent by a first fit: the second is refused, nothing read, the ledger unchanged
        Path spent = dir.resolve("spent.ledger");
        estimator().setEpsilon(1.0).setLedgerPath(spent.toString()).fit(assembled);
        byte[] before = Files.readAllBytes(spent);
        assertThatThrownBy(() -> estimator().setEpsilon(1.0).setLedgerPath(spent.toString()).fit(poisoned))
                .isInstanceOf(PrivateFitException.class).hasCauseInstanceOf(BudgetExceededException.class);
        assertThat(Files.readAllBytes(spent)).isEqualTo(before);
    }

    @Test
    void saveThenLoadKeepsTheArtifactWithItsPrivacyBlockAndTheParams() throws Exception {
        PrimaTargetReleaseModel model = estimator().fit(assembled);
        String path = dir.resolve("release-model").toString();
        model.write().overwrite().save(path);
        PrimaTargetReleaseModel loaded = PrimaTargetReleaseModel.load(path);
        assertThat(loaded.uid()).isEqualTo(model.uid());
        assertThat(loaded.artifact().checksum()).isEqualTo(model.artifact().checksum());
        assertThat(loaded.artifact().privacy()).isEqualTo(model.artifact().privacy()).isNotEmpty();
        assertThat(loaded.isPrivate()).isFalse();
        assertThat(loaded.release().mean()).isEqualTo(model.release().mean());
        // the artifact file is the CLI's: source train --release reads it
        Path file = dir.resolve("release.json");
        loaded.writeArtifact(file);
        assertThat(TargetRelease.fromArtifact(org.privadapt.methods.artifacts.Artifact.read(file, "release"), "release").mean())
                .isEqualTo(model.release().mean());
        PrimaTargetRelease est = estimator();
        String estPath = dir.resolve("estimator").toString();
        est.write().overwrite().save(estPath);
        PrimaTargetRelease back = PrimaTargetRelease.load(estPath);
        assertThat(back.getOrDefault(back.epsilon())).isEqualTo(2.0);
        assertThat(back.getOrDefault(back.seed())).isEqualTo(7L);
        assertThat((String[]) back.getOrDefault(back.methodParams())).containsExactly(PARAMS);
        assertThat(back.isDefined(back.ledgerPath())).isFalse();
    }
}
