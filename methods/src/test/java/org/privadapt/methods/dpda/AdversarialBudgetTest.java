package org.privadapt.methods.dpda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.methods.core.AdaptationOutcome;
import org.privadapt.methods.core.AdaptationTask;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.Methods;
import org.privadapt.methods.core.PrivacyContext;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.accounting.Accountants;
import org.privadapt.privacy.ledger.BudgetLedger;
import org.privadapt.privacy.noise.NoiseSource;

/**
 * Issue 29, deliverable 4: with fixed epochs and no {@code sigma}, dpda and g-dpda spend the budget the user gives
 * (the smallest noise multiplier that fits, as the ledger certifies it); an explicit sigma keeps the old spend and
 * says what it left unspent; g-dpda charges neither party unless both fit.
 *
 * <p>A calibration (the bisection over sigma, PLD at each step) costs seconds, more the smaller sigma: the budgets are
 * chosen so that the tests ask the same few questions, which {@link AdversarialMethod} answers once per JVM (its
 * calibration cache: the target's 141 steps at epsilon 0.5, 1 and 2, the source's 282 at 0.25, 0.5 and 1; 11 s in all,
 * where the budgets before, up to 8, took 35 s).
 */
class AdversarialBudgetTest {
    static final NeighbouringRelation AR = NeighbouringRelation.ADD_OR_REMOVE_ONE;

    @TempDir
    Path dir;

    static MethodConfig cfg(String... extra) {
        Map<String, String> p = new HashMap<>(Map.of("epochs", "5", "batch", "16", "lr1", "0.5", "lr2", "0.05", "clip", "1",
                "hidden", "8"));
        for (int i = 0; i < extra.length; i += 2) {
            p.put(extra[i], extra[i + 1]);
        }
        return new MethodConfig("lr", 0, 1L, p);
    }

    static PrivacyContext ctx(double sourceEps, double targetEps, BudgetLedger sourceLedger, BudgetLedger targetLedger) {
        NoiseSource n = NoiseSource.seeded(5);
        return new PrivacyContext(new PrivacySession("source", new PrivacyBudget(sourceEps, 1e-4), AR, n, sourceLedger),
                new PrivacySession("target", new PrivacyBudget(targetEps, 1e-4), AR, n.split(), targetLedger));
    }

    static double sigma(AdaptationOutcome o) {
        return ((Number) o.diagnostics().get("sigma")).doubleValue();
    }

    @Test
    void dpdaCalibratesSigmaToEpsilonAndSpendsIt() throws Exception {
        AdaptationTask t = AdversarialMethodTest.task();
        double previous = Double.POSITIVE_INFINITY;
        // the g-dpda test's target budgets (at epsilon 8, sigma 0.6, the calibration alone took 10-15 s)
        for (double eps : new double[] {0.5, 1, 2}) {
            BudgetLedger ledger = BudgetLedger.openOrCreate(dir.resolve("t" + eps + ".json"), "target", new PrivacyBudget(eps, 1e-4), AR);
            AdaptationOutcome o = Methods.get("dpda").run(t, cfg(), ctx(eps, eps, null, ledger));
            double s = sigma(o);
            assertThat(s).as("sigma at eps %s", eps).isLessThan(previous);
            previous = s;
            double spent = o.privacy().get("target").epsilon();
            assertThat(spent).as("spent at eps %s", eps).isLessThanOrEqualTo(eps).isGreaterThanOrEqualTo(0.97 * eps);
            // the ledger's certificate is the plan's: what it records equals what the method planned
            assertThat(ledger.read().epsilonSpent()).isCloseTo(spent, org.assertj.core.data.Offset.offset(1e-9))
                    .isLessThanOrEqualTo(eps);
            assertThat(o.diagnostics().get("sigma_choice").toString()).startsWith("calibrated to the budget");
            assertThat(o.diagnostics()).doesNotContainKey("budget_unspent");
            assertThat(o.diagnostics().get("epsilon_budget_target")).isEqualTo(eps);
        }
    }

    @Test
    void gdpdaSigmaIsTheSmallestThatFitsBothPartiesAndTheTighterIsSpent() throws Exception {
        AdaptationTask t = AdversarialMethodTest.task();
        double previous = Double.POSITIVE_INFINITY;
        for (double eps : new double[] {0.5, 1}) {
            // source (2 releases per iteration) at eps, target at 2 eps: the source binds (small epsilons: the PLD of
            // a small sigma is slow)
            AdaptationOutcome o = Methods.get("g-dpda").run(t, cfg(), ctx(eps, 2 * eps, null, null));
            assertThat(sigma(o)).isLessThan(previous);
            previous = sigma(o);
            assertThat(o.privacy().get("source").epsilon()).isLessThanOrEqualTo(eps).isGreaterThanOrEqualTo(0.97 * eps);
            assertThat(o.privacy().get("target").epsilon()).isLessThan(0.99 * 2 * eps);
            assertThat(o.diagnostics().get("budget_unspent").toString()).contains("(target)")
                    .contains("calibrated to the source's budget").doesNotContain("(source)");
        }
        // the other way round: the target binds (its 141 steps at epsilon 0.5 need sigma 2.69, the source's 282 at 1 need 2.10)
        AdaptationOutcome o = Methods.get("g-dpda").run(t, cfg(), ctx(1, 0.5, null, null));
        assertThat(o.privacy().get("target").epsilon()).isLessThanOrEqualTo(0.5).isGreaterThanOrEqualTo(0.97 * 0.5);
        assertThat(o.privacy().get("source").epsilon()).isLessThan(0.99 * 1);
        assertThat(o.diagnostics().get("budget_unspent").toString()).contains("(source)").contains("calibrated to the target's budget");
    }

    @Test
    void anExplicitSigmaKeepsTheOldSpendAndSaysWhatItLeft() throws Exception {
        AdaptationTask t = AdversarialMethodTest.task();
        AdaptationOutcome o = Methods.get("dpda").run(t, cfg("sigma", "2"), ctx(8, 8, null, null));
        assertThat(sigma(o)).isEqualTo(2.0);
        // the old spend: the fixed plan's event at sigma 2 (ceil(5 N_t / 16) iterations), certified as before
        long iterations = (long) Math.ceil(5.0 * t.target().size() / 16);
        assertThat(o.diagnostics().get("iterations")).isEqualTo(iterations);
        var c = new org.privadapt.models.dann.AdversarialTrainer.Config(org.privadapt.models.dann.AdversarialTrainer.Mode.DPDA,
                iterations, 16, 0.5, 0.05, 1, 2, true);
        double old = Accountants.certify(AR, org.privadapt.models.dann.AdversarialTrainer.targetEvent(c, t.target().size()), 1e-4)
                .epsilon();
        assertThat(o.privacy().get("target").epsilon()).isCloseTo(old, org.assertj.core.data.Offset.offset(1e-9)).isLessThan(0.99 * 8);
        assertThat(o.diagnostics().get("sigma_choice").toString()).startsWith("fixed by --param sigma");
        assertThat(o.diagnostics().get("budget_unspent").toString()).startsWith("spent eps ").contains(" of 8 (target)")
                .endsWith("sigma fixed by --param sigma");
        // epochs=auto keeps the paper's behaviour: the default sigma 8, iterations up to the budget
        AdaptationOutcome auto = Methods.get("dpda").run(t, cfg("epochs", "auto", "max-epochs", "100000"), ctx(1, 1, null, null));
        assertThat(sigma(auto)).isEqualTo(AdversarialMethod.DEFAULT_SIGMA);
        assertThat(auto.diagnostics().get("sigma_choice").toString()).startsWith("epochs=auto");
        assertThat(auto.privacy().get("target").epsilon()).isGreaterThan(0.99).isLessThanOrEqualTo(1.0);
    }

    /** Fails before the fix: the target was charged, then the source refused, leaving the target's spend recorded. */
    @Test
    void gdpdaRefusedByTheSourceChargesNeitherParty() throws Exception {
        AdaptationTask t = AdversarialMethodTest.task();
        // the source's run budget is too small for the fixed sigma, the target's is not
        PrivacyContext small = ctx(0.05, 8, null, null);
        assertThatThrownBy(() -> Methods.get("g-dpda").run(t, cfg("sigma", "1"), small)).isInstanceOf(BudgetExceededException.class)
                .hasMessageContaining("source");
        assertThat(small.target().events()).isEmpty();
        assertThat(small.source().events()).isEmpty();
        // the source's ledger has too little left for the calibrated plan: the target's ledger stays as it was
        BudgetLedger tl = BudgetLedger.openOrCreate(dir.resolve("target.json"), "target", new PrivacyBudget(8, 1e-4), AR);
        BudgetLedger sl = BudgetLedger.openOrCreate(dir.resolve("source.json"), "source", new PrivacyBudget(0.1, 1e-4), AR);
        PrivacyContext ledgers = ctx(1, 2, sl, tl); // budgets the other tests calibrate for (see above)
        assertThatThrownBy(() -> Methods.get("g-dpda").run(t, cfg(), ledgers)).isInstanceOf(BudgetExceededException.class)
                .hasMessageContaining("source");
        assertThat(tl.read().entries()).isEmpty();
        assertThat(sl.read().entries()).isEmpty();
        assertThat(ledgers.target().events()).isEmpty();
    }

    /**
     * Issue 30's audit: {@code epochs=auto} under replace-one was refused, because the step search asked the PLD
     * accountant alone (which refuses Poisson sampling under replace-one); it now asks the ledger's certificate.
     */
    @Test
    void epochsAutoRunsUnderReplaceOneWithinTheBudget() throws Exception {
        AdaptationTask t = AdversarialMethodTest.task();
        NoiseSource n = NoiseSource.seeded(5);
        NeighbouringRelation rep = NeighbouringRelation.REPLACE_ONE;
        for (String m : new String[] {"dpda", "g-dpda"}) {
            PrivacyContext c = new PrivacyContext(new PrivacySession("source", new PrivacyBudget(4, 1e-4), rep, n, null),
                    new PrivacySession("target", new PrivacyBudget(2, 1e-4), rep, n.split(), null));
            AdaptationOutcome o = Methods.get(m).run(t, cfg("epochs", "auto", "sigma", "2", "max-epochs", "3"), c);
            assertThat(o.privacy().get("target").epsilon()).as(m).isLessThanOrEqualTo(2.0).isPositive();
            assertThat(((Number) o.diagnostics().get("iterations")).longValue()).as(m).isPositive();
        }
    }
}
