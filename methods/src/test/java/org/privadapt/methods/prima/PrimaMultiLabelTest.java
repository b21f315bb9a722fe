package org.privadapt.methods.prima;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.privadapt.data.Dataset;
import org.privadapt.methods.artifacts.Artifact;
import org.privadapt.methods.artifacts.ArtifactException;
import org.privadapt.methods.core.AdaptationOutcome;
import org.privadapt.methods.core.AdaptationTask;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.Methods;
import org.privadapt.methods.core.PrivacyContext;
import org.privadapt.methods.testdata.MultiLabelShift;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.noise.NoiseSource;

/** PRIMA on multi-label targets (issue 47): one binary model per label, scored per label; its artifact; refusals. */
class PrimaMultiLabelTest {
    static final List<String> LABELS = MultiLabelShift.LABELS;

    static Dataset data(String name, int n, double shift, long seed) {
        return MultiLabelShift.data(name, n, 8, shift, seed);
    }

    static AdaptationTask task() {
        Dataset t = data("t", 400, 0.3, 2);
        return new AdaptationTask("s -> t", data("s", 2000, 0, 1), t.withoutLabels(), t);
    }

    static MethodConfig config(String learner) {
        return new MethodConfig("lr", 0, 1, Map.of("learner", learner, "epochs", "20", "lr", "0.05", "batch", "64"));
    }

    @Test
    void eachLabelIsLearntAndScoredAndBothPartiesAreChargedOnce() throws Exception {
        for (String learner : List.of("ncm", "dp-sgd")) {
            PrivacyContext ctx = PrivacyContext.seeded(8, 1e-5, 3);
            AdaptationOutcome o = Methods.get("prima").run(task(), config(learner), ctx);
            assertThat(o.isMultiLabel()).as(learner).isTrue();
            assertThat(o.classNames()).isEqualTo(LABELS);
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> per = (List<Map<String, Object>>) o.diagnostics().get("per_label");
            assertThat(per).hasSize(3);
            double mean = per.stream().mapToDouble(p -> (Double) p.get("accuracy")).average().orElseThrow();
            assertThat(o.accuracy()).isEqualTo(mean, org.assertj.core.data.Offset.offset(1e-12));
            // each label is present on 35 % of rows: always-absent scores 0.65; the label models must do clearly better
            assertThat(o.accuracy()).as(learner).isGreaterThan(0.75);
            assertThat(ctx.source().events()).as(learner).hasSize(2); // its moments, and the label models as one plan
            assertThat(ctx.target().events()).isNotEmpty();
            assertThat(o.privacy().get("source").epsilon()).isLessThanOrEqualTo(8 + 1e-9).isGreaterThan(6);
        }
    }

    @Test
    void aRefinementIsRefusedBeforeEitherPartyIsCharged() {
        PrivacyContext ctx = PrivacyContext.seeded(8, 1e-5, 3);
        assertThatThrownBy(() -> Methods.get("prima").run(task(), config("ncm").withParam("refine", "map-prototypes"), ctx))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("refine=map-prototypes");
        assertThat(ctx.source().events()).isEmpty();
        assertThat(ctx.target().events()).isEmpty();
    }

    static SourceModel model() throws Exception {
        AdaptationTask t = task();
        PrimaConfig cfg = PrimaConfig.prima(PrimaConfig.Adaptation.CORAL);
        PrivacySession ts = new PrivacySession("target", new PrivacyBudget(4, 1e-5), NeighbouringRelation.ADD_OR_REMOVE_ONE,
                NoiseSource.seeded(5), null);
        TargetRelease r = Prima.release(t.target(), cfg, "none", "prima", 1, "run", ts);
        PrivacySession ss = new PrivacySession("source", new PrivacyBudget(4, 1e-5), NeighbouringRelation.ADD_OR_REMOVE_ONE,
                NoiseSource.seeded(6), null);
        return Prima.train(t.source(), r, config("ncm"), ss);
    }

    @Test
    void theArtifactKeepsTheLabelModelsAndOnlyAMultiLabelReaderTakesThem() throws Exception {
        SourceModel m = model();
        assertThat(m.multiLabel()).isTrue();
        Dataset eval = task().evaluation();
        byte[] bytes = m.toArtifact("run").toBytes();
        SourceModel back = SourceModel.fromArtifact(Artifact.parse("model", bytes, "model"), "model");
        assertThat(back.multiLabel()).isTrue();
        assertThat(back.classNames()).isEqualTo(LABELS);
        assertThat(Prima.predictLabels(back, eval)).isDeepEqualTo(Prima.predictLabels(m, eval));
        // a class reader's entry point refuses a label model, and the other way round
        assertThatThrownBy(() -> Prima.predict(back, eval)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("predictLabels");
        // the label models sit under label_groups, so a reader that knows only class groups finds none and refuses
        Artifact a = Artifact.parse("model", bytes, "model");
        assertThat(a.payload().has("groups")).isFalse();
        assertThat(a.payload().get("label_groups").get(0)).hasSize(3);
        // a label model with the wrong classes, or a missing one, is refused
        ((ArrayNode) ((ObjectNode) a.payload().get("label_groups").get(0).get(1)).get("classes")).set(1, "c");
        assertThatThrownBy(() -> SourceModel.fromArtifact(a, "model")).isInstanceOf(ArtifactException.class)
                .hasMessageContaining("label model 2");
        Artifact b = Artifact.parse("model", bytes, "model");
        ((ArrayNode) b.payload().get("label_groups").get(0)).remove(2);
        assertThatThrownBy(() -> SourceModel.fromArtifact(b, "model")).isInstanceOf(ArtifactException.class)
                .hasMessageContaining("2 label models for 3 labels");
    }

    @Test
    void aClassModelRefusesToPredictLabels() throws Exception {
        SourceModel m = model();
        SourceModel classes = new SourceModel(m.releaseRunId(), m.releaseChecksum(), m.method(), m.config(), m.preprocessing(),
                m.partition(), m.targetMean(), m.targetSd(), m.targetBases(), m.groups(), m.classNames(), false, m.privacy());
        assertThatThrownBy(() -> classes.predictLabels(task().evaluation().features())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("use predict");
    }
}
