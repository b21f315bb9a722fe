package org.privadapt.methods.pate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.Dataset;
import org.privadapt.data.preprocess.Preprocessing;
import org.privadapt.data.synthetic.SyntheticShift;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;
import org.privadapt.methods.core.AdaptationOutcome;
import org.privadapt.methods.core.AdaptationTask;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.PrivacyContext;
import org.privadapt.methods.core.TaskPreparation;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacyCost;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.accounting.Accountants;
import org.privadapt.privacy.accounting.GaussianProfile;
import org.privadapt.privacy.accounting.RdpAccountant;
import org.privadapt.privacy.events.DpEvent;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.events.SelfComposedEvent;
import org.privadapt.privacy.ledger.BudgetLedger;
import org.privadapt.privacy.noise.NoiseSource;

/** PATE (teachers on the source, GNMax, student on the target) on generated data. */
class PateMethodTest {
    @TempDir
    Path dir;

    /** 3 well-separated classes, no shift: an easy task (the point is the aggregation, not the adaptation). */
    static AdaptationTask easyTask(long seed) throws Exception {
        var p = SyntheticShift.generate(new SyntheticShift.Config(6, 3, 200, 100, 5.0, 1.0, 0.0), seed);
        return TaskPreparation.prepare("syn", p.source(), p.target(), p.target(), Preprocessing.parse("clip=12"),
                Set.of("source"));
    }

    static MethodConfig config(long seed, Map<String, String> params) {
        return new MethodConfig("lr", 1e-3, seed, params);
    }

    static PrivacyContext context(double epsilon, double delta, long noiseSeed, NeighbouringRelation r) {
        NoiseSource n = NoiseSource.seeded(noiseSeed);
        return new PrivacyContext(new PrivacySession("source", new PrivacyBudget(epsilon, delta), r, n, null),
                new PrivacySession("target", new PrivacyBudget(epsilon, delta), r, n.split(), null));
    }

    // ------------------------------------------------------------------ partition

    @Test
    void removingOrAddingOneRecordChangesOnlyTheTeacherItHashesTo() throws Exception {
        Dataset src = easyTask(1).source();
        ClassLabels y = src.classLabels();
        FeatureMatrix x = src.features();
        int n = x.rows();
        int teachers = 10;
        int[] a = TeacherPartition.assign(x, y, teachers, 7);
        int[][] before = TeacherPartition.members(a, teachers);
        for (int removed : new int[] {0, n / 2, n - 1}) {
            int[] keep = new int[n - 1];
            for (int i = 0, j = 0; i < n; i++) {
                if (i != removed) {
                    keep[j++] = i;
                }
            }
            int[] b = TeacherPartition.assign(x.selectRows(keep), y.selectRows(keep), teachers, 7);
            for (int j = 0; j < keep.length; j++) {
                assertThat(b[j]).as("record %d keeps its teacher", keep[j]).isEqualTo(a[keep[j]]);
            }
            int[][] after = TeacherPartition.members(b, teachers);
            int changed = 0;
            for (int t = 0; t < teachers; t++) {
                int[] mapped = Arrays.stream(after[t]).map(j -> keep[j]).toArray();
                if (!Arrays.equals(mapped, before[t])) {
                    changed++;
                    assertThat(t).isEqualTo(a[removed]);
                    assertThat(mapped.length).isEqualTo(before[t].length - 1);
                }
            }
            assertThat(changed).isEqualTo(1);
        }
        // a record added in front shifts every index by one but moves no other record
        double[] extra = x.row(3).clone();
        extra[0] += 0.25;
        DenseMatrix bigger = DenseMatrix.zeros(n + 1, x.cols());
        bigger.setRow(0, extra);
        int[] codes = new int[n + 1];
        codes[0] = y.code(3);
        for (int i = 0; i < n; i++) {
            bigger.setRow(i + 1, x.row(i));
            codes[i + 1] = y.code(i);
        }
        int[] c = TeacherPartition.assign(bigger, new ClassLabels(codes, y.names()), teachers, 7);
        for (int i = 0; i < n; i++) {
            assertThat(c[i + 1]).isEqualTo(a[i]);
        }
        // sizes are multinomial(n, 1/T): each within 5 standard deviations of n/T; another key, another partition
        for (int[] m : before) {
            assertThat((double) m.length).isCloseTo(n / (double) teachers, within(5 * Math.sqrt(n * 0.1 * 0.9)));
        }
        assertThat(TeacherPartition.assign(x, y, teachers, 8)).isNotEqualTo(a);
    }

    @Test
    void theVoteHistogramOfNeighboursMovesByAtMostTheStatedSensitivity() throws Exception {
        AdaptationTask t = easyTask(2);
        Dataset src = t.source();
        ClassLabels y = src.classLabels();
        int n = src.size();
        int teachers = 5;
        MethodConfig cfg = config(3, Map.of());
        FeatureMatrix queries = t.target().features();
        int[][] votes = PateMethod.teacherVotes(src.features(), y,
                TeacherPartition.members(TeacherPartition.assign(src.features(), y, teachers, 3), teachers), queries, cfg);
        double worst = 0;
        for (int removed : new int[] {1, n / 3, n - 2}) {
            int[] keep = java.util.stream.IntStream.range(0, n).filter(i -> i != removed).toArray();
            FeatureMatrix xs = src.features().selectRows(keep);
            ClassLabels ys = y.selectRows(keep);
            int[][] v2 = PateMethod.teacherVotes(xs, ys, TeacherPartition.members(TeacherPartition.assign(xs, ys, teachers, 3), teachers),
                    queries, cfg);
            int teachersChanged = 0;
            for (int tt = 0; tt < teachers; tt++) {
                teachersChanged += Arrays.equals(votes[tt], v2[tt]) ? 0 : 1;
            }
            assertThat(teachersChanged).isLessThanOrEqualTo(1);
            for (int q = 0; q < queries.rows(); q++) {
                int[] h1 = GnMax.histogram(column(votes, q), 3);
                int[] h2 = GnMax.histogram(column(v2, q), 3);
                double d2 = 0;
                for (int c = 0; c < 3; c++) {
                    d2 += (h1[c] - h2[c]) * (double) (h1[c] - h2[c]);
                }
                worst = Math.max(worst, Math.sqrt(d2));
            }
        }
        assertThat(worst).isLessThanOrEqualTo(GnMax.sensitivity(NeighbouringRelation.ADD_OR_REMOVE_ONE) + 1e-12);
        assertThat(GnMax.sensitivity(NeighbouringRelation.ADD_OR_REMOVE_ONE)).isEqualTo(Math.sqrt(2));
        assertThat(GnMax.sensitivity(NeighbouringRelation.REPLACE_ONE)).isEqualTo(2 * Math.sqrt(2));
    }

    static int[] column(int[][] votes, int q) {
        int[] out = new int[votes.length];
        for (int t = 0; t < votes.length; t++) {
            out[t] = votes[t][q];
        }
        return out;
    }

    // ------------------------------------------------------------------ accounting

    @Test
    void spendsTheRequestedEpsilonOnTheDocumentedEvent() throws Exception {
        AdaptationTask t = easyTask(3);
        int q = t.target().size();
        double delta = 1e-5;
        for (NeighbouringRelation r : NeighbouringRelation.values()) {
            for (double eps : new double[] {0.5, 2.0, 8.0}) {
                PrivacyContext ctx = context(eps, delta, 11, r);
                AdaptationOutcome o = new PateMethod().run(t, config(1, Map.of("queries", "all")), ctx);
                PrivacyCost spent = o.privacy().get("source");
                assertThat(spent.epsilon()).as("%s eps %s", r, eps).isLessThanOrEqualTo(eps).isCloseTo(eps, within(1e-6 * eps));
                assertThat(spent.delta()).isEqualTo(delta);
                assertThat(spent.seededNoise()).isTrue();
                // the target's query rows go to the teachers in the clear: not private (it was reported as NONE before)
                assertThat(o.privacy().get("target")).isEqualTo(PrivacyCost.NOT_PRIVATE);
                assertThat(o.privacy().get("target").isPrivate()).isFalse();
                assertThat(ctx.target().events()).isEmpty();

                // the one event charged: q self-composed Gaussian mechanisms of multiplier s = sigma / Delta
                assertThat(ctx.source().events()).hasSize(1);
                DpEvent e = ctx.source().events().get(0);
                assertThat(e).isInstanceOf(SelfComposedEvent.class);
                SelfComposedEvent sc = (SelfComposedEvent) e;
                assertThat(sc.count()).isEqualTo(q);
                double s = ((GaussianEvent) sc.event()).noiseMultiplier();
                double sigma = (double) o.diagnostics().get("sigma");
                assertThat(s).isEqualTo((double) o.diagnostics().get("noise_multiplier"));
                assertThat(sigma).isCloseTo(s * GnMax.sensitivity(r), within(1e-12 * sigma));
                assertThat(o.diagnostics().get("queries")).isEqualTo(q);
                assertThat(o.diagnostics().get("teachers")).isEqualTo(PateMethod.DEFAULT_TEACHERS);
                // q Gaussians of multiplier s are exactly one Gaussian of multiplier s / sqrt(q): its exact profile
                assertThat(GaussianProfile.epsilon(s / Math.sqrt(q), delta)).isCloseTo(eps, within(1e-6 * eps));
                assertThat(Accountants.certify(r, e, delta).epsilon()).isCloseTo(spent.epsilon(), within(1e-12));
                // the RDP accountant, a looser upper bound, certifies no less
                assertThat(new RdpAccountant(r).epsilon(e, delta)).isGreaterThanOrEqualTo(spent.epsilon() * (1 - 1e-9));
            }
        }
    }

    @Test
    void earlierChargesOfTheSessionAreComposedWith() throws Exception {
        AdaptationTask t = easyTask(3);
        PrivacyContext ctx = context(3.0, 1e-5, 11, NeighbouringRelation.ADD_OR_REMOVE_ONE);
        ctx.source().charge("earlier release", "Gaussian", new GaussianEvent(2.0), Map.of());
        double before = ctx.source().spent().epsilon();
        AdaptationOutcome o = new PateMethod().run(t, config(1, Map.of("queries", "50")), ctx);
        assertThat(before).isBetween(1.0, 3.0);
        assertThat(o.privacy().get("source").epsilon()).isLessThanOrEqualTo(3.0).isCloseTo(3.0, within(3e-6));
        assertThat(ctx.source().events()).hasSize(2);
    }

    @Test
    void aRefusalLeavesNothingSpentAndNoNoiseDrawn() throws Exception {
        AdaptationTask t = easyTask(4);
        // 1. the ledger's total budget is smaller than this run's target: the charge is refused
        Path ledger = dir.resolve("source.ledger");
        BudgetLedger l = BudgetLedger.openOrCreate(ledger, "source", new PrivacyBudget(1.0, 1e-5),
                NeighbouringRelation.ADD_OR_REMOVE_ONE);
        byte[] before = Files.readAllBytes(ledger);
        PrivacySession s = new PrivacySession("source", new PrivacyBudget(2.0, 1e-5), NeighbouringRelation.ADD_OR_REMOVE_ONE,
                NoiseSource.seeded(5), l);
        PrivacyContext ctx = new PrivacyContext(s, context(2.0, 1e-5, 6, NeighbouringRelation.ADD_OR_REMOVE_ONE).target());
        assertThatThrownBy(() -> new PateMethod().run(t, config(1, Map.of()), ctx)).isInstanceOf(BudgetExceededException.class);
        assertThat(Files.readAllBytes(ledger)).isEqualTo(before);
        assertThat(s.events()).isEmpty();
        assertThat(s.noise().bits().nextLong()).as("no bit drawn").isEqualTo(NoiseSource.seeded(5).bits().nextLong());

        // 2. a budget so small that no noise multiplier up to 10^6 fits even one query (at delta 1e-9 one query
        //    needs a multiplier of about 1 / (delta sqrt(2 pi)) = 4e8)
        PrivacySession tiny = new PrivacySession("source", new PrivacyBudget(1e-6, 1e-9), NeighbouringRelation.ADD_OR_REMOVE_ONE,
                NoiseSource.seeded(5), null);
        PrivacyContext ctx2 = new PrivacyContext(tiny, ctx.target());
        assertThatThrownBy(() -> new PateMethod().run(t, config(1, Map.of()), ctx2))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("GNMax");
        assertThat(tiny.events()).isEmpty();
        assertThat(tiny.noise().bits().nextLong()).isEqualTo(NoiseSource.seeded(5).bits().nextLong());

        // 3. bad parameters are refused before anything is charged
        PrivacySession fresh = new PrivacySession("source", new PrivacyBudget(2, 1e-5), NeighbouringRelation.ADD_OR_REMOVE_ONE,
                NoiseSource.seeded(5), null);
        for (Map<String, String> bad : java.util.List.of(Map.of("queries", "0"), Map.of("queries", "-3"),
                Map.of("queries", "some"), Map.of("teachers", "0"), Map.of("auto-ratio", "0"))) {
            assertThatThrownBy(() -> new PateMethod().run(t, config(1, bad), new PrivacyContext(fresh, ctx.target())))
                    .isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(fresh.events()).isEmpty();
    }

    // ------------------------------------------------------------------ utility

    @Test
    void largeEpsilonLearnsTheTaskAndTinyEpsilonFallsToChance() throws Exception {
        int runs = 12;
        double sumHigh = 0;
        double sumLow = 0;
        double sumPluralityLow = 0;
        for (int run = 0; run < runs; run++) {
            AdaptationTask t = easyTask(100 + run);
            AdaptationOutcome high = new PateMethod().run(t, config(run, Map.of("queries", "all")),
                    context(1000.0, 1e-5, 200 + run, NeighbouringRelation.ADD_OR_REMOVE_ONE));
            AdaptationOutcome low = new PateMethod().run(t, config(run, Map.of("queries", "all")),
                    context(0.01, 1e-5, 300 + run, NeighbouringRelation.ADD_OR_REMOVE_ONE));
            // epsilon 1000 over 300 queries: sigma ~ 0.6 vote against margins of up to 10 votes
            assertThat(high.accuracy()).as("run %d", run).isGreaterThan(0.9);
            assertThat((double) high.diagnostics().get("plurality_agreement")).isGreaterThan(0.9);
            sumHigh += high.accuracy();
            sumLow += low.accuracy();
            sumPluralityLow += (double) low.diagnostics().get("plurality_agreement");
        }
        // epsilon 0.01 over 300 queries: sigma ~ 6000 votes, so the labels are independent of the votes up to a
        // total-variation distance below 10 / (6000 sqrt(2 pi)) < 10^-3: every noisy label is uniform on the 3 classes. The share of labels
        // equal to the plurality vote is then Binomial(3600, 1/3) / 3600 (standard deviation 0.008; tolerance 0.05 is
        // 6 of them). A student trained on such labels is a random function of the features; its accuracy over
        // 3 balanced classes has mean 1/3, and per run a standard deviation of at most sqrt(2/27) = 0.27 (when whole
        // clusters go to one random class), i.e. at most 0.079 for the mean of 12 runs: tolerance 0.25 is > 3 of them.
        assertThat(sumPluralityLow / runs).isCloseTo(1.0 / 3, within(0.05));
        assertThat(sumLow / runs).isCloseTo(1.0 / 3, within(0.25));
        assertThat(sumHigh / runs - sumLow / runs).isGreaterThan(0.5);
    }

    @Test
    void theAutoRuleTakesTheMostQueriesWhoseNoiseStaysWithinHalfTheTeachers() throws Exception {
        AdaptationTask t = easyTask(6);
        for (double eps : new double[] {2.0, 8.0}) {
            PrivacyContext ctx = context(eps, 1e-5, 31, NeighbouringRelation.ADD_OR_REMOVE_ONE);
            AdaptationOutcome o = new PateMethod().run(t, config(2, Map.of()), ctx); // queries=auto is the default
            int q = (int) o.diagnostics().get("queries");
            double sigma = (double) o.diagnostics().get("sigma");
            assertThat(q).isBetween(2, 299);
            assertThat(sigma).isLessThanOrEqualTo(0.5 * PateMethod.DEFAULT_TEACHERS);
            // one more query would push the noise over T / 2 (sigma grows as sqrt(Q) at a fixed budget)
            assertThat(sigma * Math.sqrt((q + 1.0) / q)).isGreaterThan(0.5 * PateMethod.DEFAULT_TEACHERS);
            assertThat(o.privacy().get("source").epsilon()).isCloseTo(eps, within(1e-6 * eps));
            assertThat(((SelfComposedEvent) ctx.source().events().get(0)).count()).isEqualTo(q);
        }
        // at epsilon 8 about 35 queries, labelled mostly as the teachers' plurality (sigma <= 5 votes against margins
        // of up to 10): the student learns the easy task (mean of 6 runs; observed about 0.86 over 12)
        double sum = 0;
        for (int run = 0; run < 6; run++) {
            sum += new PateMethod().run(easyTask(40 + run), config(run, Map.of()),
                    context(8.0, 1e-5, 50 + run, NeighbouringRelation.ADD_OR_REMOVE_ONE)).accuracy();
        }
        assertThat(sum / 6).isGreaterThan(0.75);
        // a large budget: every target row
        AdaptationOutcome all = new PateMethod().run(t, config(2, Map.of()), context(1000, 1e-5, 31, NeighbouringRelation.ADD_OR_REMOVE_ONE));
        assertThat(all.diagnostics().get("queries")).isEqualTo(300);
        // a number above the target's size means all of them
        AdaptationOutcome capped = new PateMethod().run(t, config(2, Map.of("queries", "5000")),
                context(8, 1e-5, 31, NeighbouringRelation.ADD_OR_REMOVE_ONE));
        assertThat(capped.diagnostics().get("queries")).isEqualTo(300);
    }

    @Test
    void theSameSeedsReproduceTheRunAndAnotherNoiseSeedChangesTheLabels() throws Exception {
        AdaptationTask t = easyTask(5);
        MethodConfig c = config(4, Map.of("teachers", "7", "queries", "120"));
        AdaptationOutcome a = new PateMethod().run(t, c, context(1.0, 1e-5, 21, NeighbouringRelation.ADD_OR_REMOVE_ONE));
        AdaptationOutcome b = new PateMethod().run(t, c, context(1.0, 1e-5, 21, NeighbouringRelation.ADD_OR_REMOVE_ONE));
        AdaptationOutcome other = new PateMethod().run(t, c, context(1.0, 1e-5, 22, NeighbouringRelation.ADD_OR_REMOVE_ONE));
        assertThat(b.predictions()).isEqualTo(a.predictions());
        assertThat(b.accuracy()).isEqualTo(a.accuracy());
        assertThat(b.diagnostics()).isEqualTo(a.diagnostics());
        assertThat(a.diagnostics().get("teachers")).isEqualTo(7);
        assertThat(a.diagnostics().get("queries")).isEqualTo(120);
        // at epsilon 1 the noise (sigma ~ 60 votes) decides most labels: another noise stream gives other labels
        assertThat(other.diagnostics().get("vote_agreement")).isNotEqualTo(a.diagnostics().get("vote_agreement"));
    }

    @Test
    void queriesAreADataIndependentSubsetOfTheTargetRows() {
        int[] all = PateMethod.chooseQueries(50, 50, 1);
        assertThat(all).isEqualTo(java.util.stream.IntStream.range(0, 50).toArray());
        int[] some = PateMethod.chooseQueries(50, 20, 1);
        assertThat(some).hasSize(20).isSorted().doesNotHaveDuplicates();
        assertThat(some[0]).isGreaterThanOrEqualTo(0);
        assertThat(some[19]).isLessThan(50);
        assertThat(PateMethod.chooseQueries(50, 20, 1)).isEqualTo(some);
        assertThat(PateMethod.chooseQueries(50, 20, 2)).isNotEqualTo(some);
    }

    @Test
    void declaresWhatItProtects() {
        PateMethod m = new PateMethod();
        assertThat(m.name()).isEqualTo("pate");
        assertThat(m.isPrivate()).isTrue();
        assertThat(m.protectedParties()).containsExactly("source");
    }
}
