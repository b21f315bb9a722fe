package org.privadapt.sparkml;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.spark.ml.feature.VectorAssembler;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;

/**
 * One local[2] session for the JVM's stage tests (codegen off, as the spark module's tests), small generated rows, the
 * assembled features column, and a poisoned copy whose rows fail when read (to show a refusal read none).
 */
final class StageTestSupport {
    static final List<String> CLASSES = List.of("a", "b", "c");
    private static SparkSession session;

    private StageTestSupport() {
    }

    static synchronized SparkSession spark() {
        if (session == null) {
            session = SparkSession.builder().master("local[2]").appName("privadapt-spark-ml-tests")
                    .config("spark.ui.enabled", "false")
                    .config("spark.sql.shuffle.partitions", "2")
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

    record Rows(double[][] x, String[] y) {
        /** Columns f0..f(d-1) and y, in two partitions holding the rows in their order. */
        Dataset<Row> frame(SparkSession spark) {
            int d = x[0].length;
            List<StructField> fields = new ArrayList<>();
            for (int j = 0; j < d; j++) {
                fields.add(DataTypes.createStructField("f" + j, DataTypes.DoubleType, false));
            }
            fields.add(DataTypes.createStructField("y", DataTypes.StringType, false));
            List<Row> list = new ArrayList<>();
            for (int i = 0; i < x.length; i++) {
                Object[] v = new Object[d + 1];
                for (int j = 0; j < d; j++) {
                    v[j] = x[i][j];
                }
                v[d] = y[i];
                list.add(RowFactory.create(v));
            }
            return spark.createDataFrame(new org.apache.spark.api.java.JavaSparkContext(spark.sparkContext()).parallelize(list, 2),
                    DataTypes.createStructType(fields));
        }

        String[] columns() {
            String[] c = new String[x[0].length];
            for (int j = 0; j < c.length; j++) {
                c[j] = "f" + j;
            }
            return c;
        }

        /** The frame with VectorAssembler's features column (with its Spark ML metadata: d). */
        Dataset<Row> assembled(SparkSession spark) {
            return new VectorAssembler().setInputCols(columns()).setOutputCol("features").transform(frame(spark));
        }
    }

    /** n rows of d features in three classes (class c shifts every third feature), {@code shift} added to all. */
    static Rows generate(int n, int d, long seed, double shift) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] x = new double[n][d];
        String[] y = new String[n];
        for (int i = 0; i < n; i++) {
            int c = r.nextInt(3);
            y[i] = CLASSES.get(c);
            for (int j = 0; j < d; j++) {
                x[i][j] = Math.sqrt(-2 * Math.log(1 - r.nextDouble())) * Math.cos(2 * Math.PI * r.nextDouble())
                        + (j % 3 == c ? 2.0 : 0) + shift;
            }
        }
        return new Rows(x, y);
    }

    /** The frame with its features column replaced by one that throws when a row is read; the metadata kept. */
    static Dataset<Row> poisoned(Dataset<Row> assembled) {
        org.apache.spark.sql.expressions.UserDefinedFunction boom = functions.udf(
                (UDF1<Object, Object>) v -> {
                    throw new IllegalStateException("a row was read");
                }, SQLDataTypes.VectorType());
        return assembled.withColumn("features", boom.apply(functions.col("features"))
                .as("features", assembled.schema().apply("features").metadata()));
    }

    static void assertClose(double[] actual, double[] expected, double rel, String what) {
        if (actual.length != expected.length) {
            throw new AssertionError(what + ": lengths " + actual.length + " and " + expected.length);
        }
        double scale = 1;
        for (double v : expected) {
            scale = Math.max(scale, Math.abs(v));
        }
        for (int i = 0; i < actual.length; i++) {
            if (!(Math.abs(actual[i] - expected[i]) <= rel * scale)) {
                throw new AssertionError(what + ": entry " + i + " is " + actual[i] + ", expected " + expected[i]);
            }
        }
    }
}
