package org.privadapt.methods;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.privadapt.data.preprocess.Preprocessing;
import org.privadapt.data.synthetic.SyntheticShift;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.LinAlg;
import org.privadapt.methods.coral.Coral;
import org.privadapt.methods.core.AdaptationTask;
import org.privadapt.methods.core.MethodConfig;
import org.privadapt.methods.core.PrivacyContext;
import org.privadapt.methods.core.Methods;
import org.privadapt.methods.core.TaskPreparation;

class CoralTest {
    static DenseMatrix spd(long seed, int d) {
        java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
        DenseMatrix x = DenseMatrix.zeros(3 * d, d);
        for (int k = 0; k < x.data().length; k++) {
            x.data()[k] = r.nextDouble(-1, 1);
        }
        return LinAlg.covariance(x);
    }

    @Test
    void alignedSourceCovarianceEqualsTargetCovariance() {
        // A^T (C_s + lambda I) A = C_t + lambda I exactly, for A = (C_s + lambda I)^(-1/2) (C_t + lambda I)^(1/2)
        DenseMatrix cs = spd(1, 7);
        DenseMatrix ct = spd(2, 7).scale(4.0);
        for (double lambda : new double[] {1.0, 0.01}) {
            DenseMatrix a = Coral.alignmentMap(cs, ct, lambda);
            DenseMatrix aligned = LinAlg.multiply(LinAlg.multiplyTransA(a, cs.plusIdentity(lambda)), a);
            assertThat(aligned.minus(ct.plusIdentity(lambda)).maxAbs()).isLessThan(1e-10);
        }
    }

    @Test
    void aligningRowsEqualsApplyingTheMapOfTheCovariances() {
        // Coral.alignSource goes through each domain's spectrum (the n x n Gram matrix when n < d); it must equal
        // X_s A with A from the d x d covariances, for every mix of short and tall domains
        for (int[] rows : new int[][] {{60, 50}, {12, 50}, {60, 9}, {9, 12}}) {
            int d = 20;
            DenseMatrix xs = rowsWithMeanAndScales(rows[0], d, 11);
            DenseMatrix xt = rowsWithMeanAndScales(rows[1], d, 12).scale(3.0);
            for (double lambda : new double[] {1.0, 0.1}) {
                DenseMatrix expected = Coral.apply(xs, Coral.alignmentMap(LinAlg.covariance(xs), LinAlg.covariance(xt), lambda));
                DenseMatrix got = Coral.alignSource(xs, xt, lambda);
                assertThat(got.minus(expected).maxAbs() / expected.maxAbs())
                        .as("n_s %d n_t %d lambda %s", rows[0], rows[1], lambda).isLessThan(1e-9);
            }
        }
        // a source column on a 1e6 times larger scale: the Gram route cannot be exact with lambda = 1, so the d x d
        // route is taken, and the result is that route's, bit for bit
        DenseMatrix xs = rowsWithMeanAndScales(12, 20, 13);
        for (int i = 0; i < 12; i++) {
            xs.set(i, 5, xs.get(i, 5) * 1e6);
        }
        DenseMatrix xt = rowsWithMeanAndScales(9, 20, 14);
        DenseMatrix expected = Coral.apply(xs, Coral.alignmentMap(LinAlg.covariance(xs), LinAlg.covariance(xt), 1.0));
        assertThat(Coral.alignSource(xs, xt, 1.0).minus(expected).maxAbs()).isZero();
    }

    /** Gaussian rows with unequal column scales and a nonzero mean. */
    static DenseMatrix rowsWithMeanAndScales(int n, int d, long seed) {
        java.util.SplittableRandom rng = new java.util.SplittableRandom(seed);
        DenseMatrix x = DenseMatrix.zeros(n, d);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                x.set(i, j, rng.nextGaussian() * (1 + j % 4) + 1.0);
            }
        }
        return x;
    }

    @Test
    void identicalCovariancesGiveTheIdentityMap() {
        DenseMatrix c = spd(3, 5);
        assertThat(Coral.alignmentMap(c, c, 1.0).minus(DenseMatrix.identity(5)).maxAbs()).isLessThan(1e-12);
    }

    @Test
    void coralBeatsSourceOnlyOnTheDemoProblemForEverySeed() throws Exception {
        // the embedded default: a stretch along random axes that second-order statistics identify
        double gainSum = 0;
        for (long seed = 1; seed <= 5; seed++) {
            var p = SyntheticShift.generate(SyntheticShift.Config.demo(), seed);
            AdaptationTask t = TaskPreparation.prepare("syn", p.source(), p.target(), p.target(), Preprocessing.parse("center"));
            double so = Methods.get("source-only").run(t, MethodConfig.defaults(), PrivacyContext.secure(1, 1e-5)).accuracy();
            double co = Methods.get("coral").run(t, MethodConfig.defaults(), PrivacyContext.secure(1, 1e-5)).accuracy();
            assertThat(co).as("seed %d", seed).isGreaterThan(so);
            gainSum += co - so;
        }
        assertThat(gainSum / 5).as("mean gain in accuracy").isGreaterThan(0.08);
    }

    @Test
    void theAlignedSourceSharedByRepetitionsIsThatOfEachTasksOwnData() throws Exception {
        // CoralMethod remembers the aligned source per (source, target, lambda): every call must still give what a
        // fresh computation on its own task gives, and the network's repetitions must not disturb one another
        AdaptationTask[] tasks = sameSourceTwoTargets();
        AdaptationTask t1 = tasks[0];
        MethodConfig lr = MethodConfig.defaults();
        for (AdaptationTask t : tasks) {
            for (double lambda : new double[] {1.0, 0.1}) {
                MethodConfig c = lr.withParam("lambda", Double.toString(lambda));
                var o = Methods.get("coral").run(t, c, PrivacyContext.secure(1, 1e-5));
                DenseMatrix aligned = Coral.alignSource(t.source().features(), t.target().features(), lambda);
                var model = org.privadapt.methods.core.Classifiers.train(c, aligned, t.source().classLabels());
                int[] pred = new int[t.evaluation().size()];
                double acc = org.privadapt.methods.core.Classifiers.accuracy(model, t.evaluation().features(), t.evaluation(), pred);
                assertThat(o.predictions()).as(t.name() + " lambda " + lambda).containsExactly(pred);
                assertThat(o.accuracy()).isEqualTo(acc);
            }
        }
        MethodConfig dnn = new MethodConfig("dnn", 1e-3, 7L, java.util.Map.of());
        var a = Methods.get("coral").run(t1, dnn, PrivacyContext.secure(1, 1e-5));
        var b = Methods.get("coral").run(t1, dnn, PrivacyContext.secure(1, 1e-5));
        assertThat(b.predictions()).containsExactly(a.predictions());
    }

    /**
     * Two demo tasks sharing one source dataset object, with two different targets, in the order a, b, a, b: for
     * methods that remember per-task transforms across calls.
     */
    static AdaptationTask[] sameSourceTwoTargets() throws Exception {
        var p1 = SyntheticShift.generate(SyntheticShift.Config.demo(), 1);
        var p2 = SyntheticShift.generate(SyntheticShift.Config.demo(), 2);
        AdaptationTask t1 = TaskPreparation.prepare("a", p1.source(), p1.target(), p1.target(), Preprocessing.parse("center"));
        AdaptationTask t2 = TaskPreparation.prepare("b", p1.source(), p2.target(), p2.target(), Preprocessing.parse("center"));
        return new AdaptationTask[] {t1, t2, t1, t2};
    }

    @Test
    void sourceOnlyReadsNothingFromTheTarget() throws Exception {
        var p = SyntheticShift.generate(SyntheticShift.Config.demo(), 1);
        AdaptationTask t = TaskPreparation.prepare("syn", p.source(), p.target(), p.target(), Preprocessing.none());
        var o = Methods.get("source-only").run(t, MethodConfig.defaults(), PrivacyContext.secure(1, 1e-5));
        assertThat(o.privacy().get("target").epsilon()).isZero();
        assertThat(o.privacy().get("source").isPrivate()).isFalse();
        assertThat(Methods.get("coral").run(t, MethodConfig.defaults(), PrivacyContext.secure(1, 1e-5)).privacy().get("target").isPrivate()).isFalse();
    }
}
