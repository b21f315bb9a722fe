package org.privadapt.cli.commands;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.privadapt.cli.ExitCodes;
import org.privadapt.cli.Runs;
import org.privadapt.cli.report.Json;
import org.privadapt.methods.artifacts.Artifact;
import org.privadapt.privacy.events.EventJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code privadapt inspect FILE}: what an artifact is and what it guarantees, without the base64. The checksum is
 * verified first (a damaged or edited file is refused with exit code 5, as everywhere); the signer is shown
 * ("signed by SHA256:... (ed25519)" or "unsigned") and, with {@code --verify-key}, checked (refused with exit code 5
 * unless it verifies); numeric arrays are shown by type and length; the privacy block is shown in full with its DP
 * events described. A ledger file is shown as {@code privacy ledger} shows it.
 */
@Command(name = "inspect", mixinStandardHelpOptions = true,
        description = {"Show an artifact's kind, method, party, dimensions and privacy statement (or a ledger's entries), "
            + "without the base64 payload. The checksum is verified first; the signer is shown (signed by its key's "
            + "fingerprint, or unsigned) and, with --verify-key, checked.",
            "Example: privadapt inspect release.json",
            "Example: privadapt inspect --verify-key target.pub release.json"})
public final class InspectCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "An artifact (release, model) or a budget ledger.")
    Path file;

    @Option(names = "--json", description = "The same as JSON on standard output (arrays as {dtype, length}).")
    boolean json;

    @picocli.CommandLine.Mixin
    KeyOptions.Verify verify;

    @Override
    public Integer call() throws Exception {
        PrintWriter w = spec.commandLine().getOut();
        org.privadapt.cli.InputFiles.require(file, "inspect FILE");
        verify.load();
        if (isLedger(file)) {
            if (verify.fingerprint() != null) {
                throw new org.privadapt.cli.UsageException("--verify-key: " + file + " is a ledger, which is never signed or sent");
            }
            var snap = org.privadapt.privacy.ledger.BudgetLedger.open(file).read();
            if (json) {
                w.println(Json.write(PrivacyCommand.Ledger.jsonOf(snap)));
                return ExitCodes.OK;
            }
            w.print(PrivacyCommand.Ledger.text(snap));
            w.flush();
            return ExitCodes.OK;
        }
        Artifact a = verify.check(Artifact.read(file, null), file);
        org.privadapt.methods.artifacts.ArtifactSignatures.Block signer = a.signature();
        ObjectNode summary = Json.MAPPER.createObjectNode();
        summary.put("file", file.toString());
        summary.put("kind", a.kind());
        summary.put("method", a.method());
        summary.put("party", a.party());
        summary.put("run_id", a.runId());
        summary.put("created", a.created());
        summary.put("checksum", a.checksum());
        summary.put("checksum_valid", true);
        if (signer == null) {
            summary.putNull("signature");
        } else {
            ObjectNode s = summary.putObject("signature");
            s.put("algorithm", signer.algorithm());
            s.put("key_fingerprint", signer.fingerprint());
            s.put("verified", verify.fingerprint() != null);
        }
        summary.set("privacy", withoutBase64(a.privacy()));
        summary.set("payload", withoutBase64(a.payload()));
        if (json) {
            w.println(Json.write(summary));
            return ExitCodes.OK;
        }
        w.printf(Locale.ROOT, "%s: privadapt %s artifact, method %s, party %s%n", file, a.kind(), a.method(), a.party());
        w.printf(Locale.ROOT, "created %s, run %s, checksum %s... (valid)%n", a.created(), a.runId(),
                a.checksum().substring(0, Math.min(16, a.checksum().length())));
        w.println(signer == null ? "unsigned" : signer.describe() + (verify.verified() != null ? ", verified with --verify-key "
                + verify.file : "; not verified (give the signer's public key with --verify-key)"));
        JsonNode te = a.payload().path("featurisation").path("text_encoder");
        if (te.isObject()) {
            // paper 004's releases: which text encoder the target's rows must be encoded with (issue 47)
            w.printf(Locale.ROOT, "text encoder %s%s%n", te.path("name").asText(), te.path("sha256").asText().isEmpty() ? ""
                    : " (sha256 " + te.path("sha256").asText() + ")");
        }
        w.println();
        JsonNode p = a.privacy();
        boolean isPrivate = p.path("private").asBoolean(false);
        w.println("privacy");
        if (!isPrivate && p.has("epsilon_spent")) {
            w.println("  NOT PRIVATE: made with seeded noise; the guarantee below does not hold");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = p.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getKey().equals("events") && e.getValue().isArray()) {
                int k = 0;
                for (JsonNode ev : e.getValue()) {
                    String d;
                    try {
                        d = EventJson.read(ev).describe();
                    } catch (RuntimeException ex) {
                        d = ev.toString();
                    }
                    w.printf(Locale.ROOT, "  event %d: %s%n", ++k, d);
                }
                continue;
            }
            w.printf(Locale.ROOT, "  %-28s %s%n", e.getKey(), scalar(e.getValue()));
        }
        w.println();
        w.println("payload");
        tree(w, withoutBase64(a.payload()), "  ");
        w.flush();
        return ExitCodes.OK;
    }

    static boolean isLedger(Path f) {
        try {
            byte[] head = Files.readAllBytes(f);
            String s = new String(head, 0, Math.min(head.length, 4096), java.nio.charset.StandardCharsets.UTF_8);
            return s.contains("\"" + org.privadapt.privacy.ledger.BudgetLedger.FORMAT + "\"");
        } catch (java.io.IOException e) {
            return false; // Artifact.read reports it
        }
    }

    private static String scalar(JsonNode v) {
        if (v.isNumber()) {
            return Runs.formatNumber(v.asDouble());
        }
        if (v.isTextual()) {
            return v.asText();
        }
        return v.toString().length() > 120 ? v.toString().substring(0, 117) + "..." : v.toString();
    }

    /** A copy in which every encoded array ({dtype, length, base64}) becomes {dtype, length}. */
    static JsonNode withoutBase64(JsonNode n) {
        if (n.isObject()) {
            ObjectNode o = Json.MAPPER.createObjectNode();
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (e.getKey().equals("base64")) {
                    o.put("base64", "(" + e.getValue().asText().length() + " characters omitted)");
                } else {
                    o.set(e.getKey(), withoutBase64(e.getValue()));
                }
            }
            return o;
        }
        if (n.isArray()) {
            com.fasterxml.jackson.databind.node.ArrayNode arr = Json.MAPPER.createArrayNode();
            n.forEach(x -> arr.add(withoutBase64(x)));
            return arr;
        }
        return n;
    }

    private static void tree(PrintWriter w, JsonNode n, String indent) {
        for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode v = e.getValue();
            if (v.isObject() && v.has("dtype") && v.has("length")) {
                w.printf(Locale.ROOT, "%s%-24s %s array of %d values%n", indent, e.getKey(), v.get("dtype").asText(),
                        v.get("length").asLong());
            } else if (v.isObject()) {
                w.printf(Locale.ROOT, "%s%s%n", indent, e.getKey());
                tree(w, v, indent + "  ");
            } else if (v.isArray()) {
                String first = v.isEmpty() ? "" : v.get(0).isObject() ? "objects" : v.get(0).isArray() ? "lists"
                        : v.size() <= 12 ? v.toString() : "values";
                w.printf(Locale.ROOT, "%s%-24s list of %d %s%n", indent, e.getKey(), v.size(), first);
                if (!v.isEmpty() && v.get(0).isObject()) {
                    w.printf(Locale.ROOT, "%s  [0]%n", indent);
                    tree(w, v.get(0), indent + "    ");
                }
            } else {
                w.printf(Locale.ROOT, "%s%-24s %s%n", indent, e.getKey(), scalar(v));
            }
        }
    }
}
