package org.privadapt.methods.gmmuda;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.privadapt.data.text.TextEncoding;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.artifacts.Artifact;
import org.privadapt.methods.artifacts.ArtifactException;
import org.privadapt.models.mixture.CovarianceType;
import org.privadapt.models.mixture.GaussianMixture;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.graph.DenseLayer;
import org.privadapt.models.nn.graph.EncoderClassifier;
import org.privadapt.models.nn.graph.Stack;
import org.privadapt.privacy.events.DpEvent;
import org.privadapt.privacy.events.EventJson;

/**
 * Paper 004's source release as the artifact that crosses to the target (kind {@code release}, method
 * {@value #METHOD}, party {@code source}): the DP encoder and classifier stacks, the DP-EM mixture of the encoder's
 * features, the label names and task type, the public featurisation facts the target's rows must match (input
 * dimension, row-local preprocessing, then every row to unit L2 norm), the source's public settings and the plan's
 * public parameters, and the privacy statement (epsilon, delta, relation, events; {@code private: false} when the
 * noise was seeded).
 *
 * <p>Every array of doubles is stored exactly (float64, {@link Artifact#putDoubles}); matrices column-major, as
 * {@link DenseMatrix#data()} holds them. Reading rebuilds the same network and mixture bit for bit, so the target's
 * predictions and log densities are the source's.
 *
 * @param textEncoder the text encoder the source's rows were encoded with ({@code bow} for the hashed bag of words
 *                    or rows that are no text; otherwise a frozen pretrained encoder's name and the SHA-256 of its
 *                    weights and tokenizer): the target must encode its rows with the same ({@link #requireEncoder})
 * @param settings the source's {@code --param} settings (public, fixed before any data are read)
 * @param seed     the public seed of the settings (initialisation; the target's adaptation uses it unless told otherwise)
 */
public record SourceReleaseArtifact(SourceRelease release, List<String> labels, boolean multiLabel, int inputDim,
                                    String preprocessing, TextEncoding.Identity textEncoder, Map<String, String> settings, long seed, ObjectNode privacy,
                                    String runId, String created, String checksum) {
    /** The method named in the artifact. */
    public static final String METHOD = "dp-uda-gmm";
    /** The row normalisation both sides apply after the preprocessing ({@link GmmUdaMethod#unit}). */
    public static final String ROW_NORMALISATION = "unit-l2";
    /** The settings that shape the source's release (the others are the target's adaptation's). */
    public static final Set<String> SOURCE_PARAMETERS = Set.of("encoder", "row-norm", "hidden", "activation", "epochs", "batch", "lr", "optimizer", "clip",
            "weight-decay", "components", "covariance", "em-iterations", "feature-clip", "em-share");
    /** The settings of the target's adaptation ({@code target adapt --param}). */
    public static final Set<String> TARGET_PARAMETERS = Set.of("adversary", "mode", "adapt-epochs", "adapt-batch", "adapt-lr",
            "kd", "temperature", "im", "diversity", "disc-hidden");

    public SourceReleaseArtifact {
        labels = List.copyOf(labels);
        settings = Map.copyOf(settings);
    }

    /**
     * The artifact of a private release just made with {@code session} (whose events are the release's): the privacy
     * statement is the session's (epsilon and delta targeted and spent, relation, events, accountant, sampler,
     * private or seeded) with what it covers; the target's side spends nothing.
     */
    public static SourceReleaseArtifact of(SourceRelease release, List<String> labels, boolean multiLabel, int inputDim,
                                           String preprocessing, TextEncoding.Identity textEncoder, Map<String, String> settings, long seed,
                                           org.privadapt.privacy.PrivacySession session, String runId) {
        ObjectNode privacy = org.privadapt.methods.prima.Prima.statement(session, "source", session.target().delta());
        privacy.put("guarantee", "(epsilon, delta)-DP for the source's records under " + session.relation().description()
                + ": the encoder and classifier (DP-SGD) and the mixture (DP-EM on the DP encoder's clipped features) "
                + "composed as one plan; everything derived from them is post-processing");
        privacy.put("covers", "encoder, classifier, mixture, plan parameters; n, the label set and the feature layout are "
                + "declared public");
        privacy.put("target_spends", 0.0);
        SourceReleaseArtifact a = new SourceReleaseArtifact(release, labels, multiLabel, inputDim, preprocessing, textEncoder, settings, seed,
                privacy, runId, java.time.Instant.now().toString(), null);
        String checksum = a.toArtifact().checksum();
        return new SourceReleaseArtifact(release, labels, multiLabel, inputDim, preprocessing, textEncoder, settings, seed, privacy, runId,
                a.created(), checksum);
    }

    /**
     * Refuses rows encoded by another text encoder than the release's (another name, or the same name with other
     * weights): the released encoder, classifier and mixture are over the release's feature space only.
     *
     * @param rows the encoder of the target's rows ({@link TextEncoding#identity(org.privadapt.data.Dataset)})
     * @throws EncoderMismatchException one line naming both
     */
    public void requireEncoder(TextEncoding.Identity rows, String where) throws EncoderMismatchException {
        if (!textEncoder.equals(rows)) {
            String fix = textEncoder.name().equals(rows.name()) ? "" : "; encode them with --param encoder=" + textEncoder.name();
            throw new EncoderMismatchException(where + ": the release was trained on text encoder " + textEncoder.describe()
                    + ", the target's rows are encoded with " + rows.describe() + fix);
        }
    }

    /** Whether the release's noise was drawn securely (false: seeded, NOT differentially private). */
    public boolean isPrivate() {
        return privacy.path("private").asBoolean(false);
    }

    /** The artifact, sealed (its checksum computed). */
    public Artifact toArtifact() {
        Artifact a = Artifact.create("release", METHOD, "source", runId, created);
        a.privacy().setAll(privacy.deepCopy());
        ObjectNode p = a.payload();
        p.put("task", multiLabel ? "multi-label" : "classes");
        ArrayNode ln = p.putArray("labels");
        labels.forEach(ln::add);
        p.put("input_dim", inputDim);
        ObjectNode f = p.putObject("featurisation");
        f.put("input_dim", inputDim);
        f.put("preprocessing", preprocessing);
        f.put("row_normalisation", ROW_NORMALISATION);
        ObjectNode te = f.putObject("text_encoder");
        te.put("name", textEncoder.name());
        te.put("sha256", textEncoder.hash());
        ObjectNode s = p.putObject("settings");
        new TreeMap<>(settings).forEach(s::put);
        p.put("seed", seed);
        ObjectNode plan = p.putObject("plan");
        new TreeMap<>(release.parameters()).forEach((k, v) -> plan.set(k, json(v)));
        if (release.event() != null) {
            p.set("event", EventJson.write(release.event()));
        }
        putStack(p.putArray("encoder"), release.model().encoder());
        putStack(p.putArray("classifier"), release.model().classifier());
        putMixture(p.putObject("mixture"), release.mixture());
        a.seal();
        return a;
    }

    private static JsonNode json(Object v) {
        var n = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance;
        if (v == null) {
            return n.nullNode();
        }
        if (v instanceof Integer i) {
            return n.numberNode(i);
        }
        if (v instanceof Long l) {
            return n.numberNode(l);
        }
        if (v instanceof Number d) {
            return n.numberNode(d.doubleValue());
        }
        if (v instanceof Boolean b) {
            return n.booleanNode(b);
        }
        return n.textNode(v.toString());
    }

    private static void putStack(ArrayNode out, Stack s) {
        for (DenseLayer l : s.layers()) {
            ObjectNode o = out.addObject();
            o.put("in", l.in());
            o.put("out", l.out());
            o.put("activation", l.activation().name().toLowerCase(java.util.Locale.ROOT));
            o.put("frozen", l.frozen());
            o.put("layout", "column-major in x out");
            Artifact.putDoubles(o, "weights", l.weights().data());
            Artifact.putDoubles(o, "bias", l.bias());
        }
    }

    private static void putMixture(ObjectNode o, GaussianMixture g) {
        int k = g.components();
        int d = g.dimension();
        o.put("covariance", g.covarianceType() == CovarianceType.FULL ? "full" : "diag");
        o.put("components", k);
        o.put("dimension", d);
        Artifact.putDoubles(o, "weights", g.weights());
        o.put("layout", "means and variances column-major K x d; covariances column-major d x d");
        Artifact.putDoubles(o, "means", g.means().data());
        if (g.covarianceType() == CovarianceType.FULL) {
            ArrayNode cs = o.putArray("covariances");
            for (int c = 0; c < k; c++) {
                Artifact.putDoubles(cs.addObject(), "values", g.covariance(c).data());
            }
        } else {
            DenseMatrix v = DenseMatrix.zeros(k, d);
            for (int c = 0; c < k; c++) {
                double[] vc = g.variances(c);
                for (int j = 0; j < d; j++) {
                    v.set(c, j, vc[j]);
                }
            }
            Artifact.putDoubles(o, "variances", v.data());
        }
    }

    /**
     * Reads a release written by {@link #toArtifact()} (the caller has read it with kind "release", so its format,
     * version and checksum are verified).
     *
     * @throws ArtifactException naming {@code where} and what is wrong: another party or method, a missing or
     *                           malformed field, or shapes that do not chain
     */
    public static SourceReleaseArtifact fromArtifact(Artifact a, String where) throws ArtifactException {
        if (!"release".equals(a.kind())) {
            throw new ArtifactException(where + ": is a '" + a.kind() + "' artifact, expected a 'release'");
        }
        if (!METHOD.equals(a.method())) {
            throw new ArtifactException(where + ": release of method '" + a.method() + "', not of " + METHOD);
        }
        if (!"source".equals(a.party())) {
            throw new ArtifactException(where + ": release is from party '" + a.party() + "', expected the source's");
        }
        JsonNode p = a.payload();
        String task = Artifact.text(p, "task", where);
        if (!task.equals("multi-label") && !task.equals("classes")) {
            throw new ArtifactException(where + ": task '" + task + "' is neither 'multi-label' nor 'classes'");
        }
        JsonNode ln = p.get("labels");
        if (ln == null || !ln.isArray() || ln.isEmpty()) {
            throw new ArtifactException(where + ": release has no label list");
        }
        List<String> labels = new ArrayList<>();
        ln.forEach(x -> labels.add(x.asText()));
        if (new java.util.HashSet<>(labels).size() != labels.size()) {
            throw new ArtifactException(where + ": the label list repeats a name");
        }
        int d = Artifact.integer(p, "input_dim", where);
        JsonNode f = p.path("featurisation");
        String pre = Artifact.text(f, "preprocessing", where + ", featurisation");
        if (Artifact.integer(f, "input_dim", where + ", featurisation") != d
                || !ROW_NORMALISATION.equals(f.path("row_normalisation").asText())) {
            throw new ArtifactException(where + ": featurisation disagrees with input_dim " + d + " or is not followed by "
                    + ROW_NORMALISATION + " rows");
        }
        TextEncoding.Identity textEncoder = TextEncoding.Identity.BOW; // releases made before issue 47: the bag of words
        JsonNode te = f.get("text_encoder");
        if (te != null) {
            String name = Artifact.text(te, "name", where + ", featurisation.text_encoder");
            String hash = te.path("sha256").asText("");
            if (!name.matches("[a-z0-9._-]+") || !hash.matches("([0-9a-f]{64})?")) {
                throw new ArtifactException(where + ": featurisation.text_encoder is not a name and a SHA-256");
            }
            textEncoder = new TextEncoding.Identity(name, hash);
        }
        Map<String, String> settings = new LinkedHashMap<>();
        JsonNode sn = p.get("settings");
        if (sn == null || !sn.isObject()) {
            throw new ArtifactException(where + ": missing object 'settings'");
        }
        sn.fields().forEachRemaining(e -> settings.put(e.getKey(), e.getValue().asText()));
        for (String k : settings.keySet()) {
            if (!SOURCE_PARAMETERS.contains(k)) {
                throw new ArtifactException(where + ": unknown source setting '" + k + "'");
            }
        }
        JsonNode seedNode = p.get("seed");
        if (seedNode == null || !seedNode.isIntegralNumber()) {
            throw new ArtifactException(where + ": missing integer field 'seed'");
        }
        Map<String, Object> plan = new LinkedHashMap<>();
        JsonNode pn = p.path("plan");
        pn.fields().forEachRemaining(e -> {
            JsonNode v = e.getValue();
            plan.put(e.getKey(), v.isIntegralNumber() ? (Object) (v.canConvertToInt() ? (Object) v.asInt() : (Object) v.asLong())
                    : v.isNumber() ? (Object) v.asDouble() : v.isBoolean() ? (Object) v.asBoolean() : v.asText());
        });
        DpEvent event = null;
        if (p.has("event")) {
            try {
                event = EventJson.read(p.get("event"));
            } catch (RuntimeException e) {
                throw new ArtifactException(where + ": the release's event cannot be read: " + e.getMessage(), e);
            }
        }
        Stack enc = readStack(p.get("encoder"), where + ", encoder");
        Stack cls = readStack(p.get("classifier"), where + ", classifier");
        EncoderClassifier model;
        try {
            model = new EncoderClassifier(enc, cls);
        } catch (IllegalArgumentException e) {
            throw new ArtifactException(where + ": " + e.getMessage(), e);
        }
        if (model.in() != d) {
            throw new ArtifactException(where + ": the encoder takes " + model.in() + " inputs, the featurisation gives " + d);
        }
        if (model.outputs() != labels.size()) {
            throw new ArtifactException(where + ": the classifier gives " + model.outputs() + " outputs for " + labels.size()
                    + " labels");
        }
        JsonNode mn = p.get("mixture");
        if (mn == null || !mn.isObject()) {
            throw new ArtifactException(where + ": the release has no mixture");
        }
        GaussianMixture gmm = readMixture(mn, where + ", mixture");
        if (gmm.dimension() != enc.out()) {
            throw new ArtifactException(where + ": the mixture is over " + gmm.dimension() + " features, the encoder gives "
                    + enc.out());
        }
        SourceRelease r = new SourceRelease(model, gmm, event, plan);
        return new SourceReleaseArtifact(r, labels, task.equals("multi-label"), d, pre, textEncoder, settings, seedNode.asLong(),
                a.privacy().deepCopy(), a.runId(), a.created(), a.checksum());
    }

    private static Stack readStack(JsonNode arr, String where) throws ArtifactException {
        if (arr == null || !arr.isArray() || arr.isEmpty()) {
            throw new ArtifactException(where + ": missing or empty list of layers");
        }
        List<DenseLayer> layers = new ArrayList<>();
        int i = 0;
        for (JsonNode o : arr) {
            String w = where + " layer " + i++;
            int in = Artifact.integer(o, "in", w);
            int out = Artifact.integer(o, "out", w);
            if (in < 1 || out < 1 || (long) in * out > Integer.MAX_VALUE) {
                throw new ArtifactException(w + ": invalid shape " + in + " x " + out);
            }
            Activation act;
            try {
                act = Activation.parse(Artifact.text(o, "activation", w));
            } catch (IllegalArgumentException e) {
                throw new ArtifactException(w + ": " + e.getMessage(), e);
            }
            JsonNode fr = o.get("frozen");
            if (fr == null || !fr.isBoolean()) {
                throw new ArtifactException(w + ": missing boolean field 'frozen'");
            }
            DenseLayer l = DenseLayer.over(new DenseMatrix(in, out, Artifact.getDoubles(o, "weights", in * out, w)),
                    Artifact.getDoubles(o, "bias", out, w), act);
            layers.add(fr.asBoolean() ? l.freeze() : l);
        }
        try {
            return new Stack(layers);
        } catch (IllegalArgumentException e) {
            throw new ArtifactException(where + ": " + e.getMessage(), e);
        }
    }

    private static GaussianMixture readMixture(JsonNode o, String where) throws ArtifactException {
        String cov = Artifact.text(o, "covariance", where);
        if (!cov.equals("full") && !cov.equals("diag")) {
            throw new ArtifactException(where + ": covariance '" + cov + "' is neither 'full' nor 'diag'");
        }
        int k = Artifact.integer(o, "components", where);
        int d = Artifact.integer(o, "dimension", where);
        if (k < 1 || d < 1 || (long) k * d > Integer.MAX_VALUE || (cov.equals("full") && (long) d * d > Integer.MAX_VALUE)) {
            throw new ArtifactException(where + ": invalid shape K " + k + ", d " + d);
        }
        double[] weights = Artifact.getDoubles(o, "weights", k, where);
        DenseMatrix means = new DenseMatrix(k, d, Artifact.getDoubles(o, "means", k * d, where));
        try {
            if (cov.equals("full")) {
                JsonNode cs = o.get("covariances");
                if (cs == null || !cs.isArray() || cs.size() != k) {
                    throw new ArtifactException(where + ": 'covariances' missing or not one per component");
                }
                List<DenseMatrix> covs = new ArrayList<>();
                for (int c = 0; c < k; c++) {
                    covs.add(new DenseMatrix(d, d, Artifact.getDoubles(cs.get(c), "values", d * d, where + " covariance " + c)));
                }
                return GaussianMixture.restore(CovarianceType.FULL, weights, means, covs, null);
            }
            return GaussianMixture.restore(CovarianceType.DIAGONAL, weights, means, null,
                    new DenseMatrix(k, d, Artifact.getDoubles(o, "variances", k * d, where)));
        } catch (IllegalArgumentException e) {
            throw new ArtifactException(where + ": " + e.getMessage(), e);
        }
    }
}
