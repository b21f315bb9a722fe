package org.privadapt.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading Parquet and CSV files written by Spark into a {@link SparkTable}: the named columns, in order, as doubles. */
class SparkDataTest {
    static SparkSession spark;
    static SparkTestSupport.Rows data;

    @BeforeAll
    static void start() {
        spark = SparkTestSupport.spark();
        data = SparkTestSupport.generate(50, 4, 3);
    }

    /** The table's rows on the driver (small test data only), ordered by their first features. */
    static void assertHolds(SparkTable t, List<String> order, boolean labels) {
        List<Row> rows = t.rows().collectAsList();
        assertThat(rows).hasSize(data.rows().length);
        java.util.Set<String> got = new java.util.HashSet<>();
        for (Row r : rows) {
            double[] x = SparkTable.features(r, order.size());
            got.add(java.util.Arrays.toString(x) + (labels ? SparkTable.label(r) : ""));
        }
        java.util.Set<String> want = new java.util.HashSet<>();
        for (int i = 0; i < data.rows().length; i++) {
            double[] x = new double[order.size()];
            for (int j = 0; j < order.size(); j++) {
                x[j] = data.rows()[i][Integer.parseInt(order.get(j).substring(1))];
            }
            want.add(java.util.Arrays.toString(x) + (labels ? data.labels()[i] : ""));
        }
        assertThat(got).isEqualTo(want);
    }

    @Test
    void parquetWrittenBySparkIsReadBackByName(@TempDir Path dir) {
        String path = dir.resolve("rows.parquet").toString();
        data.frame(spark).write().parquet(path);
        SparkTable t = SparkData.read(spark, "parquet:" + path, data.featureNames(), "y");
        assertThat(t.dimension()).isEqualTo(4);
        assertThat(t.rows().schema().fields()[0].dataType().simpleString()).isEqualTo("array<double>");
        assertHolds(t, data.featureNames(), true);
        // a subset of the columns, in another order, unlabelled
        List<String> some = List.of("f3", "f0");
        SparkTable u = SparkData.read(spark, "parquet:" + path, some, null);
        assertThat(u.labelled()).isFalse();
        assertHolds(u, some, false);
        assertThat(u.check().rows()).isEqualTo(50);
    }

    @Test
    void csvWithAHeaderIsReadBackAsDoubles(@TempDir Path dir) {
        String path = dir.resolve("rows.csv").toString();
        data.frame(spark).write().option("header", "true").csv(path);
        SparkTable t = SparkData.read(spark, "csv:" + path, data.featureNames(), "y");
        assertHolds(t, data.featureNames(), true);
        assertThat(t.requireValid().rows()).isEqualTo(50);
    }

    @Test
    void unknownColumnsAndFormatsAreRefusedByName() {
        assertThatThrownBy(() -> SparkData.of(data.frame(spark), List.of("f0", "nope"), "y")).hasMessageContaining("no feature column 'nope'");
        assertThatThrownBy(() -> SparkData.of(data.frame(spark), List.of("f0"), "label")).hasMessageContaining("no label column 'label'");
        assertThatThrownBy(() -> SparkData.read(spark, "orc:/x", List.of("f0"), null)).hasMessageContaining("unknown format 'orc'");
    }

    /**
     * The row pass that finds the first bad column counts what the aggregate of Spark expressions it replaced counted
     * (kept here as the reference: per column, missing, try_cast null, NaN or infinite), on string columns (a CSV
     * file's) with values of every kind and on typed columns, and reads each string as Spark's try_cast does.
     */
    @Test
    void theRowPassCountsWhatSparksAggregateCounted() {
        String[] values = {"1", " 2.5 ", "1e3", "-0.0", "abc", "", " ", "inf", "-Infinity", "+INF", "NaN", "-nan", "+nan", " nAn ", "1d", "2f",
            "0x1p3", "1,5", "1e400", "\t7\n", "Infinity", "infinite", "+1", "1.", ".5", "e5", null};
        List<Row> rows = new java.util.ArrayList<>();
        for (int i = 0; i < values.length; i++) {
            rows.add(org.apache.spark.sql.RowFactory.create(values[i], values[(i + 7) % values.length], i % 5 == 0 ? null : 1.5 * i,
                    i % 4 == 0 ? Double.NaN : (i % 9 == 0 ? Double.NEGATIVE_INFINITY : (double) i), i % 6 == 0 ? null : "c" + i));
        }
        org.apache.spark.sql.types.StructType schema = new org.apache.spark.sql.types.StructType()
                .add("s1", org.apache.spark.sql.types.DataTypes.StringType).add("s2", org.apache.spark.sql.types.DataTypes.StringType)
                .add("d1", org.apache.spark.sql.types.DataTypes.DoubleType).add("d2", org.apache.spark.sql.types.DataTypes.DoubleType)
                .add("y", org.apache.spark.sql.types.DataTypes.StringType);
        org.apache.spark.sql.Dataset<Row> df = spark.createDataFrame(rows, schema).repartition(3);
        List<String> features = List.of("s1", "s2", "d1", "d2");
        SparkData.ValueCounts c = df.select("s1", "s2", "d1", "d2", "y").javaRDD().mapPartitions(it -> {
            SparkData.ValueCounts v = new SparkData.ValueCounts(4);
            while (it.hasNext()) {
                v.add(it.next(), true);
            }
            return List.of(v).iterator();
        }).reduce(SparkData.ValueCounts::merge);
        // each string alone against Spark's own cast
        List<String> mismatches = new java.util.ArrayList<>();
        for (String v : values) {
            if (v == null) {
                continue;
            }
            Row r = spark.createDataFrame(List.of(org.apache.spark.sql.RowFactory.create(v)), new org.apache.spark.sql.types.StructType()
                    .add("s", org.apache.spark.sql.types.DataTypes.StringType))
                    .select(org.apache.spark.sql.functions.col("s").try_cast(org.apache.spark.sql.types.DataTypes.DoubleType)).first();
            Double spark = r.isNullAt(0) ? null : r.getDouble(0);
            if (!java.util.Objects.equals(SparkData.asDouble(v), spark)) {
                mismatches.add("'" + v + "': " + SparkData.asDouble(v) + " vs Spark's " + spark);
            }
        }
        assertThat(mismatches).isEmpty();
        assertThat(c.asAggregate()).isEqualTo(aggregateCounts(df, features, "y"));
        assertThat(c.rows).isEqualTo(values.length);
        assertThat(c.notNumber[0]).as("strings that are not numbers").isPositive();
        assertThat(c.nonFinite[0]).as("special literals").isPositive();
        // the message names the first bad column
        assertThat(SparkData.firstProblem(df, features, "y")).startsWith("column 's1'");
        assertThat(SparkData.firstProblem(df.select("d1", "y"), List.of("d1"), "y")).isEqualTo("column 'd1': " + (values.length + 4) / 5 + " value(s) are missing");
    }

    /** The aggregate the row pass replaced (the reference): per column missing, not a number, non-finite; missing labels. */
    static long[] aggregateCounts(org.apache.spark.sql.Dataset<Row> df, List<String> featureColumns, String labelColumn) {
        List<org.apache.spark.sql.Column> aggs = new java.util.ArrayList<>();
        for (String f : featureColumns) {
            org.apache.spark.sql.Column raw = org.apache.spark.sql.functions.col(f);
            org.apache.spark.sql.Column v = raw.try_cast(org.apache.spark.sql.types.DataTypes.DoubleType);
            aggs.add(org.apache.spark.sql.functions.sum(org.apache.spark.sql.functions.when(raw.isNull(), 1).otherwise(0)));
            aggs.add(org.apache.spark.sql.functions.sum(org.apache.spark.sql.functions.when(raw.isNotNull().and(v.isNull()), 1).otherwise(0)));
            aggs.add(org.apache.spark.sql.functions.sum(org.apache.spark.sql.functions.when(v.isNotNull().and(v.isNaN()
                    .or(org.apache.spark.sql.functions.abs(v).equalTo(Double.POSITIVE_INFINITY))), 1).otherwise(0)));
        }
        aggs.add(org.apache.spark.sql.functions.sum(org.apache.spark.sql.functions.when(
                org.apache.spark.sql.functions.col(labelColumn).isNull(), 1).otherwise(0)));
        Row r = df.agg(aggs.get(0), aggs.subList(1, aggs.size()).toArray(new org.apache.spark.sql.Column[0])).first();
        long[] out = new long[aggs.size()];
        for (int k = 0; k < out.length; k++) {
            out[k] = r.isNullAt(k) ? 0 : r.getLong(k);
        }
        return out;
    }
}
