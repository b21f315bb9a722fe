package org.privadapt.sparkml;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.privadapt.spark.SparkVectors;

/**
 * A stage's features column: a Spark ML vector (dense or sparse; {@code VectorAssembler}'s output) or an
 * {@code array<double>}, as {@code --features-column} reads it ({@link SparkVectors}). Its d is the layout, public: the
 * column's Spark ML metadata ({@code ml_attr.num_attrs}), else the stage's {@code numFeatures} Param, else (as the CLI
 * does) the first row's length.
 */
final class FeatureColumns {
    private FeatureColumns() {
    }

    /** The column's type checked: a vector or an array of doubles. */
    static void requireFeatures(StructType schema, String column) {
        if (!List.of(schema.fieldNames()).contains(column)) {
            throw new IllegalArgumentException("no column '" + column + "' (columns: " + String.join(", ", schema.fieldNames()) + ")");
        }
        DataType t = schema.apply(column).dataType();
        if (SparkVectors.kind(t) == null) {
            throw new IllegalArgumentException("column '" + column + "' is " + t.simpleString() + ", not a vector or array<double>");
        }
    }

    /** d from the column's metadata, else {@code declared} (may be null), else null: nothing read. */
    static Integer declaredDimension(StructType schema, String column, Integer declared) {
        StructField f = schema.apply(column);
        Metadata m = f.metadata();
        if (m.contains("ml_attr") && m.getMetadata("ml_attr").contains("num_attrs")) {
            return (int) m.getMetadata("ml_attr").getLong("num_attrs");
        }
        return declared;
    }

    /** d as above, or (neither metadata nor declaration) the first row's length, as the CLI reads it. */
    static int dimension(Dataset<Row> df, String column, Integer declared) {
        Integer d = declaredDimension(df.schema(), column, declared);
        int dim = d != null ? d : SparkVectors.dimension(df, column);
        if (dim < 1) {
            throw new IllegalArgumentException("column '" + column + "': no rows with a vector");
        }
        return dim;
    }

    /** One row's features as read on an executor: a Spark ML vector or a sequence of numbers; NaNs for a null. */
    static double[] values(Object o, int d) {
        if (o instanceof Vector v) {
            double[] x = v.toArray();
            return x.length == d ? x : missing(d);
        }
        if (o instanceof scala.collection.Seq<?> seq) {
            if (seq.size() != d) {
                return missing(d);
            }
            double[] x = new double[d];
            for (int j = 0; j < d; j++) {
                Object e = seq.apply(j);
                x[j] = e == null ? Double.NaN : ((Number) e).doubleValue();
            }
            return x;
        }
        if (o instanceof List<?> list) {
            return values(scala.jdk.javaapi.CollectionConverters.asScala(new ArrayList<>(list)).toSeq(), d);
        }
        return missing(d);
    }

    private static double[] missing(int d) {
        double[] x = new double[d];
        java.util.Arrays.fill(x, Double.NaN);
        return x;
    }
}
