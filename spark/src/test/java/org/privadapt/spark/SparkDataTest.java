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
}
