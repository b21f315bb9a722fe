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
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;

/**
 * One local[2] session for the JVM's stage tests (codegen off, as the spark module's tests), small generated rows (classes,
 * or real targets), the assembled features column, and a poisoned copy whose rows fail when read (to show a refusal read none).
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
            return StageTestSupport.frame(spark, x, DataTypes.StringType, y);
        }

        /** The frame with VectorAssembler's features column (with its Spark ML metadata: d). */
        Dataset<Row> assembled(SparkSession spark) {
            return assembler(x[0].length).transform(frame(spark));
        }
    }

    /** VectorAssembler of f0..f(d-1) into "features". */
    static VectorAssembler assembler(int d) {
        String[] c = new String[d];
        for (int j = 0; j < d; j++) {
            c[j] = "f" + j;
        }
        return new VectorAssembler().setInputCols(c).setOutputCol("features");
    }

    /** Columns f0..f(d-1) (doubles) and y of {@code yType}, in two partitions holding the rows in their order. */
    static Dataset<Row> frame(SparkSession spark, double[][] x, DataType yType, Object[] y) {
        int d = x[0].length;
        List<StructField> fields = new ArrayList<>();
        for (int j = 0; j < d; j++) {
            fields.add(DataTypes.createStructField("f" + j, DataTypes.DoubleType, false));
        }
        fields.add(DataTypes.createStructField("y", yType, true));
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

    /** Regression rows: real targets y. */
    record Targets(double[][] x, double[] y) {
        /** Columns f0..f(d-1) and y (double), in two partitions holding the rows in their order. */
        Dataset<Row> frame(SparkSession spark) {
            return StageTestSupport.frame(spark, x, DataTypes.DoubleType, java.util.Arrays.stream(y).boxed().toArray());
        }

        /** The frame with VectorAssembler's features column (with its Spark ML metadata: d). */
        Dataset<Row> assembled(SparkSession spark) {
            return assembler(x[0].length).transform(frame(spark));
        }
    }

    /**
     * n regression rows of d features, the last one the constant 1 (an intercept), the others of row norms about 0.2 to
     * 2 (some beyond the row bound 1, so clipped), targets y = 0.6 x_0 - 0.4 x_1 + 0.3 + noise (some beyond [-1, 1]).
     */
    static Targets regression(int n, int d, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] x = new double[n][d];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            double scale = Math.pow(10, r.nextDouble(-0.7, 0.3)) / Math.sqrt(d - 1);
            for (int j = 0; j < d - 1; j++) {
                x[i][j] = scale * gauss(r);
            }
            x[i][d - 1] = 1.0;
            y[i] = 0.6 * x[i][0] - 0.4 * x[i][1] + 0.3 + 0.2 * gauss(r);
        }
        return new Targets(x, y);
    }

    static double gauss(SplittableRandom r) {
        return Math.sqrt(-2 * Math.log(1 - r.nextDouble())) * Math.cos(2 * Math.PI * r.nextDouble());
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
                x[i][j] = gauss(r) + (j % 3 == c ? 2.0 : 0) + shift;
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
