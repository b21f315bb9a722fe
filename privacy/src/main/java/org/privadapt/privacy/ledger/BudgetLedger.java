package org.privadapt.privacy.ledger;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.accounting.Accountants;
import org.privadapt.privacy.events.ComposedEvent;
import org.privadapt.privacy.events.DpEvent;

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
 *
 * <p><b>Where things are.</b> This class opens ledgers, reads them and decides what may be charged. The file format
 * (header, hash chain, parsing and checks) is {@link LedgerFormat}; the cost of a composition and the refusal
 * message are {@link LedgerCost}; the write transaction over one or several ledgers is {@link LedgerCommit}, and
 * the lock {@link LedgerLock}.
 */
public final class BudgetLedger {
    public static final String FORMAT = "privadapt-ledger";
    public static final int VERSION = 1;

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
                l.writeAtomically(LedgerFormat.newDocument(party, budget, relation));
            } else {
                Snapshot s = LedgerFormat.parse(l.file, l.readDocument());
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
        return new BudgetLedger(file, LedgerFormat.newDocument(party, budget, relation), budgetFixed);
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
        return lockedUnlessPending(() -> LedgerFormat.parse(file, readDocument()));
    }

    /**
     * The epsilon the ledger would stand at if {@code event} were charged now (no change is made).
     */
    public double epsilonIfCharged(DpEvent event) throws LedgerException {
        return lockedUnlessPending(() -> {
            Snapshot s = LedgerFormat.parse(file, readDocument());
            return LedgerCost.total(s, event).epsilon();
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
        LedgerCost.Total t = LedgerCost.total(s, new ComposedEvent(all));
        if (!(t.epsilon() <= s.budget().epsilon())) {
            throw new BudgetExceededException(LedgerCost.refusal(plan, s, t, file));
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
        Snapshot s = LedgerFormat.parse(file, doc);
        List<DpEvent> all = new ArrayList<>();
        for (Charge c : plan) {
            all.add(c.event());
        }
        LedgerCost.Total t = LedgerCost.total(s, new ComposedEvent(all));
        if (!(t.epsilon() <= s.budget().epsilon())) {
            throw new BudgetExceededException(LedgerCost.refusal(plan, s, t, file));
        }
        String prev = s.entries().isEmpty() ? LedgerFormat.headerHash(doc) : s.entries().get(s.entries().size() - 1).hash();
        List<Entry> out = new ArrayList<>();
        List<DpEvent> sofar = new ArrayList<>();
        for (int k = 0; k < plan.size(); k++) {
            Charge c = plan.get(k);
            sofar.add(c.event());
            LedgerCost.Total tk = k == plan.size() - 1 ? t : LedgerCost.total(s, new ComposedEvent(sofar));
            Entry entry = LedgerFormat.appendEntry(doc, prev, s.entries().size() + k + 1, c, s.relation(), tk);
            prev = entry.hash();
            out.add(entry);
        }
        return new Planned(LedgerFormat.bytes(doc), out);
    }

    // ------------------------------------------------------------------ reading and locking

    private ObjectNode readDocument() throws LedgerException {
        if (pending != null) {
            if (!Files.exists(file)) {
                return pending.deepCopy();
            }
            ObjectNode found = LedgerFormat.readFile(file);
            Snapshot s = LedgerFormat.parse(file, found);
            Snapshot want = LedgerFormat.parse(file, pending.deepCopy());
            boolean budgetDiffers = s.budget().epsilon() != want.budget().epsilon() || s.budget().delta() != want.budget().delta();
            if (!s.party().equals(want.party()) || s.relation() != want.relation() || (pendingBudgetFixed && budgetDiffers)) {
                throw new LedgerException(file + ": ledger created meanwhile for party '" + s.party() + "' with budget (eps="
                        + s.budget().epsilon() + ", delta=" + s.budget().delta() + ") under " + s.relation().id() + "; requested party '"
                        + want.party() + "' (eps=" + want.budget().epsilon() + ", delta=" + want.budget().delta() + ") under "
                        + want.relation().id());
            }
            return found;
        }
        return LedgerFormat.readFile(file);
    }

    private void writeAtomically(ObjectNode doc) throws LedgerException {
        LedgerCommit.writeOne(file, LedgerFormat.bytes(doc));
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
}
