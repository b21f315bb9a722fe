package org.privadapt.methods.prima;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;
import org.privadapt.methods.artifacts.Artifact;
import org.privadapt.methods.artifacts.ArtifactException;
import org.privadapt.methods.core.MethodConfig;

/**
 * Settings of PRIMA / PRISA and of the ablations of paper 000 §5.3, all public (none is read from data).
 *
 * @param adaptation   CORAL (PRIMA) or SA (PRISA), per subspace
 * @param partitioning SINGLE (no subspaces: "Basic"), RANDOM (random subspaces of {@code blockSize}: "RSE"),
 *                     FORWARD (forward selection on a first DP release: "RSE+FS")
 * @param shrink       PSD recovery by shrinking (else eigenvalues floored at 0)
 * @param blockSize    subspace size for RANDOM
 * @param maxBlock     largest subspace forward selection may build
 * @param fsShare      share of the target's Gaussian precision (1/s^2) spent on the forward-selection release
 * @param rowBound     R: L2 clip of each row (the sensitivity premise)
 * @param blockScale   each row's sub-vector on a p-feature subspace is clipped to {@code R sqrt(min(1, blockScale p/d))}
 *                     (its share of the row bound, with slack): the subspaces' joint sensitivity then falls with
 *                     their size, which is where random subspaces gain (docs/privacy/prima.md)
 * @param momentWeight c/R: weight of the sums and the count in the moment release (their noise is sigma/c, sigma/c^2)
 * @param centred      use centred covariances (else paper 000's uncentred second moments)
 * @param standardize  standardise features with the DP means and variances (per-domain z-scoring, as the CORAL
 *                     protocol), so that lambda is on the scale of a correlation matrix
 * @param varianceFloor variances below this fraction of the median variance are raised to it before standardising
 * @param lambda       CORAL ridge relative to the block's mean variance: {@code C + lambda tr(C)/p I} (Sun et al.'s +I
 *                     on standardised features)
 * @param saFraction   PRISA keeps ceil(saFraction p) leading eigenvectors of a p-feature subspace
 * @param sourceShare  share of the source's epsilon spent on its own moment release (the rest on DP-SGD)
 * @param vote         one model per subspace with majority vote (paper), else one joint model (default)
 * @param oneVsRest    one binary model per class with the budget split over them (paper's LR), else multinomial
 * @param shrinkTarget the PSD target of shrinking
 */
public record PrimaConfig(Adaptation adaptation, Partitioning partitioning, boolean shrink, int blockSize, int maxBlock,
                          double fsShare, double rowBound, double blockScale, double momentWeight, boolean centred, boolean standardize,
                          double varianceFloor, double lambda, double saFraction, double sourceShare, boolean vote,
                          boolean oneVsRest, ShrinkTarget shrinkTarget) {

    /** The PSD target of shrinking: both have Frobenius norm at most the noisy matrix's, as paper 000 requires. */
    public enum ShrinkTarget {
        /** {@code (tr(C)/p) I}: the scaled identity. */
        IDENTITY,
        /** {@code diag(max(C_jj, 0))}: the positive part of the noisy diagonal (keeps each feature's variance). */
        DIAGONAL
    }

    public enum Adaptation { CORAL, SA }

    public enum Partitioning { SINGLE, RANDOM, FORWARD }

    public PrimaConfig {
        if (blockSize < 1 || maxBlock < 1) {
            throw new IllegalArgumentException("subspace sizes must be >= 1");
        }
        if (!(fsShare > 0 && fsShare < 1)) {
            throw new IllegalArgumentException("fs-share must be in (0, 1), got " + fsShare);
        }
        if (!(rowBound > 0) || !(blockScale > 0)) {
            throw new IllegalArgumentException("row-bound and block-scale must be > 0");
        }
        if (!(momentWeight > 0)) {
            throw new IllegalArgumentException("moment-weight must be > 0, got " + momentWeight);
        }
        if (!(lambda >= 0)) {
            throw new IllegalArgumentException("lambda must be >= 0, got " + lambda);
        }
        if (!(saFraction > 0 && saFraction <= 1)) {
            throw new IllegalArgumentException("sa-fraction must be in (0, 1], got " + saFraction);
        }
        if (!(sourceShare > 0 && sourceShare < 1)) {
            throw new IllegalArgumentException("source-share must be in (0, 1), got " + sourceShare);
        }
    }

    /** The full method of paper 000: forward-selected subspaces, shrinking, per-subspace CORAL (or SA). */
    public static PrimaConfig prima(Adaptation a) {
        return new PrimaConfig(a, Partitioning.FORWARD, true, 20, 200, 0.3, 1.0, 4.0, 0.25, true, false, 0.01, 1.0, 0.5, 0.2,
                false, false, ShrinkTarget.DIAGONAL);
    }

    /** Reads the method parameters ({@code --param name=value}) over the defaults of a variant. */
    /** The {@code --param} names {@link #from} reads. */
    public static final java.util.Set<String> PARAMETERS = java.util.Set.of("partitioning", "shrink", "block-size", "max-block",
            "fs-share", "row-bound", "block-scale", "moment-weight", "centred", "standardize", "variance-floor", "lambda",
            "sa-fraction", "source-share", "ensemble", "multiclass", "shrink-target");

    /** An enum parameter's value, or a one-line error listing the valid values (not Java's enum message). */
    static <E extends Enum<E>> E choice(MethodConfig c, String name, Class<E> type, E dflt) {
        String v = c.params().get(name);
        if (v == null) {
            return dflt;
        }
        try {
            return Enum.valueOf(type, v.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + " must be one of " + java.util.Arrays.stream(type.getEnumConstants())
                    .map(x -> x.name().toLowerCase(Locale.ROOT)).toList() + ", got '" + v + "'");
        }
    }

    /** One of two words, or a one-line error. */
    static boolean choice(MethodConfig c, String name, String yes, String no, boolean dflt) {
        String v = c.params().get(name);
        if (v == null) {
            return dflt;
        }
        if (v.equals(yes) || v.equals(no)) {
            return v.equals(yes);
        }
        throw new IllegalArgumentException(name + " must be " + no + " or " + yes + ", got '" + v + "'");
    }

    public static PrimaConfig from(PrimaConfig base, MethodConfig c) {
        return new PrimaConfig(base.adaptation(),
                choice(c, "partitioning", Partitioning.class, base.partitioning()),
                bool(c, "shrink", base.shrink()), c.intParam("block-size", base.blockSize()), c.intParam("max-block", base.maxBlock()),
                c.param("fs-share", base.fsShare()), c.param("row-bound", base.rowBound()),
                c.param("block-scale", base.blockScale()), c.param("moment-weight", base.momentWeight()),
                bool(c, "centred", base.centred()),
                bool(c, "standardize", base.standardize()), c.param("variance-floor", base.varianceFloor()),
                c.param("lambda", base.lambda()), c.param("sa-fraction", base.saFraction()),
                c.param("source-share", base.sourceShare()), choice(c, "ensemble", "vote", "joint", base.vote()),
                choice(c, "multiclass", "ovr", "multinomial", base.oneVsRest()),
                choice(c, "shrink-target", ShrinkTarget.class, base.shrinkTarget()));
    }

    private static boolean bool(MethodConfig c, String name, boolean dflt) {
        String v = c.params().get(name);
        if (v == null) {
            return dflt;
        }
        if (!v.equals("true") && !v.equals("false")) {
            throw new IllegalArgumentException("parameter " + name + "=" + v + " is not true or false");
        }
        return Boolean.parseBoolean(v);
    }

    public PrimaConfig with(Partitioning p, boolean shrinking) {
        return new PrimaConfig(adaptation, p, shrinking, blockSize, maxBlock, fsShare, rowBound, blockScale, momentWeight,
                centred, standardize, varianceFloor, lambda, saFraction, sourceShare, vote, oneVsRest, shrinkTarget);
    }

    /** The clip bound of each block's sub-rows: {@code R sqrt(min(1, blockScale p_i / d))}. */
    public double[] blockBounds(Partition p) {
        double[] b = new double[p.size()];
        for (int i = 0; i < b.length; i++) {
            b[i] = rowBound * Math.sqrt(Math.min(1.0, blockScale * p.block(i).length / (double) p.dimension()));
        }
        return b;
    }

    /** The settings both parties must share, as stored in the release. */
    public ObjectNode toJson() {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("adaptation", adaptation.name().toLowerCase(Locale.ROOT));
        o.put("partitioning", partitioning.name().toLowerCase(Locale.ROOT));
        o.put("shrink", shrink);
        o.put("block_size", blockSize);
        o.put("max_block", maxBlock);
        o.put("fs_share", fsShare);
        o.put("row_bound", rowBound);
        o.put("block_scale", blockScale);
        o.put("moment_weight", momentWeight);
        o.put("centred", centred);
        o.put("standardize", standardize);
        o.put("variance_floor", varianceFloor);
        o.put("lambda", lambda);
        o.put("sa_fraction", saFraction);
        o.put("source_share", sourceShare);
        o.put("ensemble", vote ? "vote" : "joint");
        o.put("multiclass", oneVsRest ? "ovr" : "multinomial");
        o.put("shrink_target", shrinkTarget.name().toLowerCase(Locale.ROOT));
        return o;
    }

    public static PrimaConfig fromJson(JsonNode o, String where) throws ArtifactException {
        try {
            return new PrimaConfig(Adaptation.valueOf(Artifact.text(o, "adaptation", where).toUpperCase(Locale.ROOT)),
                    Partitioning.valueOf(Artifact.text(o, "partitioning", where).toUpperCase(Locale.ROOT)),
                    o.path("shrink").asBoolean(), Artifact.integer(o, "block_size", where), Artifact.integer(o, "max_block", where),
                    Artifact.number(o, "fs_share", where), Artifact.number(o, "row_bound", where),
                    Artifact.number(o, "block_scale", where), Artifact.number(o, "moment_weight", where),
                    o.path("centred").asBoolean(), o.path("standardize").asBoolean(),
                    Artifact.number(o, "variance_floor", where), Artifact.number(o, "lambda", where),
                    Artifact.number(o, "sa_fraction", where), Artifact.number(o, "source_share", where),
                    "vote".equals(o.path("ensemble").asText()), "ovr".equals(o.path("multiclass").asText()),
                    ShrinkTarget.valueOf(Artifact.text(o, "shrink_target", where).toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
            throw new ArtifactException(where + ": invalid settings: " + e.getMessage(), e);
        }
    }
}
