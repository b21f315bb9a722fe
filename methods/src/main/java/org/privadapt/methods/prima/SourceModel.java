package org.privadapt.methods.prima;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.math.LinAlg;
import org.privadapt.methods.artifacts.Artifact;
import org.privadapt.methods.artifacts.ArtifactException;
import org.privadapt.models.Softmax;
import org.privadapt.models.nn.Activation;
import org.privadapt.models.nn.Network;

/**
 * What the source sends the target: the classifier(s) trained with DP-SGD on the aligned source, and what the
 * target needs to apply them to its own rows (the partition, the target's own DP standardisation from its
 * release, and for PRISA each subspace's target basis). Bound to the release it was trained from by that
 * release's run id and checksum.
 *
 * @param targetBases per block, the d_b x k_b target basis for PRISA, or null (PRIMA: target rows are used as they are)
 * @param groups      one group of models per subspace ({@code vote}) or a single group (joint); a group holds one
 *                    multinomial model, or one binary model per class ({@code oneVsRest}), or ({@code multiLabel}) one
 *                    binary model (classes {@value #ABSENT} and the label) per label
 * @param classNames  the classes, or the labels of a multi-label model
 * @param multiLabel  whether each row gets a 0/1 per label ({@link #predictLabels}) rather than one class
 */
public record SourceModel(String releaseRunId, String releaseChecksum, String method, PrimaConfig config,
                          String preprocessing, Partition partition, double[] targetMean, double[] targetSd,
                          List<DenseMatrix> targetBases, List<List<Network>> groups, List<String> classNames,
                          boolean multiLabel, ObjectNode privacy) {

    /** The negative class of a multi-label model's binary models. */
    public static final String ABSENT = "absent";

    public int dimension() {
        return partition.dimension();
    }

    /** Target-side features of each block: clipped, standardised rows, times the target basis (PRISA). */
    List<DenseMatrix> targetFeatures(FeatureMatrix preprocessed) {
        DenseMatrix z = Prima.standardized(Prima.clipRows(preprocessed, config, partition), targetMean, targetSd, config);
        List<DenseMatrix> out = new ArrayList<>();
        for (int b = 0; b < partition.size(); b++) {
            DenseMatrix block = z.selectColumns(partition.block(b));
            out.add(targetBases.get(b) == null ? block : LinAlg.multiply(block, targetBases.get(b)));
        }
        return out;
    }

    /**
     * Predicted class indices (into {@link #classNames()}) for target rows preprocessed with {@link #preprocessing()}.
     *
     * @throws IllegalArgumentException if the rows have another dimension
     */
    public int[] predict(FeatureMatrix preprocessed) {
        if (multiLabel) {
            throw new IllegalArgumentException("this model predicts " + classNames.size() + " labels per row (multi-label), not one "
                    + "class: use predictLabels");
        }
        requireDimension(preprocessed);
        List<DenseMatrix> blocks = targetFeatures(preprocessed);
        int n = preprocessed.rows();
        int k = classNames.size();
        if (groups.size() == 1) {
            return Softmax.argmaxRows(groupScores(groups.get(0), Prima.concat(blocks), k));
        }
        // one group per subspace: majority vote, ties broken by the summed scores
        int[][] votes = new int[n][k];
        DenseMatrix total = DenseMatrix.zeros(n, k);
        for (int b = 0; b < groups.size(); b++) {
            DenseMatrix s = groupScores(groups.get(b), blocks.get(b), k);
            int[] p = Softmax.argmaxRows(s);
            for (int i = 0; i < n; i++) {
                votes[i][p[i]]++;
            }
            total.addScaledInPlace(1.0, s);
        }
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            int best = 0;
            for (int c = 1; c < k; c++) {
                if (votes[i][c] > votes[i][best] || (votes[i][c] == votes[i][best] && total.get(i, c) > total.get(i, best))) {
                    best = c;
                }
            }
            out[i] = best;
        }
        return out;
    }

    private void requireDimension(FeatureMatrix preprocessed) {
        if (preprocessed.cols() != dimension()) {
            throw new IllegalArgumentException("model expects " + dimension() + " features, got " + preprocessed.cols());
        }
    }

    /**
     * A multi-label model's predictions (n x labels, 0/1) for target rows preprocessed with {@link #preprocessing()}:
     * each label's binary model says present or absent; with one group per subspace, the majority of the groups, ties
     * broken by the mean probability of present.
     *
     * @throws IllegalArgumentException if the model is not multi-label, or the rows have another dimension
     */
    public int[][] predictLabels(FeatureMatrix preprocessed) {
        if (!multiLabel) {
            throw new IllegalArgumentException("this model predicts one class per row, not labels: use predict");
        }
        requireDimension(preprocessed);
        List<DenseMatrix> blocks = targetFeatures(preprocessed);
        int n = preprocessed.rows();
        int labels = classNames.size();
        int[][] votes = new int[n][labels];
        double[][] present = new double[n][labels];
        for (int g = 0; g < groups.size(); g++) {
            DenseMatrix x = groups.size() == 1 ? Prima.concat(blocks) : blocks.get(g);
            for (int l = 0; l < labels; l++) {
                DenseMatrix p = groups.get(g).get(l).predictProba(x);
                for (int i = 0; i < n; i++) {
                    double q = p.get(i, 1);
                    votes[i][l] += q > p.get(i, 0) ? 1 : 0;
                    present[i][l] += q;
                }
            }
        }
        int[][] out = new int[n][labels];
        for (int i = 0; i < n; i++) {
            for (int l = 0; l < labels; l++) {
                int against = groups.size() - votes[i][l];
                out[i][l] = votes[i][l] > against || (votes[i][l] == against && present[i][l] > 0.5 * groups.size()) ? 1 : 0;
            }
        }
        return out;
    }

    /** Class scores of one group: the multinomial probabilities, or each binary model's probability of its class. */
    private static DenseMatrix groupScores(List<Network> group, DenseMatrix x, int k) {
        if (group.size() == 1) {
            return group.get(0).predictProba(x);
        }
        DenseMatrix s = DenseMatrix.zeros(x.rows(), k);
        for (int c = 0; c < k; c++) {
            DenseMatrix p = group.get(c).predictProba(x);
            for (int i = 0; i < x.rows(); i++) {
                s.set(i, c, p.get(i, 1));
            }
        }
        return s;
    }

    public Artifact toArtifact(String runId) {
        Artifact a = Artifact.create("model", method, "source", runId);
        a.privacy().setAll(privacy);
        ObjectNode p = a.payload();
        p.put("release_run_id", releaseRunId);
        p.put("release_checksum", releaseChecksum);
        p.set("settings", config.toJson());
        p.put("preprocessing", preprocessing);
        p.put("dimension", partition.dimension());
        ArrayNode cls = p.putArray("classes");
        classNames.forEach(cls::add);
        Artifact.putDoubles(p, "target_mean", targetMean);
        Artifact.putDoubles(p, "target_sd", targetSd);
        ArrayNode blocks = p.putArray("blocks");
        for (int b = 0; b < partition.size(); b++) {
            ObjectNode bn = blocks.addObject();
            Artifact.putInts(bn, "features", partition.block(b));
            DenseMatrix basis = targetBases.get(b);
            if (basis != null) {
                bn.put("basis_cols", basis.cols());
                Artifact.putDoubles(bn, "target_basis", basis.data());
            }
        }
        // a multi-label model's groups go under another name, so that a reader without multi-label support refuses the
        // model ("no model groups") instead of reading its label models as one-vs-rest classes
        ArrayNode gs = p.putArray(multiLabel ? "label_groups" : "groups");
        for (List<Network> g : groups) {
            ArrayNode gn = gs.addArray();
            for (Network net : g) {
                gn.add(networkJson(net));
            }
        }
        return a;
    }

    static ObjectNode networkJson(Network net) {
        ObjectNode o = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        Artifact.putInts(o, "sizes", net.sizes());
        o.put("activation", net.hiddenActivation().name());
        ArrayNode cls = o.putArray("classes");
        net.classNames().forEach(cls::add);
        ArrayNode layers = o.putArray("layers");
        for (int l = 0; l < net.layers(); l++) {
            ObjectNode ln = layers.addObject();
            Artifact.putDoubles(ln, "weights", net.weights(l).data());
            Artifact.putDoubles(ln, "bias", net.bias(l));
        }
        return o;
    }

    static Network networkFromJson(JsonNode o, String where) throws ArtifactException {
        JsonNode s = o.get("sizes");
        if (s == null || !s.isArray() || s.size() < 2) {
            throw new ArtifactException(where + ": network without layer sizes");
        }
        int[] sizes = new int[s.size()];
        for (int i = 0; i < sizes.length; i++) {
            sizes[i] = s.get(i).asInt();
            if (sizes[i] < 1) {
                throw new ArtifactException(where + ": invalid layer size " + sizes[i]);
            }
        }
        List<String> cls = new ArrayList<>();
        o.path("classes").forEach(c -> cls.add(c.asText()));
        JsonNode layers = o.get("layers");
        if (layers == null || layers.size() != sizes.length - 1) {
            throw new ArtifactException(where + ": network has the wrong number of layers");
        }
        List<DenseMatrix> w = new ArrayList<>();
        List<double[]> b = new ArrayList<>();
        for (int l = 0; l < sizes.length - 1; l++) {
            w.add(new DenseMatrix(sizes[l], sizes[l + 1],
                    Artifact.getDoubles(layers.get(l), "weights", sizes[l] * sizes[l + 1], where + ", layer " + l)));
            b.add(Artifact.getDoubles(layers.get(l), "bias", sizes[l + 1], where + ", layer " + l));
        }
        try {
            return Network.fromParameters(sizes, Activation.valueOf(Artifact.text(o, "activation", where)), w, b, cls);
        } catch (IllegalArgumentException e) {
            throw new ArtifactException(where + ": invalid network: " + e.getMessage(), e);
        }
    }

    /**
     * @throws ArtifactException if the artifact is not a valid PRIMA/PRISA model
     */
    public static SourceModel fromArtifact(Artifact a, String where) throws ArtifactException {
        if (!"source".equals(a.party())) {
            throw new ArtifactException(where + ": model is from party '" + a.party() + "', expected the source's");
        }
        JsonNode p = a.payload();
        PrimaConfig cfg = PrimaConfig.fromJson(p.path("settings"), where);
        int d = Artifact.integer(p, "dimension", where);
        List<String> classes = new ArrayList<>();
        p.path("classes").forEach(c -> classes.add(c.asText()));
        if (classes.size() < (p.has("label_groups") ? 1 : 2)) {
            throw new ArtifactException(where + ": model has " + (p.has("label_groups") ? "no labels" : "fewer than two classes"));
        }
        List<int[]> idx = new ArrayList<>();
        List<DenseMatrix> bases = new ArrayList<>();
        JsonNode blocks = p.get("blocks");
        if (blocks == null || !blocks.isArray()) {
            throw new ArtifactException(where + ": model has no blocks");
        }
        int bi = 0;
        for (JsonNode bn : blocks) {
            int[] f = new int[bn.path("features").size()];
            for (int k = 0; k < f.length; k++) {
                f[k] = bn.get("features").get(k).asInt();
            }
            idx.add(f);
            if (bn.has("target_basis")) {
                int cols = Artifact.integer(bn, "basis_cols", where);
                bases.add(new DenseMatrix(f.length, cols, Artifact.getDoubles(bn, "target_basis", f.length * cols, where + ", block " + bi)));
            } else {
                bases.add(null);
            }
            bi++;
        }
        Partition partition;
        try {
            partition = new Partition(d, idx);
        } catch (IllegalArgumentException e) {
            throw new ArtifactException(where + ": invalid partition: " + e.getMessage(), e);
        }
        boolean multi = p.has("label_groups");
        if (multi && p.has("groups")) {
            throw new ArtifactException(where + ": model has both class and label groups");
        }
        List<List<Network>> groups = new ArrayList<>();
        int gi = 0;
        for (JsonNode gn : p.path(multi ? "label_groups" : "groups")) {
            List<Network> g = new ArrayList<>();
            for (JsonNode net : gn) {
                Network n = networkFromJson(net, where + ", group " + gi);
                if (multi && (g.size() >= classes.size() || !n.classNames().equals(List.of(ABSENT, classes.get(g.size()))))) {
                    throw new ArtifactException(where + ", group " + gi + ": label model " + (g.size() + 1) + " must have the "
                            + "classes (" + ABSENT + ", its label), one per label in the order of the labels");
                }
                g.add(n);
            }
            if (multi && g.size() != classes.size()) {
                throw new ArtifactException(where + ", group " + gi + ": " + g.size() + " label models for " + classes.size() + " labels");
            }
            groups.add(g);
            gi++;
        }
        if (groups.isEmpty() || (groups.size() != 1 && groups.size() != partition.size())) {
            throw new ArtifactException(where + ": model has " + groups.size() + " model groups for " + partition.size() + " blocks");
        }
        return new SourceModel(Artifact.text(p, "release_run_id", where), Artifact.text(p, "release_checksum", where), a.method(),
                cfg, Artifact.text(p, "preprocessing", where), partition, Artifact.getDoubles(p, "target_mean", d, where),
                Artifact.getDoubles(p, "target_sd", d, where), bases, groups, classes, multi, a.privacy().deepCopy());
    }
}
