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

/**
 * Multi-label targets: tasks are prepared when both sides carry the same labels; only paper 004's pipeline runs them,
 * and every other method refuses with a one-line message.
 */
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
    void taskPreparationNeedsTheSameLabelsOnBothSides() throws Exception {
        Dataset m = multi("m");
        AdaptationTask t = TaskPreparation.prepare("t", m, m.withoutLabels(), m, Preprocessing.parse("none"));
        org.assertj.core.api.Assertions.assertThat(AdaptationMethod.isMultiLabel(t)).isTrue();
        Dataset other = new Dataset("o", m.features(), new MultiLabels(new int[][] {{1, 0}, {0, 1}, {1, 1}, {0, 0}},
                List.of("a", "c")), null, null);
        assertThatThrownBy(() -> TaskPreparation.prepare("t", m, m.withoutLabels(), other, Preprocessing.parse("none")))
                .isInstanceOf(DataException.class).hasMessageContaining("do not carry the same labels");
        Dataset single = new Dataset("s", m.features(), new org.privadapt.data.ClassLabels(new int[] {0, 1, 0, 1},
                List.of("x", "y")), null, null);
        assertThatThrownBy(() -> TaskPreparation.prepare("t", single, single.withoutLabels(), m, Preprocessing.parse("none")))
                .isInstanceOf(DataException.class).hasMessageContaining("but the source does not");
    }

    @Test
    void methodsGivenATaskDirectlyRefuseToo() {
        Dataset m = multi("m");
        AdaptationTask task = new AdaptationTask("t", m, m.withoutLabels(), m);
        for (AdaptationMethod method : Methods.all()) {
            if (method.supportsMultiLabel(task, MethodConfig.defaults())) {
                continue;
            }
            assertThatThrownBy(() -> method.run(task, MethodConfig.defaults(), PrivacyContext.seeded(1, 1e-5, 1)))
                    .as(method.name()).isInstanceOfAny(DataException.class, IllegalArgumentException.class)
                    .hasMessageContaining("does not support multi-label targets");
        }
        assertThatThrownBy(() -> SupervisedProtocol.draw(task, MethodConfig.defaults().withParam("target-train", "1")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not support multi-label targets");
    }
}
