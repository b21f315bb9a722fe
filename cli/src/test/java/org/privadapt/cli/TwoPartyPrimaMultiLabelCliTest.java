package org.privadapt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PRIMA's two parties on multi-label targets (issue 47; the generated IU-style reports of TwoPartyGmmUdaCliTest): the
 * source trains one binary model per label on its aligned rows, the target writes each row's present labels and the mean
 * per-label accuracy; a refinement or another engine is refused with one line and nothing written.
 */
class TwoPartyPrimaMultiLabelCliTest {
    @TempDir
    Path dir;

    @Test
    void theSourceTrainsALabelModelPerLabelAndTheTargetPredictsLabels() throws Exception {
        Path root = dir.resolve("data");
        TwoPartyGmmUdaCliTest.writeReports(root, 260, 3);
        String[] common = {"--data-root", root.toString(), "--epsilon", "8", "--delta", "1e-5"};
        CliHarness.Result rel = CliHarness.run(concat(new String[] {"target", "release", "--method", "prima", "--data",
            "iu-chest-xray-uda/impression", "--seed", "1", "--ledger", dir.resolve("t.ledger").toString(), "--out",
            dir.resolve("rel.json").toString()}, common));
        assertThat(rel.code()).as(rel.err()).isZero();
        CliHarness.Result train = CliHarness.run(concat(new String[] {"source", "train", "--release", dir.resolve("rel.json").toString(),
            "--data", "iu-chest-xray-uda/findings", "--seed", "2", "--ledger", dir.resolve("s.ledger").toString(), "--out",
            dir.resolve("model.json").toString(), "--param", "learner=ncm"}, common));
        assertThat(train.code()).as(train.err()).isZero();
        assertThat(train.out()).contains("9 labels, one binary model each");
        CliHarness.Result pred = CliHarness.run("target", "predict", "--model", dir.resolve("model.json").toString(), "--release",
                dir.resolve("rel.json").toString(), "--data-root", root.toString(), "--data", "iu-chest-xray-uda/impression",
                "--out", dir.resolve("pred.csv").toString());
        assertThat(pred.code()).as(pred.err()).isZero();
        assertThat(pred.out()).contains("9 labels").contains("% (mean per label)");
        List<String> lines = Files.readAllLines(dir.resolve("pred.csv"));
        assertThat(lines.get(0)).isEqualTo("row,labels");
        assertThat(lines).hasSizeGreaterThan(100);
        // every field is a ';'-separated set of the suite's labels (or empty)
        List<String> labels = org.privadapt.data.registry.IuChestXrayUda.LABELS;
        for (String line : lines.subList(1, lines.size())) {
            String field = line.substring(line.indexOf(',') + 1);
            for (String l : field.isEmpty() ? new String[0] : field.split(";")) {
                assertThat(labels).as(line).contains(l);
            }
        }
        // a refinement or an out-of-process engine does not apply to label models: refused, nothing written
        for (String[] extra : new String[][] {{"--refine", "map-prototypes"}, {"--engine", "stream"}}) {
            Path out = dir.resolve("refused.csv");
            CliHarness.Result r = CliHarness.run(concat(new String[] {"target", "predict", "--model", dir.resolve("model.json").toString(),
                "--data-root", root.toString(), "--data", "iu-chest-xray-uda/impression", "--out", out.toString()}, extra));
            assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.USAGE);
            assertThat(r.err()).contains("multi-label model").contains(extra[0]);
            assertThat(r.err().strip().lines().count()).isEqualTo(1);
            assertThat(out).doesNotExist();
        }
    }

    static String[] concat(String[] a, String[] b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
