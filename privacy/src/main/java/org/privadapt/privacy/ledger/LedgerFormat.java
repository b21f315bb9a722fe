package org.privadapt.privacy.ledger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.events.EventJson;

/**
 * The ledger file format ({@link BudgetLedger#FORMAT}, version {@link BudgetLedger#VERSION}): a new ledger's
 * document, reading a file and checking its format and version, verifying the header hash and the entries' hash
 * chain into a {@link BudgetLedger.Snapshot}, appending a chained entry, and the bytes written. The canonical JSON
 * the hashes are taken of lives here too. What may be charged is {@link BudgetLedger}'s business, and how the bytes
 * reach the disk {@link LedgerCommit}'s.
 */
final class LedgerFormat {
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);
    private static final ObjectMapper CANONICAL = new ObjectMapper()
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

    private LedgerFormat() {
    }

    /** A new ledger's document: the header, its hash and no entries. */
    static ObjectNode newDocument(String party, PrivacyBudget budget, NeighbouringRelation relation) {
        ObjectNode doc = header(party, budget, relation);
        doc.put("header_hash", sha256(canonical(doc)));
        doc.putArray("entries");
        return doc;
    }

    /** The document as written to the file (indented, keys sorted). */
    static byte[] bytes(ObjectNode doc) {
        try {
            return JSON.writeValueAsBytes(doc);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Appends {@code c} to {@code doc} as entry {@code seq}, chained to the hash {@code prev}, standing at
     * {@code t} after it; returns the entry as recorded (its hash is the next entry's {@code prev}).
     */
    static BudgetLedger.Entry appendEntry(ObjectNode doc, String prev, int seq, BudgetLedger.Charge c,
                                          NeighbouringRelation relation, LedgerCost.Total t) {
        ObjectNode entry = CANONICAL.createObjectNode();
        entry.put("seq", seq);
        entry.put("time", Instant.now().toString());
        entry.put("label", c.label());
        entry.put("mechanism", c.mechanism());
        entry.set("event", EventJson.write(c.event()));
        entry.put("relation", relation.id());
        entry.put("sampler", c.sampler());
        entry.put("secure_noise", c.secureNoise());
        entry.set("parameters", CANONICAL.valueToTree(new TreeMap<>(c.parameters())));
        entry.put("epsilon_after", t.epsilon());
        entry.put("accountant", t.accountant());
        entry.put("hash", chainHash(prev, entry));
        ((ArrayNode) doc.get("entries")).add(entry);
        return parseEntry(entry, relation);
    }

    private static ObjectNode header(String party, PrivacyBudget budget, NeighbouringRelation relation) {
        ObjectNode doc = CANONICAL.createObjectNode();
        doc.put("format", BudgetLedger.FORMAT);
        doc.put("version", BudgetLedger.VERSION);
        doc.put("party", party);
        ObjectNode b = doc.putObject("budget");
        b.put("epsilon", budget.epsilon());
        b.put("delta", budget.delta());
        doc.put("relation", relation.id());
        return doc;
    }

    /** The hash of {@code doc}'s header as it should be (the first entry chains to it). */
    static String headerHash(ObjectNode doc) {
        ObjectNode h = header(doc.get("party").asText(), new PrivacyBudget(doc.get("budget").get("epsilon").asDouble(),
                doc.get("budget").get("delta").asDouble()), NeighbouringRelation.fromId(doc.get("relation").asText()));
        return sha256(canonical(h));
    }

    private static String chainHash(String prev, ObjectNode entry) {
        ObjectNode copy = entry.deepCopy();
        copy.remove("hash");
        return sha256(prev + "\n" + canonical(copy));
    }

    private static String canonical(JsonNode n) {
        try {
            return CANONICAL.writeValueAsString(sortKeys(n));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode sortKeys(JsonNode n) {
        if (n.isObject()) {
            ObjectNode out = CANONICAL.createObjectNode();
            List<String> names = new ArrayList<>();
            n.fieldNames().forEachRemaining(names::add);
            names.sort(String::compareTo);
            for (String k : names) {
                out.set(k, sortKeys(n.get(k)));
            }
            return out;
        }
        if (n.isArray()) {
            ArrayNode out = CANONICAL.createArrayNode();
            for (JsonNode x : n) {
                out.add(sortKeys(x));
            }
            return out;
        }
        return n;
    }

    private static String sha256(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Reads the ledger file and checks that it is JSON of this format and version (not yet its hashes). */
    static ObjectNode readFile(Path file) throws BudgetLedger.LedgerException {
        if (Files.isDirectory(file)) {
            throw new BudgetLedger.LedgerException(file + ": is a directory, not a ledger file");
        }
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new BudgetLedger.LedgerException(file + ": no such ledger", e);
        } catch (IOException e) {
            throw new BudgetLedger.LedgerException(file + ": cannot read ledger: " + e.getMessage(), e);
        }
        JsonNode n;
        try {
            n = CANONICAL.readTree(bytes);
        } catch (JsonProcessingException e) {
            com.fasterxml.jackson.core.JsonLocation loc = e.getLocation();
            String at = loc == null ? "" : " line " + loc.getLineNr() + ", column " + loc.getColumnNr()
                    + (loc.getByteOffset() >= bytes.length ? " (end of file: truncated?)" : "") + ":";
            throw new BudgetLedger.LedgerException(file + ":" + at + " not a valid ledger (malformed JSON: "
                    + e.getOriginalMessage().lines().findFirst().orElse("") + ")", e);
        } catch (IOException e) {
            throw new BudgetLedger.LedgerException(file + ": cannot read ledger: " + e.getMessage(), e);
        }
        if (n == null || !n.isObject() || !BudgetLedger.FORMAT.equals(n.path("format").asText())) {
            throw new BudgetLedger.LedgerException(file + ": not a privadapt ledger (no \"format\": \""
                    + BudgetLedger.FORMAT + "\")");
        }
        if (n.path("version").asInt(-1) != BudgetLedger.VERSION) {
            throw new BudgetLedger.LedgerException(file + ": ledger version " + n.path("version")
                    + " is not supported (expected " + BudgetLedger.VERSION + ")");
        }
        return (ObjectNode) n;
    }

    /**
     * Verifies {@code doc} (read from {@code file}): its header hash, the entries' sequence and hash chain, and
     * returns it as a snapshot with its cumulative cost.
     */
    static BudgetLedger.Snapshot parse(Path file, ObjectNode doc) throws BudgetLedger.LedgerException {
        try {
            String party = doc.get("party").asText();
            PrivacyBudget budget = new PrivacyBudget(doc.get("budget").get("epsilon").asDouble(), doc.get("budget").get("delta").asDouble());
            NeighbouringRelation relation = NeighbouringRelation.fromId(doc.get("relation").asText());
            String prev = headerHash(doc);
            if (!prev.equals(doc.path("header_hash").asText())) {
                throw new BudgetLedger.LedgerException(file
                        + ": the ledger header (party, budget or relation) was edited: its hash does not match");
            }
            List<BudgetLedger.Entry> entries = new ArrayList<>();
            boolean secure = true;
            JsonNode arr = doc.get("entries");
            if (arr == null || !arr.isArray()) {
                throw new BudgetLedger.LedgerException(file + ": ledger has no 'entries' array");
            }
            int k = 0;
            for (JsonNode e : arr) {
                k++;
                if (!e.isObject() || e.path("seq").asInt() != k) {
                    throw new BudgetLedger.LedgerException(file + ": entry " + k + " is out of sequence");
                }
                String expected = chainHash(prev, (ObjectNode) e);
                if (!expected.equals(e.path("hash").asText())) {
                    throw new BudgetLedger.LedgerException(file + ": entry " + k
                            + " fails its hash chain (the ledger was edited or damaged)");
                }
                BudgetLedger.Entry entry = parseEntry(e, relation);
                entries.add(entry);
                secure &= entry.secureNoise();
                prev = entry.hash();
            }
            BudgetLedger.Snapshot s = new BudgetLedger.Snapshot(file, party, budget, relation, List.copyOf(entries), 0,
                    "none", secure);
            LedgerCost.Total t = LedgerCost.total(s, null);
            return new BudgetLedger.Snapshot(file, party, budget, relation, s.entries(), t.epsilon(), t.accountant(),
                    secure);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new BudgetLedger.LedgerException(file + ": invalid ledger content: " + e.getMessage(), e);
        }
    }

    @SuppressWarnings("unchecked")
    private static BudgetLedger.Entry parseEntry(JsonNode e, NeighbouringRelation relation) {
        Map<String, Object> params = CANONICAL.convertValue(e.path("parameters"), Map.class);
        return new BudgetLedger.Entry(e.get("seq").asInt(), e.get("time").asText(), e.get("label").asText(),
                e.get("mechanism").asText(), EventJson.read(e.get("event")), relation.id(), e.get("sampler").asText(),
                e.get("secure_noise").asBoolean(), params == null ? Map.of() : params, e.get("epsilon_after").asDouble(),
                e.path("accountant").asText(), e.get("hash").asText());
    }
}
