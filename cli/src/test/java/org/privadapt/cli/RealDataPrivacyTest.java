package org.privadapt.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;
import org.privadapt.cli.report.Json;
import org.privadapt.data.registry.DataRoot;

/** DP-SGD on a real task of ../shared/data (secure noise), for both models; skipped when the data is absent. */
class RealDataPrivacyTest {
    @Test
    void dpSgdTrainsLogisticRegressionAndAnMlpOnAmazonReviewsAndReportsEpsilon() throws Exception {
        assumeThat(Files.isRegularFile(DataRoot.resolve(null).resolve("amazon-reviews/svmlight-5000/kitchen_test.svmlight")))
                .as("amazon-reviews is absent under %s: real-data test skipped", DataRoot.resolve(null)).isTrue();
        for (String classifier : new String[] {"lr", "dnn"}) {
            CliHarness.Result r = CliHarness.run("run", "--method", "dp-source-only", "--source", "amazon-reviews/books",
                    "--target", "amazon-reviews/kitchen", "--epsilon", "2", "--classifier", classifier, "--preprocess", "l2,scale=70",
                    "--json");
            assertThat(r.code()).as(r.err()).isZero();
            JsonNode res = Json.MAPPER.readTree(r.out()).get("results").get(0);
            JsonNode src = res.get("privacy").get("source");
            assertThat(src.get("private").asBoolean()).isTrue();
            assertThat(src.get("epsilon").asDouble()).isPositive().isLessThanOrEqualTo(2.0);
            assertThat(src.get("delta").asDouble()).isEqualTo(1e-5);
            // binary sentiment: better than chance with the budget spent
            assertThat(res.get("accuracy_mean").asDouble()).as(classifier).isGreaterThan(0.55);
        }
    }
}
