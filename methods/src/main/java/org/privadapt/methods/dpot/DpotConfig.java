package org.privadapt.methods.dpot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;
import org.privadapt.methods.artifacts.ArtifactException;
import org.privadapt.methods.core.MethodConfig;

/**
 * Settings of DPOT (paper 002, Alg. 1) and of its domain adaptation (Alg. 2, {@code dpot-da}); all public, none read
 * from data. Method parameters ({@code --param name=value}):
 * <ul>
 *   <li>{@code level}: {@code record} (default; whole records, features and label, under replace-one neighbours; rows
 *       clipped to L2 norm {@code clip}) or {@code attribute} (the paper's guarantee, after Kenthapadi et al. 2013: one
 *       attribute of one record changes by at most 1, labels fixed).</li>
 *   <li>{@code dim}: the projection dimension l (default k/10 as in the paper, at least 1).</li>
 *   <li>{@code clip}: R, the row bound of the record level (default 1).</li>
 *   <li>{@code noise-ratio}: sigma / Delta_rows fixed (the paper's sigma/w; e.g. 1.1); by default it is calibrated to
 *       the source's budget.</li>
 *   <li>{@code label-share}: the part of the source's epsilon spent on the Laplace label histogram in the whole-batch
 *       mode (default 0.1).</li>
 *   <li>{@code mode}: {@code whole} (default) or {@code minibatch} (Poisson batches of expected size {@code batch},
 *       default 128; {@code batches} of them, default one pass ceil(n/batch); with {@code noise-ratio} fixed and no
 *       {@code batches}, as many as the budget allows).</li>
 *   <li>{@code reg-e} (default 0.01), {@code reg-g} (default 0.1): lambda_e and lambda_g of Eq. (3), on the cost
 *       normalised to [0, 1]; {@code outer} (default 10): GCG iterations.</li>
 *   <li>{@code target-labels}: labelled target rows per class for the semi-supervised setting (default 0).</li>
 * </ul>
 */
public record DpotConfig(Level level, int dim, double clip, double noiseRatio, double labelShare, boolean minibatch,
                         int batch, int batches, double regEntropic, double regGroup, int outer, int targetLabelsPerClass) {

    public enum Level { RECORD, ATTRIBUTE }

    public DpotConfig {
        if (dim < 0) {
            throw new IllegalArgumentException("dim must be >= 1 (or 0 for k/10), got " + dim);
        }
        if (!(clip > 0) || Double.isInfinite(clip)) {
            throw new IllegalArgumentException("clip must be finite and > 0, got " + clip);
        }
        if (!Double.isNaN(noiseRatio) && !(noiseRatio > 0)) {
            throw new IllegalArgumentException("noise-ratio must be > 0, got " + noiseRatio);
        }
        if (!(labelShare > 0 && labelShare < 1)) {
            throw new IllegalArgumentException("label-share must be in (0, 1), got " + labelShare);
        }
        if (batch < 1 || batches < 0 || outer < 1 || targetLabelsPerClass < 0) {
            throw new IllegalArgumentException("batch, outer must be >= 1 and batches, target-labels >= 0");
        }
        if (!(regEntropic > 0) || !(regGroup >= 0)) {
            throw new IllegalArgumentException("reg-e must be > 0 and reg-g >= 0");
        }
    }

    /** The {@code --param} names {@link #from} reads. */
    public static final java.util.Set<String> PARAMETERS = java.util.Set.of("level", "mode", "dim", "clip", "noise-ratio",
            "label-share", "batch", "batches", "reg-e", "reg-g", "outer", "target-labels");

    public static DpotConfig defaults() {
        return new DpotConfig(Level.RECORD, 0, 1.0, Double.NaN, 0.1, false, 128, 0, 0.01, 0.1, 10, 0);
    }

    public static DpotConfig from(MethodConfig c) {
        String lvl = c.params().getOrDefault("level", "record").toLowerCase(Locale.ROOT);
        Level level = switch (lvl) {
            case "record" -> Level.RECORD;
            case "attribute" -> Level.ATTRIBUTE;
            default -> throw new IllegalArgumentException("level must be record or attribute, got '" + lvl + "'");
        };
        String mode = c.params().getOrDefault("mode", "whole");
        if (!mode.equals("whole") && !mode.equals("minibatch")) {
            throw new IllegalArgumentException("mode must be whole or minibatch, got '" + mode + "'");
        }
        String nr = c.params().get("noise-ratio");
        return new DpotConfig(level, c.intParam("dim", 0), c.param("clip", 1.0), nr == null ? Double.NaN : Double.parseDouble(nr),
                c.param("label-share", 0.1), mode.equals("minibatch"), c.intParam("batch", 128), c.intParam("batches", 0),
                c.param("reg-e", 0.01), c.param("reg-g", 0.1), c.intParam("outer", 10), c.intParam("target-labels", 0));
    }

    /** The projection dimension for k features. */
    public int projectionDim(int k) {
        return dim > 0 ? dim : Math.max(1, Math.round(k / 10f));
    }

    public ObjectNode toJson() {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("level", level.name().toLowerCase(Locale.ROOT));
        o.put("dim", dim);
        o.put("clip", clip);
        if (!Double.isNaN(noiseRatio)) {
            o.put("noise_ratio", noiseRatio);
        }
        o.put("label_share", labelShare);
        o.put("mode", minibatch ? "minibatch" : "whole");
        o.put("batch", batch);
        o.put("batches", batches);
        o.put("reg_e", regEntropic);
        o.put("reg_g", regGroup);
        o.put("outer", outer);
        o.put("target_labels", targetLabelsPerClass);
        return o;
    }

    public static DpotConfig fromJson(JsonNode o, String where) throws ArtifactException {
        try {
            return new DpotConfig(Level.valueOf(o.path("level").asText("record").toUpperCase(Locale.ROOT)), o.path("dim").asInt(0),
                    o.path("clip").asDouble(1), o.has("noise_ratio") ? o.get("noise_ratio").asDouble() : Double.NaN,
                    o.path("label_share").asDouble(0.1), "minibatch".equals(o.path("mode").asText()), o.path("batch").asInt(128),
                    o.path("batches").asInt(0), o.path("reg_e").asDouble(0.01), o.path("reg_g").asDouble(0.1),
                    o.path("outer").asInt(10), o.path("target_labels").asInt(0));
        } catch (IllegalArgumentException e) {
            throw new ArtifactException(where + ": invalid DPOT settings: " + e.getMessage(), e);
        }
    }
}
