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
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.accounting.Accountants;
import org.privadapt.privacy.events.ComposedEvent;
import org.privadapt.privacy.events.DpEvent;
import org.privadapt.privacy.events.EventJson;

/**
 * One party's privacy budget ledger: a file that records every release as an immutable entry (mechanism,
 * parameters, DP event, neighbouring relation, noise sampler, cumulative cost) and refuses, before any noise is
 * drawn, a release that would take the party past its budget.
 *
 * <p><b>Format.</b> One JSON document ({@code "format": "privadapt-ledger", "version": 1}) with the party, its
 * budget and neighbouring relation, the header's SHA-256, and the entries in order. Entries form a hash chain: each
 * stores the SHA-256 of the previous entry's hash (the first: of the header) together with its own canonical
 * content, so an edited header (budget), or an edited, reordered or inserted entry, is detected when the ledger is
 * read, unless whoever edited it also recomputed the hashes: the chain has no key, so it guards against crashes,
 * accidents and naive edits, not a deliberate rewrite (docs/privacy/ledger.md). Deleting the last entries, or
 * restoring an older copy, cannot be detected from the file alone; keep the ledger where only the party controls it.
 *
 * <p><b>Cost.</b> The cumulative cost is the composition of all entries' events, certified by every accountant that
 * supports it ({@link Accountants}) at the budget's delta, taking the smallest certified epsilon (each accountant's
 * result is an upper bound, so the smallest is one too). A charge is accepted only if that epsilon stays within the
 * budget's epsilon.
 *
 * <p><b>Durability and concurrency.</b> Every change happens under an exclusive lock: a JVM-wide lock per file plus
 * an OS file lock on {@code FILE.lock}, so two processes (or threads) charging the same ledger serialise, and each
 * sees the other's entries before deciding. The new content is written to a temporary file in the same directory,
 * forced to disk, and renamed over the ledger atomically, then the directory is forced: a crash (even kill -9)
 * leaves either the old or the new ledger, never a torn one. Stale temporary files from a killed writer are removed
 * by the next writer.
 */
public final class BudgetLedger {
    public static final String FORMAT = "privadapt-ledger";
    public static final int VERSION = 1;
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);
    private static final ObjectMapper CANONICAL = new ObjectMapper()
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

    private final Path file;
    /** A new ledger's document, written by its first charge (lazy creation); null once the file exists or if eager. */
    private final ObjectNode pending;
    /** Whether an existing file found in place of {@link #pending} must also have its budget (else party and relation). */
    private final boolean pendingBudgetFixed;

    private BudgetLedger(Path file) {
        this(file, null, false);
    }

    private BudgetLedger(Path file, ObjectNode pending, boolean pendingBudgetFixed) {
        this.file = file.toAbsolutePath().normalize();
        this.pending = pending;
        this.pendingBudgetFixed = pendingBudgetFixed;
    }

    /** A release to be charged. */
    public record Charge(String label, String mechanism, DpEvent event, Map<String, Object> parameters, String sampler,
                         boolean secureNoise) {
        public Charge {
            parameters = parameters == null ? Map.of() : Map.copyOf(new TreeMap<>(parameters));
        }
    }

    /** One recorded release. */
    public record Entry(int seq, String time, String label, String mechanism, DpEvent event, String relation,
                        String sampler, boolean secureNoise, Map<String, Object> parameters, double epsilonAfter,
                        String accountant, String hash) {
    }

    /** The ledger as read: header, entries and the cumulative cost. */
    public record Snapshot(Path file, String party, PrivacyBudget budget, NeighbouringRelation relation,
                           List<Entry> entries, double epsilonSpent, String accountant, boolean allNoiseSecure) {
        public double epsilonRemaining() {
            return Math.max(0, budget.epsilon() - epsilonSpent);
        }
    }

    /** Thrown when a ledger file is unreadable, malformed, of another version, or fails its hash chain. */
    public static final class LedgerException extends Exception {
        private static final long serialVersionUID = 1L;

        public LedgerException(String message) {
            super(message);
        }

        public LedgerException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Opens the ledger at {@code file}, creating it with this party, budget and relation when it does not exist.
     *
     * @throws LedgerException if it exists with another party, budget or relation, or is invalid
     */
    public static BudgetLedger openOrCreate(Path file, String party, PrivacyBudget budget, NeighbouringRelation relation)
            throws LedgerException {
        BudgetLedger l = new BudgetLedger(file);
        if (Files.exists(l.file)) {
            l.requireHeader(party, budget, relation);
            return l;
        }
        l.withLock(() -> {
            if (!Files.exists(l.file)) {
                ObjectNode doc = header(party, budget, relation);
                doc.put("header_hash", sha256(canonical(doc)));
                doc.putArray("entries");
                l.writeAtomically(doc);
            } else {
                Snapshot s = l.parse(l.readDocument());
                if (!s.party().equals(party) || s.budget().epsilon() != budget.epsilon()
                        || s.budget().delta() != budget.delta() || s.relation() != relation) {
                    throw new LedgerException(l.file + ": ledger exists for party '" + s.party() + "' with budget (eps="
                            + s.budget().epsilon() + ", delta=" + s.budget().delta() + ") under " + s.relation().id()
                            + "; requested party '" + party + "' (eps=" + budget.epsilon() + ", delta=" + budget.delta()
                            + ") under " + relation.id() + "; a budget is fixed when its ledger is created");
                }
            }
            return null;
        });
        return l;
    }

    /** Checks an existing ledger's party, budget and relation (a read: no lock file is created when there is none). */
    private void requireHeader(String party, PrivacyBudget budget, NeighbouringRelation relation) throws LedgerException {
        Snapshot s = read();
        if (!s.party().equals(party) || s.budget().epsilon() != budget.epsilon()
                || s.budget().delta() != budget.delta() || s.relation() != relation) {
            throw new LedgerException(file + ": ledger exists for party '" + s.party() + "' with budget (eps="
                    + s.budget().epsilon() + ", delta=" + s.budget().delta() + ") under " + s.relation().id()
                    + "; requested party '" + party + "' (eps=" + budget.epsilon() + ", delta=" + budget.delta()
                    + ") under " + relation.id() + "; a budget is fixed when its ledger is created");
        }
    }

    /**
     * Opens the party's ledger at {@code file}: an existing one with the budget it was created with (so that a
     * ledger can be reused without restating its budget), or a new one with {@code budgetIfNew}.
     *
     * @throws LedgerException if it exists for another party or relation, or is invalid
     */
    public static BudgetLedger openOrCreateKeepingBudget(Path file, String party, PrivacyBudget budgetIfNew,
                                                         NeighbouringRelation relation) throws LedgerException {
        if (!Files.exists(file)) {
            return openOrCreate(file, party, budgetIfNew, relation);
        }
        BudgetLedger l = new BudgetLedger(file);
        Snapshot s = l.read();
        if (!s.party().equals(party) || s.relation() != relation) {
            throw new LedgerException(l.file + ": ledger exists for party '" + s.party() + "' under " + s.relation().id()
                    + "; requested party '" + party + "' under " + relation.id());
        }
        return l;
    }

    /**
     * As {@link #openOrCreate} ({@code budgetFixed}) or {@link #openOrCreateKeepingBudget}, except that a ledger that
     * does not exist yet is not created until its first charge: a run refused before it spends anything (a usage
     * error, a parameter out of range, a plan over the budget) leaves no file, not even the lock file. Reads of such a
     * ledger see it empty. If another process creates the file in between, the first access that finds it checks it
     * against this party, relation (and budget when fixed) as the eager open would.
     *
     * @throws LedgerException if it exists and does not match, or is invalid
     */
    public static BudgetLedger openOrCreateLazily(Path file, String party, PrivacyBudget budget, NeighbouringRelation relation,
                                                  boolean budgetFixed) throws LedgerException {
        if (Files.exists(file)) {
            return budgetFixed ? openOrCreate(file, party, budget, relation)
                    : openOrCreateKeepingBudget(file, party, budget, relation);
        }
        ObjectNode doc = header(party, budget, relation);
        doc.put("header_hash", sha256(canonical(doc)));
        doc.putArray("entries");
        return new BudgetLedger(file, doc, budgetFixed);
    }

    /**
     * Opens an existing ledger.
     *
     * @throws LedgerException if there is none or it is invalid
     */
    public static BudgetLedger open(Path file) throws LedgerException {
        BudgetLedger l = new BudgetLedger(file);
        l.read();
        return l;
    }

    public Path file() {
        return file;
    }

    /** Reads and verifies the ledger. */
    public Snapshot read() throws LedgerException {
        return lockedUnlessPending(() -> parse(readDocument()));
    }

    /**
     * The epsilon the ledger would stand at if {@code event} were charged now (no change is made).
     */
    public double epsilonIfCharged(DpEvent event) throws LedgerException {
        return lockedUnlessPending(() -> {
            Snapshot s = parse(readDocument());
            return total(s, event).epsilon;
        });
    }

    /**
     * Refuses, as {@link #chargeAll} would now, a plan whose composition with the recorded entries exceeds the budget;
     * records nothing. For a caller that must know that several ledgers (several parties) all accept their plans
     * before charging any of them; the charge that follows still checks again under the lock.
     *
     * @throws BudgetExceededException if the plan's composition would exceed the budget
     */
    public void check(List<Charge> plan) throws BudgetExceededException, LedgerException {
        if (plan.isEmpty()) {
            return;
        }
        List<DpEvent> all = new ArrayList<>();
        for (Charge c : plan) {
            all.add(c.event());
        }
        Snapshot s = read();
        Total t = total(s, new ComposedEvent(all));
        if (!(t.epsilon <= s.budget().epsilon())) {
            throw new BudgetExceededException(refusal(plan, s, t));
        }
    }

    /**
     * Records a release if the budget allows it: under the lock, re-reads the ledger, composes the new event with
     * all recorded ones, and either appends the entry (written atomically) or refuses. Callers draw their noise
     * only after this returns.
     *
     * @throws BudgetExceededException if the composition would exceed the budget (nothing is written)
     */
    public Entry charge(Charge c) throws BudgetExceededException, LedgerException {
        return chargeAll(List.of(c)).get(0);
    }

    /**
     * Records a whole plan of releases atomically: under the lock, composes all of them with the recorded entries
     * and either appends them all in one atomic write or refuses them all (nothing written). Each entry's
     * {@code epsilon_after} is the cost of the ledger up to and including it.
     *
     * @throws BudgetExceededException if the plan's composition would exceed the budget (nothing is written)
     */
    public List<Entry> chargeAll(List<Charge> plan) throws BudgetExceededException, LedgerException {
        if (plan.isEmpty()) {
            return List.of();
        }
        return LedgerCommit.commit(List.of(new LedgerCommit.Share(this, plan))).get(0);
    }

    /** One ledger's plan, for {@link #chargeTogether}. */
    public record Share(BudgetLedger ledger, List<Charge> plan) {
        public Share {
            java.util.Objects.requireNonNull(ledger, "ledger");
            plan = List.copyOf(plan);
        }
    }

    /**
     * Records several ledgers' plans (several parties charged by one run) as one transaction: all or none, whatever
     * fails. Every plan is checked first without a lock; then the ledgers are locked in the order of their paths,
     * re-read and re-checked, every new ledger written to a temporary file beside it (and every old one kept as a
     * backup) before the first is renamed into place, and a rename that still fails undoes those made before it
     * ({@link LedgerCommit}). The same file given for two parties is refused. Entries are returned in the order of
     * {@code shares}.
     *
     * @throws BudgetExceededException if any plan would exceed its ledger's budget (nothing is written to any ledger)
     * @throws LedgerException         if a ledger is invalid or cannot be locked or written (nothing is written to
     *                                 any ledger, unless the message says otherwise)
     */
    public static List<List<Entry>> chargeTogether(List<Share> shares) throws BudgetExceededException, LedgerException {
        List<LedgerCommit.Share> in = new ArrayList<>();
        for (Share s : shares) {
            in.add(new LedgerCommit.Share(s.ledger(), s.plan()));
        }
        return LedgerCommit.commit(in);
    }

    /** A plan composed with the ledger as read now: the new document's bytes and the entries it appends. */
    record Planned(byte[] bytes, List<Entry> entries) {
    }

    /**
     * Composes {@code plan} with the ledger as read now (the caller holds the lock) and returns the new content.
     *
     * @throws BudgetExceededException if the composition would exceed the budget
     */
    Planned plan(List<Charge> plan) throws BudgetExceededException, LedgerException {
        ObjectNode doc = readDocument();
        Snapshot s = parse(doc);
        List<DpEvent> all = new ArrayList<>();
        for (Charge c : plan) {
            all.add(c.event());
        }
        Total t = total(s, new ComposedEvent(all));
        if (!(t.epsilon <= s.budget().epsilon())) {
            throw new BudgetExceededException(refusal(plan, s, t));
        }
        String prev = s.entries().isEmpty() ? headerHash(doc) : s.entries().get(s.entries().size() - 1).hash();
        List<Entry> out = new ArrayList<>();
        List<DpEvent> sofar = new ArrayList<>();
        for (int k = 0; k < plan.size(); k++) {
            Charge c = plan.get(k);
            sofar.add(c.event());
            Total tk = k == plan.size() - 1 ? t : total(s, new ComposedEvent(sofar));
            ObjectNode entry = CANONICAL.createObjectNode();
            entry.put("seq", s.entries().size() + k + 1);
            entry.put("time", Instant.now().toString());
            entry.put("label", c.label());
            entry.put("mechanism", c.mechanism());
            entry.set("event", EventJson.write(c.event()));
            entry.put("relation", s.relation().id());
            entry.put("sampler", c.sampler());
            entry.put("secure_noise", c.secureNoise());
            entry.set("parameters", CANONICAL.valueToTree(new TreeMap<>(c.parameters())));
            entry.put("epsilon_after", tk.epsilon);
            entry.put("accountant", tk.accountant);
            entry.put("hash", chainHash(prev, entry));
            prev = entry.get("hash").asText();
            ((ArrayNode) doc.get("entries")).add(entry);
            out.add(parseEntry(entry, s.relation()));
        }
        try {
            return new Planned(JSON.writeValueAsBytes(doc), out);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private String refusal(List<Charge> plan, Snapshot s, Total t) {
        String what = plan.size() == 1 ? "'" + plan.get(0).label() + "'"
                : "the plan '" + plan.get(0).label() + "' + " + (plan.size() - 1) + " more";
        return what + " would bring party '" + s.party() + "' to epsilon " + fmt(t.epsilon) + " at delta " + s.budget().delta()
                + ", over its budget " + fmt(s.budget().epsilon()) + " (spent so far " + fmt(s.epsilonSpent()) + ", ledger "
                + file + ")";
    }

    // ------------------------------------------------------------------ internals

    private record Total(double epsilon, String accountant) {
    }

    private static Total total(Snapshot s, DpEvent extra) throws LedgerException {
        List<DpEvent> all = new ArrayList<>();
        for (Entry e : s.entries()) {
            all.add(e.event());
        }
        if (extra != null) {
            all.add(extra);
        }
        if (all.isEmpty()) {
            return new Total(0.0, "none");
        }
        DpEvent composed = new ComposedEvent(all);
        Accountants.Certified c = Accountants.certify(s.relation(), composed, s.budget().delta());
        if (c == null) {
            throw new LedgerException("no accountant can analyse the composition " + composed.describe() + " under "
                    + s.relation().description());
        }
        return new Total(c.epsilon(), c.accountant());
    }

    private static ObjectNode header(String party, PrivacyBudget budget, NeighbouringRelation relation) {
        ObjectNode doc = CANONICAL.createObjectNode();
        doc.put("format", FORMAT);
        doc.put("version", VERSION);
        doc.put("party", party);
        ObjectNode b = doc.putObject("budget");
        b.put("epsilon", budget.epsilon());
        b.put("delta", budget.delta());
        doc.put("relation", relation.id());
        return doc;
    }

    private static String headerHash(ObjectNode doc) {
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

    private ObjectNode readDocument() throws LedgerException {
        if (pending != null) {
            if (!Files.exists(file)) {
                return pending.deepCopy();
            }
            ObjectNode found = readFile();
            Snapshot s = parse(found);
            Snapshot want = parse(pending.deepCopy());
            boolean budgetDiffers = s.budget().epsilon() != want.budget().epsilon() || s.budget().delta() != want.budget().delta();
            if (!s.party().equals(want.party()) || s.relation() != want.relation() || (pendingBudgetFixed && budgetDiffers)) {
                throw new LedgerException(file + ": ledger created meanwhile for party '" + s.party() + "' with budget (eps="
                        + s.budget().epsilon() + ", delta=" + s.budget().delta() + ") under " + s.relation().id() + "; requested party '"
                        + want.party() + "' (eps=" + want.budget().epsilon() + ", delta=" + want.budget().delta() + ") under "
                        + want.relation().id());
            }
            return found;
        }
        return readFile();
    }

    private ObjectNode readFile() throws LedgerException {
        if (Files.isDirectory(file)) {
            throw new LedgerException(file + ": is a directory, not a ledger file");
        }
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new LedgerException(file + ": no such ledger", e);
        } catch (IOException e) {
            throw new LedgerException(file + ": cannot read ledger: " + e.getMessage(), e);
        }
        JsonNode n;
        try {
            n = CANONICAL.readTree(bytes);
        } catch (JsonProcessingException e) {
            com.fasterxml.jackson.core.JsonLocation loc = e.getLocation();
            String at = loc == null ? "" : " line " + loc.getLineNr() + ", column " + loc.getColumnNr()
                    + (loc.getByteOffset() >= bytes.length ? " (end of file: truncated?)" : "") + ":";
            throw new LedgerException(file + ":" + at + " not a valid ledger (malformed JSON: "
                    + e.getOriginalMessage().lines().findFirst().orElse("") + ")", e);
        } catch (IOException e) {
            throw new LedgerException(file + ": cannot read ledger: " + e.getMessage(), e);
        }
        if (n == null || !n.isObject() || !FORMAT.equals(n.path("format").asText())) {
            throw new LedgerException(file + ": not a privadapt ledger (no \"format\": \"" + FORMAT + "\")");
        }
        if (n.path("version").asInt(-1) != VERSION) {
            throw new LedgerException(file + ": ledger version " + n.path("version") + " is not supported (expected " + VERSION + ")");
        }
        return (ObjectNode) n;
    }

    private Snapshot parse(ObjectNode doc) throws LedgerException {
        try {
            String party = doc.get("party").asText();
            PrivacyBudget budget = new PrivacyBudget(doc.get("budget").get("epsilon").asDouble(), doc.get("budget").get("delta").asDouble());
            NeighbouringRelation relation = NeighbouringRelation.fromId(doc.get("relation").asText());
            String prev = headerHash(doc);
            if (!prev.equals(doc.path("header_hash").asText())) {
                throw new LedgerException(file + ": the ledger header (party, budget or relation) was edited: its hash does not match");
            }
            List<Entry> entries = new ArrayList<>();
            boolean secure = true;
            JsonNode arr = doc.get("entries");
            if (arr == null || !arr.isArray()) {
                throw new LedgerException(file + ": ledger has no 'entries' array");
            }
            int k = 0;
            for (JsonNode e : arr) {
                k++;
                if (!e.isObject() || e.path("seq").asInt() != k) {
                    throw new LedgerException(file + ": entry " + k + " is out of sequence");
                }
                String expected = chainHash(prev, (ObjectNode) e);
                if (!expected.equals(e.path("hash").asText())) {
                    throw new LedgerException(file + ": entry " + k + " fails its hash chain (the ledger was edited or damaged)");
                }
                Entry entry = parseEntry(e, relation);
                entries.add(entry);
                secure &= entry.secureNoise();
                prev = entry.hash();
            }
            Snapshot s = new Snapshot(file, party, budget, relation, List.copyOf(entries), 0, "none", secure);
            Total t = total(s, null);
            return new Snapshot(file, party, budget, relation, s.entries(), t.epsilon, t.accountant, secure);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new LedgerException(file + ": invalid ledger content: " + e.getMessage(), e);
        }
    }

    @SuppressWarnings("unchecked")
    private static Entry parseEntry(JsonNode e, NeighbouringRelation relation) {
        Map<String, Object> params = CANONICAL.convertValue(e.path("parameters"), Map.class);
        return new Entry(e.get("seq").asInt(), e.get("time").asText(), e.get("label").asText(), e.get("mechanism").asText(),
                EventJson.read(e.get("event")), relation.id(), e.get("sampler").asText(), e.get("secure_noise").asBoolean(),
                params == null ? Map.of() : params, e.get("epsilon_after").asDouble(), e.path("accountant").asText(),
                e.get("hash").asText());
    }

    private void writeAtomically(ObjectNode doc) throws LedgerException {
        try {
            LedgerCommit.writeOne(file, JSON.writeValueAsBytes(doc));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    @FunctionalInterface
    private interface Locked<T> {
        T run() throws LedgerException;
    }

    /**
     * For reads: under the lock when its lock file exists; otherwise without it, creating nothing (a refused run must
     * leave the disk as it was, issue 33). A read without the lock is still consistent: writers replace the ledger by
     * an atomic rename, so a reader sees the old file or the new one, never a torn one; and the charge that may follow
     * re-reads under the lock.
     */
    private <T> T lockedUnlessPending(Locked<T> body) throws LedgerException {
        if (pending != null && !Files.exists(file)) {
            return body.run();
        }
        if (!Files.exists(LedgerLock.lockFileOf(file))) {
            return body.run();
        }
        return withLock(body);
    }

    private <T> T withLock(Locked<T> body) throws LedgerException {
        LedgerLock lock;
        try {
            lock = LedgerLock.acquire(file);
        } catch (IOException e) {
            throw new LedgerException(file + ": cannot lock ledger: " + e.getMessage(), e);
        }
        try (lock) {
            return body.run();
        }
    }

    private static String fmt(double x) {
        return String.format(java.util.Locale.ROOT, "%.6g", x);
    }
}
