package org.privadapt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.cli.report.Json;
import org.privadapt.data.synthetic.SyntheticShift;

/**
 * Issue 46 item 5: artifacts whose origin the receiver can check. Each party's key pair ({@code privadapt keys}), the
 * signed two-party flows, and their refusals: a changed byte (checksum recomputed, so only the signature catches it),
 * a foreign key, an unsigned artifact when a signature is asked for, bad key files; each with one line, its exit code,
 * and nothing read from the rows, spent or written.
 */
class SignedArtifactsCliTest {
    @TempDir
    Path dir;

    Path src;
    Path tgt;

    void data() throws Exception {
        var p = SyntheticShift.generate(new SyntheticShift.Config(5, 3, 200, 150, 4.0, 3.0, 1.0), 3);
        PrivateRunTest h = new PrivateRunTest();
        h.dir = dir;
        src = h.writeCsv("src.csv", p.source());
        tgt = h.writeCsv("tgt.csv", p.target());
    }

    String f(String name) {
        return dir.resolve(name).toString();
    }

    /** keys generate NAME.key; returns the fingerprint it printed. */
    String keys(String name) throws Exception {
        CliHarness.Result r = CliHarness.run("keys", "generate", "--out", f(name + ".key"), "--json");
        assertThat(r.code()).as(r.err()).isZero();
        return Json.MAPPER.readTree(r.out()).path("fingerprint").asText();
    }

    /** The command with its defaults overridden by {@code extra} (option-value pairs; a lone flag such as --json last). */
    static CliHarness.Result command(List<String> command, String[] defaults, String... extra) {
        boolean json = extra.length % 2 == 1 && extra[extra.length - 1].equals("--json");
        String[] pairs = json ? java.util.Arrays.copyOf(extra, extra.length - 1) : extra;
        if (!json) {
            return TwoPartyCliTest.command(command, defaults, pairs);
        }
        List<String> c = new ArrayList<>(command);
        c.add("--json");
        return TwoPartyCliTest.command(c, defaults, pairs);
    }

    CliHarness.Result release(String... extra) {
        return command(List.of("target", "release"), new String[] {"--method", "prima", "--data", tgt.toString(),
            "--preprocess", "clip=10", "--epsilon", "2", "--ledger", f("t.ledger"), "--out", f("release.json"), "--seed", "21"}, extra);
    }

    CliHarness.Result train(String... extra) {
        return command(List.of("source", "train"), new String[] {"--data", src.toString(), "--release",
            f("release.json"), "--classifier", "lr", "--epsilon", "2", "--public", "size,classes", "--ledger", f("s.ledger"),
            "--out", f("model.json"), "--seed", "21"}, extra);
    }

    CliHarness.Result predict(String... extra) {
        return command(List.of("target", "predict", "--json"), new String[] {"--data", tgt.toString(), "--model",
            f("model.json"), "--release", f("release.json"), "--out", f("pred.csv")}, extra);
    }

    static void refusedInOneLine(CliHarness.Result r, int code, String... fragments) {
        assertThat(r.code()).as(r.err()).isEqualTo(code);
        assertThat(r.err().strip().lines().count()).as(r.err()).isEqualTo(1);
        assertThat(r.err()).contains(fragments);
    }

    @Test
    void keysGenerateWritesAnOwnerOnlyPairAndNeverReplacesOne() throws Exception {
        CliHarness.Result g = CliHarness.run("keys", "generate", "--out", f("party.key"));
        assertThat(g.code()).as(g.err()).isZero();
        Path key = dir.resolve("party.key");
        Path pub = dir.resolve("party.pub");
        assertThat(Files.readString(pub)).startsWith("privadapt-ed25519-public ").contains(" SHA256:");
        assertThat(Files.readString(key)).contains("privadapt-ed25519-private ");
        if (Files.getFileStore(dir).supportsFileAttributeView("posix")) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(key))).isEqualTo("rw-------");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(pub))).isEqualTo("rw-r--r--");
        }
        try (Stream<Path> s = Files.list(dir)) {
            assertThat(s.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("party.key", "party.pub"); // no temporary
        }
        String fp = Json.MAPPER.readTree(CliHarness.run("keys", "show", pub.toString(), "--json").out()).path("fingerprint").asText();
        assertThat(fp).startsWith("SHA256:");
        assertThat(g.out()).contains(fp);
        CliHarness.Result shown = CliHarness.run("keys", "show", key.toString());
        assertThat(shown.out()).contains("private key (owner-only)").contains(fp);

        Map<String, String> before = snapshot();
        refusedInOneLine(CliHarness.run("keys", "generate", "--out", f("party.key")), ExitCodes.USAGE, "party.key: exists");
        // the private key is new but its public half's file exists: refused before anything is written
        refusedInOneLine(CliHarness.run("keys", "generate", "--out", f("other.key"), "--public-out", pub.toString()),
                ExitCodes.USAGE, "party.pub: exists");
        refusedInOneLine(CliHarness.run("keys", "generate", "--out", f("x.key"), "--public-out", f("x.key")), ExitCodes.USAGE,
                "the same file");
        assertThat(snapshot()).isEqualTo(before);
        assertThat(CliHarness.run("keys").code()).isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void aSignedPrimaFlowVerifiesEndToEndAndGivesTheUnsignedAccuracy() throws Exception {
        data();
        String tfp = keys("target");
        String sfp = keys("source");
        CliHarness.Result r = release("--sign-key", f("target.key"));
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("signed:    by " + tfp + " (ed25519");
        CliHarness.Result t = train("--verify-key", f("target.pub"), "--sign-key", f("source.key"), "--json");
        assertThat(t.code()).as(t.err()).isZero();
        assertThat(Json.MAPPER.readTree(t.out()).path("signed_by").asText()).isEqualTo(sfp);
        assertThat(Json.MAPPER.readTree(t.out()).path("release_verified_by").asText()).isEqualTo(tfp);
        CliHarness.Result p = predict("--verify-key", f("source.pub"));
        assertThat(p.code()).as(p.err()).isZero();
        JsonNode signed = Json.MAPPER.readTree(p.out());
        assertThat(signed.path("model_verified_by").asText()).isEqualTo(sfp);

        // the signature changes nothing else: the same seeded flow unsigned gives the same accuracy
        assertThat(release("--out", f("release-u.json"), "--ledger", f("t2.ledger")).code()).isZero();
        assertThat(train("--release", f("release-u.json"), "--out", f("model-u.json"), "--ledger", f("s2.ledger")).code()).isZero();
        CliHarness.Result pu = predict("--model", f("model-u.json"), "--release", f("release-u.json"));
        assertThat(pu.code()).as(pu.err()).isZero();
        assertThat(signed.path("accuracy").asDouble()).isEqualTo(Json.MAPPER.readTree(pu.out()).path("accuracy").asDouble());

        // inspect shows the signer, and verifies with --verify-key
        CliHarness.Result i = CliHarness.run("inspect", f("model.json"));
        assertThat(i.code()).as(i.err()).isZero();
        assertThat(i.out()).contains("signed by " + sfp + " (ed25519); not verified");
        CliHarness.Result iv = CliHarness.run("inspect", "--verify-key", f("source.pub"), f("model.json"));
        assertThat(iv.out()).contains("signed by " + sfp + " (ed25519), verified with --verify-key");
        assertThat(CliHarness.run("inspect", f("model-u.json")).out()).contains("\nunsigned\n");
        JsonNode ij = Json.MAPPER.readTree(CliHarness.run("inspect", f("release.json"), "--json").out());
        assertThat(ij.path("signature").path("key_fingerprint").asText()).isEqualTo(tfp);
        assertThat(ij.path("signature").path("algorithm").asText()).isEqualTo("ed25519");
        refusedInOneLine(CliHarness.run("inspect", "--verify-key", f("target.pub"), f("model.json")), ExitCodes.ARTIFACT,
                "signed by " + sfp + ", not by the expected key " + tfp);
    }

    @Test
    void aChangedByteWithItsChecksumRecomputedIsCaughtByTheSignatureOnly() throws Exception {
        data();
        keys("target");
        keys("source");
        assertThat(release("--sign-key", f("target.key")).code()).isZero();
        assertThat(train("--verify-key", f("target.pub"), "--sign-key", f("source.key")).code()).isZero();
        ObjectNode model = (ObjectNode) Json.MAPPER.readTree(dir.resolve("model.json").toFile());
        // one base64 character of the first payload array changed (the low bits of one value's mantissa: a character
        // at a multiple of 32 starts a 3-byte group that starts a double), and the checksum redone
        ObjectNode arr = firstArray(model.path("payload"));
        String b64 = arr.get("base64").asText();
        int k = 32 * (b64.length() / 64);
        arr.put("base64", b64.substring(0, k) + (b64.charAt(k) == 'A' ? 'B' : 'A') + b64.substring(k + 1));
        assertThat(Base64.getDecoder().decode(arr.get("base64").asText())).hasSameSizeAs(Base64.getDecoder().decode(b64));
        model.put("checksum", checksum(model));
        Files.write(dir.resolve("forged.json"), Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(model));

        // without --verify-key the checksum alone cannot tell
        assertThat(predict("--model", f("forged.json"), "--out", f("p0.csv")).code()).isZero();
        // with it: refused in one line before the rows are read (a missing --data is never reached) or anything written
        Map<String, String> before = snapshot();
        CliHarness.Result r = predict("--model", f("forged.json"), "--verify-key", f("source.pub"), "--data", f("no-such.csv"),
                "--out", f("p1.csv"));
        refusedInOneLine(r, ExitCodes.ARTIFACT, "forged.json: the signature does not verify");
        CliHarness.Result i = CliHarness.run("inspect", "--verify-key", f("source.pub"), f("forged.json"));
        refusedInOneLine(i, ExitCodes.ARTIFACT, "does not verify");
        assertThat(snapshot()).isEqualTo(before);
    }

    @Test
    void aForeignKeyAndAnUnsignedReleaseAreRefusedBeforeAnythingIsSpent() throws Exception {
        data();
        String tfp = keys("target");
        String ofp = keys("other");
        assertThat(release("--sign-key", f("target.key")).code()).isZero();
        Map<String, String> before = snapshot();
        CliHarness.Result foreign = train("--verify-key", f("other.pub"));
        refusedInOneLine(foreign, ExitCodes.ARTIFACT, "release.json: signed by " + tfp + ", not by the expected key " + ofp);
        // a foreign key that also rewrote the fingerprint: the signature itself fails
        ObjectNode rel = (ObjectNode) Json.MAPPER.readTree(dir.resolve("release.json").toFile());
        ((ObjectNode) rel.get("signature")).put("key_fingerprint", ofp);
        rel.put("checksum", checksum(rel));
        Files.write(dir.resolve("relabelled.json"), Json.MAPPER.writeValueAsBytes(rel));
        before = snapshot();
        refusedInOneLine(train("--release", f("relabelled.json"), "--verify-key", f("other.pub")), ExitCodes.ARTIFACT,
                "relabelled.json: the signature does not verify against " + ofp);
        assertThat(snapshot()).isEqualTo(before); // no ledger, no model

        // unsigned: refused when a signature is asked for, accepted without
        assertThat(release("--out", f("unsigned.json"), "--ledger", f("t2.ledger")).code()).isZero();
        before = snapshot();
        refusedInOneLine(train("--release", f("unsigned.json"), "--verify-key", f("target.pub")), ExitCodes.ARTIFACT,
                "unsigned.json: is not signed; a signature by " + tfp);
        assertThat(snapshot()).isEqualTo(before);
        CliHarness.Result ok = train("--release", f("unsigned.json"));
        assertThat(ok.code()).as(ok.err()).isZero();
    }

    @Test
    void aSignedDpotReleaseIsVerifiedByTargetAdapt() throws Exception {
        data();
        String sfp = keys("source");
        keys("other");
        CliHarness.Result r = TwoPartyCliTest.command(List.of("source", "release"), new String[] {"--method", "dpot", "--data",
            src.toString(), "--preprocess", "none", "--epsilon", "8", "--delta", "1e-3", "--relation", "replace", "--public",
            "classes", "--ledger", f("s.ledger"), "--out", f("dpot.json"), "--seed", "7", "--param", "level=attribute",
            "--sign-key", f("source.key")});
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("signed:  by " + sfp);
        CliHarness.Result a = CliHarness.run("target", "adapt", "--release", f("dpot.json"), "--data", tgt.toString(), "--out",
                f("pred.csv"), "--seed", "7", "--verify-key", f("source.pub"), "--json");
        assertThat(a.code()).as(a.err()).isZero();
        assertThat(Json.MAPPER.readTree(a.out()).path("release_verified_by").asText()).isEqualTo(sfp);
        Map<String, String> before = snapshot();
        refusedInOneLine(CliHarness.run("target", "adapt", "--release", f("dpot.json"), "--data", tgt.toString(), "--out",
                f("pred2.csv"), "--verify-key", f("other.pub")), ExitCodes.ARTIFACT, "not by the expected key");
        assertThat(snapshot()).isEqualTo(before);
    }

    @Test
    void badKeyFilesAreRefusedInOneLineNamingTheFile() throws Exception {
        data();
        keys("target");
        assertThat(release().code()).isZero();
        Files.writeString(dir.resolve("garbage.pub"), "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIO6 someone@host\n");
        String pub = Files.readString(dir.resolve("target.pub"));
        String[] parts = pub.strip().split(" ");
        Files.writeString(dir.resolve("edited.pub"), parts[0] + " " + parts[1] + " SHA256:AAAA\n");
        Map<String, String> before = snapshot();
        refusedInOneLine(release("--sign-key", f("missing.key")), ExitCodes.DATA, "missing.key: no such file (--sign-key)");
        refusedInOneLine(release("--sign-key", f("target.pub")), ExitCodes.USAGE, "--sign-key", "target.pub: is a public key file");
        refusedInOneLine(release("--sign-key", f("garbage.pub")), ExitCodes.DATA, "garbage.pub: not a privadapt key file");
        refusedInOneLine(train("--verify-key", f("missing.pub")), ExitCodes.DATA, "missing.pub: no such file (--verify-key)");
        refusedInOneLine(train("--verify-key", f("target.key")), ExitCodes.USAGE, "target.key: is a private key file");
        refusedInOneLine(train("--verify-key", f("edited.pub")), ExitCodes.DATA, "edited.pub: the fingerprint SHA256:AAAA");
        refusedInOneLine(CliHarness.run("keys", "show", f("garbage.pub")), ExitCodes.DATA, "garbage.pub: not a privadapt key file");
        refusedInOneLine(CliHarness.run("inspect", "--verify-key", f("target.pub"), f("t.ledger")), ExitCodes.USAGE, "is a ledger");
        assertThat(snapshot()).isEqualTo(before);
    }

    /** The first {dtype, length, base64} array under {@code n}. */
    static ObjectNode firstArray(JsonNode n) {
        if (n.isObject() && n.has("base64") && n.path("length").asInt() > 0) {
            return (ObjectNode) n;
        }
        for (JsonNode c : n) {
            ObjectNode o = firstArray(c);
            if (o != null) {
                return o;
            }
        }
        return null;
    }

    /** The artifact checksum as its format defines it: SHA-256 of the canonical JSON (keys sorted) of all but "checksum". */
    static String checksum(ObjectNode doc) throws Exception {
        ObjectNode copy = doc.deepCopy();
        copy.remove("checksum");
        byte[] canon = new ObjectMapper().writeValueAsBytes(sorted(copy));
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(canon));
    }

    static JsonNode sorted(JsonNode n) {
        ObjectMapper m = new ObjectMapper();
        if (n.isObject()) {
            ObjectNode out = m.createObjectNode();
            List<String> names = new ArrayList<>();
            n.fieldNames().forEachRemaining(names::add);
            names.sort(String::compareTo);
            names.forEach(k -> out.set(k, sorted(n.get(k))));
            return out;
        }
        if (n.isArray()) {
            ArrayNode out = m.createArrayNode();
            n.forEach(x -> out.add(sorted(x)));
            return out;
        }
        return n;
    }

    Map<String, String> snapshot() throws Exception {
        Map<String, String> m = new TreeMap<>();
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                if (Files.isRegularFile(p)) {
                    m.put(dir.relativize(p).toString(), HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                            .digest(Files.readAllBytes(p))));
                }
            }
        }
        return m;
    }
}
