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
 * column named by the caller. Each feature column is cast to double (a value that does not parse becomes null, which
 * {@link SparkTable#requireValid} refuses), the label to a string.
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
        int colon = spec.indexOf(':');
        if (colon < 1) {
            throw new IllegalArgumentException("data '" + spec + "': expected parquet:PATH, csv:PATH or table:NAME");
        }
        String kind = spec.substring(0, colon);
        String where = spec.substring(colon + 1);
        Dataset<Row> df = switch (kind) {
            case "parquet" -> spark.read().parquet(where);
            case "csv" -> spark.read().option("header", "true").csv(where);
            case "table" -> spark.table(where);
            default -> throw new IllegalArgumentException("data '" + spec + "': unknown format '" + kind + "' (parquet, csv, table)");
        };
        return of(df, featureColumns, labelColumn);
    }

    /** A {@link SparkTable} of any data frame's named columns. */
    public static SparkTable of(Dataset<Row> df, List<String> featureColumns, String labelColumn) {
        List<String> present = List.of(df.columns());
        List<Column> features = new ArrayList<>();
        for (String f : featureColumns) {
            if (!present.contains(f)) {
                throw new IllegalArgumentException("no feature column '" + f + "' (columns: " + String.join(", ", present) + ")");
            }
            features.add(functions.col(f).cast(DataTypes.DoubleType));
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
