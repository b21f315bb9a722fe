package org.privadapt.methods.artifacts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Base64;

/**
 * An artifact's signature block, {@code "signature": {"algorithm": "ed25519", "key_fingerprint": "SHA256:...",
 * "value": base64}}: made by {@link Artifact#seal()} for a signed artifact and checked by {@link Artifact#verifiedBy}.
 * The fingerprint only names the key that signed, for people and for a clear message; what verifies is the signature
 * against the public key the reader was given, never a key the artifact brings.
 */
public final class ArtifactSignatures {
    static final String FIELD = "signature";

    private ArtifactSignatures() {
    }

    /** What an artifact says about its signer (unverified until {@link Artifact#verifiedBy}). */
    public record Block(String algorithm, String fingerprint) {
        /** "signed by SHA256:... (ed25519)". */
        public String describe() {
            return "signed by " + fingerprint + " (" + algorithm + ")";
        }
    }

    static ObjectNode sign(ArtifactKeys.Signer signer, byte[] canonical) {
        ObjectNode s = JsonNodeFactory.instance.objectNode();
        s.put("algorithm", ArtifactKeys.ALGORITHM);
        s.put("key_fingerprint", signer.fingerprint());
        s.put("value", Base64.getEncoder().encodeToString(ArtifactKeys.sign(signer, canonical)));
        return s;
    }

    static Block block(JsonNode doc) {
        JsonNode s = doc.get(FIELD);
        if (s == null || !s.isObject()) {
            return null;
        }
        return new Block(s.path("algorithm").asText(), s.path("key_fingerprint").asText());
    }

    /** A signature block, when there is one, is an object of three text fields (checked on reading, before any use). */
    static void checkShape(ObjectNode doc, String name) throws ArtifactException {
        if (!doc.has(FIELD)) {
            return;
        }
        JsonNode s = doc.get(FIELD);
        if (!s.isObject() || !s.path("algorithm").isTextual() || !s.path("key_fingerprint").isTextual() || !s.path("value").isTextual()) {
            throw new ArtifactException(name + ": malformed signature block (expected algorithm, key_fingerprint and value)");
        }
    }

    static void verify(JsonNode doc, byte[] canonical, ArtifactKeys.Verifier key, String name) throws ArtifactException {
        String expected = key.fingerprint() + " (" + key.file() + ")";
        Block b = block(doc);
        if (b == null) {
            throw new ArtifactException(name + ": is not signed; a signature by " + expected + " is required");
        }
        if (!ArtifactKeys.ALGORITHM.equals(b.algorithm())) {
            throw new ArtifactException(name + ": signed with '" + b.algorithm() + "', not " + ArtifactKeys.ALGORITHM
                    + "; a signature by " + expected + " is required");
        }
        if (!b.fingerprint().equals(key.fingerprint())) {
            throw new ArtifactException(name + ": signed by " + b.fingerprint() + ", not by the expected key " + expected);
        }
        byte[] value;
        try {
            value = Base64.getDecoder().decode(doc.get(FIELD).get("value").asText());
        } catch (IllegalArgumentException e) {
            throw new ArtifactException(name + ": the signature is not valid base64");
        }
        if (!ArtifactKeys.verify(key.key(), canonical, value)) {
            throw new ArtifactException(name + ": the signature does not verify against " + expected + ": the artifact "
                    + "was changed after it was signed, or another key signed it");
        }
    }
}
