package org.privadapt.math.ot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.privadapt.math.LinAlg;

class SinkhornBenchmarkTest {

    @Test
    void smallRunReportsAConvergedTiming() {
        SinkhornBenchmark.Result r = SinkhornBenchmark.run(60, 0.05, 3, 1L);
        assertThat(r.n()).isEqualTo(60);
        assertThat(r.reg()).isEqualTo(0.05);
        assertThat(r.converged()).isTrue();
        assertThat(r.iterations()).isPositive();
        assertThat(r.millisToConvergence()).isPositive();
        assertThat(r.millisPerIteration()).isPositive().isLessThanOrEqualTo(r.millisToConvergence());
        assertThat(r.backend()).isEqualTo(LinAlg.backend().name());
        assertThat(SinkhornBenchmark.problem(60, 1L).maxAbs()).isEqualTo(1.0);
        assertThatThrownBy(() -> SinkhornBenchmark.run(0, 0.05, 1, 1L)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SinkhornBenchmark.run(10, 0.05, 0, 1L)).isInstanceOf(IllegalArgumentException.class);
    }
}
