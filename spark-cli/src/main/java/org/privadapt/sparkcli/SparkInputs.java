package org.privadapt.sparkcli;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructType;
import org.privadapt.data.DataException;

/**
 * What {@code --engine spark} checks about a party's data before reading any row (issue 45 item 4), each refusal one
 * line naming the data (exit 3), before anything is charged:
 * <ul>
 * <li>the files are what the spec says: {@code parquet:} names Parquet files (their first bytes are Parquet's magic
 * {@code PAR1}), {@code csv:} names one CSV file, not Parquet and not a directory of several files (which Spark would
 * silently concatenate);</li>
 * <li>every feature column holds numbers: a numeric type, or text to be parsed (CSV); a timestamp, date, boolean,
 * binary or nested column is refused by its type (a boolean is not read as 0/1: the CSV reader refuses {@code true}
 * too).</li>
 * </ul>
 * File names and column types are the layout, not the rows.
 */
final class SparkInputs {
    /** Files whose first bytes are checked in a directory (a table of thousands of files is not opened file by file). */
    private static final int FILES_CHECKED = 8;

    private SparkInputs() {
    }

    /** The files behind {@code parquet:PATH} or {@code csv:PATH} are of that kind (a table name is the catalog's). */
    static void checkFiles(SparkSession spark, String spec) throws DataException {
        int colon = spec.indexOf(':');
        String kind = spec.substring(0, colon);
        String where = spec.substring(colon + 1);
        if (!kind.equals("parquet") && !kind.equals("csv")) {
            return;
        }
        List<FileStatus> files = new ArrayList<>();
        FileSystem fs;
        boolean directory;
        try {
            Path p = new Path(where);
            fs = p.getFileSystem(spark.sparkContext().hadoopConfiguration());
            if (!fs.exists(p)) {
                return; // Spark's own refusal names the missing path
            }
            FileStatus st = fs.getFileStatus(p);
            directory = st.isDirectory();
            if (directory) {
                Arrays.stream(fs.listStatus(p)).filter(f -> f.isFile() && !hidden(f.getPath().getName())).forEach(files::add);
            } else {
                files.add(st);
            }
        } catch (Exception e) {
            return; // listing failed: Spark's read reports it
        }
        for (FileStatus f : files.subList(0, Math.min(FILES_CHECKED, files.size()))) {
            boolean parquet = parquetMagic(fs, f);
            String name = directory ? " (file '" + f.getPath().getName() + "')" : "";
            if (kind.equals("parquet") && !parquet) {
                throw new DataException(where, null, "is not Parquet" + name + ": it does not begin with Parquet's magic bytes "
                        + "(a CSV file: --data csv:PATH)");
            }
            if (kind.equals("csv") && parquet) {
                throw new DataException(where, null, "is Parquet, not CSV" + name + "; use --data parquet:PATH");
            }
        }
        if (kind.equals("csv") && directory && files.size() > 1) {
            throw new DataException(where, null, "is a directory of " + files.size() + " files; --data csv:PATH reads one CSV file "
                    + "(name the file; a table in several files: parquet:DIR or table:NAME)");
        }
    }

    /** Spark's and Hadoop's hidden files in a table directory (_SUCCESS, .crc, _metadata). */
    private static boolean hidden(String name) {
        return name.startsWith("_") || name.startsWith(".");
    }

    private static boolean parquetMagic(FileSystem fs, FileStatus f) {
        if (f.getLen() < 4) {
            return false;
        }
        byte[] b = new byte[4];
        try (InputStream in = fs.open(f.getPath())) {
            int got = 0;
            while (got < 4) {
                int r = in.read(b, got, 4 - got);
                if (r < 0) {
                    return false;
                }
                got += r;
            }
        } catch (Exception e) {
            return false;
        }
        String m = new String(b, java.nio.charset.StandardCharsets.ISO_8859_1);
        return m.equals("PAR1") || m.equals("PARE"); // PARE: encrypted footer
    }

    /** Every feature column holds numbers (a numeric type, or text parsed as a number, as in a CSV file). */
    static void checkTypes(StructType schema, List<String> featureColumns, String where) throws DataException {
        for (String c : featureColumns) {
            DataType t = schema.apply(c).dataType();
            if (t instanceof NumericType || t instanceof StringType) {
                continue;
            }
            throw new DataException(where, "column '" + c + "'", "its type is " + t.simpleString() + ", not a number"
                    + (t instanceof BooleanType ? " (true/false are not read as 1/0, as in a CSV file)" : "")
                    + "; name numeric columns");
        }
    }
}
