package org.privadapt.methods.artifacts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 46 item 5: signed artifacts and key files, below the command line (docs/privacy/signing.md). */
class ArtifactSigningTest {
    @TempDir
    Path dir;

    static final ObjectMapper M = new ObjectMapper();

    ArtifactKeys.Signer signer(String name) throws Exception {
        KeyPair kp = ArtifactKeys.generate();
        ArtifactKeys.writeNew(dir.resolve(name + ".key"), ArtifactKeys.privateText(kp).getBytes(StandardCharsets.US_ASCII), "rw-------");
        ArtifactKeys.writeNew(dir.resolve(name + ".pub"), ArtifactKeys.publicText(kp.getPublic()).getBytes(StandardCharsets.US_ASCII), "rw-r--r--");
        return ArtifactKeys.readPrivate(dir.resolve(name + ".key"));
    }

    ArtifactKeys.Verifier verifier(String name) throws Exception {
        return ArtifactKeys.readPublic(dir.resolve(name + ".pub"));
    }

    static Artifact sample() {
        Artifact a = Artifact.create("release", "prima", "target", "run-1", "2025-01-01T00:00:00Z");
        a.privacy().put("epsilon_spent", 2.0);
        Artifact.putDoubles(a.payload(), "mean", new double[] {1.5, -2.25, 3.0});
        a.payload().put("dimension", 3);
        return a;
    }

    /** SHA-256 of the canonical JSON of everything but the checksum: the format's checksum, as before signatures. */
    static String checksum(ObjectNode doc) throws Exception {
        ObjectNode c = doc.deepCopy();
        c.remove("checksum");
        Map<String, Object> sorted = M.convertValue(c, TreeMap.class);
        byte[] canon = M.copy().configure(com.fasterxml.jackson.databind.SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true)
                .writeValueAsBytes(sorted);
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(canon));
    }

    @Test
    void anUnsignedArtifactIsUnchangedAndASignedOneVerifiesAgainstItsKeyOnly() throws Exception {
        ArtifactKeys.Signer s = signer("a");
        signer("b");
        byte[] unsigned = sample().toBytes();
        ObjectNode u = (ObjectNode) M.readTree(unsigned);
        assertThat(u.has("signature")).isFalse();
        assertThat(u.get("checksum").asText()).isEqualTo(checksum(u));
        assertThat(Artifact.parse("u", unsigned, "release").signature()).isNull();

        byte[] signed = sample().signedWith(s).toBytes();
        assertThat(sample().signedWith(s).toBytes()).isEqualTo(signed); // Ed25519 is deterministic
        ObjectNode d = (ObjectNode) M.readTree(signed);
        assertThat(d.get("checksum").asText()).isEqualTo(checksum(d)); // covers the signature block: old readers read it
        assertThat(d.path("signature").path("algorithm").asText()).isEqualTo("ed25519");
        assertThat(d.path("signature").path("key_fingerprint").asText()).isEqualTo(s.fingerprint());
        Artifact a = Artifact.parse("s.json", signed, "release");
        assertThat(a.signature().describe()).isEqualTo("signed by " + s.fingerprint() + " (ed25519)");
        a.verifiedBy(verifier("a"), "s.json");
        assertThatThrownBy(() -> a.verifiedBy(verifier("b"), "s.json")).isInstanceOf(ArtifactException.class)
                .hasMessageContaining("s.json: signed by " + s.fingerprint() + ", not by the expected key " + verifier("b").fingerprint());
        assertThatThrownBy(() -> Artifact.parse("u.json", unsigned, "release").verifiedBy(verifier("a"), "u.json"))
                .hasMessageContaining("u.json: is not signed");
        assertThat(ArtifactKeys.fingerprint(s.publicKey())).isEqualTo(verifier("a").fingerprint());
    }

    @Test
    void everyChangeIsRefusedByTheChecksumOrTheSignature() throws Exception {
        ArtifactKeys.Signer s = signer("a");
        ObjectNode d = (ObjectNode) M.readTree(sample().signedWith(s).toBytes());
        // a changed signature without a new checksum: the checksum catches it (it covers the signature block)
        ObjectNode damaged = d.deepCopy();
        String v = damaged.path("signature").path("value").asText();
        ((ObjectNode) damaged.get("signature")).put("value", (v.charAt(0) == 'A' ? "B" : "A") + v.substring(1));
        assertThatThrownBy(() -> Artifact.parse("x", M.writeValueAsBytes(damaged), null)).hasMessageContaining("checksum mismatch");
        // the same with the checksum redone, and any content change with the checksum redone: the signature catches them
        damaged.put("checksum", checksum(damaged));
        assertThatThrownBy(() -> Artifact.parse("x", M.writeValueAsBytes(damaged), null).verifiedBy(verifier("a"), "x"))
                .hasMessageContaining("does not verify");
        for (String field : new String[] {"kind", "party", "run_id", "created"}) {
            ObjectNode edited = d.deepCopy();
            edited.put(field, edited.get(field).asText() + "x");
            edited.put("checksum", checksum(edited));
            Artifact e = Artifact.parse("x", M.writeValueAsBytes(edited), null);
            assertThatThrownBy(() -> e.verifiedBy(verifier("a"), "x")).as(field).hasMessageContaining("does not verify");
        }
        ObjectNode more = d.deepCopy();
        ((ObjectNode) more.get("privacy")).put("note", "added");
        more.put("checksum", checksum(more));
        assertThatThrownBy(() -> Artifact.parse("x", M.writeValueAsBytes(more), null).verifiedBy(verifier("a"), "x"))
                .hasMessageContaining("does not verify");
        // another algorithm, and a malformed block
        ObjectNode alg = d.deepCopy();
        ((ObjectNode) alg.get("signature")).put("algorithm", "rsa");
        alg.put("checksum", checksum(alg));
        assertThatThrownBy(() -> Artifact.parse("x", M.writeValueAsBytes(alg), null).verifiedBy(verifier("a"), "x"))
                .hasMessageContaining("signed with 'rsa', not ed25519");
        ObjectNode bad = d.deepCopy();
        bad.put("signature", "yes");
        bad.put("checksum", checksum(bad));
        assertThatThrownBy(() -> Artifact.parse("x", M.writeValueAsBytes(bad), null)).hasMessageContaining("malformed signature block");
        // white space is not content: the same document re-indented still verifies
        Artifact.parse("x", M.writerWithDefaultPrettyPrinter().writeValueAsBytes(d), null).verifiedBy(verifier("a"), "x");
    }

    @Test
    void keyFilesAreCheckedAndNeverReplaced() throws Exception {
        signer("a");
        signer("b");
        Path key = dir.resolve("a.key");
        if (Files.getFileStore(dir).supportsFileAttributeView("posix")) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(key))).isEqualTo("rw-------");
        }
        byte[] before = Files.readAllBytes(key);
        assertThatThrownBy(() -> ArtifactKeys.writeNew(key, new byte[] {1}, "rw-------")).isInstanceOf(FileAlreadyExistsException.class);
        assertThat(Files.readAllBytes(key)).isEqualTo(before);
        try (var files = Files.list(dir)) {
            assertThat(files.filter(p -> p.getFileName().toString().endsWith(".tmp"))).isEmpty();
        }
        assertThat(reason(() -> ArtifactKeys.readPublic(key))).isEqualTo(KeyFileException.Reason.WRONG_KIND);
        assertThat(reason(() -> ArtifactKeys.readPrivate(dir.resolve("a.pub")))).isEqualTo(KeyFileException.Reason.WRONG_KIND);
        assertThat(reason(() -> ArtifactKeys.readPublic(dir.resolve("none.pub")))).isEqualTo(KeyFileException.Reason.MISSING);
        assertThat(reason(() -> ArtifactKeys.readPublic(dir))).isEqualTo(KeyFileException.Reason.MISSING);
        // a private key with another pair's public half: the halves do not belong together
        String[] a = Files.readString(key).split("\n");
        String bPublic = Files.readString(dir.resolve("b.pub")).strip();
        Path mixed = write("mixed.key", a[1] + "\n" + bPublic + "\n");
        assertThatThrownBy(() -> ArtifactKeys.readPrivate(mixed)).hasMessageContaining("do not belong together");
        String[] pub = Files.readString(dir.resolve("a.pub")).strip().split(" ");
        assertThatThrownBy(() -> ArtifactKeys.readPublic(write("fp.pub", pub[0] + " " + pub[1] + " SHA256:x\n")))
                .hasMessageContaining("fp.pub: the fingerprint SHA256:x it states is not its key's");
        ArtifactKeys.readPublic(write("nofp.pub", "# a comment\n" + pub[0] + " " + pub[1] + "\n")); // the fingerprint is optional
        assertThatThrownBy(() -> ArtifactKeys.readPublic(write("b64.pub", pub[0] + " !!!\n"))).hasMessageContaining("not valid base64");
        assertThatThrownBy(() -> ArtifactKeys.readPublic(write("rsa.pub", pub[0] + " "
                + "MFwwDQYJKoZIhvcNAQEBBQADSwAwSAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8QuKUpRKfFLfRYC9AIKjbJTWit+CqvjWYzvQwECAwEAAQ==\n")))
                .hasMessageContaining("not an Ed25519 X.509 key");
        assertThat(reason(() -> ArtifactKeys.readPublic(write("empty.pub", "")))).isEqualTo(KeyFileException.Reason.MALFORMED);
        assertThat(reason(() -> ArtifactKeys.readPublic(write("ssh.pub", "ssh-ed25519 AAAA me@host\n"))))
                .isEqualTo(KeyFileException.Reason.MALFORMED);
        assertThat(reason(() -> ArtifactKeys.readPrivate(write("two.key", a[1] + "\n" + a[1] + "\n" + bPublic + "\n"))))
                .isEqualTo(KeyFileException.Reason.MALFORMED);
    }

    interface Read {
        void run() throws Exception;
    }

    static KeyFileException.Reason reason(Read r) {
        try {
            r.run();
        } catch (KeyFileException e) {
            assertThat(e.getMessage().lines().count()).isEqualTo(1);
            return e.reason();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        throw new AssertionError("no exception");
    }

    Path write(String name, String content) throws Exception {
        Path f = dir.resolve(name);
        Files.writeString(f, content);
        return f;
    }
}
