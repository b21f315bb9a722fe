package org.privadapt.spark;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeArrayData;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A table's rows as Spark's internal rows, read and written without boxing a value (issue 45 item 1): the paths that
 * map or collect rows (preprocessing, an encoder, PRIMA's per-group features, DPOT's projection, predictions) read
 * {@code InternalRow}s as {@link RowAggregation} does, decode the features with {@link SparkVectors#features(InternalRow,
 * int, SparkVectors.Kind)} (one bulk copy per row, dense or sparse vectors, arrays) and the label with {@link Labels},
 * and write their output rows as an {@code array<double>} in Spark's own unsafe layout. An external {@code Row} would
 * box every value twice (in and out).
 *
 * <p>{@link #dataFrame} makes a {@code Dataset} of such rows with Spark's {@code internalCreateDataFrame}, which Spark
 * keeps for its own connectors (its Scala visibility is the SQL package; Java sees it public): the one internal API used
 * here, pinned by the Spark version in the pom and exercised by every test of a mapped table.
 */
final class InternalRows {
    private InternalRows() {
    }

    /** The table's rows (its columns: features, then the label when labelled) as an RDD of internal rows. */
    static JavaRDD<InternalRow> of(SparkTable table) {
        return table.rows().queryExecution().toRdd().toJavaRDD();
    }

    /** The schema of a mapped table: {@code features array<double>}, then {@code label string} when labelled. */
    static StructType schema(boolean labelled) {
        StructField f = DataTypes.createStructField(SparkTable.FEATURES, DataTypes.createArrayType(DataTypes.DoubleType, true), true);
        return labelled ? DataTypes.createStructType(List.of(f, DataTypes.createStructField(SparkTable.LABEL, DataTypes.StringType, true)))
                : DataTypes.createStructType(List.of(f));
    }

    /** One output row: the features as an unsafe {@code array<double>} (one copy), the label when {@code labelled}. */
    static InternalRow row(double[] features, String label, boolean labelled) {
        UnsafeArrayData x = UnsafeArrayData.fromPrimitiveArray(features);
        return labelled ? new GenericInternalRow(new Object[] {x, label == null ? null : UTF8String.fromString(label)})
                : new GenericInternalRow(new Object[] {x});
    }

    /** A {@code Dataset} of the rows {@link #row} wrote, with {@link #schema}; lazy, as any mapped Dataset. */
    static Dataset<Row> dataFrame(SparkTable like, JavaRDD<InternalRow> rows, boolean labelled) {
        org.apache.spark.sql.classic.SparkSession session = (org.apache.spark.sql.classic.SparkSession) like.rows().sparkSession();
        return session.internalCreateDataFrame(rows.rdd(), schema(labelled), false);
    }

    /** A row's label (column 1) as a new string, or null when missing. */
    static String label(InternalRow r) {
        return r.isNullAt(1) ? null : r.getUTF8String(1).toString();
    }

    /**
     * A row's label (column 1) as a string, the strings of the first few distinct labels kept (a class label repeats; a
     * numeric target need not, so the cache stops growing).
     */
    static final class Labels {
        private static final int MAX = 1024;
        private final Map<UTF8String, String> known = new HashMap<>();

        String of(InternalRow r) {
            if (r.isNullAt(1)) {
                return null;
            }
            UTF8String u = r.getUTF8String(1);
            String s = known.get(u);
            if (s == null) {
                s = u.toString();
                if (known.size() < MAX) {
                    known.put(u.clone(), s); // u may point into a buffer the reader reuses
                }
            }
            return s;
        }
    }
}
