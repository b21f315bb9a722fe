package org.privadapt.spark;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.privadapt.math.DenseMatrix;

/**
 * One local[2] SparkSession for every Spark test class of the JVM (made on first use, stopped at exit: starting one
 * costs seconds), and small generated data as both a {@link SparkTable} and the in-process matrix.
 */
final class SparkTestSupport {
    private static SparkSession session;

    private SparkTestSupport() {
    }

    static synchronized SparkSession spark() {
        if (session == null) {
            session = SparkSession.builder().master("local[2]").appName("privadapt-spark-tests")
                    .config("spark.ui.enabled", "false")
                    .config("spark.sql.shuffle.partitions", "2")
                    // interpreted expressions: on a few hundred rows compiling each query's generated code (Janino) costs
                    // more CPU than running it (about a fifth of these tests' CPU); the results are the same
                    .config("spark.sql.codegen.wholeStage", "false")
                    .config("spark.sql.codegen.factoryMode", "NO_CODEGEN")
                    .config("spark.driver.host", "127.0.0.1")
                    .config("spark.driver.bindAddress", "127.0.0.1")
                    .getOrCreate();
            SparkSession s = session;
            Runtime.getRuntime().addShutdownHook(new Thread(s::stop));
        }
        return session;
    }

    /** Labelled rows: rows[i] with labels[i] (a label is a class name). */
    record Rows(double[][] rows, String[] labels) {
        DenseMatrix matrix() {
            return DenseMatrix.fromRows(rows);
        }

        int[] codes(List<String> classes) {
            int[] y = new int[labels.length];
            for (int i = 0; i < y.length; i++) {
                y[i] = classes.indexOf(labels[i]);
            }
            return y;
        }

        int dimension() {
            return rows[0].length;
        }

        List<String> featureNames() {
            List<String> f = new ArrayList<>();
            for (int j = 0; j < dimension(); j++) {
                f.add("f" + j);
            }
            return f;
        }

        /** A data frame with one double column per feature (f0, f1, ...) and a string column y, in that order. */
        Dataset<Row> frame(SparkSession spark) {
            List<StructField> fields = new ArrayList<>();
            for (String f : featureNames()) {
                fields.add(DataTypes.createStructField(f, DataTypes.DoubleType, true));
            }
            fields.add(DataTypes.createStructField("y", DataTypes.StringType, true));
            List<Row> list = new ArrayList<>();
            for (int i = 0; i < rows.length; i++) {
                Object[] v = new Object[dimension() + 1];
                for (int j = 0; j < dimension(); j++) {
                    v[j] = rows[i][j];
                }
                v[dimension()] = labels[i];
                list.add(RowFactory.create(v));
            }
            return spark.createDataFrame(list, DataTypes.createStructType(fields));
        }

        /**
         * These rows as one features column (issue 45 item 1), the labels in y: {@code array} (array<double>), {@code dense}
         * or {@code sparse} (a Spark ML vector as stored: struct<type, size, indices, values>; sparse holds the non-zero
         * entries only), read through {@link SparkVectors#table}.
         */
        SparkTable vectors(SparkSession spark, String kind, int partitions) {
            int d = dimension();
            org.apache.spark.sql.types.StructType vector = DataTypes.createStructType(List.of(
                    DataTypes.createStructField("type", DataTypes.ByteType, false),
                    DataTypes.createStructField("size", DataTypes.IntegerType, true),
                    DataTypes.createStructField("indices", DataTypes.createArrayType(DataTypes.IntegerType, false), true),
                    DataTypes.createStructField("values", DataTypes.createArrayType(DataTypes.DoubleType, false), true)));
            boolean array = kind.equals("array");
            List<Row> list = new ArrayList<>();
            for (int i = 0; i < rows.length; i++) {
                Object v;
                if (array) {
                    v = scala.collection.immutable.ArraySeq.unsafeWrapArray(rows[i].clone());
                } else if (kind.equals("dense")) {
                    v = RowFactory.create((byte) 1, null, null, scala.collection.immutable.ArraySeq.unsafeWrapArray(rows[i].clone()));
                } else {
                    List<Integer> idx = new ArrayList<>();
                    List<Double> val = new ArrayList<>();
                    for (int j = 0; j < d; j++) {
                        if (rows[i][j] != 0) {
                            idx.add(j);
                            val.add(rows[i][j]);
                        }
                    }
                    v = RowFactory.create((byte) 0, d, scala.jdk.javaapi.CollectionConverters.asScala(idx).toSeq(),
                            scala.jdk.javaapi.CollectionConverters.asScala(val).toSeq());
                }
                list.add(RowFactory.create(v, labels[i]));
            }
            org.apache.spark.sql.types.StructType schema = DataTypes.createStructType(List.of(
                    DataTypes.createStructField("x", array ? DataTypes.createArrayType(DataTypes.DoubleType, false) : vector, true),
                    DataTypes.createStructField("y", DataTypes.StringType, true)));
            Dataset<Row> df = spark.createDataFrame(new org.apache.spark.api.java.JavaSparkContext(spark.sparkContext())
                    .parallelize(list, partitions), schema);
            return SparkVectors.table(df, "x", d, "y"); // d known here; SparkPrimaTest reads it with SparkVectors.dimension
        }

        SparkTable table(SparkSession spark, int partitions) {
            return SparkData.of(frame(spark), featureNames(), "y").repartition(partitions);
        }

        /**
         * A table of {@code partitions} partitions holding the rows in their original order (partition 0 the first
         * rows), as a file read in order gives them: what the position-based Poisson sampling needs to pick the
         * in-process rows.
         */
        SparkTable ordered(SparkSession spark, int partitions) {
            Dataset<Row> frame = frame(spark);
            Dataset<Row> sliced = spark.createDataFrame(new org.apache.spark.api.java.JavaSparkContext(spark.sparkContext())
                    .parallelize(frame.collectAsList(), partitions), frame.schema());
            return SparkData.of(sliced, featureNames(), "y");
        }

        /** These rows with {@code row} (label {@code label}) appended. */
        Rows plus(double[] row, String label) {
            double[][] r = java.util.Arrays.copyOf(rows, rows.length + 1);
            String[] l = java.util.Arrays.copyOf(labels, labels.length + 1);
            r[rows.length] = row.clone();
            l[rows.length] = label;
            return new Rows(r, l);
        }

        /** These rows with row {@code i} replaced. */
        Rows replacing(int i, double[] row, String label) {
            double[][] r = rows.clone();
            String[] l = labels.clone();
            r[i] = row.clone();
            l[i] = label;
            return new Rows(r, l);
        }
    }

    static final List<String> CLASSES = List.of("a", "b", "c");

    /**
     * n rows of d features in three classes with class-dependent means and scales from 0.1 to 10 (so some rows are
     * far outside any bound and get clipped, some inside), one all-zero row.
     */
    static Rows generate(int n, int d, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] x = new double[n][d];
        String[] y = new String[n];
        for (int i = 0; i < n; i++) {
            int c = r.nextInt(3);
            y[i] = CLASSES.get(c);
            double scale = Math.pow(10, r.nextDouble(-1, 1));
            for (int j = 0; j < d; j++) {
                x[i][j] = scale * (gauss(r) + (j % 3 == c ? 1.5 : 0));
            }
        }
        java.util.Arrays.fill(x[n / 2], 0.0);
        return new Rows(x, y);
    }

    static double gauss(SplittableRandom r) {
        return Math.sqrt(-2 * Math.log(1 - r.nextDouble())) * Math.cos(2 * Math.PI * r.nextDouble());
    }

    /**
     * Asserts {@code |actual - expected| <= rel * max(1, max |expected|)} entry by entry: relative to the largest
     * entry of the block compared (so an entry near 0 after cancellation is judged on the block's scale).
     */
    static void assertRelativelyClose(double[] actual, double[] expected, double rel, String what) {
        if (actual.length != expected.length) {
            throw new AssertionError(what + ": lengths " + actual.length + " and " + expected.length);
        }
        double scale = 1;
        for (double v : expected) {
            scale = Math.max(scale, Math.abs(v));
        }
        for (int i = 0; i < actual.length; i++) {
            double diff = Math.abs(actual[i] - expected[i]);
            worst = Math.max(worst, diff / scale);
            if (!(diff <= rel * scale)) {
                throw new AssertionError(what + ": entry " + i + " is " + actual[i] + ", expected " + expected[i] + " (difference "
                        + diff + " > " + rel + " x " + scale + ")");
            }
        }
    }

    /** The largest relative difference {@link #assertRelativelyClose} has seen since the last {@link #reportWorst}. */
    private static double worst;

    /** Prints (for the test log) and resets the largest relative difference seen. */
    static synchronized void reportWorst(String what) {
        System.out.println("privadapt-spark: " + what + ": largest relative difference " + worst);
        worst = 0;
    }

    /** One DP-SGD step's clipped sum over the rows at the sampled positions {@code batch}. */
    interface StepQuery {
        double[] at(Rows rows, int[] batch);
    }

    /**
     * The methods harness's check of a step's query over a fixed sampled batch: a sampled row added moves it by at most
     * the clip (and by more than half of it, for a row far outside the clip), a sampled row replaced by at most twice
     * the clip, and a row that is not sampled, added or replaced, not at all.
     */
    static void assertSampledSumNeighbours(Rows data, double clip, int[] batch, StepQuery query) {
        int n = data.rows().length;
        double[] far = {50, -50, 50, -50, 50, -50};
        double[] base = query.at(data, batch);
        int[] withNew = java.util.Arrays.copyOf(batch, batch.length + 1);
        withNew[batch.length] = n; // the added record is sampled
        double[] added = query.at(data.plus(far, "c"), withNew);
        org.privadapt.methods.neighbours.ReleaseComparison.assertWithin(org.privadapt.methods.neighbours.ReleaseComparison.l2(base, added),
                clip, 1e-12, "add a sampled row");
        org.assertj.core.api.Assertions.assertThat(org.privadapt.methods.neighbours.ReleaseComparison.l2(base, added))
                .isGreaterThan(0.5 * clip);
        org.assertj.core.api.Assertions.assertThat(query.at(data.plus(far, "c"), batch)).as("an added row that is not sampled")
                .isEqualTo(base);
        double[] replaced = query.at(data.replacing(batch[4], far, "b"), batch);
        org.privadapt.methods.neighbours.ReleaseComparison.assertWithin(
                org.privadapt.methods.neighbours.ReleaseComparison.l2(base, replaced), 2 * clip, 1e-12, "replace a sampled row");
        org.assertj.core.api.Assertions.assertThat(query.at(data.replacing(batch[4] + 1, far, "b"), batch))
                .as("a replaced row that is not sampled").isEqualTo(base);
    }
}
