package org.privadapt.math.ot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.LinAlg;

class BarycentricMappingTest {

    @Test
    void equalsNsTimesGammaTimesXtForUniformWeights() {
        SplittableRandom rng = new SplittableRandom(21);
        int ns = 40;
        int nt = 25;
        DenseMatrix xs = OtTestData.gaussian(ns, 6, 0, rng);
        DenseMatrix xt = OtTestData.gaussian(nt, 6, 2, rng);
        DenseMatrix c = OtTestData.normalisedSquaredEuclidean(xs, xt);
        Coupling r = Sinkhorn.solve(CostMatrices.uniform(ns), CostMatrices.uniform(nt), c, 0.05,
                SinkhornOptions.defaults().withMaxIterations(5000));
        assertThat(r.converged()).isTrue();
        DenseMatrix mapped = BarycentricMapping.map(r.plan(), xt);
        DenseMatrix reference = LinAlg.multiply(r.plan(), xt).scale(ns);
        assertThat(mapped.rows()).isEqualTo(ns);
        assertThat(mapped.cols()).isEqualTo(6);
        assertThat(mapped.minus(reference).maxAbs()).isLessThan(1e-10);
        assertThat(BarycentricMapping.zeroMassRows(r.plan())).isEmpty();
    }

    @Test
    void eachImageIsTheWeightedMeanOfItsTargets() {
        DenseMatrix plan = DenseMatrix.fromRows(new double[][] {{0.1, 0.3}, {0.0, 0.0}, {0.2, 0.0}});
        DenseMatrix xt = DenseMatrix.fromRows(new double[][] {{1, 2}, {5, 6}});
        DenseMatrix mapped = BarycentricMapping.map(plan, xt);
        assertThat(mapped.row(0)).containsExactly(new double[] {(0.1 * 1 + 0.3 * 5) / 0.4, (0.1 * 2 + 0.3 * 6) / 0.4},
                org.assertj.core.api.Assertions.within(1e-14));
        assertThat(mapped.row(1)).containsExactly(0.0, 0.0);
        assertThat(mapped.row(2)).containsExactly(new double[] {1, 2}, org.assertj.core.api.Assertions.within(1e-14));
        assertThat(mapped.firstNonFinite()).isNull();
        assertThat(BarycentricMapping.zeroMassRows(plan)).containsExactly(1);
        assertThatThrownBy(() -> BarycentricMapping.map(plan, DenseMatrix.zeros(3, 2)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
