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
 * The rows and commands the Spark engine CLI tests share: a target CSV and the Parquet Spark writes from it, a source
 * CSV and Parquet, the argument lists of a release and of a source training, and the JVM's one SparkSession. Split
 * out so that the tests run as two classes, one per test JVM (SparkEngineCliTest, SparkRunCliTest).
 */
abstract class SparkEngineCliFixture {
    static SparkSession spark;
    static final int D = 6;

    @TempDir
    static Path dir;
    static Path csv;
    static Path parquet;

    @BeforeAll
    static void start() throws Exception {
        spark = SparkCliSupport.spark();
        csv = SparkCliSupport.writeCsv(dir.resolve("target.csv"), 360, D, 31);
        // Parquet written by Spark from the same CSV, features as doubles, in three files
        Dataset<Row> text = spark.read().option("header", "true").csv(csv.toString());
        List<Column> cols = new ArrayList<>();
        for (String f : SparkCliSupport.featureNames(D)) {
            cols.add(functions.col(f).cast(DataTypes.DoubleType).as(f));
        }
        cols.add(functions.col("y"));
        parquet = dir.resolve("target.parquet");
        text.select(cols.toArray(new Column[0])).repartition(3).write().parquet(parquet.toString());
    }

    static List<String> release(String method, String data, Path out, Path ledger, List<String> extra, boolean onSpark) {
        List<String> a = new ArrayList<>(List.of("target", "release", "--method", method, "--data", data, "--epsilon", "2",
                "--delta", "1e-5", "--seed", "11", "--ledger", ledger.toString(), "--out", out.toString()));
        if (onSpark) {
            a.addAll(List.of("--engine", "spark", "--spark-master", "local[2]", "--feature-columns", String.join(",",
                    SparkCliSupport.featureNames(D))));
        } else {
            a.addAll(List.of("--label-column", "y"));
        }
        a.addAll(extra);
        return a;
    }

    /** Standard error without the notes the command prints on success too (the default preprocessing, seeded noise). */
    static List<String> errorLines(SparkCliSupport.Result r) {
        return r.err().lines().filter(l -> !l.startsWith("privadapt: preprocessing ") && !l.startsWith("privadapt: WARNING: seeded")).toList();
    }

    static List<String> train(String data, Path release, Path out, Path ledger, List<String> extra, boolean onSpark) {
        List<String> a = new ArrayList<>(List.of("source", "train", "--data", data, "--release", release.toString(), "--classes", "a,b,c",
                "--label-column", "y", "--epsilon", "2", "--delta", "1e-5", "--seed", "13", "--ledger", ledger.toString(),
                "--out", out.toString()));
        if (onSpark) {
            a.addAll(List.of("--engine", "spark", "--spark-master", "local[2]", "--feature-columns", String.join(",",
                    SparkCliSupport.featureNames(D))));
        }
        a.addAll(extra);
        return a;
    }

    /** The source's rows (another seed than the target's), as CSV and as Parquet written by Spark from it. */
    static Path[] sourceFiles() throws Exception {
        Path sourceCsv = dir.resolve("source.csv");
        Path sourceParquet = dir.resolve("source.parquet");
        if (!Files.exists(sourceCsv)) {
            SparkCliSupport.writeCsv(sourceCsv, 330, D, 47);
            writeParquet(sourceCsv, sourceParquet, D, false);
        }
        return new Path[] {sourceCsv, sourceParquet};
    }

    /**
     * A Parquet table's rows (the named feature columns and {@code y}) as one column {@code vec} of Spark ML dense vectors
     * as stored (struct<type, size, indices, values>) beside {@code y}, in the same order and files.
     */
    static Path vectorParquet(Path named) {
        Path out = named.resolveSibling(named.getFileName().toString().replace(".parquet", "") + "-vector.parquet");
        if (!Files.exists(out)) {
            List<Column> f = new ArrayList<>();
            for (String n : SparkCliSupport.featureNames(D)) {
                f.add(functions.col(n));
            }
            Column vec = functions.struct(functions.lit((byte) 1).cast("tinyint").as("type"), functions.lit(null).cast("int").as("size"),
                    functions.lit(null).cast("array<int>").as("indices"), functions.array(f.toArray(new Column[0])).as("values"));
            spark.read().parquet(named.toString()).select(vec.as("vec"), functions.col("y")).write().parquet(out.toString());
        }
        return out;
    }

    /**
     * A CSV's rows written as one Parquet file in the file's order (features cast to double, the label column kept as
     * its text): what Spark reads back in the same order as the CSV.
     */
    static Path orderedParquet(Path csvFile, int d) {
        Path ordered = csvFile.resolveSibling(csvFile.getFileName().toString().replace(".csv", "") + "-ordered.parquet");
        if (!Files.exists(ordered)) {
            writeParquet(csvFile, ordered, d, true);
        }
        return ordered;
    }

    /** A CSV's rows as Parquet (features cast to double, the label kept as text): one file in order, or four shuffled. */
    static void writeParquet(Path csvFile, Path out, int d, boolean ordered) {
        Dataset<Row> text = spark.read().option("header", "true").csv(csvFile.toString());
        List<Column> cols = new ArrayList<>();
        for (String f : SparkCliSupport.featureNames(d)) {
            cols.add(functions.col(f).cast(DataTypes.DoubleType).as(f));
        }
        cols.add(functions.col("y"));
        Dataset<Row> rows = text.select(cols.toArray(new Column[0]));
        (ordered ? rows.coalesce(1) : rows.repartition(4)).write().parquet(out.toString());
    }

    /** Regression rows with a header f0..f{d-1},y (targets real-valued, some rows far outside the unit ball). */
    static Path regressionCsv(Path file, int n, int d, long seed) throws java.io.IOException {
        java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
        StringBuilder b = new StringBuilder(String.join(",", SparkCliSupport.featureNames(d))).append(",y\n");
        for (int i = 0; i < n; i++) {
            double scale = Math.pow(10, r.nextDouble(-1, 1));
            double t = 0.5;
            for (int j = 0; j < d; j++) {
                double x = scale * (r.nextDouble() * 2 - 1);
                t += (j % 2 == 0 ? 0.7 : -0.4) * x;
                b.append(x).append(',');
            }
            b.append(t + 0.2 * (r.nextDouble() - 0.5)).append('\n');
        }
        java.nio.file.Files.writeString(file, b.toString());
        return file;
    }
}
