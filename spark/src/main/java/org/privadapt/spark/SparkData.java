package org.privadapt.spark;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;

/**
 * Reads a party's rows into a {@link SparkTable}: Parquet ({@code parquet:PATH}), CSV with a header line
 * ({@code csv:PATH}) or a table of the session's catalog ({@code table:NAME}), with the feature columns and the label
 * column named by the caller. Each feature column is cast to double with {@code try_cast} (a value that does not parse
 * becomes null, which {@link SparkTable#requireValid} refuses and {@link #firstProblem} names; Spark 4's ANSI cast
 * would fail the job instead), the label to a string.
 */
public final class SparkData {
    private SparkData() {
    }

    /**
     * @param spec           {@code parquet:PATH}, {@code csv:PATH} or {@code table:NAME}
     * @param featureColumns the feature columns, in order (the layout, public)
     * @param labelColumn    the label column, or null for unlabelled rows
     */
    public static SparkTable read(SparkSession spark, String spec, List<String> featureColumns, String labelColumn) {
        return of(frame(spark, spec), featureColumns, labelColumn);
    }

    /** The data frame a spec names, all its columns as stored (CSV: strings). */
    public static Dataset<Row> frame(SparkSession spark, String spec) {
        int colon = spec.indexOf(':');
        if (colon < 1) {
            throw new IllegalArgumentException("data '" + spec + "': expected parquet:PATH, csv:PATH or table:NAME");
        }
        String kind = spec.substring(0, colon);
        String where = spec.substring(colon + 1);
        return switch (kind) {
            case "parquet" -> spark.read().parquet(where);
            case "csv" -> spark.read().option("header", "true").csv(where);
            case "table" -> spark.table(where);
            default -> throw new IllegalArgumentException("data '" + spec + "': unknown format '" + kind + "' (parquet, csv, table)");
        };
    }

    /**
     * The first column (in the given order) with a value a release refuses, as {@code column 'NAME': what}, or null
     * when every value is there and finite: one aggregate pass over the rows, counting per column the values that are
     * missing, that are not numbers (e.g. {@code 'abc'} in a CSV file) and that are non-finite, and the missing
     * labels. A local check before anything is charged: nothing leaves the party.
     */
    public static String firstProblem(Dataset<Row> df, List<String> featureColumns, String labelColumn) {
        List<Column> aggs = new ArrayList<>();
        for (String f : featureColumns) {
            Column raw = functions.col(f);
            Column v = raw.try_cast(DataTypes.DoubleType);
            aggs.add(functions.sum(functions.when(raw.isNull(), 1).otherwise(0)));
            aggs.add(functions.sum(functions.when(raw.isNotNull().and(v.isNull()), 1).otherwise(0)));
            aggs.add(functions.sum(functions.when(v.isNotNull().and(v.isNaN().or(functions.abs(v).equalTo(Double.POSITIVE_INFINITY))), 1)
                    .otherwise(0)));
        }
        if (labelColumn != null) {
            aggs.add(functions.sum(functions.when(functions.col(labelColumn).isNull(), 1).otherwise(0)));
        }
        aggs.add(functions.count(functions.lit(1)));
        Row r = df.agg(aggs.get(0), aggs.subList(1, aggs.size()).toArray(new Column[0])).first();
        long rows = r.getLong(aggs.size() - 1);
        if (rows == 0) {
            return "no rows";
        }
        for (int j = 0; j < featureColumns.size(); j++) {
            String f = featureColumns.get(j);
            long missing = r.isNullAt(3 * j) ? 0 : r.getLong(3 * j);
            long notNumber = r.isNullAt(3 * j + 1) ? 0 : r.getLong(3 * j + 1);
            long nonFinite = r.isNullAt(3 * j + 2) ? 0 : r.getLong(3 * j + 2);
            if (notNumber > 0) {
                Row example = df.filter(functions.col(f).isNotNull().and(functions.col(f).try_cast(DataTypes.DoubleType).isNull()))
                        .select(functions.col(f).cast(DataTypes.StringType)).first();
                return "column '" + f + "': " + notNumber + " value(s) are not numbers (e.g. '" + example.getString(0) + "')";
            }
            if (missing > 0) {
                return "column '" + f + "': " + missing + " value(s) are missing";
            }
            if (nonFinite > 0) {
                return "column '" + f + "': " + nonFinite + " value(s) are not finite (NaN or infinite)";
            }
        }
        if (labelColumn != null) {
            long missing = r.isNullAt(3 * featureColumns.size()) ? 0 : r.getLong(3 * featureColumns.size());
            if (missing > 0) {
                return "column '" + labelColumn + "': " + missing + " label(s) are missing";
            }
        }
        return null;
    }

    /** A {@link SparkTable} of any data frame's named columns. */
    public static SparkTable of(Dataset<Row> df, List<String> featureColumns, String labelColumn) {
        List<String> present = List.of(df.columns());
        List<Column> features = new ArrayList<>();
        for (String f : featureColumns) {
            if (!present.contains(f)) {
                throw new IllegalArgumentException("no feature column '" + f + "' (columns: " + String.join(", ", present) + ")");
            }
            features.add(functions.col(f).try_cast(DataTypes.DoubleType));
        }
        if (labelColumn != null && !present.contains(labelColumn)) {
            throw new IllegalArgumentException("no label column '" + labelColumn + "' (columns: " + String.join(", ", present) + ")");
        }
        Column array = functions.array(features.toArray(new Column[0])).as(SparkTable.FEATURES);
        Dataset<Row> rows = labelColumn == null ? df.select(array)
                : df.select(array, functions.col(labelColumn).cast(DataTypes.StringType).as(SparkTable.LABEL));
        return new SparkTable(rows, featureColumns, labelColumn);
    }
}
