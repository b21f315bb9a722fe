package org.privadapt.methods.dpot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.artifacts.Artifact;
import org.privadapt.methods.artifacts.ArtifactException;

/**
 * What the source sends the target in DPOT / dpot-da (paper 002, Alg. 1 step 2 and Alg. 2 step 1): the JL matrix M,
 * and per released batch (one in the whole-batch mode) the noisy projected rows {@code X_b M + Delta} ordered by label,
 * and the noisy label counts post-processed to non-negative integers that sum to the batch's row count (row i's label
 * is read from them by position). Also the row noise sigma (the target subtracts {@code l sigma^2} from squared
 * distances), the class names and the privacy statement. Nothing else about the source's rows is in it.
 */
public record DpotRelease(String runId, DpotConfig config, String preprocessing, List<String> classNames, DenseMatrix projection,
                          double rowNoiseStd, List<Batch> batches, ObjectNode privacy, String created, String checksum) {

    public static final String METHOD = "dpot";

    /** One released batch: noisy projected rows (m x l, ordered by label) and the label counts by position. */
    public record Batch(DenseMatrix rows, int[] counts) {
        public Batch {
            int m = 0;
            for (int c : counts) {
                if (c < 0) {
                    throw new IllegalArgumentException("negative label count");
                }
                m += c;
            }
            if (m != rows.rows()) {
                throw new IllegalArgumentException("label counts sum to " + m + " but the batch has " + rows.rows() + " rows");
            }
        }

        /** The label of each row, by position. */
        public int[] labels() {
            int[] y = new int[rows.rows()];
            int p = 0;
            for (int c = 0; c < counts.length; c++) {
                for (int t = 0; t < counts[c]; t++) {
                    y[p++] = c;
                }
            }
            return y;
        }
    }

    public int inputDim() {
        return projection.rows();
    }

    public int outputDim() {
        return projection.cols();
    }

    public int releasedRows() {
        return batches.stream().mapToInt(b -> b.rows().rows()).sum();
    }

    public Artifact toArtifact() {
        Artifact a = Artifact.create("release", METHOD, "source", runId, created);
        a.privacy().setAll(privacy);
        ObjectNode p = a.payload();
        p.set("settings", config.toJson());
        p.put("preprocessing", preprocessing);
        p.put("input_dim", inputDim());
        p.put("output_dim", outputDim());
        ArrayNode cn = p.putArray("classes");
        classNames.forEach(cn::add);
        Artifact.putDoubles(p, "projection", projection.data());
        p.put("row_noise_std", rowNoiseStd);
        ArrayNode bs = p.putArray("batches");
        for (Batch b : batches) {
            ObjectNode bn = bs.addObject();
            bn.put("rows", b.rows().rows());
            Artifact.putInts(bn, "counts", b.counts());
            Artifact.putDoubles(bn, "values", b.rows().data());
        }
        return a;
    }

    /**
     * @throws ArtifactException if the artifact is not a valid DPOT release
     */
    public static DpotRelease fromArtifact(Artifact a, String where) throws ArtifactException {
        if (!"source".equals(a.party())) {
            throw new ArtifactException(where + ": release is from party '" + a.party() + "', expected the source's");
        }
        if (!METHOD.equals(a.method())) {
            throw new ArtifactException(where + ": release of method '" + a.method() + "', not of DPOT");
        }
        JsonNode p = a.payload();
        DpotConfig cfg = DpotConfig.fromJson(p.path("settings"), where);
        int k = Artifact.integer(p, "input_dim", where);
        int l = Artifact.integer(p, "output_dim", where);
        if (k < 1 || l < 1) {
            throw new ArtifactException(where + ": invalid dimensions " + k + " x " + l);
        }
        List<String> classes = new ArrayList<>();
        JsonNode cn = p.get("classes");
        if (cn == null || !cn.isArray() || cn.isEmpty()) {
            throw new ArtifactException(where + ": release has no class list");
        }
        cn.forEach(c -> classes.add(c.asText()));
        DenseMatrix m = new DenseMatrix(k, l, Artifact.getDoubles(p, "projection", k * l, where));
        double sigma = Artifact.number(p, "row_noise_std", where);
        JsonNode bs = p.get("batches");
        if (bs == null || !bs.isArray() || bs.isEmpty()) {
            throw new ArtifactException(where + ": release has no batches");
        }
        List<Batch> batches = new ArrayList<>();
        int i = 0;
        for (JsonNode bn : bs) {
            String w = where + ", batch " + i;
            int rows = Artifact.integer(bn, "rows", w);
            JsonNode cs = bn.get("counts");
            if (cs == null || !cs.isArray() || cs.size() != classes.size()) {
                throw new ArtifactException(w + ": label counts missing or not one per class");
            }
            int[] counts = new int[cs.size()];
            for (int c = 0; c < counts.length; c++) {
                counts[c] = cs.get(c).asInt();
            }
            try {
                batches.add(new Batch(new DenseMatrix(rows, l, Artifact.getDoubles(bn, "values", rows * l, w)), counts));
            } catch (IllegalArgumentException e) {
                throw new ArtifactException(w + ": " + e.getMessage(), e);
            }
            i++;
        }
        return new DpotRelease(a.runId(), cfg, Artifact.text(p, "preprocessing", where), List.copyOf(classes), m, sigma, batches,
                a.privacy().deepCopy(), a.created(), a.checksum());
    }
}
