package org.privadapt.spark;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privadapt.math.CompensatedSums;

/**
 * {@link RowAggregation}'s merge of the partitions' accumulators: flat on the driver up to the fan-in, a tree on the
 * executors above it. On 1, 17 and 40 partitions and fan-ins 3 and 16 (up to four levels), every row reaches the
 * total exactly once (the row count and per-class counts exactly), the sums equal the flat merge's within 1e-13
 * relative, and one partitioning gives the same bits on every run.
 */
class RowAggregationMergeTest {
    static SparkSession spark;
    static SparkTestSupport.Rows data;

    @BeforeAll
    static void start() {
        spark = SparkTestSupport.spark();
        data = SparkTestSupport.generate(400, 5, 31);
    }

    /** Counts the rows and sums their features (compensated); counts each label's rows. */
    static final class Sums implements RowAggregation.Accumulator<Sums> {
        private static final long serialVersionUID = 1L;
        final CompensatedSums sums = new CompensatedSums(5);
        long rows;
        final java.util.TreeMap<String, Long> labels = new java.util.TreeMap<>();

        @Override
        public void add(double[] features, String label) {
            rows++;
            labels.merge(String.valueOf(label), 1L, Long::sum);
            for (int j = 0; j < 5; j++) {
                sums.add(j, features[j] * 1e3 + 1e-3);
            }
        }

        @Override
        public void merge(Sums o) {
            rows += o.rows;
            o.labels.forEach((k, v) -> labels.merge(k, v, Long::sum));
            sums.merge(o.sums);
        }
    }

    @Test
    void everyPartitionIsMergedOnceAndTheTreeGivesTheFlatSums() {
        Sums reference = null;
        for (int partitions : new int[] {1, 17, 40}) {
            SparkTable table = data.table(spark, partitions);
            org.apache.spark.api.java.JavaRDD<org.apache.spark.sql.catalyst.InternalRow> rows =
                    table.rows().queryExecution().toRdd().toJavaRDD();
            assertThat(rows.getNumPartitions()).isEqualTo(partitions);
            Sums flat = RowAggregation.aggregate(table, Sums::new);
            if (reference == null) {
                reference = flat;
            }
            assertThat(flat.rows).isEqualTo(400);
            assertThat(flat.labels).isEqualTo(reference.labels);
            for (int fanIn : new int[] {3, 16}) {
                Sums tree = RowAggregation.merged(accumulators(table), partitions, Sums::new, fanIn);
                String what = partitions + " partitions, fan-in " + fanIn;
                assertThat(tree.rows).as(what).isEqualTo(400);
                assertThat(tree.labels).as(what).isEqualTo(reference.labels);
                for (int j = 0; j < 5; j++) {
                    double a = tree.sums.value(j);
                    double b = reference.sums.value(j);
                    assertThat(Math.abs(a - b)).as(what + ", sum " + j).isLessThanOrEqualTo(1e-13 * Math.max(1, Math.abs(b)));
                }
                Sums again = RowAggregation.merged(accumulators(table), partitions, Sums::new, fanIn);
                assertThat(again.sums.values()).as(what + ", again").isEqualTo(tree.sums.values());
            }
        }
    }

    /** Each partition's accumulator keyed by its index, as the aggregation makes them. */
    static org.apache.spark.api.java.JavaRDD<scala.Tuple2<Integer, Sums>> accumulators(SparkTable table) {
        return table.rows().javaRDD().mapPartitionsWithIndex((Integer p, java.util.Iterator<org.apache.spark.sql.Row> it) -> {
            Sums s = new Sums();
            while (it.hasNext()) {
                org.apache.spark.sql.Row r = it.next();
                s.add(SparkTable.features(r, 5), SparkTable.label(r));
            }
            return java.util.List.of(new scala.Tuple2<>(p, s)).iterator();
        }, false);
    }
}
