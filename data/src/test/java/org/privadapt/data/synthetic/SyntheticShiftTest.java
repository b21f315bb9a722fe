package org.privadapt.data.synthetic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.LinAlg;

class SyntheticShiftTest {
    @Test
    void sameSeedSameProblemDifferentSeedDifferentProblem() {
        var a = SyntheticShift.generate(SyntheticShift.Config.demo(), 7);
        var b = SyntheticShift.generate(SyntheticShift.Config.demo(), 7);
        var c = SyntheticShift.generate(SyntheticShift.Config.demo(), 8);
        assertThat(a.target().denseFeatures().minus(b.target().denseFeatures()).maxAbs()).isZero();
        assertThat(a.target().denseFeatures().minus(c.target().denseFeatures()).maxAbs()).isPositive();
    }

    @Test
    void targetMapIsASymmetricStretchWithTheStatedRange() throws Exception {
        var p = SyntheticShift.generate(SyntheticShift.Config.demo(), 3);
        DenseMatrix a = p.map();
        assertThat(a.asymmetry()).isLessThan(1e-12);
        double[] w = LinAlg.eigenvalues(a);
        assertThat(w[0]).isCloseTo(1.0 / 8, within(1e-9));
        assertThat(w[w.length - 1]).isCloseTo(8.0, within(1e-9));
        assertThat(p.source().size()).isEqualTo(600);
        assertThat(p.source().classLabels().counts()).containsExactly(150, 150, 150, 150);
    }

    @Test
    void rotationsAreOrthogonal() {
        DenseMatrix q = SyntheticShift.randomRotation(new java.util.SplittableRandom(1), 6);
        assertThat(LinAlg.multiplyTransA(q, q).minus(DenseMatrix.identity(6)).maxAbs()).isLessThan(1e-12);
    }
}
