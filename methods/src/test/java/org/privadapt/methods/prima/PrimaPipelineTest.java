package org.privadapt.methods.prima;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.data.preprocess.Preprocessing;
import org.privadapt.data.synthetic.SyntheticShift;
import org.privadapt.methods.artifacts.Artifact;
import org.privadapt.methods.artifacts.ArtifactException;
import org.privadapt.methods.core.AdaptationOutcome;
import org.privadapt.methods.core.AdaptationTask;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.Methods;
import org.privadapt.methods.core.PrivacyContext;
import org.privadapt.methods.core.TaskPreparation;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.ledger.BudgetLedger;
import org.privadapt.privacy.noise.NoiseSource;

/** PRIMA/PRISA end to end on generated data: accuracy, budgets, reproducibility, artifacts, refusals. */
class PrimaPipelineTest {
    @TempDir
    Path dir;

    static AdaptationTask task() throws Exception {
        var p = SyntheticShift.generate(new SyntheticShift.Config(12, 3, 300, 300, 4.0, 3.0, 1.0), 4);
        return TaskPreparation.prepare("syn", p.source(), p.target(), p.target(), Preprocessing.parse("clip=12"),
                Set.of("source", "target"));
    }

    static MethodConfig config(String classifier) {
        return new MethodConfig(classifier, 0, 1, Map.of("epochs", "20", "lr", "0.02", "batch", "64"));
    }

    @Test
    void everyVariantLearnsAndStaysWithinEachPartysBudget() throws Exception {
        AdaptationTask t = task();
        for (String m : new String[] {"prima", "prisa", "prima-basic", "prima-rse", "prima-rse-fs", "prima-basic-shrink"}) {
            AdaptationOutcome o = Methods.get(m).run(t, config("lr"), PrivacyContext.seeded(8.0, 1e-5, 3));
            assertThat(o.accuracy()).as(m).isGreaterThan(0.6); // 3 classes: chance 1/3
            for (String party : new String[] {"source", "target"}) {
                assertThat(o.privacy().get(party).epsilon()).as(m + " " + party).isLessThanOrEqualTo(8.0).isGreaterThan(6.0);
                assertThat(o.privacy().get(party).delta()).isLessThanOrEqualTo(1e-5);
                assertThat(o.privacy().get(party).seededNoise()).isTrue();
            }
        }
        AdaptationOutcome dnn = Methods.get("prima").run(t, config("dnn"), PrivacyContext.seeded(8.0, 1e-5, 3));
        assertThat(dnn.accuracy()).isGreaterThan(0.6);
    }

    @Test
    void theSameSeedGivesTheSamePredictionsAndAnotherSeedDifferentNoise() throws Exception {
        AdaptationTask t = task();
        AdaptationOutcome a = Methods.get("prima").run(t, config("lr"), PrivacyContext.seeded(2.0, 1e-5, 9));
        AdaptationOutcome b = Methods.get("prima").run(t, config("lr"), PrivacyContext.seeded(2.0, 1e-5, 9));
        AdaptationOutcome c = Methods.get("prima").run(t, config("lr"), PrivacyContext.seeded(2.0, 1e-5, 10));
        assertThat(b.predictions()).isEqualTo(a.predictions());
        assertThat(c.predictions()).isNotEqualTo(a.predictions());
    }

    TargetRelease release(AdaptationTask t, long seed) throws Exception {
        PrimaMethod m = PrimaMethod.prima();
        PrimaConfig cfg = m.config(config("lr"), t.preprocessing());
        PrivacySession s = new PrivacySession("target", new PrivacyBudget(2.0, 1e-5), NeighbouringRelation.ADD_OR_REMOVE_ONE,
                NoiseSource.seeded(seed), null);
        return Prima.release(t.target(), cfg, t.preprocessing(), "prima", 1, "run-test", s);
    }

    @Test
    void releasesRoundTripExactlyAndTamperedOrForeignArtifactsAreRejected() throws Exception {
        AdaptationTask t = task();
        TargetRelease r = release(t, 1);
        byte[] bytes = r.toArtifact().toBytes();
        TargetRelease back = TargetRelease.fromArtifact(Artifact.parse("r", bytes, "release"), "r");
        assertThat(back.checksum()).isEqualTo(r.checksum());
        for (int b = 0; b < r.partition().size(); b++) {
            assertThat(back.blocks().get(b).data()).isEqualTo(r.blocks().get(b).data()); // bit-exact
        }
        ObjectMapper json = new ObjectMapper();
        // tampered: one number changed, checksum kept
        ObjectNode doc = (ObjectNode) json.readTree(bytes);
        doc.with("payload").put("dimension", 13);
        assertThatThrownBy(() -> Artifact.parse("r.json", json.writeValueAsBytes(doc), "release"))
                .isInstanceOf(ArtifactException.class).hasMessageContaining("r.json").hasMessageContaining("checksum");
        // another version
        ObjectNode v2 = (ObjectNode) json.readTree(bytes);
        v2.put("version", 2);
        assertThatThrownBy(() -> Artifact.parse("r.json", json.writeValueAsBytes(v2), "release"))
                .hasMessageContaining("version 2 is not supported");
        // another kind, malformed, truncated
        assertThatThrownBy(() -> Artifact.parse("r.json", bytes, "model")).hasMessageContaining("expected a 'model'");
        assertThatThrownBy(() -> Artifact.parse("r.json", "{".getBytes(StandardCharsets.UTF_8), "release"))
                .hasMessageContaining("malformed");
        assertThatThrownBy(() -> Artifact.parse("r.json", java.util.Arrays.copyOf(bytes, bytes.length / 2), "release"))
                .isInstanceOf(ArtifactException.class);
        // a source of another dimension
        var other = SyntheticShift.generate(new SyntheticShift.Config(7, 3, 50, 50, 4.0, 3.0, 1.0), 4);
        PrivacySession s = new PrivacySession("source", new PrivacyBudget(2.0, 1e-5), NeighbouringRelation.ADD_OR_REMOVE_ONE,
                NoiseSource.seeded(1), null);
        assertThatThrownBy(() -> Prima.train(other.source(), back, config("lr"), s))
                .isInstanceOf(org.privadapt.data.DataException.class).hasMessageContaining("has 7 features")
                .hasMessageContaining("is for 12");
        assertThat(s.events()).isEmpty(); // nothing spent
    }

    @Test
    void aBudgetTooSmallIsRefusedBeforeAnyNoiseAndTheLedgerIsUnchanged() throws Exception {
        AdaptationTask t = task();
        Path ledger = dir.resolve("target.ledger");
        BudgetLedger l = BudgetLedger.openOrCreate(ledger, "target", new PrivacyBudget(1.0, 1e-5), NeighbouringRelation.ADD_OR_REMOVE_ONE);
        byte[] before = Files.readAllBytes(ledger);
        PrivacySession s = new PrivacySession("target", new PrivacyBudget(2.0, 1e-5), NeighbouringRelation.ADD_OR_REMOVE_ONE,
                NoiseSource.seeded(1), l);
        PrimaConfig cfg = PrimaMethod.prima().config(config("lr"), t.preprocessing());
        assertThatThrownBy(() -> Prima.release(t.target(), cfg, t.preprocessing(), "prima", 1, "run", s))
                .isInstanceOf(BudgetExceededException.class);
        assertThat(Files.readAllBytes(ledger)).isEqualTo(before);
    }

    @Test
    void theModelRecordsTheReleaseItWasTrainedOnAndBothPartiesCosts() throws Exception {
        AdaptationTask t = task();
        TargetRelease r = release(t, 2);
        PrivacySession s = new PrivacySession("source", new PrivacyBudget(2.0, 1e-5), NeighbouringRelation.ADD_OR_REMOVE_ONE,
                NoiseSource.seeded(1), null);
        SourceModel model = Prima.train(t.source(), r, config("lr"), s);
        Artifact a = model.toArtifact("run-test");
        SourceModel back = SourceModel.fromArtifact(Artifact.parse("m", a.toBytes(), "model"), "m");
        assertThat(back.releaseChecksum()).isEqualTo(r.checksum());
        assertThat(Prima.predict(back, t.evaluation())).isEqualTo(Prima.predict(model, t.evaluation()));
        assertThat(a.privacy().path("epsilon_spent").asDouble()).isLessThanOrEqualTo(2.0).isPositive();
        assertThat(a.privacy().path("events").size()).isEqualTo(2); // own moments, DP-SGD
        assertThat(a.privacy().path("warning").asText()).contains("NOT differentially private");
        assertThat(r.privacy().path("events").size()).isEqualTo(2); // forward-selection moments, subspace moments
    }
}
