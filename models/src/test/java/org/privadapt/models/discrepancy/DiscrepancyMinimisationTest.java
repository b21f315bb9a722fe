package org.privadapt.models.discrepancy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.LinAlg;

class DiscrepancyMinimisationTest {
    static DenseMatrix gaussian(int n, int d, double shift, SplittableRandom r) {
        DenseMatrix x = DenseMatrix.zeros(n, d);
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < d; k++) {
                x.set(i, k, r.nextGaussian() + (k == 0 ? shift : 0));
            }
        }
        return x;
    }

    @Test
    void farRowsLoseTheirWeightAndTheDiscrepancyNearlyVanishes() {
        SplittableRandom r = new SplittableRandom(1);
        DenseMatrix target = gaussian(60, 3, 0, r);
        // the source: the target's rows plus as many rows far away along the first axis
        DenseMatrix source = target.vstack(gaussian(60, 3, 6, r));
        DiscrepancyMinimisation.Result res = DiscrepancyMinimisation.weights(source, target, 2000);
        double[] q = res.weights();
        double sum = 0;
        double far = 0;
        for (int i = 0; i < q.length; i++) {
            assertThat(q[i]).isGreaterThanOrEqualTo(0.0);
            sum += q[i];
            if (i >= 60) {
                far += q[i];
            }
        }
        assertThat(sum).isCloseTo(1.0, Offset.offset(1e-9));
        // uniform weights put half the mass 6 units away: a second moment off by ~18; the optimum (Q = the target's
        // rows uniformly) is 0, and mirror descent gets within its own bound of it
        assertThat(res.uniformObjective()).isGreaterThan(10);
        assertThat(res.objective()).isLessThan(0.05 * res.uniformObjective());
        assertThat(far).isLessThan(0.05);
        // the reported value is the spectral norm recomputed from scratch
        assertThat(DiscrepancyMinimisation.objective(source, target, q)).isCloseTo(res.objective(), Offset.offset(1e-9));
    }

    @Test
    void neverWorseThanUniformWeights() {
        for (long seed = 1; seed <= 5; seed++) {
            SplittableRandom r = new SplittableRandom(seed);
            DenseMatrix source = gaussian(50, 4, 0, r);
            DenseMatrix target = gaussian(30, 4, 0.7, r);
            DiscrepancyMinimisation.Result res = DiscrepancyMinimisation.weights(source, target, 200);
            assertThat(res.objective()).isLessThanOrEqualTo(res.uniformObjective());
        }
    }

    /** Fewer rows than features: the r x r route gives the d x d spectral norm. */
    @Test
    void theRowSpanRouteEqualsTheFullMatrix() {
        SplittableRandom r = new SplittableRandom(3);
        DenseMatrix source = gaussian(8, 40, 0.5, r);
        DenseMatrix target = gaussian(6, 40, -0.5, r);
        double[] q = new double[8];
        double z = 0;
        for (int i = 0; i < 8; i++) {
            q[i] = r.nextDouble();
            z += q[i];
        }
        for (int i = 0; i < 8; i++) {
            q[i] /= z;
        }
        double[] sq = new double[8];
        for (int i = 0; i < 8; i++) {
            sq[i] = Math.sqrt(q[i]);
        }
        DenseMatrix m = LinAlg.gram(source.scaleRows(sq)).minus(LinAlg.gram(target).scale(1.0 / 6));
        org.privadapt.math.SymmetricEigen e = LinAlg.eigh(m);
        double full = Math.max(Math.abs(e.value(0)), Math.abs(e.value(e.values().length - 1)));
        for (double v : e.values()) {
            full = Math.max(full, Math.abs(v));
        }
        assertThat(DiscrepancyMinimisation.objective(source, target, q)).isCloseTo(full, Offset.offset(1e-9 * full));
    }
}
