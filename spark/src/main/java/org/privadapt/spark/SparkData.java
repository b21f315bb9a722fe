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
     * when every value is there and finite: one pass over the rows, counting per column the values that are
     * missing, that are not numbers (e.g. {@code 'abc'} in a CSV file) and that are non-finite, and the missing
     * labels ({@code ValueCounts}). A local check before anything is charged: nothing leaves the party.
     */
    public static String firstProblem(Dataset<Row> df, List<String> featureColumns, String labelColumn) {
        List<Column> cols = new ArrayList<>();
        for (String f : featureColumns) {
            cols.add(functions.col(f));
        }
        if (labelColumn != null) {
            cols.add(functions.col(labelColumn));
        }
        Dataset<Row> sel = df.select(cols.toArray(new Column[0]));
        int d = featureColumns.size();
        boolean labelled = labelColumn != null;
        ValueCounts counts = sel.javaRDD()
                .mapPartitions(it -> {
                    ValueCounts c = new ValueCounts(d);
                    while (it.hasNext()) {
                        c.add(it.next(), labelled);
                    }
                    return java.util.List.of(c).iterator();
                })
                .reduce(ValueCounts::merge);
        if (counts.rows == 0) {
            return "no rows";
        }
        long[] r = counts.asAggregate();
        for (int j = 0; j < featureColumns.size(); j++) {
            String f = featureColumns.get(j);
            long missing = r[3 * j];
            long notNumber = r[3 * j + 1];
            long nonFinite = r[3 * j + 2];
            if (notNumber > 0) {
                Row example = df.filter(functions.col(f).isNotNull().and(functions.col(f).try_cast(DataTypes.DoubleType).isNull()))
                        .select(functions.col(f).cast(DataTypes.StringType)).first();
                return "column '" + f + "': " + org.privadapt.data.PrivateText.count(notNumber) + " value(s) are not numbers (e.g. "
                        + org.privadapt.data.PrivateText.quoted(example.getString(0)) + ")";
            }
            if (missing > 0) {
                return "column '" + f + "': " + org.privadapt.data.PrivateText.count(missing) + " value(s) are missing";
            }
            if (nonFinite > 0) {
                return "column '" + f + "': " + org.privadapt.data.PrivateText.count(nonFinite) + " value(s) are not finite (NaN or infinite)";
            }
        }
        if (labelColumn != null) {
            long missing = r[3 * featureColumns.size()];
            if (missing > 0) {
                return "column '" + labelColumn + "': " + missing + " label(s) are missing";
            }
        }
        return null;
    }

    /**
     * Per feature column the values that are missing, not numbers and non-finite, the missing labels and the rows: one
     * partition's counts, merged on the driver. A value is read as the feature's {@code try_cast(... AS DOUBLE)} reads
     * it ({@link #asDouble}): a number as it is (a boolean as 1 or 0), a string as Spark parses it, anything else as not
     * a number. Plain Java per row: the same counts as an aggregate of 3 d Spark expressions, which at d = 1024 ran
     * interpreted (past Spark's code-generation limits) and took minutes for 10^5 rows.
     */
    static final class ValueCounts implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        final long[] missing;
        final long[] notNumber;
        final long[] nonFinite;
        long missingLabels;
        long rows;

        ValueCounts(int d) {
            missing = new long[d];
            notNumber = new long[d];
            nonFinite = new long[d];
        }

        void add(Row row, boolean labelled) {
            rows++;
            for (int j = 0; j < missing.length; j++) {
                if (row.isNullAt(j)) {
                    missing[j]++;
                    continue;
                }
                Double v = asDouble(row.get(j));
                if (v == null) {
                    notNumber[j]++;
                } else if (v.isNaN() || v.isInfinite()) {
                    nonFinite[j]++;
                }
            }
            if (labelled && row.isNullAt(missing.length)) {
                missingLabels++;
            }
        }

        ValueCounts merge(ValueCounts o) {
            for (int j = 0; j < missing.length; j++) {
                missing[j] += o.missing[j];
                notNumber[j] += o.notNumber[j];
                nonFinite[j] += o.nonFinite[j];
            }
            missingLabels += o.missingLabels;
            rows += o.rows;
            return this;
        }

        /** The counts laid out as the per-column triples (missing, not a number, non-finite), then the missing labels. */
        long[] asAggregate() {
            long[] r = new long[3 * missing.length + 1];
            for (int j = 0; j < missing.length; j++) {
                r[3 * j] = missing[j];
                r[3 * j + 1] = notNumber[j];
                r[3 * j + 2] = nonFinite[j];
            }
            r[3 * missing.length] = missingLabels;
            return r;
        }
    }

    /**
     * A non-null value as {@code try_cast(value AS DOUBLE)} gives it, or null where that cast gives null: numbers and
     * booleans convert; a string is {@code Double.parseDouble} of it (which trims spaces and control characters), else
     * one of Spark's special literals (trimmed, any case: inf, +inf, infinity, +infinity, -inf, -infinity, nan; not
     * "+nan" or "-nan"); other types (dates, binary, arrays) are not numbers. {@code SparkDataTest} checks this
     * against Spark's cast.
     */
    static Double asDouble(Object v) {
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        if (v instanceof Boolean b) {
            return b ? 1.0 : 0.0;
        }
        if (v instanceof String s) {
            try {
                return Double.parseDouble(s);
            } catch (NumberFormatException e) {
                return switch (s.trim().toLowerCase(java.util.Locale.ROOT)) {
                    case "inf", "+inf", "infinity", "+infinity" -> Double.POSITIVE_INFINITY;
                    case "-inf", "-infinity" -> Double.NEGATIVE_INFINITY;
                    case "nan" -> Double.NaN;
                    default -> null;
                };
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
