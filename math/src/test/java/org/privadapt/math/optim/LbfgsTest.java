package org.privadapt.math.optim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class LbfgsTest {
    @Test
    void minimisesRosenbrock() {
        Lbfgs.Result r = Lbfgs.defaults().minimize((x, g) -> {
            double a = 1 - x[0];
            double b = x[1] - x[0] * x[0];
            g[0] = -2 * a - 400 * x[0] * b;
            g[1] = 200 * b;
            return a * a + 100 * b * b;
        }, new double[] {-1.2, 1.0});
        assertThat(r.converged()).as(r.reason()).isTrue();
        assertThat(r.x()[0]).isCloseTo(1.0, within(1e-4));
        assertThat(r.x()[1]).isCloseTo(1.0, within(1e-4));
    }

    @Test
    void minimisesIllConditionedQuadraticExactly() {
        double[] diag = {1, 10, 100, 1000};
        double[] center = {1, -2, 3, -4};
        Lbfgs.Result r = new Lbfgs(10, 1000, 1e-10, 0).minimize((x, g) -> {
            double f = 0;
            for (int i = 0; i < 4; i++) {
                double d = x[i] - center[i];
                f += 0.5 * diag[i] * d * d;
                g[i] = diag[i] * d;
            }
            return f;
        }, new double[4]);
        for (int i = 0; i < 4; i++) {
            assertThat(r.x()[i]).isCloseTo(center[i], within(1e-8));
        }
    }
}
