package org.privadapt.methods.dpot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.Dataset;
import org.privadapt.data.synthetic.SyntheticShift;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.LinAlg;
import org.privadapt.math.ot.CostMatrices;
import org.privadapt.methods.artifacts.Artifact;
import org.privadapt.methods.artifacts.ArtifactException;
import org.privadapt.methods.core.AdaptationOutcome;
import org.privadapt.methods.core.AdaptationTask;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.PrivacyContext;
import org.privadapt.privacy.BudgetExceededException;
import org.privadapt.privacy.NeighbouringRelation;
import org.privadapt.privacy.PrivacyBudget;
import org.privadapt.privacy.PrivacySession;
import org.privadapt.privacy.accounting.Accountants;
import org.privadapt.privacy.accounting.RdpAccountant;
import org.privadapt.privacy.events.ComposedEvent;
import org.privadapt.privacy.events.GaussianEvent;
import org.privadapt.privacy.events.LaplaceEvent;
import org.privadapt.privacy.events.PoissonSampledRowsEvent;
import org.privadapt.privacy.events.SelfComposedEvent;
import org.privadapt.privacy.ledger.BudgetLedger;
import org.privadapt.privacy.noise.NoiseSource;

class DpotTest {
    static final NeighbouringRelation REPLACE = NeighbouringRelation.REPLACE_ONE;

    @TempDir
    Path dir;

    static PrivacySession session(double eps, double delta, NeighbouringRelation r, long seed, BudgetLedger l) {
        return new PrivacySession("source", new PrivacyBudget(eps, delta), r, NoiseSource.seeded(seed), l);
    }

    static SyntheticShift.Problem pair(int seed) {
        return SyntheticShift.generate(new SyntheticShift.Config(20, 3, 80, 60, 4.0, 3.0, 1.0), seed);
    }

    /** E[||x M + Delta - y M||^2] - l sigma^2 = ||x M - y M||^2: the debiased cost is unbiased (mean of 4000 draws). */
    /** A release too large for the heap is refused in one line before anything is drawn or charged. */
    @Test
    void aReleaseLargerThanTheHeapIsRefusedBeforeAnythingIsDrawn() {
        DpotSourceRelease.requireRoom(1000, 100, 10, 1L << 30); // 8 (1,000 + 30,000) bytes: fits
        assertThatThrownBy(() -> DpotSourceRelease.requireRoom(97_825, 25_804, 2_580, 6L << 30))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("l = 2580").hasMessageContaining("--param dim=L");
    }

    @Test
    void debiasedNoisyCostIsUnbiased() {
        NoiseSource noise = NoiseSource.seeded(3);
        int k = 30, l = 6, draws = 4000;
        DenseMatrix xs = DenseMatrix.fromRows(new double[][] {rand(k, 1), rand(k, 2)});
        DenseMatrix xt = DenseMatrix.fromRows(new double[][] {rand(k, 3), rand(k, 4), rand(k, 5)});
        JlProjection m = JlProjection.draw(k, l, noise);
        DenseMatrix ps = xs.multiply(m.matrix());
        DenseMatrix truth = CostMatrices.squaredEuclidean(ps, xt.multiply(m.matrix()));
        double sigma = 0.8;
        double[] sum = new double[truth.data().length];
        double[] sumSq = new double[sum.length];
        for (int d = 0; d < draws; d++) {
            DenseMatrix noisy = ps.copy();
            for (int i = 0; i < noisy.data().length; i++) {
                noisy.data()[i] += sigma * noise.vectors().nextStandard();
            }
            DenseMatrix c = CostMatrices.squaredEuclidean(noisy, xt.multiply(m.matrix()));
            for (int i = 0; i < sum.length; i++) {
                double v = c.data()[i] - l * sigma * sigma;
                sum[i] += v;
                sumSq[i] += v * v;
            }
        }
        for (int i = 0; i < sum.length; i++) {
            double mean = sum[i] / draws;
            double se = Math.sqrt((sumSq[i] / draws - mean * mean) / draws);
            assertThat(mean).isCloseTo(truth.data()[i], offset(4.5 * se)); // 4.5 standard errors
        }
    }

    static double[] rand(int k, long seed) {
        java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
        double[] v = new double[k];
        for (int i = 0; i < k; i++) {
            v[i] = r.nextDouble() - 0.5;
        }
        return v;
    }

    @Test
    void projectionNormsAreExact() {
        JlProjection m = JlProjection.draw(200, 20, NoiseSource.seeded(1));
        double[] s = LinAlg.eigenvalues(m.matrix().transposeMultiply(m.matrix()));
        double top = s[s.length - 1];
        assertThat(m.spectralNorm()).isCloseTo(Math.sqrt(top), offset(1e-9));
        // a Gaussian k x l matrix with N(0, 1/l) entries: ||M||_2 about (sqrt k + sqrt l)/sqrt l, row norms about 1
        assertThat(m.spectralNorm()).isBetween(3.0, 5.0);
        assertThat(m.maxRowNorm()).isBetween(1.0, 2.5);
        DenseMatrix unit = DenseMatrix.zeros(1, 200);
        unit.set(0, 7, 1.0);
        assertThat(unit.multiply(m.matrix()).frobeniusNorm()).isLessThanOrEqualTo(m.maxRowNorm() + 1e-12);
    }

    /** The whole-batch release composes the Laplace counts and the Gaussian rows to the stated (eps, delta) in the ledger. */
    @Test
    void wholeBatchReleaseComposesToTheBudgetInTheLedger() throws Exception {
        var p = pair(1);
        BudgetLedger ledger = BudgetLedger.openOrCreate(dir.resolve("s.ledger"), "source", new PrivacyBudget(8, 1e-3), REPLACE);
        PrivacySession s = session(8, 1e-3, REPLACE, 5, ledger);
        ClassLabels y = p.source().classLabels();
        DpotRelease r = Dpot.release(p.source().features(), y.codes(), y.names(), DpotConfig.defaults(), s, "t", "none");
        assertThat(s.events()).hasSize(1);
        ComposedEvent ev = (ComposedEvent) s.events().get(0);
        assertThat(ev.events()).hasSize(2);
        assertThat(ev.events().get(0)).isInstanceOf(LaplaceEvent.class);
        assertThat(ev.events().get(1)).isInstanceOf(GaussianEvent.class);
        // Laplace with L1 sensitivity 2 (replace-one) at 10 % of epsilon: scale per unit sensitivity 1 / 0.8
        assertThat(((LaplaceEvent) ev.events().get(0)).noiseMultiplier()).isCloseTo(1 / 0.8, offset(1e-6));
        // calibrated to exactly the budget under RDP; certified (the tightest accountant) at or below it
        double rdpEps = new RdpAccountant(REPLACE, RdpAccountant.DEFAULT_ORDERS, w -> { }).epsilon(ev, 1e-3);
        assertThat(rdpEps).isLessThanOrEqualTo(8.0).isGreaterThan(7.999);
        double spent = Accountants.certify(REPLACE, ev, 1e-3).epsilon();
        assertThat(spent).isLessThanOrEqualTo(rdpEps).isGreaterThan(6.0);
        assertThat(ledger.read().epsilonSpent()).isCloseTo(spent, offset(1e-6));
        assertThat(r.privacy().path("epsilon_spent").asDouble()).isCloseTo(spent, offset(1e-6));
        // record level: sensitivity 2 sqrt(q + 1) R ||M||_2 and rows clipped to R
        JlProjection m = JlProjection.of(r.projection());
        assertThat(r.privacy().path("row_sensitivity").asDouble()).isCloseTo(2 * Math.sqrt(y.names().size() + 1) * m.spectralNorm(), offset(1e-9));
        assertThat(r.releasedRows()).isEqualTo(p.source().size());
        assertThat(java.util.Arrays.stream(r.batches().get(0).counts()).sum()).isEqualTo(p.source().size());
        // a second release does not fit: refused, the ledger unchanged
        byte[] before = Files.readAllBytes(dir.resolve("s.ledger"));
        PrivacySession s2 = session(8, 1e-3, REPLACE, 6, ledger);
        assertThatThrownBy(() -> Dpot.release(p.source().features(), y.codes(), y.names(), DpotConfig.defaults(), s2, "t", "none"))
                .isInstanceOf(BudgetExceededException.class);
        assertThat(Files.readAllBytes(dir.resolve("s.ledger"))).isEqualTo(before);
    }

    @Test
    void addRemoveIsRefusedBeforeAnything() throws Exception {
        var p = pair(2);
        PrivacySession s = session(8, 1e-3, NeighbouringRelation.ADD_OR_REMOVE_ONE, 5, null);
        ClassLabels y = p.source().classLabels();
        assertThatThrownBy(() -> Dpot.release(p.source().features(), y.codes(), y.names(), DpotConfig.defaults(), s, "t", "none"))
                .hasMessageContaining("replace-one");
        assertThat(s.events()).isEmpty();
    }

    @Test
    void minibatchReleaseIsAccountedAsSampledRows() throws Exception {
        var p = pair(3);
        ClassLabels y = p.source().classLabels();
        DpotConfig cfg = DpotConfig.from(MethodConfig.defaults().withParam("mode", "minibatch").withParam("batch", "40")
                .withParam("noise-ratio", "3").withParam("level", "attribute"));
        PrivacySession s = session(8, 1e-3, REPLACE, 5, null);
        DpotRelease r = Dpot.release(p.source().features(), y.codes(), y.names(), cfg, s, "t", "none");
        SelfComposedEvent ev = (SelfComposedEvent) s.events().get(0);
        PoissonSampledRowsEvent step = (PoissonSampledRowsEvent) ev.event();
        assertThat(step.samplingProbability()).isCloseTo(40.0 / p.source().size(), offset(1e-12));
        assertThat(r.batches()).hasSize((int) ev.count());
        // the largest number of batches that fits: one more would not
        RdpAccountant rdp = new RdpAccountant(REPLACE, RdpAccountant.DEFAULT_ORDERS, w -> { });
        assertThat(rdp.epsilon(ev, 1e-3)).isLessThanOrEqualTo(8.0);
        assertThat(rdp.epsilon(new SelfComposedEvent(step, ev.count() + 1), 1e-3)).isGreaterThan(8.0);
        // batch sizes vary (Poisson) around 40; counts sum to each batch's rows
        double mean = r.batches().stream().mapToInt(b -> b.rows().rows()).average().orElse(0);
        assertThat(mean).isBetween(32.0, 48.0);
        for (DpotRelease.Batch b : r.batches()) {
            assertThat(java.util.Arrays.stream(b.counts()).sum()).isEqualTo(b.rows().rows());
        }
    }

    @Test
    void validCountsArePostProcessedToTheRowCount() {
        assertThat(Dpot.validCounts(new double[] {10.4, -3, 5.2}, 15)).containsExactly(10, 0, 5);
        assertThat(Dpot.validCounts(new double[] {-1, -2}, 4)).containsExactly(2, 2);
        int[] c = Dpot.validCounts(new double[] {3.3, 3.3, 3.4}, 100);
        assertThat(c[0] + c[1] + c[2]).isEqualTo(100);
        for (int v : c) {
            assertThat(v).isBetween(32, 35);
        }
    }

    @Test
    void labelOrderGroupsByClassAndShufflesWithin() {
        int[] y = {2, 0, 1, 0, 2, 1, 0};
        int[] idx = {0, 1, 2, 3, 4, 5, 6};
        int[] o = Dpot.labelOrder(idx, y, 3, NoiseSource.seeded(1).bits());
        assertThat(java.util.Arrays.stream(o).map(i -> y[i]).toArray()).containsExactly(0, 0, 0, 1, 1, 2, 2);
        assertThat(o).containsExactlyInAnyOrder(idx);
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (int s = 0; s < 50; s++) {
            seen.add(java.util.Arrays.toString(Dpot.labelOrder(idx, y, 3, NoiseSource.seeded(s).bits())));
        }
        assertThat(seen.size()).isGreaterThan(10); // 3! 2! 2! = 24 orders
    }

    @Test
    void artifactRoundTripsAndTamperingIsDetected() throws Exception {
        var p = pair(4);
        ClassLabels y = p.source().classLabels();
        DpotRelease r = Dpot.release(p.source().features(), y.codes(), y.names(), DpotConfig.defaults(), session(8, 1e-3, REPLACE, 5, null),
                "t", "none");
        Path f = dir.resolve("r.json");
        r.toArtifact().write(f);
        DpotRelease back = DpotRelease.fromArtifact(Artifact.read(f, "release"), f.toString());
        assertThat(back.projection().data()).isEqualTo(r.projection().data());
        assertThat(back.batches().get(0).rows().data()).isEqualTo(r.batches().get(0).rows().data());
        assertThat(back.checksum()).isEqualTo(r.checksum());
        Files.writeString(f, Files.readString(f).replace("\"clip\" : 1.0", "\"clip\" : 2.0"));
        assertThatThrownBy(() -> Artifact.read(f, "release")).isInstanceOf(ArtifactException.class).hasMessageContaining("checksum");
    }

    /** With a large budget dpot-da is close to OTDA; with a tiny one it is far worse (fixed seeds; margins of 10 and 20 points). */
    @Test
    void accuracyFollowsTheBudget() throws Exception {
        var p = pair(5);
        AdaptationTask task = new AdaptationTask("t", p.source(), p.target().withoutLabels(), p.target());
        // l = k: no JL distortion, so that only the noise differs from OTDA (l = k/2 = 10 costs about 30 points here)
        MethodConfig c = MethodConfig.defaults().withParam("level", "attribute").withParam("dim", "20");
        double otda = new org.privadapt.methods.otda.OtdaMethod().run(task, c, PrivacyContext.seeded(1, 1e-3, 1)).accuracy();
        double big = run(task, c, 300);
        double small = run(task, c, 0.05);
        assertThat(otda).as("otda %s, eps 300 %s, eps 0.05 %s", otda, big, small).isGreaterThan(0.8);
        assertThat(big).as("otda %s, eps 300 %s, eps 0.05 %s", otda, big, small).isGreaterThan(otda - 0.1);
        assertThat(small).as("otda %s, eps 300 %s, eps 0.05 %s", otda, big, small).isLessThan(big - 0.2);
    }

    static double run(AdaptationTask task, MethodConfig c, double eps) throws Exception {
        PrivacyContext ctx = new PrivacyContext(session(eps, 1e-3, REPLACE, 9, null),
                new PrivacySession("target", new PrivacyBudget(eps, 1e-3), REPLACE, NoiseSource.seeded(10), null));
        AdaptationOutcome o = new DpotDaMethod().run(task, c, ctx);
        return o.accuracy();
    }

    @Test
    void semiSupervisedPicksKPerClassAndMeasuresOnTheRest() throws Exception {
        var p = pair(6);
        AdaptationTask task = new AdaptationTask("t", p.source(), p.target().withoutLabels(), p.target());
        TargetLabels tl = TargetLabels.pick(task, p.source().classLabels().names(), 2, 1L);
        assertThat(java.util.Arrays.stream(tl.codes()).filter(v -> v >= 0).count()).isEqualTo(6);
        assertThat(tl.unlabelled()).hasSize(p.target().size() - 6);
        MethodConfig c = MethodConfig.defaults().withParam("level", "attribute").withParam("target-labels", "2")
                .withParam("dim", "20");
        assertThat(run(task, c, 50)).isGreaterThan(0.6);
    }
}
