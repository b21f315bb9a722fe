package org.privadapt.methods.bassily;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.data.RealTargets;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.LinAlg;
import org.privadapt.methods.core.AdaptationOutcome;
import org.privadapt.methods.core.MethodConfig;

/** The public subspace / offset reduction of paper 003's regression methods (docs/privacy/bassily.md). */
class PublicSubspaceTest {
    /** Scaled-looking rows: d sparse-ish features centred on nothing in particular, then a constant column c. */
    static DenseMatrix rows(int n, int d, double c, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] x = new double[n][d + 1];
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int j = 0; j < d; j++) {
                x[i][j] = r.nextDouble() < 0.1 ? r.nextGaussian() + (j < 5 ? 1 : 0) : 0;
                s += x[i][j] * x[i][j];
            }
            for (int j = 0; j < d; j++) {
                x[i][j] /= Math.sqrt(s) + 1e-12; // row norms at most 1 before the constant
            }
            x[i][d] = c;
        }
        return DenseMatrix.fromRows(x);
    }

    static RealTargets targets(DenseMatrix x, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] y = new double[x.rows()];
        for (int i = 0; i < y.length; i++) {
            y[i] = Math.signum(x.get(i, 0) + x.get(i, 1) - x.get(i, 2) + 0.1 * r.nextGaussian());
        }
        return new RealTargets(y, "y");
    }

    static SupervisedProtocol protocol(long trainSeed) {
        int d = 200;
        DenseMatrix xs = rows(60, d, 0.05, 1);
        DenseMatrix xt = rows(40, d, 0.05, trainSeed);
        DenseMatrix xv = rows(30, d, 0.05, 3);
        DenseMatrix xe = rows(50, d, 0.05, 4);
        SupervisedProtocol.Scaling sc = new SupervisedProtocol.Scaling(new double[d], new double[d], 1, 0, 1);
        return new SupervisedProtocol(xs, targets(xs, 1), xt, targets(xt, trainSeed), xv, targets(xv, 3), xe, targets(xe, 4), sc,
                new int[50]);
    }

    @Test
    void theBasisIsOrthonormalKeepsTheInterceptAndNeverLengthensARow() {
        DenseMatrix xs = rows(60, 200, 0.05, 1);
        DenseMatrix v = PublicSubspace.basis(xs, 7);
        assertThat(v.rows()).isEqualTo(201);
        assertThat(v.cols()).isEqualTo(8);
        DenseMatrix vtv = LinAlg.multiplyTransA(v, v);
        for (int i = 0; i < 8; i++) {
            for (int j = 0; j < 8; j++) {
                assertThat(vtv.get(i, j)).isCloseTo(i == j ? 1 : 0, within(1e-10));
            }
        }
        // the last column is the constant feature's axis: the intercept survives the projection exactly
        assertThat(v.get(200, 7)).isCloseTo(1, within(1e-12));
        DenseMatrix other = rows(80, 200, 0.05, 9);
        double[] before = other.rowSquaredNorms();
        double[] after = new PublicSubspace(v, null).project(other).rowSquaredNorms();
        for (int i = 0; i < before.length; i++) {
            assertThat(after[i]).isLessThanOrEqualTo(before[i] * (1 + 1e-12));
        }
        // k above the source's rank (60 rows): as many directions as the rank allows
        assertThat(PublicSubspace.basis(xs, 500).cols()).isLessThanOrEqualTo(61);
    }

    @Test
    void theReductionReadsOnlyPublicRows() {
        MethodConfig c = MethodConfig.defaults().withParam("public-subspace", "5");
        SupervisedProtocol a = protocol(2);
        SupervisedProtocol b = protocol(77); // other private training rows and targets, same public parts
        assertThat(a.xTrain().data()).isNotEqualTo(b.xTrain().data());
        PublicSubspace ra = SupervisedSupport.reduction(a, c, true);
        PublicSubspace rb = SupervisedSupport.reduction(b, c, true);
        assertThat(ra.basis().data()).isEqualTo(rb.basis().data());
        assertThat(ra.offset()).isNotNull().isEqualTo(rb.offset());
        assertThat(ra.rowScale()).isEqualTo(rb.rowScale()).isLessThanOrEqualTo(1.0);
        // the transformed private targets stay in [-1, 1] and the offset alone (z = 0) gives the clipped source fit
        double[] yt = ((RealTargets) ra.apply(a).yTrain()).values();
        for (double v : yt) {
            assertThat(Math.abs(v)).isLessThanOrEqualTo(1.0);
        }
        double[] zero = new double[ra.dimension(0)];
        assertThat(ra.dimension(0)).isEqualTo(ra.basis().cols() + 1); // the public fit's prediction as a feature
        assertThat(ra.predict(a.xTest(), zero)).isEqualTo(ra.offsets(a.xTest()));
        // dp-target-only's reduction: the subspace only
        assertThat(SupervisedSupport.reduction(a, c, false).offset()).isNull();
    }

    @Test
    void parameterValidationAndTheAutoRule() {
        MethodConfig c = MethodConfig.defaults();
        assertThat(PublicSubspace.chooseK(c, 5001, 300, 700)).isEqualTo(30); // d + 1 > n: floor(n / 10)
        assertThat(PublicSubspace.chooseK(c, 10, 300, 700)).isZero(); // d + 1 <= n: off
        assertThat(PublicSubspace.chooseK(c, 5001, 300, 12)).isEqualTo(11); // capped at m - 1
        assertThat(PublicSubspace.chooseK(c, 5001, 5, 700)).isEqualTo(1);
        assertThat(PublicSubspace.chooseK(c.withParam("public-subspace", "off"), 5001, 300, 700)).isZero();
        assertThat(PublicSubspace.chooseK(c.withParam("public-subspace", "0"), 5001, 300, 700)).isZero();
        assertThat(PublicSubspace.chooseK(c.withParam("public-subspace", "50"), 10, 300, 700)).isEqualTo(50);
        assertThatThrownBy(() -> PublicSubspace.chooseK(c.withParam("public-subspace", "-1"), 5001, 300, 700))
                .hasMessageContaining("public-subspace");
        assertThatThrownBy(() -> PublicSubspace.chooseK(c.withParam("public-subspace", "ten"), 5001, 300, 700))
                .hasMessageContaining("public-subspace");
        assertThatThrownBy(() -> SupervisedSupport.reduction(protocol(2), c.withParam("public-subspace", "4")
                .withParam("start", "middle"), true)).hasMessageContaining("start");
        assertThatThrownBy(() -> SupervisedSupport.reduction(protocol(2), c.withParam("public-subspace", "4")
                .withParam("subspace-rescale", "maybe"), true)).hasMessageContaining("subspace-rescale");
        assertThatThrownBy(() -> new PublicSubspace(null, 0.0, null)).hasMessageContaining("row scale");
    }

    @Test
    void pcnvxadapRunsInTheSubspaceOnAWideTask() throws Exception {
        // d = 400 > n = 60: the auto rule projects onto floor(60 / 10) = 6 directions; the offset is on by default
        org.privadapt.methods.core.AdaptationTask t = wideTask();
        MethodConfig c = MethodConfig.defaults().withSeed(1).withParam("target-train", "60").withParam("target-validation", "40")
                .withParam("target-test", "100").withParam("alpha", "0.5").withParam("radius", "1").withParam("iterations", "50");
        AdaptationOutcome o = new CnvxAdapMethod(true).run(t, c, SupervisedMethodsTest.replace(10, 3));
        assertThat(o.diagnostics()).containsEntry("public_subspace", 6).containsEntry("public_offset", true);
        assertThat(o.values()).hasSize(100);
        AdaptationOutcome d = new DpTargetOnlyMethod().run(t, c, SupervisedMethodsTest.replace(10, 3));
        assertThat(d.diagnostics()).containsEntry("public_subspace", 6).containsEntry("public_offset", false);
        AdaptationOutcome s = new StatisticsPCnvxAdapMethod().run(t, c, SupervisedMethodsTest.replace(10, 3));
        assertThat(s.diagnostics()).containsEntry("public_subspace", 6);
    }

    static org.privadapt.methods.core.AdaptationTask wideTask() {
        DenseMatrix xs = rows(300, 400, 0, 11).selectColumns(java.util.stream.IntStream.range(0, 400).toArray());
        DenseMatrix xt = rows(300, 400, 0, 12).selectColumns(java.util.stream.IntStream.range(0, 400).toArray());
        org.privadapt.data.Dataset s = new org.privadapt.data.Dataset("s", xs, targets(xs, 11), null, null,
                org.privadapt.data.PublicFacts.NONE);
        org.privadapt.data.Dataset tt = new org.privadapt.data.Dataset("t", xt, targets(xt, 12), null, null,
                org.privadapt.data.PublicFacts.NONE);
        return new org.privadapt.methods.core.AdaptationTask("s->t", s, tt.withoutLabels(), tt);
    }
}
