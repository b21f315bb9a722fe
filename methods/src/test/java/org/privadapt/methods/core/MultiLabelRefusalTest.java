package org.privadapt.methods.core;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.privadapt.data.DataException;
import org.privadapt.data.Dataset;
import org.privadapt.data.MultiLabels;
import org.privadapt.data.preprocess.Preprocessing;
import org.privadapt.math.DenseMatrix;
import org.privadapt.methods.bassily.SupervisedProtocol;

/** No method supports multi-label targets yet: each path refuses them with a one-line message saying so. */
class MultiLabelRefusalTest {
    static Dataset multi(String name) {
        double[] x = new double[8];
        for (int i = 0; i < 8; i++) {
            x[i] = i % 3;
        }
        return new Dataset(name, new DenseMatrix(4, 2, x),
                new MultiLabels(new int[][] {{1, 0}, {0, 1}, {1, 1}, {0, 0}}, List.of("a", "b")), null, null);
    }

    @Test
    void taskPreparationRefusesMultiLabelSourceOrEvaluation() {
        Dataset m = multi("m");
        assertThatThrownBy(() -> TaskPreparation.prepare("t", m, m.withoutLabels(), m, Preprocessing.parse("none")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("domain 'm' has multi-label targets (2 labels): the method does not support multi-label targets "
                        + "(none does yet)");
    }

    @Test
    void methodsGivenATaskDirectlyRefuseToo() {
        Dataset m = multi("m");
        AdaptationTask task = new AdaptationTask("t", m, m.withoutLabels(), m);
        for (AdaptationMethod method : Methods.all()) {
            assertThatThrownBy(() -> method.run(task, MethodConfig.defaults(), PrivacyContext.seeded(1, 1e-5, 1)))
                    .as(method.name()).isInstanceOfAny(DataException.class, IllegalArgumentException.class)
                    .hasMessageContaining("does not support multi-label targets");
        }
        assertThatThrownBy(() -> SupervisedProtocol.draw(task, MethodConfig.defaults().withParam("target-train", "1")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not support multi-label targets");
    }
}
