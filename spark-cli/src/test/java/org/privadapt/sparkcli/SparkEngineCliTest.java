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
 * {@code target release --engine spark} against the in-process command on the same rows and seed: the artifact (numbers
 * to 1e-9 relative, everything else equal but the time of writing and the checksum over it) and the ledger's entries;
 * bad input refused with one line naming the data and the column, exit code 3, nothing charged or written.
 */
class SparkEngineCliTest extends SparkEngineCliFixture {
    @Test
    void theSparkReleaseEqualsTheInProcessOneAndChargesTheSameLedger() throws Exception {
        record Case(String name, String method, List<String> extra) {
        }
        List<Case> cases = List.of(
                new Case("prima-default", "prima", List.of()), // default preprocessing, from the named columns' number
                new Case("prisa-l2", "prisa", List.of("--preprocess", "l2,scale=3")),
                new Case("prima-random", "prima", List.of("--preprocess", "clip=4", "--param", "partitioning=random",
                        "--param", "block-size=2", "--relation", "replace")));
        double worst = 0;
        for (Case c : cases) {
            Path inOut = dir.resolve(c.name + "-in.json");
            Path inLedger = dir.resolve(c.name + "-in.ledger");
            SparkCliSupport.Result in = SparkCliSupport.run(release(c.method, csv.toString(), inOut, inLedger, c.extra, false));
            assertThat(in.code()).as(c.name + " in process: " + in.err()).isZero();
            // issue 45 item 1: the default case also from one features column (a Spark ML dense vector as stored)
            List<String> sources = c.name.equals("prima-default") ? List.of("parquet:" + parquet, "csv:" + csv, "vector:" + vectorParquet())
                    : List.of("parquet:" + parquet, "csv:" + csv);
            for (String data : sources) {
                String tag = c.name + "-" + data.substring(0, data.indexOf(':'));
                Path out = dir.resolve(tag + ".json");
                Path ledger = dir.resolve(tag + ".ledger");
                List<String> args = release(c.method, data.replace("vector:", "parquet:"), out, ledger, c.extra, true);
                if (data.startsWith("vector:")) {
                    int at = args.indexOf("--feature-columns");
                    args.set(at, "--features-column");
                    args.set(at + 1, "vec");
                }
                SparkCliSupport.Result sp = SparkCliSupport.run(args);
                assertThat(sp.code()).as(tag + ": " + sp.err()).isZero();
                assertThat(sp.out()).isEqualTo(in.out().replace(inOut.toString(), out.toString()));
                worst = Math.max(worst, SparkCliSupport.compare(inOut, out));
                worst = Math.max(worst, SparkCliSupport.compare(inLedger, ledger));
            }
        }
        System.out.printf("privadapt-spark-cli: target release, Spark vs in process: largest relative difference %.2g%n", worst);
    }

    /** The target's rows as one column {@code vec} of Spark ML dense vectors as stored (struct<type, size, indices, values>). */
    static Path vectorParquet() {
        return vectorParquet(parquet);
    }

    @Test
    void theSourceTrainingOnSparkEqualsTheInProcessOneAndChargesTheSameLedger() throws Exception {
        Path[] src = sourceFiles();
        // csvOnly: a gradient learner samples rows by position, so only a table read in the file's order gives the
        // in-process model (Parquet written in another order gives another model of the same distribution)
        record Case(String name, String method, List<String> release, List<String> train, boolean csvOnly) {
        }
        List<Case> cases = List.of(
                new Case("prima-ncm", "prima", List.of(), List.of("--param", "learner=ncm"), false),
                new Case("prisa-lda-vote", "prisa", List.of("--preprocess", "l2,scale=3", "--param", "ensemble=vote"),
                        List.of("--param", "learner=lda"), false),
                new Case("prima-random-replace", "prima", List.of("--preprocess", "clip=4", "--param", "partitioning=random",
                        "--param", "block-size=2", "--relation", "replace"), List.of("--param", "learner=ncm", "--relation", "replace"),
                        false),
                new Case("prima-dp-sgd", "prima", List.of(), List.of("--param", "learner=dp-sgd", "--param", "epochs=2",
                        "--public", "size"), true),
                // adassp: the mapped rows projected (to 2 features) and bounded on the executors, the moments summed there
                new Case("prima-adassp", "prima", List.of(), List.of("--param", "learner=adassp", "--param", "adassp-dim=2"), false));
        double worst = 0;
        for (Case c : cases) {
            Path rel = dir.resolve("train-" + c.name + "-release.json");
            SparkCliSupport.Result r = SparkCliSupport.run(release(c.method, csv.toString(), rel, dir.resolve("train-" + c.name
                    + "-target.ledger"), c.release, false));
            assertThat(r.code()).as(c.name + " release: " + r.err()).isZero();
            Path inOut = dir.resolve("train-" + c.name + "-in.json");
            Path inLedger = dir.resolve("train-" + c.name + "-in.ledger");
            SparkCliSupport.Result in = SparkCliSupport.run(train(src[0].toString(), rel, inOut, inLedger, c.train, false));
            assertThat(in.code()).as(c.name + " in process: " + in.err()).isZero();
            assertThat(in.out()).contains("330 source rows, 3 classes");
            // issue 45 item 1: prima-ncm also from one features column (Spark ML dense vectors as stored)
            List<String> inputs = c.csvOnly ? List.of("csv:" + src[0]) : c.name.equals("prima-ncm")
                    ? List.of("parquet:" + src[1], "csv:" + src[0], "vector:" + vectorParquet(src[1]))
                    : List.of("parquet:" + src[1], "csv:" + src[0]);
            for (String data : inputs) {
                String tag = "train-" + c.name + "-" + data.substring(0, data.indexOf(':'));
                Path out = dir.resolve(tag + ".json");
                Path ledger = dir.resolve(tag + ".ledger");
                List<String> args = train(data.replace("vector:", "parquet:"), rel, out, ledger, c.train, true);
                if (data.startsWith("vector:")) {
                    int at = args.indexOf("--feature-columns");
                    args.set(at, "--features-column");
                    args.set(at + 1, "vec");
                }
                SparkCliSupport.Result sp = SparkCliSupport.run(args);
                assertThat(sp.code()).as(tag + ": " + sp.err()).isZero();
                assertThat(sp.out()).isEqualTo(in.out().replace(inOut.toString(), out.toString()));
                worst = Math.max(worst, SparkCliSupport.compare(inOut, out));
                worst = Math.max(worst, SparkCliSupport.compare(inLedger, ledger));
            }
            if (c.name.equals("prima-ncm")) {
                // issue 45 item 4: target predict on Spark writes the in-process predictions and accuracy (the target CSV,
                // read in the file's order); --refine needs the rows in one place: refused
                Path inPred = dir.resolve("predict-in.csv");
                SparkCliSupport.Result pi = SparkCliSupport.run(List.of("target", "predict", "--data", csv.toString(), "--label-column", "y",
                        "--model", inOut.toString(), "--out", inPred.toString()));
                assertThat(pi.code()).as("predict in process: " + pi.err()).isZero();
                Path spPred = dir.resolve("predict-spark.csv");
                List<String> pa = new ArrayList<>(List.of("target", "predict", "--data", "csv:" + csv, "--label-column", "y", "--model",
                        inOut.toString(), "--out", spPred.toString(), "--engine", "spark", "--spark-master", "local[2]", "--feature-columns",
                        String.join(",", SparkCliSupport.featureNames(D))));
                SparkCliSupport.Result ps = SparkCliSupport.run(pa);
                assertThat(ps.code()).as("predict on Spark: " + ps.err()).isZero();
                assertThat(Files.readString(spPred)).isEqualTo(Files.readString(inPred));
                assertThat(ps.out()).isEqualTo(pi.out().replace(inPred.toString(), spPred.toString()));
                pa.addAll(List.of("--refine", "centroids"));
                SparkCliSupport.Result refused = SparkCliSupport.run(pa);
                assertThat(refused.code()).as(refused.err()).isEqualTo(ExitCodes.USAGE);
                assertThat(errorLines(refused)).singleElement().asString().contains("--refine centroids");
            }
        }
        System.out.printf("privadapt-spark-cli: source train, Spark vs in process: largest relative difference %.2g%n", worst);
    }

    /**
     * DPOT's release is one noisy row per record in a random order by label: with the same seeded noise it equals the
     * in-process one when Spark reads the rows in the file's order (the CSV itself, a Parquet file written from it in
     * one partition); the order enters only before the secure shuffle.
     */
    @Test
    void theDpotReleaseOnSparkEqualsTheInProcessOneAndChargesTheSameLedger() throws Exception {
        Path[] src = sourceFiles();
        Path ordered = orderedParquet(src[0], D);
        record Case(String name, List<String> extra) {
        }
        List<Case> cases = List.of(new Case("record-whole", List.of()),
                new Case("attribute", List.of("--param", "level=attribute", "--param", "dim=4", "--preprocess", "l2,scale=2")),
                new Case("minibatch", List.of("--param", "mode=minibatch", "--param", "batch=64", "--param", "batches=2")));
        double worst = 0;
        for (Case c : cases) {
            List<String> base = new ArrayList<>(List.of("source", "release", "--method", "dpot", "--classes", "a,b,c", "--label-column", "y",
                    "--relation", "replace", "--epsilon", "8", "--delta", "1e-4", "--seed", "17"));
            base.addAll(c.extra);
            Path inOut = dir.resolve("dpot-" + c.name + "-in.json");
            Path inLedger = dir.resolve("dpot-" + c.name + "-in.ledger");
            List<String> a = new ArrayList<>(base);
            a.addAll(List.of("--data", src[0].toString(), "--ledger", inLedger.toString(), "--out", inOut.toString()));
            SparkCliSupport.Result in = SparkCliSupport.run(a);
            assertThat(in.code()).as(c.name + " in process: " + in.err()).isZero();
            // issue 45 item 1: also from one features column (dense vectors as stored, in the file's order)
            for (String data : List.of("parquet:" + ordered, "csv:" + src[0], "vector:" + vectorParquet(ordered))) {
                String tag = "dpot-" + c.name + "-" + data.substring(0, data.indexOf(':'));
                Path out = dir.resolve(tag + ".json");
                Path ledger = dir.resolve(tag + ".ledger");
                a = new ArrayList<>(base);
                a.addAll(List.of("--data", data.replace("vector:", "parquet:"), "--ledger", ledger.toString(), "--out", out.toString(),
                        "--engine", "spark", "--spark-master", "local[2]"));
                a.addAll(data.startsWith("vector:") ? List.of("--features-column", "vec")
                        : List.of("--feature-columns", String.join(",", SparkCliSupport.featureNames(D))));
                SparkCliSupport.Result sp = SparkCliSupport.run(a);
                assertThat(sp.code()).as(tag + ": " + sp.err()).isZero();
                assertThat(sp.out()).isEqualTo(in.out().replace(inOut.toString(), out.toString()));
                worst = Math.max(worst, SparkCliSupport.compare(inOut, out));
                worst = Math.max(worst, SparkCliSupport.compare(inLedger, ledger));
            }
        }
        System.out.printf("privadapt-spark-cli: source release dpot, Spark vs in process: largest relative difference %.2g%n", worst);
        // a label outside --classes: exit 3 before any charge; no ledger, no output
        Path out = dir.resolve("dpot-refused.json");
        Path ledger = dir.resolve("dpot-refused.ledger");
        SparkCliSupport.Result r = SparkCliSupport.run(List.of("source", "release", "--method", "dpot", "--classes", "a,b", "--label-column", "y",
                "--relation", "replace", "--epsilon", "8", "--delta", "1e-4", "--data", "parquet:" + ordered, "--ledger", ledger.toString(),
                "--out", out.toString(), "--engine", "spark", "--spark-master", "local[2]", "--feature-columns",
                String.join(",", SparkCliSupport.featureNames(D))));
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.DATA);
        assertThat(errorLines(r)).singleElement().asString().contains("outside --classes");
        assertThat(out).doesNotExist();
        assertThat(ledger).doesNotExist();
    }

    @Test
    void theSourceTrainingRefusesBeforeAnyChargeALabelOutsideTheClassesAndALearnerThatIsNotASum() throws Exception {
        Path[] src = sourceFiles();
        Path rel = dir.resolve("refuse-release.json");
        SparkCliSupport.Result r = SparkCliSupport.run(release("prima", csv.toString(), rel, dir.resolve("refuse-target.ledger"),
                List.of(), false));
        assertThat(r.code()).as(r.err()).isZero();
        Path out = dir.resolve("refuse-out.json");
        Path ledger = dir.resolve("refuse.ledger");
        for (boolean onSpark : new boolean[] {false, true}) {
            String data = onSpark ? "parquet:" + src[1] : src[0].toString();
            // a label outside the declared classes: bad data (exit 3), one line naming the data
            List<String> a = train(data, rel, out, ledger, List.of("--param", "learner=ncm"), onSpark);
            a.set(a.indexOf("--classes") + 1, "a,b");
            r = SparkCliSupport.run(a);
            assertThat(r.code()).as(onSpark + ": " + r.err()).isEqualTo(ExitCodes.DATA);
            assertThat(errorLines(r)).singleElement().asString().contains("source").contains("outside --classes");
            // a repeated class: usage
            a.set(a.indexOf("--classes") + 1, "a,b,a");
            r = SparkCliSupport.run(a);
            assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.USAGE);
        }
        // on Spark: a gradient learner without n declared public (add/remove), a learner that is not a sum, no
        // --classes, no --label-column: usage errors (exit 2), one line
        r = SparkCliSupport.run(train("parquet:" + src[1], rel, out, ledger, List.of("--param", "learner=dp-sgd"), true));
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(errorLines(r)).singleElement().asString().contains("reveals n");
        r = SparkCliSupport.run(train("parquet:" + src[1], rel, out, ledger, List.of("--param", "learner=objective-perturbation"), true));
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(errorLines(r)).singleElement().asString().contains("ncm").contains("lda");
        List<String> a = train("parquet:" + src[1], rel, out, ledger, List.of(), true);
        a.subList(a.indexOf("--classes"), a.indexOf("--classes") + 2).clear();
        r = SparkCliSupport.run(a);
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(errorLines(r)).singleElement().asString().contains("--classes");
        a = train("parquet:" + src[1], rel, out, ledger, List.of(), true);
        a.subList(a.indexOf("--label-column"), a.indexOf("--label-column") + 2).clear();
        r = SparkCliSupport.run(a);
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(errorLines(r)).singleElement().asString().contains("--label-column");
        // nothing charged, nothing written
        assertThat(out).doesNotExist();
        assertThat(ledger).doesNotExist();
    }

    @Test
    void badInputIsRefusedWithOneLineNamingTheColumnBeforeAnyCharge() throws Exception {
        Path bad = dir.resolve("bad.csv");
        List<String> lines = new ArrayList<>(Files.readAllLines(csv));
        String[] row = lines.get(5).split(",");
        row[2] = "abc";
        lines.set(5, String.join(",", row));
        Files.write(bad, lines);
        Path out = dir.resolve("bad-out.json");
        Path ledger = dir.resolve("bad.ledger");
        // a value that is not a number
        SparkCliSupport.Result r = SparkCliSupport.run(release("prima", "csv:" + bad, out, ledger, List.of(), true));
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.DATA);
        assertThat(errorLines(r)).singleElement().asString().contains(bad.toString()).contains("column 'f2'").contains("'abc'");
        // a column that is not there
        List<String> args = release("prima", "parquet:" + parquet, out, ledger, List.of(), true);
        args.set(args.indexOf("--feature-columns") + 1, "f0,f1,nope");
        r = SparkCliSupport.run(args);
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.DATA);
        assertThat(errorLines(r)).singleElement().asString().contains(parquet.toString()).contains("column 'nope'");
        // data that are not there
        r = SparkCliSupport.run(release("prima", "parquet:" + dir.resolve("absent"), out, ledger, List.of(), true));
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.DATA);
        assertThat(errorLines(r)).singleElement().asString().contains("absent");
        // a missing value
        row = lines.get(9).split(",");
        row[4] = "";
        lines.set(9, String.join(",", row));
        lines.set(5, lines.get(6));
        Files.write(bad, lines);
        r = SparkCliSupport.run(release("prima", "csv:" + bad, out, ledger, List.of(), true));
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.DATA);
        assertThat(errorLines(r)).singleElement().asString().contains("column 'f4'").contains("missing");
        // issue 45 item 4: the files and the types are checked before any row is read (no Spark job), each one line
        Path typed = dir.resolve("typed.parquet");
        spark.read().parquet(parquet.toString()).limit(4).withColumn("ts", functions.current_timestamp())
                .withColumn("b", functions.col("f0").gt(0)).coalesce(1).write().parquet(typed.toString());
        Path twoCsv = Files.createDirectories(dir.resolve("two-csv"));
        Files.copy(csv, twoCsv.resolve("a.csv"));
        Files.copy(csv, twoCsv.resolve("b.csv"));
        for (String[] c : new String[][] {{"parquet:" + csv, "is not Parquet"}, {"csv:" + parquet, "is Parquet, not CSV"},
            {"csv:" + twoCsv, "is a directory of 2 files"}, {"parquet:" + typed, "column 'ts': its type is timestamp, not a number"},
            {"parquet:" + typed, "column 'b': its type is boolean, not a number"}}) {
            args = release("prima", c[0], out, ledger, List.of(), true);
            if (c[1].contains("column '")) {
                args.set(args.indexOf("--feature-columns") + 1, "f0," + c[1].substring(8, c[1].indexOf("':")));
            }
            r = SparkCliSupport.run(args);
            assertThat(r.code()).as(c[0] + ": " + r.err()).isEqualTo(ExitCodes.DATA);
            assertThat(errorLines(r)).as(c[0]).singleElement().asString().contains(c[1]);
        }
        // in process the same directory is named as one
        r = SparkCliSupport.run(release("prima", "csv:" + twoCsv, out, ledger, List.of(), false));
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.DATA);
        assertThat(errorLines(r)).singleElement().asString().contains("is a directory");
        // a master that is not one: a usage error; a standalone master that does not answer: exit 6 at once, not the data
        for (String[] m : new String[][] {{"nonsense", "2"}, {"local[0]", "2"}, {"spark://127.0.0.1:1", "6"}}) {
            args = release("prima", "parquet:" + parquet, out, ledger, List.of(), true);
            args.set(args.indexOf("--spark-master") + 1, m[0]);
            r = SparkCliSupport.run(args);
            assertThat(r.code()).as(m[0] + ": " + r.err()).isEqualTo(Integer.parseInt(m[1]));
            assertThat(errorLines(r)).as(m[0]).singleElement().asString().contains(m[0]);
        }
        // nothing charged, nothing written: the ledger was never created
        assertThat(out).doesNotExist();
        assertThat(ledger).doesNotExist();
        // the ledger before the rows: a damaged ledger is found before the bad value is (exit 5, not 3), a spent one
        // before any row is read (exit 4), and neither is changed
        Files.writeString(ledger, "{ not a ledger");
        r = SparkCliSupport.run(release("prima", "csv:" + bad, out, ledger, List.of(), true));
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.ARTIFACT);
        assertThat(errorLines(r)).singleElement().asString().contains(ledger.toString());
        Files.delete(ledger);
        r = SparkCliSupport.run(release("prima", "csv:" + csv, out, ledger, List.of(), true));
        assertThat(r.code()).as(r.err()).isZero();
        byte[] spent = Files.readAllBytes(ledger);
        r = SparkCliSupport.run(release("prima", "csv:" + bad, dir.resolve("bad-out-2.json"), ledger, List.of(), true));
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.BUDGET);
        assertThat(errorLines(r)).singleElement().asString().contains("over its budget");
        assertThat(Files.readAllBytes(ledger)).isEqualTo(spent);
        assertThat(dir.resolve("bad-out-2.json")).doesNotExist();
    }

    @Test
    void theCommandsWithoutASparkPathRefuseTheEngineNamingTheOneThatTakesIt() {
        String never = dir.resolve("never.json").toString();
        String data = "parquet:" + parquet;
        for (List<String> cmd : List.of(
                List.of("run", "--method", "dpda", "--source", data, "--target", data, "--epsilon", "1", "--out", never),
                List.of("run", "--method", "dpot-da", "--source", data, "--target", data, "--epsilon", "2", "--out", never))) {
            List<String> a = new ArrayList<>(cmd);
            a.addAll(List.of("--engine", "spark", "--feature-columns", "f0"));
            SparkCliSupport.Result r = SparkCliSupport.run(a);
            assertThat(r.code()).as(cmd + ": " + r.err()).isEqualTo(ExitCodes.USAGE);
            assertThat(errorLines(r)).singleElement().asString().contains("--engine spark is taken by 'target release'").contains("'source train'");
        }
        assertThat(dir.resolve("never.json")).doesNotExist();
    }

    @Test
    void theDpUdaGmmSourceReleaseOnSparkEqualsTheInProcessOne() throws Exception {
        Path[] src = sourceFiles();
        List<String> base = List.of("source", "release", "--method", "dp-uda-gmm", "--label-column", "y", "--public", "size,classes,schema",
                "--epsilon", "8", "--delta", "1e-4", "--seed", "7", "--param", "hidden=8", "--param", "epochs=3", "--param", "batch=32",
                "--param", "components=2", "--param", "em-iterations=2");
        Path inOut = dir.resolve("gmm-in.json");
        Path inLedger = dir.resolve("gmm-in.ledger");
        List<String> a = new ArrayList<>(base);
        a.addAll(List.of("--data", src[0].toString(), "--ledger", inLedger.toString(), "--out", inOut.toString()));
        SparkCliSupport.Result in = SparkCliSupport.run(a);
        assertThat(in.code()).as("in process: " + in.err()).isZero();
        double worst = 0;
        List<String> sp = null;
        Path out = null;
        Path ledger = null;
        // the last input is the one the refusals below reuse: named columns
        for (String data : List.of("vector:" + vectorParquet(orderedParquet(src[0], D)), "csv:" + src[0], "parquet:" + orderedParquet(src[0], D))) {
            String tag = "gmm-spark-" + data.substring(0, data.indexOf(':'));
            out = dir.resolve(tag + ".json");
            ledger = dir.resolve(tag + ".ledger");
            sp = new ArrayList<>(base);
            sp.addAll(List.of("--data", data.replace("vector:", "parquet:"), "--classes", "a,b,c", "--ledger", ledger.toString(), "--out",
                    out.toString(), "--engine", "spark", "--spark-master", "local[2]"));
            sp.addAll(data.startsWith("vector:") ? List.of("--features-column", "vec")
                    : List.of("--feature-columns", String.join(",", SparkCliSupport.featureNames(D))));
            SparkCliSupport.Result b = SparkCliSupport.run(sp);
            assertThat(b.code()).as(tag + ": " + b.err()).isZero();
            assertThat(b.out()).isEqualTo(in.out().replace(inOut.toString(), out.toString()));
            worst = Math.max(worst, Math.max(SparkCliSupport.compare(inOut, out), SparkCliSupport.compare(inLedger, ledger)));
        }
        System.out.printf("privadapt-spark-cli: source release dp-uda-gmm, Spark vs in process: largest relative difference %.2g%n", worst);
        // n not declared public: refused before anything is read or charged
        List<String> noSize = new ArrayList<>(sp);
        noSize.set(noSize.indexOf("size,classes,schema"), "classes,schema");
        noSize.set(noSize.indexOf(ledger.toString()), dir.resolve("gmm-never.ledger").toString());
        noSize.set(noSize.indexOf(out.toString()), dir.resolve("gmm-never.json").toString());
        SparkCliSupport.Result r = SparkCliSupport.run(noSize);
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(errorLines(r)).singleElement().asString().contains("--public size");
        assertThat(dir.resolve("gmm-never.json")).doesNotExist();
        assertThat(dir.resolve("gmm-never.ledger")).doesNotExist();
    }
}
