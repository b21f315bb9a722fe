package org.privadapt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.cli.report.Json;

/**
 * Issue 29 through the CLI: every choice is reported in text and JSON (the learner and why, private selection's
 * candidates and winner, the refinement auto chose), and a model that predicts one class for almost every target row
 * is warned of, without labels.
 */
class ChoicesCliTest {
    @TempDir
    Path dir;

    Path[] pair() throws Exception {
        PrivateRunTest csv = new PrivateRunTest();
        csv.dir = dir;
        return csv.csvPair();
    }

    CliHarness.Result run(Path src, Path tgt, String... extra) throws Exception {
        List<String> args = new ArrayList<>(List.of("run", "--method", "dp-source-only", "--source-public", "size,classes",
                "--source", src.toString(), "--target", tgt.toString(), "--preprocess", "clip=10", "--epsilon", "3", "--seed", "5"));
        args.addAll(List.of(extra));
        return CliHarness.run(args.toArray(String[]::new));
    }

    @Test
    void theRuleSelectionAndRefinementChoicesAreReported() throws Exception {
        Path[] st = pair();
        CliHarness.Result rule = run(st[0], st[1]);
        assertThat(rule.code()).as(rule.err()).isZero();
        assertThat(rule.out()).contains("choice:        learner: ncm").contains("learner_choice: auto: the rule on public quantities");

        CliHarness.Result sel = run(st[0], st[1], "--param", "learner=select", "--param", "learner-candidates=ncm,lda", "--json");
        assertThat(sel.code()).as(sel.err()).isZero();
        JsonNode d = Json.MAPPER.readTree(sel.out()).get("results").get(0).get("diagnostics").get(0);
        assertThat(d.get("learner").asText()).startsWith("select: ");
        assertThat(d.get("chosen").asText()).isIn("ncm", "lda");
        assertThat(d.get("candidates").toString()).contains("ncm").contains("lda");
        assertThat(d.has("noisy_validation_counts")).isTrue();
        JsonNode spent = Json.MAPPER.readTree(sel.out()).get("results").get(0).get("privacy").get("source");
        assertThat(spent.get("epsilon").asDouble()).isLessThanOrEqualTo(3.0).isGreaterThan(2.9);
        assertThat(spent.get("events").toString()).contains("worst_of");

        CliHarness.Result auto = run(st[0], st[1], "--param", "refine=auto");
        assertThat(auto.code()).as(auto.err()).isZero();
        assertThat(auto.out()).containsPattern("refine: +auto chose ");
    }

    /** Issue 44: dp-source-only's default refinement is the protocol's rule, reported in text and JSON with its reason. */
    @Test
    void theDefaultRefinementIsTheRuleAndSaysWhatItChose() throws Exception {
        Path[] tall = pair();
        CliHarness.Result t = run(tall[0], tall[1]);
        assertThat(t.code()).as(t.err()).isZero();
        assertThat(t.out()).containsPattern("refine: +default chose none \\(the default rule");
        // wide rows: 3 classes, 40 features, 15 target rows per class (n/(K d) = 0.375)
        Path src = wide("wide-source.csv", 20, 1);
        Path tgt = wide("wide-target.csv", 15, 2);
        CliHarness.Result w = run(src, tgt, "--json");
        assertThat(w.code()).as(w.err()).isZero();
        JsonNode refine = Json.MAPPER.readTree(w.out()).get("results").get(0).get("diagnostics").get(0).get("refine");
        assertThat(refine.get("mode").asText()).isEqualTo("default");
        assertThat(refine.get("chosen").asText()).isEqualTo("map-prototypes");
        assertThat(refine.get("reason").asText()).contains("45/(3 x 40)");
        assertThat(refine.get("refinement").get("mode").asText()).isEqualTo("map-prototypes");
        CliHarness.Result named = run(src, tgt, "--param", "refine=none");
        assertThat(named.out()).doesNotContain("refine:");
    }

    /** Three Gaussian classes in 40 dimensions, a few rows each (the target shifted), as a labelled CSV. */
    Path wide(String name, int perClass, long seed) throws Exception {
        java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
        StringBuilder sb = new StringBuilder();
        for (int j = 0; j < 40; j++) {
            sb.append('f').append(j).append(',');
        }
        sb.append("label\n");
        for (int c = 0; c < 3; c++) {
            for (int i = 0; i < perClass; i++) {
                for (int j = 0; j < 40; j++) {
                    double mean = (j % 3 == c ? 2.0 : 0.0) + (seed == 2 ? 0.5 : 0.0);
                    sb.append(String.format(java.util.Locale.ROOT, "%.4f", mean + r.nextGaussian())).append(',');
                }
                sb.append("c").append(c).append('\n');
            }
        }
        Path p = dir.resolve(name);
        Files.writeString(p, sb.toString());
        return p;
    }

    @Test
    void aModelPredictingOneClassIsWarnedOfWithoutLabels() throws Exception {
        Path[] st = pair();
        // the target holds rows of the source's first class only: any sound model predicts that class for all of them
        List<String> lines = Files.readAllLines(st[0]);
        String firstClass = lines.get(1).substring(lines.get(1).lastIndexOf(',') + 1);
        List<String> one = new ArrayList<>(List.of(lines.get(0)));
        for (String l : lines.subList(1, lines.size())) {
            if (l.endsWith("," + firstClass)) {
                one.add(l);
            }
        }
        Path tgt = dir.resolve("one-class.csv");
        Files.write(tgt, one);
        CliHarness.Result r = run(st[0], tgt, "--json");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).contains("one class");
        JsonNode report = Json.MAPPER.readTree(r.out());
        assertThat(report.get("warnings").toString()).contains("one class");
        // a target whose rows span the classes: no such warning
        CliHarness.Result ok = run(st[0], st[1], "--json");
        assertThat(ok.err()).doesNotContain("one class");
    }
}
