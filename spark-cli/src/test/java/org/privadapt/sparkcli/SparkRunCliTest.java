package org.privadapt.sparkcli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privadapt.cli.ExitCodes;

/**
 * {@code run --engine spark} against the in-process run on the same rows and seed: PRIMA, PRISA, dp-source-only with
 * every learner, the non-private baselines and paper 003's regression methods give the same accuracy (or MSE) and
 * spend; refusals come before anything is charged.
 */
class SparkRunCliTest extends SparkEngineCliFixture {
    /**
     * {@code run --engine spark}: PRIMA and PRISA (learner ncm, lda) and dp-source-only (ncm, lda, adassp) with both
     * parties' rows on Spark give the in-process run's accuracy and spend on the same seed; a source ledger too small for its plan leaves both ledgers unwritten.
     */
    @Test
    void theRunOnSparkGivesTheInProcessRunsAccuracyAndSpend() throws Exception {
        Path[] src = sourceFiles();
        com.fasterxml.jackson.databind.ObjectMapper om = new com.fasterxml.jackson.databind.ObjectMapper();
        for (List<String> extra : List.of(List.of("--method", "prima", "--param", "learner=ncm"),
                List.of("--method", "prisa", "--param", "learner=lda", "--preprocess", "l2,scale=3"),
                List.of("--method", "dp-source-only"), // learner=auto: the rule picks ncm at epsilon 2
                List.of("--method", "dp-source-only", "--param", "learner=lda", "--relation", "replace"),
                // adassp: each row projected (to 3 of the 6 features) and bounded on the executors, the moments summed there
                List.of("--method", "dp-source-only", "--param", "learner=adassp", "--param", "adassp-dim=3"),
                // the target's refinement from sums over its rows on the executors: ncm's prototypes, lda's linear model
                List.of("--method", "dp-source-only", "--param", "refine=map-prototypes"),
                List.of("--method", "dp-source-only", "--param", "learner=lda", "--relation", "replace", "--param", "refine=map-prototypes"))) {
            List<String> common = new ArrayList<>(List.of("run", "--epsilon", "2", "--seed", "11", "--label-column", "y", "--json"));
            common.addAll(extra);
            List<String> in = new ArrayList<>(common);
            in.addAll(List.of("--source", src[0].toString(), "--target", csv.toString(), "--source-public", "classes"));
            SparkCliSupport.Result a = SparkCliSupport.run(in);
            assertThat(a.code()).as(extra + " in process: " + a.err()).isZero();
            com.fasterxml.jackson.databind.JsonNode r = om.readTree(a.out()).path("results").get(0);
            // Parquet for every configuration; the CSV reader once (the gradient learners' test reads CSV throughout)
            List<String[]> inputs = new ArrayList<>();
            inputs.add(new String[] {"parquet:" + src[1], "parquet:" + parquet});
            if (extra.contains("prima")) {
                inputs.add(new String[] {"csv:" + src[0], "csv:" + csv});
            }
            for (String[] data : inputs) {
                List<String> sp = new ArrayList<>(common);
                sp.addAll(List.of("--source", data[0], "--target", data[1], "--classes", "a,b,c", "--engine", "spark", "--spark-master",
                        "local[2]", "--feature-columns", String.join(",", SparkCliSupport.featureNames(D))));
                SparkCliSupport.Result b = SparkCliSupport.run(sp);
                assertThat(b.code()).as(extra + " " + data[0] + ": " + b.err()).isZero();
                com.fasterxml.jackson.databind.JsonNode j = sameSchema(om.readTree(a.out()), om.readTree(b.out()));
                assertThat(j.path("accuracy_mean").asDouble()).as(extra + " accuracy").isEqualTo(r.path("accuracy_mean").asDouble());
                assertThat(j.path("accuracy_mean").asDouble()).as(extra + " accuracy above chance").isGreaterThan(0.5);
                if (extra.contains("refine=map-prototypes")) {
                    com.fasterxml.jackson.databind.JsonNode ra = r.path("diagnostics").path(0).path("refine");
                    com.fasterxml.jackson.databind.JsonNode rb = j.path("diagnostics").path(0).path("refine");
                    assertThat(rb.path("mode").asText()).as(extra + " refined on Spark: " + j).isEqualTo("map-prototypes");
                    for (String key : List.of("relevance", "target_evidence", "alpha", "iterations", "probabilities")) {
                        assertThat(rb.path(key).toString()).as(extra + " " + key).isEqualTo(ra.path(key).toString());
                    }
                }
            }
        }
        // a refinement that needs the target's rows in one place: refused in one line before anything is charged
        Path lameLedger = dir.resolve("lame-source.ledger");
        SparkCliSupport.Result lame = SparkCliSupport.run(List.of("run", "--method", "dp-source-only", "--param", "refine=lame",
                "--epsilon", "2", "--label-column", "y", "--source", "parquet:" + src[1], "--target", "parquet:" + parquet,
                "--classes", "a,b,c", "--engine", "spark", "--spark-master", "local[2]", "--feature-columns",
                String.join(",", SparkCliSupport.featureNames(D)), "--source-ledger", lameLedger.toString()));
        assertThat(lame.code()).as(lame.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(errorLines(lame)).singleElement().asString().contains("refine=lame").contains("in process");
        assertThat(lameLedger).doesNotExist();
        // the source's ledger cannot pay its plan: refused (exit 4), and the target's ledger is not written either
        Path sl = dir.resolve("run-source.ledger");
        Path tl = dir.resolve("run-target.ledger");
        List<String> a = new ArrayList<>(List.of("run", "--method", "prima", "--param", "learner=ncm", "--epsilon", "2", "--seed", "11",
                "--label-column", "y", "--source", "parquet:" + src[1], "--target", "parquet:" + parquet, "--classes", "a,b,c",
                "--engine", "spark", "--spark-master", "local[2]", "--feature-columns", String.join(",", SparkCliSupport.featureNames(D)),
                "--source-ledger", sl.toString(), "--target-ledger", tl.toString(), "--source-budget", "1"));
        SparkCliSupport.Result r = SparkCliSupport.run(a);
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.BUDGET);
        assertThat(sl).doesNotExist();
        assertThat(tl).doesNotExist();
    }

    /**
     * {@code run --engine spark} from one features column per party (Spark ML dense vectors as stored, issue 45 item 1):
     * the run of the same rows in named columns, for dp-source-only (refined from sums over the target's rows), PRIMA
     * and a baseline.
     */
    @Test
    void theRunFromAFeaturesColumnEqualsTheRunFromNamedColumns() throws Exception {
        Path[] src = sourceFiles();
        com.fasterxml.jackson.databind.ObjectMapper om = new com.fasterxml.jackson.databind.ObjectMapper();
        Path srcVec = vectorParquet(src[1]);
        Path tgtVec = vectorParquet(parquet);
        for (List<String> extra : List.of(List.of("--method", "dp-source-only", "--param", "refine=map-prototypes", "--epsilon", "2", "--seed", "11"),
                List.of("--method", "prima", "--param", "learner=ncm", "--epsilon", "2", "--seed", "11"),
                List.of("--method", "source-only", "--preprocess", "l2"))) {
            List<String> common = new ArrayList<>(List.of("run", "--label-column", "y", "--json", "--classes", "a,b,c", "--engine", "spark",
                    "--spark-master", "local[2]"));
            common.addAll(extra);
            List<String> named = new ArrayList<>(common);
            named.addAll(List.of("--source", "parquet:" + src[1], "--target", "parquet:" + parquet, "--feature-columns",
                    String.join(",", SparkCliSupport.featureNames(D))));
            SparkCliSupport.Result a = SparkCliSupport.run(named);
            assertThat(a.code()).as(extra + " named columns: " + a.err()).isZero();
            List<String> vec = new ArrayList<>(common);
            vec.addAll(List.of("--source", "parquet:" + srcVec, "--target", "parquet:" + tgtVec, "--features-column", "vec"));
            SparkCliSupport.Result b = SparkCliSupport.run(vec);
            assertThat(b.code()).as(extra + " features column: " + b.err()).isZero();
            com.fasterxml.jackson.databind.JsonNode ra = om.readTree(a.out()).path("results").get(0);
            com.fasterxml.jackson.databind.JsonNode rb = om.readTree(b.out()).path("results").get(0);
            assertThat(rb.path("accuracy_mean").asDouble()).as(extra + " accuracy").isEqualTo(ra.path("accuracy_mean").asDouble());
            assertThat(rb.path("diagnostics").toString()).as(extra + " diagnostics").isEqualTo(ra.path("diagnostics").toString());
            assertThat(rb.path("privacy").toString()).as(extra + " privacy").isEqualTo(ra.path("privacy").toString());
            assertThat(om.readTree(b.out()).path("datasets").get(0).path("cols").asInt()).isEqualTo(D);
        }
        // a vector of another length in either party's column: one line, exit 3, before anything is charged
        Path bad = dir.resolve("bad-vector.parquet");
        org.apache.spark.sql.Dataset<org.apache.spark.sql.Row> v = spark.read().parquet(tgtVec.toString());
        org.apache.spark.sql.Column shortVec = org.apache.spark.sql.functions.struct(v.col("vec.type"), v.col("vec.size"), v.col("vec.indices"),
                org.apache.spark.sql.functions.slice(v.col("vec.values"), 1, D - 1).as("values"));
        v.limit(40).unionByName(v.limit(1).select(shortVec.as("vec"), v.col("y"))).write().parquet(bad.toString());
        for (String[] parties : new String[][] {{bad.toString(), tgtVec.toString()}, {srcVec.toString(), bad.toString()}}) {
            Path ledger = dir.resolve("bad-vector-" + (parties[0].equals(bad.toString()) ? "source" : "target") + ".ledger");
            SparkCliSupport.Result r = SparkCliSupport.run(List.of("run", "--method", "dp-source-only", "--epsilon", "2", "--label-column", "y",
                    "--classes", "a,b,c", "--engine", "spark", "--spark-master", "local[2]", "--source", "parquet:" + parties[0],
                    "--target", "parquet:" + parties[1], "--features-column", "vec", "--source-ledger", ledger.toString()));
            assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.DATA);
            assertThat(errorLines(r)).singleElement().asString().contains("bad-vector.parquet").contains("missing or non-finite");
            assertThat(ledger).doesNotExist();
        }
    }

    /**
     * {@code run --engine spark --method dp-source-only} with the gradient learners (dp-sgd with Poisson sampling,
     * dp-gd): the in-process run's accuracy and spend on the same seed when Spark reads the rows in the file's order
     * (a CSV); n must be declared public under add/remove, as in process (refused before anything is charged).
     */
    @Test
    void theRunOnSparkTrainsTheGradientLearnersAsInProcess() throws Exception {
        Path[] src = sourceFiles();
        com.fasterxml.jackson.databind.ObjectMapper om = new com.fasterxml.jackson.databind.ObjectMapper();
        String features = String.join(",", SparkCliSupport.featureNames(D));
        for (String learner : List.of("dp-sgd", "dp-gd")) {
            List<String> common = new ArrayList<>(List.of("run", "--method", "dp-source-only", "--param", "learner=" + learner,
                    "--param", "epochs=3", "--epsilon", "2", "--seed", "11", "--label-column", "y", "--json", "--source-public", "size"));
            List<String> in = new ArrayList<>(common);
            in.addAll(List.of("--source", src[0].toString(), "--target", csv.toString(), "--source-public", "classes"));
            SparkCliSupport.Result a = SparkCliSupport.run(in);
            assertThat(a.code()).as(learner + " in process: " + a.err()).isZero();
            com.fasterxml.jackson.databind.JsonNode r = om.readTree(a.out()).path("results").get(0);
            List<String> sp = new ArrayList<>(common);
            sp.addAll(List.of("--source", "csv:" + src[0], "--target", "csv:" + csv, "--classes", "a,b,c", "--engine", "spark",
                    "--spark-master", "local[2]", "--feature-columns", features));
            SparkCliSupport.Result b = SparkCliSupport.run(sp);
            assertThat(b.code()).as(learner + " on Spark: " + b.err()).isZero();
            assertThat(om.readTree(b.out()).path("config").path("learner").asText()).isEqualTo(learner);
            com.fasterxml.jackson.databind.JsonNode j = sameSchema(om.readTree(a.out()), om.readTree(b.out()));
            assertThat(j.path("accuracy_mean").asDouble()).as(learner + " accuracy").isEqualTo(r.path("accuracy_mean").asDouble());
        }
        // n not declared public under add/remove: refused before any charge, nothing written
        Path ledger = dir.resolve("gradient-source.ledger");
        SparkCliSupport.Result refused = SparkCliSupport.run(List.of("run", "--method", "dp-source-only", "--param", "learner=dp-sgd",
                "--epsilon", "2", "--label-column", "y", "--source", "csv:" + src[0], "--target", "csv:" + csv, "--classes", "a,b,c",
                "--engine", "spark", "--spark-master", "local[2]", "--feature-columns", features, "--source-ledger", ledger.toString()));
        assertThat(refused.code()).as(refused.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(errorLines(refused)).singleElement().asString().contains("--source-public size");
        assertThat(ledger).doesNotExist();
    }

    /**
     * {@code run --engine spark} for the non-private baselines (source-only, CORAL, SA, logistic regression): the
     * in-process run's accuracy on the same rows; the options that run only in process are refused with one line.
     */
    @Test
    void theBaselinesOnSparkGiveTheInProcessAccuracy() throws Exception {
        Path[] src = sourceFiles();
        com.fasterxml.jackson.databind.ObjectMapper om = new com.fasterxml.jackson.databind.ObjectMapper();
        String features = String.join(",", SparkCliSupport.featureNames(D));
        for (List<String> extra : List.of(List.of("--method", "source-only"), List.of("--method", "coral", "--param", "lambda=0.5"),
                List.of("--method", "sa", "--param", "k=3"))) {
            List<String> common = new ArrayList<>(List.of("run", "--label-column", "y", "--json", "--preprocess", "l2"));
            common.addAll(extra);
            List<String> in = new ArrayList<>(common);
            in.addAll(List.of("--source", src[0].toString(), "--target", csv.toString()));
            SparkCliSupport.Result a = SparkCliSupport.run(in);
            assertThat(a.code()).as(extra + " in process: " + a.err()).isZero();
            double expected = om.readTree(a.out()).path("results").get(0).path("accuracy_mean").asDouble();
            List<String> sp = new ArrayList<>(common);
            sp.addAll(List.of("--source", "parquet:" + src[1], "--target", "parquet:" + parquet, "--classes", "a,b,c", "--engine",
                    "spark", "--spark-master", "local[2]", "--feature-columns", features));
            SparkCliSupport.Result b = SparkCliSupport.run(sp);
            assertThat(b.code()).as(extra + " on Spark: " + b.err()).isZero();
            com.fasterxml.jackson.databind.JsonNode j = sameSchema(om.readTree(a.out()), om.readTree(b.out()));
            assertThat(j.path("accuracy_mean").asDouble()).as(extra + " accuracy").isEqualTo(expected);
            assertThat(j.path("accuracy_mean").asDouble()).as(extra + " accuracy above chance").isGreaterThan(0.5);
            assertThat(j.path("privacy").path("source").path("private").asBoolean()).isFalse();
        }
        for (List<String> bad : List.of(List.of("--method", "coral", "--classifier", "dnn"), List.of("--method", "coral", "--param", "epochs=3"),
                List.of("--method", "sa", "--preprocess", "zscore"))) {
            List<String> a = new ArrayList<>(List.of("run", "--label-column", "y", "--source", "parquet:" + src[1], "--target",
                    "parquet:" + parquet, "--classes", "a,b,c", "--engine", "spark", "--spark-master", "local[2]", "--feature-columns",
                    features));
            a.addAll(bad);
            SparkCliSupport.Result r = SparkCliSupport.run(a);
            assertThat(r.code()).as(bad + ": " + r.err()).isEqualTo(ExitCodes.USAGE);
            assertThat(errorLines(r)).as(bad.toString()).singleElement().asString().contains("--engine spark");
        }
    }

    @Test
    void paper003sRegressionMethodsOnSparkGiveTheInProcessRun() throws Exception {
        int d = 5;
        Path src = regressionCsv(dir.resolve("reg-source.csv"), 150, d, 41);
        Path tgt = regressionCsv(dir.resolve("reg-target.csv"), 420, d, 42);
        com.fasterxml.jackson.databind.ObjectMapper om = new com.fasterxml.jackson.databind.ObjectMapper();
        String features = String.join(",", SparkCliSupport.featureNames(d));
        for (String method : List.of("dp-target-only", "pcnvxadap-stats")) {
            for (List<String> params : List.of(List.<String>of(), List.of("--param", "public-subspace=3", "--param", "target-train=150"))) {
                List<String> common = new ArrayList<>(List.of("run", "--method", method, "--label-column", "y", "--relation", "replace",
                        "--epsilon", "2", "--seed", "3", "--json"));
                common.addAll(params);
                List<String> in = new ArrayList<>(common);
                in.addAll(List.of("--source", src.toString(), "--target", tgt.toString()));
                SparkCliSupport.Result a = SparkCliSupport.run(in);
                assertThat(a.code()).as(method + params + " in process: " + a.err()).isZero();
                com.fasterxml.jackson.databind.JsonNode ja = om.readTree(a.out()).path("results").get(0);
                double expected = ja.path("mse_mean").asDouble();
                // both readers in the first configuration; the second (public reduction, smaller train split) reads through the same
                // code, so Parquet alone
                for (String kind : params.isEmpty() ? List.of("csv:", "parquet:") : List.of("parquet:")) {
                    boolean pq = kind.equals("parquet:");
                    List<String> sp = new ArrayList<>(common);
                    sp.addAll(List.of("--source", kind + (pq ? orderedParquet(src, d) : src), "--target", kind + (pq ? orderedParquet(tgt, d) : tgt),
                            "--engine", "spark", "--spark-master", "local[2]", "--feature-columns", features));
                    SparkCliSupport.Result b = SparkCliSupport.run(sp);
                    String what = method + params + " on Spark (" + kind + ")";
                    assertThat(b.code()).as(what + ": " + b.err()).isZero();
                    com.fasterxml.jackson.databind.JsonNode jb = sameSchema(om.readTree(a.out()), om.readTree(b.out()));
                    assertThat(jb.path("mse_mean").asDouble()).as(what + " mse").isCloseTo(expected,
                            org.assertj.core.data.Offset.offset(1e-9 * Math.abs(expected)));
                    assertThat(jb.path("privacy").path("target").path("epsilon").asDouble()).as(what + " spent")
                            .isEqualTo(ja.path("privacy").path("target").path("epsilon").asDouble());
                    assertThat(jb.path("diagnostics").get(0).path("target_train_rows").asInt())
                            .isEqualTo(ja.path("diagnostics").get(0).path("target_train_rows").asInt());
                }
            }
        }
        // paper 003 is replace-one: refused before anything is read or charged, as in process
        SparkCliSupport.Result r = SparkCliSupport.run(List.of("run", "--method", "dp-target-only", "--label-column", "y", "--source",
                "csv:" + src, "--target", "csv:" + tgt, "--engine", "spark", "--spark-master", "local[2]", "--feature-columns", features,
                "--epsilon", "2", "--seed", "3"));
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(errorLines(r)).singleElement().asString().contains("replace");
    }

    /**
     * {@code run --json} has one schema for every engine (issue 45 item 4): the same top-level fields, the same fields
     * in the result, and per party the same privacy block (the same events and requested epsilon, the spend to 1e-9);
     * returns the Spark run's result.
     */
    static com.fasterxml.jackson.databind.JsonNode sameSchema(com.fasterxml.jackson.databind.JsonNode in,
                                                             com.fasterxml.jackson.databind.JsonNode spark) {
        assertThat(fields(spark)).isEqualTo(fields(in));
        com.fasterxml.jackson.databind.JsonNode a = in.path("results").get(0);
        com.fasterxml.jackson.databind.JsonNode b = spark.path("results").get(0);
        assertThat(fields(b)).isEqualTo(fields(a));
        assertThat(spark.path("environment").path("java").asText()).isNotEmpty();
        for (String party : List.of("source", "target")) {
            com.fasterxml.jackson.databind.JsonNode pa = a.path("privacy").path(party);
            com.fasterxml.jackson.databind.JsonNode pb = b.path("privacy").path(party);
            assertThat(fields(pb)).as(party).isEqualTo(fields(pa));
            assertThat(pb.path("epsilon").asDouble()).as(party).isCloseTo(pa.path("epsilon").asDouble(),
                    org.assertj.core.api.Assertions.within(1e-9));
            assertThat(pb.path("events")).as(party + " events").isEqualTo(pa.path("events"));
            assertThat(pb.path("epsilon_requested")).as(party).isEqualTo(pa.path("epsilon_requested"));
        }
        return b;
    }

    private static List<String> fields(com.fasterxml.jackson.databind.JsonNode n) {
        List<String> f = new ArrayList<>();
        n.fieldNames().forEachRemaining(f::add);
        return f;
    }
}
