package org.privadapt.methods.prima;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.artifacts.Artifact;
import org.privadapt.methods.artifacts.ArtifactException;

/**
 * What the target sends the source in PRIMA/PRISA: the partition into subspaces, each subspace's recovered
 * (PSD) covariance, and the target's DP means and standard deviations (it standardises its own rows with them at
 * prediction time); the settings both sides share; and the privacy statement. Every number in it is a
 * post-processing of the target's DP releases; nothing else about its rows is in it.
 *
 * @param shrinkAlphas the shrinkage weight used for each block (0 when the noisy block was already PSD)
 */
public record TargetRelease(String runId, String method, PrimaConfig config, String preprocessing, Partition partition,
                            List<DenseMatrix> blocks, double[] mean, double[] sd, double[] shrinkAlphas,
                            ObjectNode privacy, String created, String checksum) {

    public int dimension() {
        return partition.dimension();
    }

    public Artifact toArtifact() {
        Artifact a = Artifact.create("release", method, "target", runId, created);
        a.privacy().setAll(privacy);
        ObjectNode p = a.payload();
        p.set("settings", config.toJson());
        p.put("preprocessing", preprocessing);
        p.put("dimension", partition.dimension());
        ArrayNode blocksNode = p.putArray("blocks");
        for (int b = 0; b < partition.size(); b++) {
            ObjectNode bn = blocksNode.addObject();
            Artifact.putInts(bn, "features", partition.block(b));
            Artifact.putDoubles(bn, "covariance", blocks.get(b).data());
            bn.put("shrink_alpha", shrinkAlphas[b]);
        }
        Artifact.putDoubles(p, "mean", mean);
        Artifact.putDoubles(p, "sd", sd);
        return a;
    }

    /**
     * @throws ArtifactException if the artifact is not a valid release of PRIMA/PRISA
     */
    public static TargetRelease fromArtifact(Artifact a, String where) throws ArtifactException {
        if (!"target".equals(a.party())) {
            throw new ArtifactException(where + ": release is from party '" + a.party() + "', expected the target's");
        }
        if (!a.method().equals("prima") && !a.method().equals("prisa") && !a.method().startsWith("prima-")) {
            throw new ArtifactException(where + ": release of method '" + a.method() + "', not of PRIMA or PRISA");
        }
        JsonNode p = a.payload();
        PrimaConfig cfg = PrimaConfig.fromJson(p.path("settings"), where);
        int d = Artifact.integer(p, "dimension", where);
        JsonNode bs = p.get("blocks");
        if (bs == null || !bs.isArray() || bs.isEmpty()) {
            throw new ArtifactException(where + ": release has no blocks");
        }
        List<int[]> idx = new ArrayList<>();
        List<DenseMatrix> cov = new ArrayList<>();
        double[] alphas = new double[bs.size()];
        int b = 0;
        for (JsonNode bn : bs) {
            JsonNode f = bn.get("features");
            if (f == null || !f.isArray()) {
                throw new ArtifactException(where + ": block " + b + " has no feature list");
            }
            int[] feat = new int[f.size()];
            for (int k = 0; k < feat.length; k++) {
                feat[k] = f.get(k).asInt();
            }
            idx.add(feat);
            double[] c = Artifact.getDoubles(bn, "covariance", feat.length * feat.length, where + ", block " + b);
            cov.add(new DenseMatrix(feat.length, feat.length, c));
            alphas[b] = bn.path("shrink_alpha").asDouble();
            b++;
        }
        Partition partition;
        try {
            partition = new Partition(d, idx);
        } catch (IllegalArgumentException e) {
            throw new ArtifactException(where + ": invalid partition: " + e.getMessage(), e);
        }
        return new TargetRelease(a.runId(), a.method(), cfg, Artifact.text(p, "preprocessing", where), partition, cov,
                Artifact.getDoubles(p, "mean", d, where), Artifact.getDoubles(p, "sd", d, where), alphas, a.privacy().deepCopy(),
                a.created(), a.checksum());
    }
}
