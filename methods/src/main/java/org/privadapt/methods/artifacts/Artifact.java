package org.privadapt.methods.artifacts;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;

/**
 * What crosses between the parties: a typed, versioned JSON document that states its privacy cost.
 *
 * <pre>
 * { "format": "privadapt-artifact", "version": 1, "kind": "release" | "model", "method": "prima", "party": "target",
 *   "run_id": "...", "created": "...", "privacy": {...}, "payload": {...}, "checksum": "sha256 of the rest" }
 * </pre>
 * Arrays of doubles are stored exactly, as base64 of little-endian float64 ({@link #putDoubles}). The checksum is
 * the SHA-256 of the canonical JSON (keys sorted) of everything else; reading verifies it, so accidental damage
 * and casual edits are detected (it is not a signature: a party can rewrite its own artifact and checksum).
 * <p>
 * Signed ({@link #signedWith}): a {@code "signature": {"algorithm": "ed25519", "key_fingerprint": "SHA256:...",
 * "value": base64}} block, the writer's Ed25519 signature of the canonical JSON of everything but the signature and
 * the checksum (the bytes the checksum hashes, less the signature); the checksum then covers the signature block
 * too, so a reader that knows nothing of signatures still reads the artifact. {@link #verifiedBy} checks it against
 * the partner's public key (docs/privacy/signing.md).
 */
public final class Artifact {
    public static final String FORMAT = "privadapt-artifact";
    public static final int VERSION = 1;
    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final ObjectMapper CANON = new ObjectMapper();

    private final ObjectNode doc;
    private ArtifactKeys.Signer signer;

    private Artifact(ObjectNode doc) {
        this.doc = doc;
    }

    /** A new artifact; fill {@link #privacy()} and {@link #payload()} before writing. */
    public static Artifact create(String kind, String method, String party, String runId) {
        return create(kind, method, party, runId, Instant.now().toString());
    }

    /** As above with a given creation time (so that an artifact rebuilt from the same content has the same checksum). */
    public static Artifact create(String kind, String method, String party, String runId, String created) {
        ObjectNode d = CANON.createObjectNode();
        d.put("format", FORMAT);
        d.put("version", VERSION);
        d.put("kind", kind);
        d.put("method", method);
        d.put("party", party);
        d.put("run_id", runId);
        d.put("created", created);
        d.putObject("privacy");
        d.putObject("payload");
        return new Artifact(d);
    }

    public String kind() {
        return doc.get("kind").asText();
    }

    public String method() {
        return doc.get("method").asText();
    }

    public String party() {
        return doc.get("party").asText();
    }

    public String created() {
        return doc.path("created").asText();
    }

    public String runId() {
        return doc.get("run_id").asText();
    }

    public ObjectNode privacy() {
        return (ObjectNode) doc.get("privacy");
    }

    public ObjectNode payload() {
        return (ObjectNode) doc.get("payload");
    }

    /** The checksum the artifact has (after {@link #seal()} or reading). */
    public String checksum() {
        return doc.path("checksum").asText();
    }

    /** Computes and stores the signature (when {@link #signedWith signed}), then the checksum; returns the checksum. */
    public String seal() {
        doc.remove("checksum");
        if (signer != null) {
            doc.set("signature", ArtifactSignatures.sign(signer, canonical(doc, "checksum", "signature")));
        }
        String c = computeChecksum(doc);
        doc.put("checksum", c);
        return c;
    }

    /**
     * Signs the artifact with the party's own key when it is sealed (written); {@code null} leaves it unsigned.
     *
     * @return this
     */
    public Artifact signedWith(ArtifactKeys.Signer key) {
        this.signer = key;
        return this;
    }

    /** The signature block's algorithm and key fingerprint, or null when the artifact is unsigned (not verified here). */
    public ArtifactSignatures.Block signature() {
        return ArtifactSignatures.block(doc);
    }

    /**
     * Checks that the artifact is signed, by {@code key}, and unchanged since: refuses an unsigned artifact, a
     * signature by another key or of another algorithm, and any change to what was signed.
     *
     * @param name the file name, for the message
     * @return this
     * @throws ArtifactException one line naming the file and the fingerprints
     */
    public Artifact verifiedBy(ArtifactKeys.Verifier key, String name) throws ArtifactException {
        ArtifactSignatures.verify(doc, canonical(doc, "checksum", "signature"), key, name);
        return this;
    }

    public byte[] toBytes() {
        seal();
        try {
            return JSON.writeValueAsBytes(doc);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Writes atomically (temporary file, fsync, rename): a crash leaves no half-written artifact. */
    public void write(Path file) throws IOException {
        byte[] bytes = toBytes();
        Path target = file.toAbsolutePath();
        Files.createDirectories(target.getParent());
        Path tmp = Files.createTempFile(target.getParent(), "." + target.getFileName() + ".", ".tmp");
        org.privadapt.privacy.RunJournal.temporary(tmp);
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer b = ByteBuffer.wrap(bytes);
                while (b.hasRemaining()) {
                    ch.write(b);
                }
                ch.force(true);
            }
            try (org.privadapt.privacy.RunJournal.Step step = org.privadapt.privacy.RunJournal.enter("output")) {
                try {
                    Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
                }
                org.privadapt.privacy.RunJournal.wrote(target);
            }
        } finally {
            Files.deleteIfExists(tmp);
            org.privadapt.privacy.RunJournal.temporaryDone(tmp);
        }
    }

    /**
     * Reads and verifies an artifact of the expected kind.
     *
     * @throws ArtifactException naming the file and what is wrong
     */
    /** Reads and checks an artifact file; {@code expectedKind} null accepts any kind. */
    public static Artifact read(Path file, String expectedKind) throws ArtifactException {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new ArtifactException(file + ": no such file");
        } catch (IOException e) {
            throw new ArtifactException(file + ": cannot read: " + e.getMessage(), e);
        }
        return parse(file.toString(), bytes, expectedKind);
    }

    /** " line L, column C (byte B of N)" for a parser location; "truncated" when it is the end of the file. */
    static String where(com.fasterxml.jackson.core.JsonLocation loc, int size) {
        if (loc == null) {
            return "";
        }
        long b = loc.getByteOffset() >= 0 ? loc.getByteOffset() : loc.getCharOffset();
        String s = " line " + loc.getLineNr() + ", column " + loc.getColumnNr() + (b >= 0 ? " (byte " + b + " of " + size + ")" : "");
        return b >= size ? s + ": the file ends early (truncated?):" : s + ":";
    }

    /**
     * Parses and checks an artifact (format, version, checksum, required fields); {@code expectedKind} null accepts
     * any kind (inspection).
     */
    public static Artifact parse(String name, byte[] bytes, String expectedKind) throws ArtifactException {
        JsonNode n;
        try {
            n = CANON.readTree(bytes);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new ArtifactException(name + ":" + where(e.getLocation(), bytes.length) + " not a privadapt artifact (malformed "
                    + "JSON: " + e.getOriginalMessage().lines().findFirst().orElse("") + ")", e);
        } catch (IOException e) {
            throw new ArtifactException(name + ": not a privadapt artifact (malformed JSON: " + e.getMessage() + ")", e);
        }
        if (n == null || !n.isObject() || !FORMAT.equals(n.path("format").asText())) {
            throw new ArtifactException(name + ": not a privadapt artifact (no \"format\": \"" + FORMAT + "\")");
        }
        if (n.path("version").asInt(-1) != VERSION) {
            throw new ArtifactException(name + ": artifact version " + n.path("version") + " is not supported (expected " + VERSION + ")");
        }
        String expected = computeChecksum((ObjectNode) n);
        if (!expected.equals(n.path("checksum").asText())) {
            throw new ArtifactException(name + ": checksum mismatch: the artifact was modified or damaged");
        }
        ArtifactSignatures.checkShape((ObjectNode) n, name);
        if (expectedKind != null && !expectedKind.equals(n.path("kind").asText())) {
            throw new ArtifactException(name + ": is a '" + n.path("kind").asText() + "' artifact, expected a '" + expectedKind + "'");
        }
        for (String f : new String[] {"method", "party", "run_id", "privacy", "payload"}) {
            if (!n.has(f)) {
                throw new ArtifactException(name + ": artifact lacks '" + f + "'");
            }
        }
        return new Artifact((ObjectNode) n);
    }

    private static String computeChecksum(ObjectNode doc) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(canonical(doc, "checksum")));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The canonical JSON (keys sorted at every level, no white space, UTF-8) of the document without {@code omitted}. */
    private static byte[] canonical(ObjectNode doc, String... omitted) {
        ObjectNode copy = doc.deepCopy();
        for (String f : omitted) {
            copy.remove(f);
        }
        try {
            return CANON.writeValueAsBytes(sorted(copy));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode sorted(JsonNode n) {
        if (n.isObject()) {
            ObjectNode out = CANON.createObjectNode();
            List<String> names = new ArrayList<>();
            n.fieldNames().forEachRemaining(names::add);
            names.sort(String::compareTo);
            for (String k : names) {
                out.set(k, sorted(n.get(k)));
            }
            return out;
        }
        if (n.isArray()) {
            ArrayNode out = CANON.createArrayNode();
            for (JsonNode x : n) {
                out.add(sorted(x));
            }
            return out;
        }
        return n;
    }

    // ------------------------------------------------------------------ exact arrays

    /** Stores doubles exactly: {"dtype": "float64le", "length": k, "base64": "..."}. */
    public static ObjectNode putDoubles(ObjectNode parent, String field, double[] values) {
        ByteBuffer b = ByteBuffer.allocate(8 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (double v : values) {
            b.putDouble(v);
        }
        ObjectNode o = parent.putObject(field);
        o.put("dtype", "float64le");
        o.put("length", values.length);
        o.put("base64", Base64.getEncoder().encodeToString(b.array()));
        return o;
    }

    /**
     * @throws ArtifactException if the field is missing, of another type or length, or holds a non-finite value
     */
    public static double[] getDoubles(JsonNode parent, String field, int expectedLength, String where) throws ArtifactException {
        JsonNode o = parent.get(field);
        if (o == null || !"float64le".equals(o.path("dtype").asText()) || !o.has("base64")) {
            throw new ArtifactException(where + ": field '" + field + "' is missing or not a float64le array");
        }
        byte[] raw;
        try {
            raw = Base64.getDecoder().decode(o.get("base64").asText());
        } catch (IllegalArgumentException e) {
            throw new ArtifactException(where + ": field '" + field + "' is not valid base64", e);
        }
        if (raw.length % 8 != 0 || (expectedLength >= 0 && raw.length != 8L * expectedLength)) {
            throw new ArtifactException(where + ": field '" + field + "' holds " + raw.length / 8 + " values, expected "
                    + expectedLength);
        }
        ByteBuffer b = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
        double[] out = new double[raw.length / 8];
        for (int i = 0; i < out.length; i++) {
            out[i] = b.getDouble();
            if (!Double.isFinite(out[i])) {
                throw new ArtifactException(where + ": field '" + field + "' holds a non-finite value at " + i);
            }
        }
        return out;
    }

    public static ArrayNode putInts(ObjectNode parent, String field, int[] values) {
        ArrayNode a = parent.putArray(field);
        for (int v : values) {
            a.add(v);
        }
        return a;
    }

    public static String text(JsonNode n, String field, String where) throws ArtifactException {
        JsonNode v = n.get(field);
        if (v == null || !v.isTextual()) {
            throw new ArtifactException(where + ": missing text field '" + field + "'");
        }
        return v.asText();
    }

    public static double number(JsonNode n, String field, String where) throws ArtifactException {
        JsonNode v = n.get(field);
        if (v == null || !v.isNumber()) {
            throw new ArtifactException(where + ": missing numeric field '" + field + "'");
        }
        return v.asDouble();
    }

    public static int integer(JsonNode n, String field, String where) throws ArtifactException {
        JsonNode v = n.get(field);
        if (v == null || !v.isIntegralNumber()) {
            throw new ArtifactException(where + ": missing integer field '" + field + "'");
        }
        return v.asInt();
    }

    /** Text of the whole document (for debugging and tests). */
    @Override
    public String toString() {
        return new String(toBytes(), StandardCharsets.UTF_8);
    }
}
