package org.privadapt.methods.gmmuda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.data.Dataset;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.methods.artifacts.Artifact;
import org.privadapt.methods.artifacts.ArtifactException;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.models.mixture.DpGaussianMixtureEm;
import org.privadapt.models.nn.graph.DenseLayer;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.noise.NoiseSource;

/** The dp-uda-gmm release as an artifact: exact round trip, and the refusals of damaged or foreign artifacts. */
class SourceReleaseArtifactTest {
    @TempDir
    Path dir;

    static SourceReleaseArtifact make(String covariance) throws Exception {
        return make(covariance, org.privadapt.data.text.TextEncoding.Identity.BOW);
    }

    static SourceReleaseArtifact make(String covariance, org.privadapt.data.text.TextEncoding.Identity encoder) throws Exception {
        Dataset s = GmmUdaMethodTest.data("s", 300, 12, 0, 1);
        Map<String, String> settings = Map.of("hidden", "8", "epochs", "3", "batch", "32", "components", "2", "em-iterations", "2",
                "covariance", covariance);
        GmmUdaConfig c = GmmUdaConfig.from(new MethodConfig("lr", 0, 1L, settings));
        PrivacySession session = new PrivacySession("source", new PrivacyBudget(4, 1e-5), NeighbouringRelation.ADD_OR_REMOVE_ONE,
                NoiseSource.seeded(3), null);
        FeatureMatrix x = GmmUdaMethod.unit(s.features());
        SourceRelease r = SourceRelease.trainPrivate(x, s.labels().orElseThrow(), c, session);
        return SourceReleaseArtifact.of(r, GmmUdaMethodTest.LABELS, true, 12, "none", encoder, settings, 1L, session, "run-test");
    }

    /** Issue 47: the text encoder a release was trained on survives the round trip, and another one is refused. */
    @Test
    void theTextEncoderIsRecordedAndATargetOfAnotherIsRefused() throws Exception {
        var minilm = new org.privadapt.data.text.TextEncoding.Identity("minilm", "ab".repeat(32));
        SourceReleaseArtifact a = make("diag", minilm);
        Path f = dir.resolve("minilm.json");
        a.toArtifact().write(f);
        SourceReleaseArtifact b = SourceReleaseArtifact.fromArtifact(Artifact.read(f, "release"), f.toString());
        assertThat(b.textEncoder()).isEqualTo(minilm);
        b.requireEncoder(minilm, "r.json"); // the same: accepted
        assertThatThrownBy(() -> b.requireEncoder(org.privadapt.data.text.TextEncoding.Identity.BOW, "r.json"))
                .isInstanceOf(EncoderMismatchException.class).hasMessageContaining("trained on text encoder minilm (sha256 abab")
                .hasMessageContaining("--param encoder=minilm");
        var otherWeights = new org.privadapt.data.text.TextEncoding.Identity("minilm", "cd".repeat(32));
        assertThatThrownBy(() -> b.requireEncoder(otherWeights, "r.json")).isInstanceOf(EncoderMismatchException.class)
                .hasMessageContaining("sha256 cdcd").hasMessageNotContaining("--param encoder");
        // a release written before issue 47 (no text_encoder) reads as the bag of words
        SourceReleaseArtifact bow = make("diag");
        assertThat(bow.textEncoder()).isEqualTo(org.privadapt.data.text.TextEncoding.Identity.BOW);
    }

    @Test
    void roundTripIsExactForDiagonalAndFullMixtures() throws Exception {
        FeatureMatrix probe = GmmUdaMethod.unit(GmmUdaMethodTest.data("t", 50, 12, 0.3, 9).features());
        for (String cov : List.of("diag", "full")) {
            SourceReleaseArtifact a = make(cov);
            Path f = dir.resolve(cov + ".json");
            a.toArtifact().write(f);
            SourceReleaseArtifact b = SourceReleaseArtifact.fromArtifact(Artifact.read(f, "release"), f.toString());
            List<DenseLayer> la = a.release().model().layers();
            List<DenseLayer> lb = b.release().model().layers();
            assertThat(lb).hasSameSizeAs(la);
            for (int i = 0; i < la.size(); i++) {
                assertThat(bits(lb.get(i).weights().data())).isEqualTo(bits(la.get(i).weights().data()));
                assertThat(bits(lb.get(i).bias())).isEqualTo(bits(la.get(i).bias()));
                assertThat(lb.get(i).activation()).isEqualTo(la.get(i).activation());
                assertThat(lb.get(i).frozen()).isEqualTo(la.get(i).frozen());
            }
            var ga = a.release().mixture();
            var gb = b.release().mixture();
            assertThat(gb.covarianceType()).isEqualTo(ga.covarianceType());
            assertThat(bits(gb.weights())).isEqualTo(bits(ga.weights()));
            assertThat(bits(gb.means().data())).isEqualTo(bits(ga.means().data()));
            for (int c = 0; c < ga.components(); c++) {
                assertThat(bits(gb.covariance(c).data())).isEqualTo(bits(ga.covariance(c).data()));
            }
            // the same predictions and the same log densities, bit for bit
            assertThat(bits(b.release().model().logits(probe).data())).isEqualTo(bits(a.release().model().logits(probe).data()));
            DenseMatrix z = DpGaussianMixtureEm.clipRows(a.release().model().features(probe), 2);
            assertThat(bits(gb.logDensities(z))).isEqualTo(bits(ga.logDensities(z)));
            // the rest of the release
            assertThat(b.labels()).isEqualTo(GmmUdaMethodTest.LABELS);
            assertThat(b.multiLabel()).isTrue();
            assertThat(b.inputDim()).isEqualTo(12);
            assertThat(b.preprocessing()).isEqualTo("none");
            assertThat(b.settings()).isEqualTo(a.settings());
            assertThat(b.seed()).isEqualTo(1L);
            assertThat(b.checksum()).isEqualTo(a.checksum());
            assertThat(b.release().event()).isEqualTo(a.release().event());
            assertThat(b.release().parameters().keySet()).isEqualTo(a.release().parameters().keySet());
            assertThat((Double) b.release().parameters().get("dp_sgd_noise_multiplier"))
                    .isEqualTo((Double) a.release().parameters().get("dp_sgd_noise_multiplier"));
            // the privacy statement: what was spent, under which relation, and that seeded noise is not private
            assertThat(b.privacy().path("epsilon").asDouble()).isEqualTo(4.0);
            assertThat(b.privacy().path("epsilon_spent").asDouble()).isPositive().isLessThanOrEqualTo(4.0 + 1e-9);
            assertThat(b.privacy().path("delta").asDouble()).isEqualTo(1e-5);
            assertThat(b.privacy().path("relation").asText()).isEqualTo("add-remove");
            assertThat(b.privacy().path("events").size()).isEqualTo(2);
            assertThat(b.isPrivate()).isFalse();
            assertThat(b.privacy().path("warning").asText()).contains("NOT differentially private");
            // written again, the same bytes
            Path g = dir.resolve(cov + "2.json");
            b.toArtifact().write(g);
            assertThat(Files.readAllBytes(g)).isEqualTo(Files.readAllBytes(f));
        }
    }

    private static long[] bits(double[] v) {
        long[] b = new long[v.length];
        for (int i = 0; i < v.length; i++) {
            b[i] = Double.doubleToRawLongBits(v[i]);
        }
        return b;
    }

    @Test
    void damagedForeignAndOtherVersionArtifactsAreRefused() throws Exception {
        SourceReleaseArtifact a = make("diag");
        Path f = dir.resolve("r.json");
        a.toArtifact().write(f);
        String text = Files.readString(f);

        Path damaged = dir.resolve("damaged.json");
        Files.writeString(damaged, text.replace("\"seed\" : 1", "\"seed\" : 2"));
        assertThatThrownBy(() -> Artifact.read(damaged, "release")).isInstanceOf(ArtifactException.class).hasMessageContaining("checksum");

        Path truncated = dir.resolve("truncated.json");
        Files.write(truncated, java.util.Arrays.copyOf(text.getBytes(StandardCharsets.UTF_8), text.length() / 2));
        assertThatThrownBy(() -> Artifact.read(truncated, "release")).isInstanceOf(ArtifactException.class).hasMessageContaining("truncated");

        Path version = dir.resolve("v2.json");
        Files.writeString(version, text.replace("\"version\" : 1", "\"version\" : 2"));
        assertThatThrownBy(() -> Artifact.read(version, "release")).isInstanceOf(ArtifactException.class)
                .hasMessageContaining("version 2 is not supported");

        // same payload, another kind / method / party, correctly sealed: refused by kind, method, party
        Artifact good = Artifact.read(f, "release");
        for (String[] km : new String[][] {{"model", "dp-uda-gmm", "source"}, {"release", "dpot", "source"},
            {"release", "dp-uda-gmm", "target"}}) {
            Artifact other = Artifact.create(km[0], km[1], km[2], "run-x", good.created());
            other.privacy().setAll(good.privacy());
            other.payload().setAll(good.payload());
            Path o = dir.resolve(km[0] + km[1] + km[2] + ".json");
            other.write(o);
            Artifact read = Artifact.read(o, null);
            assertThatThrownBy(() -> SourceReleaseArtifact.fromArtifact(read, o.toString())).isInstanceOf(ArtifactException.class)
                    .hasMessageContaining(km[0].equals("model") ? "expected a 'release'" : km[1].equals("dpot")
                            ? "release of method 'dpot', not of dp-uda-gmm" : "party 'target'");
        }

        // a payload that does not chain (a layer's shape changed, then re-sealed) is refused with the place named
        Artifact bad = Artifact.read(f, "release");
        ((com.fasterxml.jackson.databind.node.ObjectNode) bad.payload().get("classifier").get(0)).put("in", 7);
        Path b = dir.resolve("bad.json");
        bad.write(b);
        assertThatThrownBy(() -> SourceReleaseArtifact.fromArtifact(Artifact.read(b, "release"), b.toString()))
                .isInstanceOf(ArtifactException.class).hasMessageContaining("classifier layer 0");
    }
}
