package org.privadapt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.privadapt.cli.report.Report;
import org.privadapt.data.synthetic.SyntheticShift;
import org.privadapt.methods.core.AdaptationMethod;
import org.privadapt.methods.core.AdaptationOutcome;
import org.privadapt.methods.core.AdaptationTask;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.NonPrivate;
import org.privadapt.methods.core.PrivacyContext;

class RunsRepeatTest {
    /** A method whose accuracy is its seed (so repeated outcomes are visible) and that counts its calls. */
    static final class Counting implements AdaptationMethod {
        final AtomicInteger calls = new AtomicInteger();
        final boolean deterministic;

        Counting(boolean deterministic) {
            this.deterministic = deterministic;
        }

        @Override
        public String name() {
            return "counting";
        }

        @Override
        public String description() {
            return "test";
        }

        @Override
        public boolean isPrivate() {
            return false;
        }

        @Override
        public boolean deterministic(MethodConfig config) {
            return deterministic;
        }

        @Override
        public AdaptationOutcome run(AdaptationTask task, MethodConfig config, PrivacyContext privacy) {
            calls.incrementAndGet();
            return new AdaptationOutcome(name(), config.seed() / 100.0, new int[0], java.util.List.of("a"), NonPrivate.both(), Map.of());
        }
    }

    static AdaptationTask task() {
        var p = SyntheticShift.generate(new SyntheticShift.Config(4, 2, 10, 10, 4.0, 3.0, 1.0), 1);
        return new AdaptationTask("t", p.source(), p.target().withoutLabels(), p.target());
    }

    @Test
    void deterministicMethodsRunOncePerTaskOthersOncePerRun() throws Exception {
        for (int jobs : new int[] {1, 2}) {
            Counting det = new Counting(true);
            Report.TaskResult r = Runs.repeat(det, task(), MethodConfig.defaults(), 5, Map.of(), "s", "t", null,
                    run -> PrivacyContext.seeded(1, 1e-5, run), jobs);
            assertThat(det.calls.get()).isEqualTo(1);
            assertThat(r.runs()).isEqualTo(5);
            assertThat(r.accuracies()).hasSize(5).containsOnly(0.01);
            assertThat(r.accuracyStd()).isZero();

            Counting random = new Counting(false);
            Report.TaskResult q = Runs.repeat(random, task(), MethodConfig.defaults(), 5, Map.of(), "s", "t", null,
                    run -> PrivacyContext.seeded(1, 1e-5, run), jobs);
            assertThat(random.calls.get()).isEqualTo(5);
            assertThat(q.accuracies()).containsExactly(0.01, 0.02, 0.03, 0.04, 0.05);
        }
    }

    /** A private method that charges one Gaussian release of the given multiplier per run to the source (or the target). */
    static final class Charging implements AdaptationMethod {
        final double multiplier;
        /** Charge the target instead, and read the source without privacy. */
        final boolean target;

        Charging(double multiplier) {
            this(multiplier, false);
        }

        Charging(double multiplier, boolean target) {
            this.multiplier = multiplier;
            this.target = target;
        }

        @Override
        public String name() {
            return "charging";
        }

        @Override
        public String description() {
            return "test";
        }

        @Override
        public boolean isPrivate() {
            return true;
        }

        @Override
        public AdaptationOutcome run(AdaptationTask task, MethodConfig config, PrivacyContext privacy)
                throws org.privadapt.privacy.BudgetExceededException, org.privadapt.privacy.ledger.BudgetLedger.LedgerException {
            if (target) {
                privacy.target().charge("release", "Gaussian", new org.privadapt.privacy.events.GaussianEvent(multiplier), Map.of());
                return new AdaptationOutcome(name(), 0.5, new int[0], java.util.List.of("a"),
                        Map.of("source", org.privadapt.privacy.PrivacyCost.NOT_PRIVATE, "target", privacy.target().spent()), Map.of());
            }
            privacy.source().charge("release", "Gaussian", new org.privadapt.privacy.events.GaussianEvent(multiplier), Map.of());
            return new AdaptationOutcome(name(), 0.5, new int[0], java.util.List.of("a"),
                    Map.of("source", privacy.source().spent(), "target", org.privadapt.privacy.PrivacyCost.NONE), Map.of());
        }
    }

    /**
     * A domain whose rows both roles read (task C->A charges the source C, task A->C the target C, both on C's
     * training split) composes across the roles: one total for C over both cells. With splits that differ the roles
     * stay apart. A domain read privately by one cell and without privacy by another (a baseline) gets the private
     * cells' total, marked not protected, not just "not private" (issue 33, found re-running the README).
     */
    @Test
    void theBenchTotalsComposeADomainsRecordsAcrossRolesAndKeepThePrivateSpendBesideABaseline() throws Exception {
        Report.TaskResult asSource = Runs.repeat(new Charging(4.0), task(), MethodConfig.defaults(), 2, Map.of(), "C", "A", null,
                run -> PrivacyContext.secure(100, 1e-5));
        Report.TaskResult asTarget = Runs.repeat(new Charging(3.0, true), task(), MethodConfig.defaults(), 2, Map.of(), "A", "C", null,
                run -> PrivacyContext.secure(100, 1e-5));
        Map<String, String> sameRows = new java.util.HashMap<>();
        sameRows.put("source", "train");
        sameRows.put("target", "train");
        java.util.List<Report.DomainTotal> joint = Runs.domainTotals(java.util.List.of(asSource, asTarget),
                org.privadapt.privacy.NeighbouringRelation.ADD_OR_REMOVE_ONE, 1e-5, sameRows);
        Report.DomainTotal c = joint.stream().filter(t -> t.domain().equals("C")).findFirst().orElseThrow();
        assertThat(c.party()).isEqualTo("source+target");
        assertThat(c.cells()).isEqualTo(2);
        double s = 1 / Math.sqrt(2 / 16.0 + 2 / 9.0); // 2 runs of Gaussian(4) as source, 2 of Gaussian(3) as target
        assertThat(((Number) c.epsilon()).doubleValue()).isCloseTo(org.privadapt.privacy.accounting.GaussianProfile.epsilon(s, 1e-5),
                org.assertj.core.api.Assertions.within(1e-9));
        assertThat(c.isPrivate()).isTrue();
        // A: read privately? no: as C->A's target nothing was charged, as A->C's source it was read without privacy
        Report.DomainTotal a = joint.stream().filter(t -> t.domain().equals("A")).findFirst().orElseThrow();
        assertThat(a.unprotected()).isTrue();
        // other splits: the roles' rows are distinct, two totals for C
        Map<String, String> otherRows = new java.util.HashMap<>();
        otherRows.put("source", "train");
        otherRows.put("target", "unlabelled");
        assertThat(Runs.domainTotals(java.util.List.of(asSource, asTarget), org.privadapt.privacy.NeighbouringRelation.ADD_OR_REMOVE_ONE,
                1e-5, otherRows).stream().filter(t -> t.domain().equals("C")).count()).isEqualTo(2);
        // a baseline that read C as its source: C's private cells still give their total, marked not protected
        Report.TaskResult baseline = Runs.repeat(new Charging(3.0, true), task(), MethodConfig.defaults(), 1, Map.of(), "C", "W", null,
                run -> PrivacyContext.secure(100, 1e-5));
        Report.DomainTotal mixed = Runs.domainTotals(java.util.List.of(asSource, baseline),
                org.privadapt.privacy.NeighbouringRelation.ADD_OR_REMOVE_ONE, 1e-5, sameRows).stream()
                .filter(t -> t.domain().equals("C")).findFirst().orElseThrow();
        assertThat(mixed.epsilon()).isInstanceOf(Number.class);
        assertThat(mixed.isPrivate()).isFalse();
        assertThat(mixed.note()).contains("also read without privacy by 1 cell");
    }

    /**
     * Issue 14.3: a cell's spend composes its runs, and a bench's total per domain composes every cell (sweep values,
     * methods, tasks) that read it: R runs of Gaussian(s) plus R runs of Gaussian(s') equal one Gaussian of multiplier
     * 1 / sqrt(R / s^2 + R / s'^2), certified exactly.
     */
    @Test
    void runsAndCellsComposeIntoTheBenchTotalPerDomain() throws Exception {
        Report.TaskResult a = Runs.repeat(new Charging(4.0), task(), MethodConfig.defaults(), 3, Map.of("epsilon", "1"), "C", "A", null,
                run -> PrivacyContext.secure(100, 1e-5));
        Report.TaskResult b = Runs.repeat(new Charging(2.0), task(), MethodConfig.defaults(), 3, Map.of("epsilon", "2"), "C", "W", null,
                run -> PrivacyContext.secure(100, 1e-5));
        double perRun = org.privadapt.privacy.accounting.GaussianProfile.epsilon(4.0, 1e-5);
        double cellA = org.privadapt.privacy.accounting.GaussianProfile.epsilon(4.0 / Math.sqrt(3), 1e-5);
        assertThat(((Number) a.privacy().get("source").epsilon()).doubleValue()).isCloseTo(cellA, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(a.privacy().get("source").epsilonPerRun()).isCloseTo(perRun, org.assertj.core.api.Assertions.within(1e-9));
        java.util.List<Report.DomainTotal> totals = Runs.domainTotals(java.util.List.of(a, b),
                org.privadapt.privacy.NeighbouringRelation.ADD_OR_REMOVE_ONE, 1e-5);
        assertThat(totals).hasSize(1); // only the source domain C was read privately; targets read nothing
        Report.DomainTotal t = totals.get(0);
        assertThat(t.domain()).isEqualTo("C");
        assertThat(t.cells()).isEqualTo(2);
        double s = 1 / Math.sqrt(3 / 16.0 + 3 / 4.0);
        assertThat(((Number) t.epsilon()).doubleValue()).isCloseTo(org.privadapt.privacy.accounting.GaussianProfile.epsilon(s, 1e-5),
                org.assertj.core.api.Assertions.within(1e-9));
        assertThat(t.isPrivate()).isTrue();
        // the events survive a JSON round trip (bench checkpoints reuse cells from their file)
        Report.TaskResult back = org.privadapt.cli.report.Json.MAPPER.readValue(org.privadapt.cli.report.Json.write(a), Report.TaskResult.class);
        assertThat(Runs.domainTotals(java.util.List.of(back), org.privadapt.privacy.NeighbouringRelation.ADD_OR_REMOVE_ONE, 1e-5).get(0).epsilon())
                .isEqualTo(Runs.domainTotals(java.util.List.of(a), org.privadapt.privacy.NeighbouringRelation.ADD_OR_REMOVE_ONE, 1e-5).get(0).epsilon());
    }

    @org.junit.jupiter.api.Test
    void numbersForPeopleCarryNoBinaryNoise() {
        org.assertj.core.api.Assertions.assertThat(Runs.formatNumber(9.999999990000001E-10)).isEqualTo("1e-9");
        org.assertj.core.api.Assertions.assertThat(Runs.formatNumber(2.0)).isEqualTo("2");
        org.assertj.core.api.Assertions.assertThat(Runs.formatNumber(0.1 + 0.2)).isEqualTo("0.3");
        org.assertj.core.api.Assertions.assertThat(Runs.formatNumber(1e-5)).isEqualTo("1e-5");
        org.assertj.core.api.Assertions.assertThat(Runs.formatNumber(2.5e-5)).isEqualTo("2.5e-5");
        org.assertj.core.api.Assertions.assertThat(Runs.formatNumber(1.8234)).isEqualTo("1.823");
        org.assertj.core.api.Assertions.assertThat(Runs.formatNumber(12345678)).isEqualTo("1.235e7");
        org.assertj.core.api.Assertions.assertThat(Runs.formatNumber(Double.POSITIVE_INFINITY)).isEqualTo("infinity");
    }
}
