package org.privadapt.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.privadapt.data.Dataset;
import org.privadapt.data.text.TextEncoding;
import org.privadapt.methods.artifacts.Artifact;
import org.privadapt.methods.artifacts.ArtifactException;
import org.privadapt.methods.gmmuda.EncoderMismatchException;

/**
 * Which text encoder the rows behind a two-party artifact were encoded with, for the artifacts that do not record it
 * themselves (PRIMA's target release and source model, DPOT's release; {@code dp-uda-gmm}'s release always does):
 * {@code payload.featurisation.text_encoder} (name and sha256, as {@code dp-uda-gmm}'s), written only for a pretrained
 * encoder, so that artifacts of numeric rows or of the hashed bag of words stay as they were, and read as
 * {@link TextEncoding.Identity#BOW} when absent. The partner whose rows are encoded with another encoder is refused
 * ({@link EncoderMismatchException}, exit code 7) before anything is charged or written.
 */
public final class TextEncoderRecords {
    private TextEncoderRecords() {
    }

    /** The artifact with the rows' encoder recorded when it is a pretrained one (unchanged for the bag of words). */
    public static Artifact record(Artifact a, Dataset rows) {
        return record(a, TextEncoding.identity(rows));
    }

    /** The artifact with {@code encoder} recorded when it is a pretrained one. */
    public static Artifact record(Artifact a, TextEncoding.Identity encoder) {
        if (!encoder.equals(TextEncoding.Identity.BOW)) {
            JsonNode f = a.payload().get("featurisation");
            ObjectNode te = (f instanceof ObjectNode o ? o : a.payload().putObject("featurisation")).putObject("text_encoder");
            te.put("name", encoder.name());
            te.put("sha256", encoder.hash());
        }
        return a;
    }

    /** The encoder an artifact records ({@link TextEncoding.Identity#BOW} when none). */
    public static TextEncoding.Identity of(Artifact a, String where) throws ArtifactException {
        JsonNode te = a.payload().path("featurisation").get("text_encoder");
        if (te == null) {
            return TextEncoding.Identity.BOW;
        }
        String name = te.path("name").asText("");
        String hash = te.path("sha256").asText("");
        if (!name.matches("[a-z0-9._-]+") || !hash.matches("([0-9a-f]{64})?")) {
            throw new ArtifactException(where + ": featurisation.text_encoder is not a name and a SHA-256");
        }
        return new TextEncoding.Identity(name, hash);
    }

    /**
     * Refuses rows encoded otherwise than the artifact's (another name, or the same name with other weights).
     *
     * @param what "release" or "model", for the message
     */
    public static void require(Artifact a, TextEncoding.Identity rows, String what, String where)
            throws ArtifactException, EncoderMismatchException {
        TextEncoding.Identity recorded = of(a, where);
        if (!recorded.equals(rows)) {
            String fix = recorded.name().equals(rows.name()) ? "" : "; encode them with --param encoder=" + recorded.name();
            throw new EncoderMismatchException(where + ": the " + what + " was made from rows encoded with text encoder "
                    + recorded.describe() + ", these rows are encoded with " + rows.describe() + fix);
        }
    }

    /** Refuses a pretrained encoder where rows are not loaded whole in process (their features are read as they are). */
    public static void refuseOutOfProcess(String encoderParam, String engine) {
        if (!org.privadapt.data.text.TextEncoders.BOW.equals(org.privadapt.data.text.TextEncoders.normalise(encoderParam))) {
            throw new UsageException("--param encoder: the text encoders run in process; " + engine + " reads the rows' "
                    + "numeric features as they are");
        }
    }
}
