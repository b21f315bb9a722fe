package org.privadapt.privacy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.privadapt.privacy.accounting.Accountants;
import org.privadapt.privacy.events.ComposedEvent;
import org.privadapt.privacy.events.DpEvent;
import org.privadapt.privacy.ledger.BudgetLedger;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * One party's privacy state for one run: its neighbouring relation, what this run may spend (a target
 * (epsilon, delta)), its noise source, and optionally its persistent ledger.
 *
 * <p>{@link #charge} is the only way a method may make a release: it composes the new event with everything this
 * session has charged, refuses if the run's target would be exceeded, then charges the ledger (which refuses if the
 * party's total budget would be exceeded), and only then returns, after which the caller draws noise. Methods charge
 * their whole plan up front so that a refusal leaves nothing spent and nothing drawn.
 */
public final class PrivacySession {
    private final String party;
    private final PrivacyBudget target;
    private final NeighbouringRelation relation;
    private final NoiseSource noise;
    private final BudgetLedger ledger;
    private final List<DpEvent> charged = new ArrayList<>();
    /** While staging ({@link #stage}): the ledger charges checked but not yet written; null otherwise. */
    private List<BudgetLedger.Charge> pending;
    private int chargedAtStaging;

    public PrivacySession(String party, PrivacyBudget target, NeighbouringRelation relation, NoiseSource noise, BudgetLedger ledger) {
        this.party = party;
        this.target = target;
        this.relation = relation;
        this.noise = noise;
        this.ledger = ledger;
    }

    /**
     * A builder: {@code PrivacySession.builder("source").epsilon(2).delta(1e-5).build()} spends at most (2, 1e-5) in
     * this run, under add/remove-one, with secure noise and no ledger unless {@link Builder#relation},
     * {@link Builder#seededNoise} (NOT PRIVATE) or {@link Builder#ledger} say otherwise.
     */
    public static Builder builder(String party) {
        return new Builder(party);
    }

    /** Builds a {@link PrivacySession}; epsilon and delta are required. */
    public static final class Builder {
        private final String party;
        private Double epsilon;
        private Double delta;
        private NeighbouringRelation relation = NeighbouringRelation.ADD_OR_REMOVE_ONE;
        private NoiseSource noise;
        private java.nio.file.Path ledgerFile;
        private Double ledgerBudget;
        private BudgetLedger ledger;

        private Builder(String party) {
            if (party == null || party.isBlank()) {
                throw new IllegalArgumentException("a session needs a party name");
            }
            this.party = party;
        }

        /** What this run may spend (required). */
        public Builder epsilon(double e) {
            this.epsilon = e;
            return this;
        }

        /** The run's delta (required). */
        public Builder delta(double d) {
            this.delta = d;
            return this;
        }

        /** The neighbouring relation (default add/remove one). */
        public Builder relation(NeighbouringRelation r) {
            this.relation = java.util.Objects.requireNonNull(r, "relation");
            return this;
        }

        /** Noise from a seed, for experiments: NOT PRIVATE (default: secure noise). */
        public Builder seededNoise(long seed) {
            this.noise = NoiseSource.seeded(seed);
            return this;
        }

        /** The noise source (default {@link NoiseSource#secure()}). */
        public Builder noise(NoiseSource n) {
            this.noise = java.util.Objects.requireNonNull(n, "noise");
            return this;
        }

        /**
         * The party's persistent ledger at {@code file}: an existing one keeps its budget (which must then hold this
         * run's charges), a new one is created with total epsilon {@code totalEpsilon} at this run's delta when it is
         * first charged.
         */
        public Builder ledger(java.nio.file.Path file, double totalEpsilon) {
            this.ledgerFile = java.util.Objects.requireNonNull(file, "ledger file");
            this.ledgerBudget = totalEpsilon;
            this.ledger = null;
            return this;
        }

        /** An open ledger. */
        public Builder ledger(BudgetLedger l) {
            this.ledger = java.util.Objects.requireNonNull(l, "ledger");
            this.ledgerFile = null;
            return this;
        }

        /**
         * @throws IllegalArgumentException if epsilon or delta is missing or out of range
         * @throws BudgetLedger.LedgerException if the ledger exists for another party or relation, or is invalid
         */
        public PrivacySession build() throws BudgetLedger.LedgerException {
            if (epsilon == null || delta == null) {
                throw new IllegalArgumentException("a session needs epsilon and delta (builder.epsilon(e).delta(d))");
            }
            PrivacyBudget b = new PrivacyBudget(epsilon, delta);
            BudgetLedger l = ledger;
            if (ledgerFile != null) {
                l = BudgetLedger.openOrCreateLazily(ledgerFile, party, new PrivacyBudget(ledgerBudget, delta), relation, false);
            }
            return new PrivacySession(party, b, relation, noise == null ? NoiseSource.secure() : noise, l);
        }
    }

    public String party() {
        return party;
    }

    /** What this run may spend. */
    public PrivacyBudget target() {
        return target;
    }

    public NeighbouringRelation relation() {
        return relation;
    }

    public NoiseSource noise() {
        return noise;
    }

    /** Whether this session's noise is secure (not seeded). */
    public boolean isPrivate() {
        return noise.isPrivate();
    }

    /** The epsilon at the target delta of this session's charges plus {@code extra}; infinity if none can certify. */
    public double epsilonWith(DpEvent extra) {
        List<DpEvent> all = new ArrayList<>(charged);
        if (extra != null) {
            all.add(extra);
        }
        if (all.isEmpty()) {
            return 0.0;
        }
        Accountants.Certified c = Accountants.certify(relation, new ComposedEvent(all), target.delta());
        return c == null ? Double.POSITIVE_INFINITY : c.epsilon();
    }

    /**
     * Records a release before its noise is drawn.
     *
     * @throws BudgetExceededException when this run's target or the party's ledger budget would be exceeded;
     *                                 nothing is recorded then
     */
    public void charge(String label, String mechanism, DpEvent event, Map<String, Object> parameters)
            throws BudgetExceededException, BudgetLedger.LedgerException {
        chargeAll(List.of(new Release(label, mechanism, event, parameters)));
    }

    /** One release of a plan: what it is, its mechanism, its DP event and its public parameters. */
    public record Release(String label, String mechanism, DpEvent event, Map<String, Object> parameters) {
    }

    /**
     * Records a party's whole plan before any of its noise is drawn, atomically: the composition of every release of
     * the plan is checked against this run's target and then the ledger's budget, and either all of them are recorded
     * (one atomic ledger write) or none is. A plan charged in several calls could be refused half-way, leaving its
     * first part spent with nothing released (issue 14).
     *
     * @throws BudgetExceededException when the run's target or the party's ledger budget would be exceeded; nothing
     *                                 is recorded then
     */
    public void chargeAll(List<Release> plan) throws BudgetExceededException, BudgetLedger.LedgerException {
        if (plan.isEmpty()) {
            return;
        }
        List<DpEvent> events = checkRun(plan);
        if (pending != null) { // staging: checked with what is staged already, written by commitStaged
            List<BudgetLedger.Charge> more = ledgerCharges(plan);
            if (ledger != null) {
                List<BudgetLedger.Charge> all = new ArrayList<>(pending);
                all.addAll(more);
                ledger.check(all);
            }
            pending.addAll(more);
        } else if (ledger != null) {
            ledger.chargeAll(ledgerCharges(plan));
        }
        charged.addAll(events);
    }

    /**
     * Starts staging: from now on {@link #chargeAll} checks each plan as it would charge it (this run's target, then the
     * ledger's budget with everything staged so far: a refusal still comes before the plan's noise) but writes nothing
     * to the ledger; {@link #commitStaged} writes what was staged, {@link #abortStaged} drops it. For one run that
     * charges two parties one after the other (PRIMA: the target's release, then the source's model, whose plan
     * depends on the release): both parties' plans are checked before either ledger is written, so that a refusal of
     * the second party leaves the first's ledger untouched (check everything, then charge all or nothing). Nothing
     * computed while staging may leave the run before the commit.
     */
    public void stage() {
        if (pending != null) {
            throw new IllegalStateException(party + ": already staging");
        }
        pending = new ArrayList<>();
        chargedAtStaging = charged.size();
    }

    /** Drops what was staged (nothing was written); this session's own record forgets it too. */
    public void abortStaged() {
        if (pending != null) {
            charged.subList(chargedAtStaging, charged.size()).clear();
            pending = null;
        }
    }

    /**
     * Writes what the sessions staged, as one transaction over their ledgers
     * ({@link BudgetLedger#chargeTogether}): every session's staged charges are checked again under the ledgers'
     * locks (another process may have charged one meanwhile), every write is proved possible, and then all are written
     * or none is, whatever fails (a refusal, an unwritable or uncreatable ledger, the same file given for two parties).
     * Staging ends either way.
     *
     * @throws BudgetExceededException when a party's staged charges no longer fit its ledger; nothing written then
     * @throws BudgetLedger.LedgerException when a ledger is invalid or cannot be written; nothing written then
     */
    public static void commitStaged(PrivacySession... sessions) throws BudgetExceededException, BudgetLedger.LedgerException {
        for (PrivacySession s : sessions) {
            if (s.pending == null) {
                throw new IllegalStateException(s.party + ": not staging");
            }
        }
        List<BudgetLedger.Share> shares = new ArrayList<>();
        for (PrivacySession s : sessions) {
            if (s.ledger != null && !s.pending.isEmpty()) {
                shares.add(new BudgetLedger.Share(s.ledger, s.pending));
            }
        }
        try {
            BudgetLedger.chargeTogether(shares);
        } catch (BudgetExceededException | BudgetLedger.LedgerException | RuntimeException e) {
            for (PrivacySession s : sessions) {
                s.abortStaged();
            }
            throw e;
        }
        for (PrivacySession s : sessions) {
            s.pending = null;
        }
    }

    /** One session's plan, for {@link #chargeTogether}. */
    public record Plan(PrivacySession session, List<Release> releases) {
        public Plan {
            java.util.Objects.requireNonNull(session, "session");
            releases = List.copyOf(releases);
        }
    }

    /**
     * Charges several parties' plans for one run (G-DPDA: the target's and the source's DP-SGD steps) before any noise
     * is drawn, as one transaction: each plan is checked against its run's target, then the ledgers are charged together
     * ({@link BudgetLedger#chargeTogether}): all or none, whatever fails.
     *
     * @throws BudgetExceededException when a run's target or a party's ledger budget would be exceeded; nothing is
     *                                 recorded then
     * @throws BudgetLedger.LedgerException when a ledger is invalid or cannot be written; nothing is recorded then
     */
    public static void chargeTogether(Plan... plans) throws BudgetExceededException, BudgetLedger.LedgerException {
        List<List<DpEvent>> events = new ArrayList<>();
        List<BudgetLedger.Share> shares = new ArrayList<>();
        for (Plan p : plans) {
            if (p.session().pending != null) {
                throw new IllegalStateException(p.session().party + ": staging; charge through commitStaged");
            }
            events.add(p.releases().isEmpty() ? List.of() : p.session().checkRun(p.releases()));
            if (p.session().ledger != null && !p.releases().isEmpty()) {
                shares.add(new BudgetLedger.Share(p.session().ledger, p.session().ledgerCharges(p.releases())));
            }
        }
        BudgetLedger.chargeTogether(shares);
        for (int k = 0; k < plans.length; k++) {
            plans[k].session().charged.addAll(events.get(k));
        }
    }

    /**
     * Refuses, as {@link #chargeAll} would now, a plan beyond this run's target or the ledger's budget; records
     * nothing. A method that releases about two parties' data in one training (G-DPDA) checks both parties' plans
     * first and charges only when both fit, so that a refusal of one party leaves the other's ledger untouched.
     *
     * @throws BudgetExceededException when the run's target or the party's ledger budget would be exceeded
     */
    public void check(List<Release> plan) throws BudgetExceededException, BudgetLedger.LedgerException {
        if (plan.isEmpty()) {
            return;
        }
        checkRun(plan);
        if (ledger != null) {
            List<BudgetLedger.Charge> all = new ArrayList<>(pending == null ? List.of() : pending);
            all.addAll(ledgerCharges(plan));
            ledger.check(all);
        }
    }

    private List<DpEvent> checkRun(List<Release> plan) throws BudgetExceededException {
        List<DpEvent> events = new ArrayList<>();
        for (Release r : plan) {
            events.add(r.event());
        }
        DpEvent all = events.size() == 1 ? events.get(0) : new ComposedEvent(events);
        double eps = epsilonWith(all);
        if (!(eps <= target.epsilon() * (1 + 1e-12))) {
            String what = plan.size() == 1 ? "'" + plan.get(0).label() + "'" : "the plan '" + plan.get(0).label() + "' + "
                    + (plan.size() - 1) + " more";
            throw new BudgetExceededException(party + ": " + what + " would bring this run to epsilon "
                    + String.format(java.util.Locale.ROOT, "%.6g", eps) + " at delta " + target.delta()
                    + ", over the requested " + target.epsilon());
        }
        return events;
    }

    private List<BudgetLedger.Charge> ledgerCharges(List<Release> plan) {
        List<BudgetLedger.Charge> charges = new ArrayList<>();
        for (Release r : plan) {
            charges.add(new BudgetLedger.Charge(r.label(), r.mechanism(), r.event(), r.parameters(), noise.samplerDescription(),
                    noise.isPrivate()));
        }
        return charges;
    }

    /** What this session has spent, marked as seeded when its noise is not secure. */
    public PrivacyCost spent() {
        if (charged.isEmpty()) {
            return PrivacyCost.NONE;
        }
        PrivacyCost c = new PrivacyCost(Math.min(epsilonWith(null), Double.MAX_VALUE), target.delta());
        return noise.isPrivate() ? c : c.withSeededNoise();
    }

    /** The events charged so far, in order. */
    public List<DpEvent> events() {
        return List.copyOf(charged);
    }
}
