package org.privadapt.spark;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.UserDefinedType;

/**
 * A party's features in one column (issue 45 item 1, {@code --features-column NAME}): a Spark ML vector column
 * ({@code VectorAssembler}'s output, dense or sparse) or an {@code array<double>}. A Spark ML vector is stored as its
 * UDT's SQL type, {@code struct<type: tinyint, size: int, indices: array<int>, values: array<double>>} (type 1 dense:
 * {@code values} holds the d values; type 0 sparse: {@code size} d and the non-zeros at {@code indices}); Spark reads
 * it as that struct where Spark ML is not on the classpath, and as the UDT (whose internal rows are the same struct)
 * where it is. Both are decoded here from Spark's internal rows with the typed bulk accessors
 * ({@code ArrayData.toDoubleArray}, {@code toIntArray}): no value is boxed.
 *
 * <p>The number of features d is the layout, read as a CSV header is read in process: the column's Spark ML metadata
 * ({@code ml_attr.num_attrs}, which {@code VectorAssembler} writes) when present, else the first row's length. Every
 * row must have that length: a row of another length (or a null vector, or a null element of an array) is read as
 * missing values, so the table's check ({@link SparkTable#requireValid}, or the release's own check pass) refuses it
 * before anything is charged, as a missing value is refused.
 */
public final class SparkVectors {
    /** How a features column stores a row. */
    public enum Kind {
        /** {@code array<double>} (or {@code array<float>}): d elements. */
        ARRAY,
        /** A Spark ML vector (its UDT, or its SQL type read without Spark ML): dense or sparse. */
        VECTOR
    }

    private SparkVectors() {
    }

    /** The kind of a column that can hold a row's features, or null for any other type. */
    public static Kind kind(DataType t) {
        if (t instanceof UserDefinedType<?> u) {
            t = u.sqlType();
        }
        if (t instanceof ArrayType a && (a.elementType() instanceof DoubleType || a.elementType().equals(DataTypes.FloatType))) {
            return Kind.ARRAY;
        }
        if (t instanceof StructType s && s.fields().length == 4
                && s.fields()[0].dataType() instanceof ByteType && s.fields()[1].dataType() instanceof IntegerType
                && s.fields()[2].dataType() instanceof ArrayType ai && ai.elementType() instanceof IntegerType
                && s.fields()[3].dataType() instanceof ArrayType av && av.elementType() instanceof DoubleType) {
            return Kind.VECTOR;
        }
        return null;
    }

    /**
     * Whether a table's features come from one features column ({@link #table}: named {@code NAME[0]}, ...): its
     * aggregates take the block kernels of the in-process code (one BLAS call per block); a table of named columns
     * keeps the Java kernels it had.
     */
    public static boolean isFeaturesColumn(SparkTable table) {
        String first = table.featureNames().get(0);
        return first.endsWith("[0]") && table.featureNames().get(table.dimension() - 1).endsWith("[" + (table.dimension() - 1) + "]");
    }

    /** The kind of a table's features column: {@link Kind#ARRAY} for a table of named columns. */
    static Kind kind(SparkTable table) {
        Kind k = kind(table.rows().schema().fields()[0].dataType());
        return k == null ? Kind.ARRAY : k;
    }

    /**
     * d of a features column: the Spark ML metadata's number of attributes, else the first row's length (0 for a
     * table without a non-null row: refused as empty later).
     */
    public static int dimension(Dataset<Row> df, String column) {
        StructField f = df.schema().apply(column);
        Metadata m = f.metadata();
        if (m.contains("ml_attr")) {
            Metadata attr = m.getMetadata("ml_attr");
            if (attr.contains("num_attrs")) {
                return (int) attr.getLong("num_attrs");
            }
        }
        // the first non-null row, collected as Spark collects a limit (partition by partition, not a scan of all)
        List<Row> got = df.select(functions.col(column)).where(functions.col(column).isNotNull()).limit(1).collectAsList();
        if (got.isEmpty()) {
            return 0;
        }
        Object o = got.get(0).get(0);
        if (o instanceof scala.collection.Seq<?> seq) {
            return seq.size();
        }
        if (o instanceof Row v) {
            return v.getByte(0) == 1 ? v.getList(3).size() : v.getInt(1);
        }
        try { // a Spark ML vector, where Spark ML is on the classpath
            return (Integer) o.getClass().getMethod("size").invoke(o);
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new IllegalStateException("a features value of " + o.getClass().getName() + " is not a vector", e);
        }
    }

    /**
     * A {@link SparkTable} of a features column (d features named {@code NAME[0]}, ..., {@code NAME[d-1]}) and the label
     * column (cast to string), or null.
     */
    public static SparkTable table(Dataset<Row> df, String column, int d, String labelColumn) {
        if (kind(df.schema().apply(column).dataType()) == null) {
            throw new IllegalArgumentException("column '" + column + "' is " + df.schema().apply(column).dataType().simpleString()
                    + ", not a vector or array<double>");
        }
        List<String> names = new ArrayList<>(d);
        for (int j = 0; j < d; j++) {
            names.add(column + "[" + j + "]");
        }
        Dataset<Row> rows = labelColumn == null ? df.select(functions.col(column).as(SparkTable.FEATURES))
                : df.select(functions.col(column).as(SparkTable.FEATURES),
                        functions.col(labelColumn).cast(DataTypes.StringType).as(SparkTable.LABEL));
        return new SparkTable(rows, names, labelColumn);
    }

    /**
     * Row {@code r}'s features (column 0) as a new array of length d: NaN everywhere for a null vector or a row of
     * another length, NaN for a null element.
     */
    static double[] features(InternalRow r, int d, Kind kind) {
        if (r.isNullAt(0)) {
            return missing(d);
        }
        if (kind == Kind.ARRAY) {
            ArrayData a = r.getArray(0);
            if (a.numElements() != d) {
                return missing(d);
            }
            double[] x = a.toDoubleArray(); // one bulk copy; a null element then marked missing
            for (int j = 0; j < d; j++) {
                if (a.isNullAt(j)) {
                    x[j] = Double.NaN;
                }
            }
            return x;
        }
        InternalRow v = r.getStruct(0, 4);
        if (v.getByte(0) == 1) {
            double[] x = v.getArray(3).toDoubleArray();
            return x.length == d ? x : missing(d);
        }
        if (v.getInt(1) != d) {
            return missing(d);
        }
        int[] idx = v.getArray(2).toIntArray();
        double[] val = v.getArray(3).toDoubleArray();
        double[] x = new double[d];
        if (idx.length != val.length) {
            return missing(d);
        }
        for (int k = 0, last = -1; k < idx.length; k++) {
            if (idx[k] <= last || idx[k] >= d) { // out of range, or not strictly increasing as a sparse vector's are
                return missing(d);
            }
            last = idx[k];
            x[idx[k]] = val[k];
        }
        return x;
    }

    /** The same from an external row (the paths that read {@code Row}s): a struct as above, or a Spark ML vector. */
    static double[] features(Row r, int d) {
        Object o = r.get(0);
        if (o == null) {
            return missing(d);
        }
        if (o instanceof Row v) {
            int size = v.getByte(0) == 1 ? v.getList(3).size() : v.getInt(1);
            if (size != d) {
                return missing(d);
            }
            double[] x = new double[d];
            List<Object> val = v.getList(3);
            if (v.getByte(0) == 1) {
                for (int j = 0; j < d; j++) {
                    x[j] = ((Number) val.get(j)).doubleValue();
                }
            } else {
                List<Object> idx = v.getList(2);
                for (int k = 0; k < idx.size(); k++) {
                    x[((Number) idx.get(k)).intValue()] = ((Number) val.get(k)).doubleValue();
                }
            }
            return x;
        }
        try { // org.apache.spark.ml.linalg.Vector, where Spark ML is on the classpath: its toArray()
            double[] x = (double[]) o.getClass().getMethod("toArray").invoke(o);
            return x.length == d ? x : missing(d);
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new IllegalStateException("a features value of " + o.getClass().getName() + " is not a vector", e);
        }
    }

    private static double[] missing(int d) {
        double[] x = new double[d];
        java.util.Arrays.fill(x, Double.NaN);
        return x;
    }
}
