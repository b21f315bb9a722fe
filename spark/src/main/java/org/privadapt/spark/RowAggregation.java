package org.privadapt.spark;

import org.privadapt.math.CompensatedSums;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Row;
import scala.Tuple2;

/**
 * One aggregate over the rows of a {@link SparkTable}: each partition folds its rows into one accumulator on an
 * executor (where the per-row clipping runs), the accumulators are collected to the driver and merged there in
 * partition order. With compensated sums ({@link CompensatedSums}) the result does not depend on the partitioning
 * beyond about one rounding, and for one partitioning it is the same on every run (the merge order is fixed, not the
 * order in which tasks finish). Nothing but the accumulators leaves the executors: no row, and no per-partition
 * count is kept on the driver once merged.
 *
 * <p>The driver holds one accumulator per partition at once ({@code O(P d^2)} for a second moment): fine for the
 * hundreds of partitions of a large file at d in the hundreds; a tree merge on the executors is the next step for more.
 */
public final class RowAggregation {
    private RowAggregation() {
    }

    /** A per-partition accumulator: rows folded in on an executor, partitions merged on the driver. */
    public interface Accumulator<A extends Accumulator<A>> extends Serializable {
        /** Folds in one row: its features (a fresh array the accumulator may keep or change) and label (or null). */
        void add(double[] features, String label);

        /** Merges another partition's accumulator into this one. */
        void merge(A other);
    }

    /** Makes an empty accumulator (on the executors: serializable, capturing public settings only). */
    @FunctionalInterface
    public interface Zero<A> extends Serializable {
        A get();
    }

    /** Folds every row of {@code table} into one accumulator (see the class comment). */
    public static <A extends Accumulator<A>> A aggregate(SparkTable table, Zero<A> zero) {
        int d = table.dimension();
        boolean labelled = table.labelled();
        JavaRDD<Row> rows = table.rows().javaRDD();
        List<Tuple2<Integer, A>> parts = rows.mapPartitionsWithIndex((Integer index, Iterator<Row> it) -> {
            A acc = zero.get();
            while (it.hasNext()) {
                Row r = it.next();
                acc.add(SparkTable.features(r, d), labelled ? SparkTable.label(r) : null);
            }
            List<Tuple2<Integer, A>> one = new ArrayList<>(1);
            one.add(new Tuple2<>(index, acc));
            return one.iterator();
        }, false).collect();
        List<Tuple2<Integer, A>> sorted = new ArrayList<>(parts);
        sorted.sort(Comparator.comparing(Tuple2::_1));
        A total = zero.get();
        for (Tuple2<Integer, A> p : sorted) {
            total.merge(p._2());
        }
        return total;
    }
}
