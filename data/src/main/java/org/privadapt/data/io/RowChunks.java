package org.privadapt.data.io;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.DataException;
import org.privadapt.data.Dataset;
import org.privadapt.data.preprocess.Preprocessing;
import org.privadapt.math.DenseMatrix;

/**
 * A text table (CSV, TSV, whitespace text) read in blocks of rows, so that a sum over rows needs memory for one block
 * and the statistic, not for the whole file ({@code --engine stream}, docs/spark.md "Streaming on one machine").
 *
 * <p>Every row is checked as the whole-file loader ({@link DataFiles#load}, then {@link Dataset#requireNonEmpty} and
 * {@link Dataset#requireFinite} before and after the preprocessing) checks it, and a file it refuses is refused here
 * with the same one-line message naming the file and the line: the field count, missing values (an error, or the row
 * dropped with {@code --missing drop}), a value that is not a number, a categorical column, a label that is not a
 * finite number, an empty table, and a value the (row-local) preprocessing makes non-finite. Because the whole-file
 * loader reports the first problem of the highest kind in that order (a field count anywhere before a missing value
 * anywhere, column by column for the types), a {@link #scan} reads the whole file before it reports, and hands the
 * caller no block after the first problem found: the caller's statistic is only used when the scan returns, so a
 * release computed from a scan is never charged for on bad data.
 *
 * <p>Not streamed (refused when opened): MAT and SVMlight files, and one-hot encoding ({@code --categorical one-hot}),
 * whose levels, and so the layout, are read from every row.
 *
 * <p>The records are read by {@link RecordReader} (as {@link RecordFields}) and checked by {@link ChunkScan}.
 */
public final class RowChunks {
    private final Path file;
    private final String domain;
    private final TextTable.Format format;
    private final boolean dropMissing;
    private final List<String> columns;
    private final int labelCol;
    private final int[] featureCols;
    private final List<String> featureNames;

    private RowChunks(Path file, String domain, TextTable.Format format, boolean dropMissing, List<String> columns,
                      int labelCol, int[] featureCols) {
        this.file = file;
        this.domain = domain;
        this.format = format;
        this.dropMissing = dropMissing;
        this.columns = List.copyOf(columns);
        this.labelCol = labelCol;
        this.featureCols = featureCols;
        List<String> names = new ArrayList<>();
        for (int j : featureCols) {
            names.add(columns.get(j));
        }
        this.featureNames = List.copyOf(names);
    }

    /** True when {@link #open} reads a file of this name (by its extension, as {@link DataFiles#load} reads it). */
    public static boolean streams(Path file) {
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        return name.endsWith(".csv") || name.endsWith(".tsv") || name.endsWith(".tab") || name.endsWith(".txt")
                || name.endsWith(".asc") || name.endsWith(".dat") || name.endsWith(".data");
    }

    /**
     * Opens a table file for reading in blocks: reads its header (or first line) to find the columns, the label column
     * and the feature columns, as {@link DataFiles#load} does with the same options.
     *
     * @throws DataException as the whole-file loader would for a missing file, an empty file, or a column it cannot find
     * @throws IllegalArgumentException for what cannot be streamed (a MAT or SVMlight file, one-hot encoding)
     */
    public static RowChunks open(Path file, String domain, DataFiles.Options o) throws DataException {
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (!streams(file)) {
            Files2.requireReadable(file);
            throw new IllegalArgumentException(file + ": only CSV, TSV and whitespace text (.csv, .tsv, .tab, .txt, .asc, .dat, "
                    + ".data) are read in chunks; load a " + (name.contains(".") ? name.substring(name.lastIndexOf('.')) : "")
                    + " file whole (--engine inprocess)");
        }
        if (o.categorical()) {
            throw new IllegalArgumentException("--categorical one-hot reads its levels (the layout) from every row; it cannot be "
                    + "streamed: encode the columns beforehand or use --engine inprocess");
        }
        TextTable.Format format = TextTable.Format.forFileName(name);
        if (o.header() != null) {
            format = format.withHeader(o.header());
        }
        Files2.requireReadable(file);
        List<String> columns = new ArrayList<>();
        try (RecordReader r = new RecordReader(file, format, null)) {
            RecordFields first = r.next();
            if (format.header()) {
                if (first == null) {
                    throw new DataException(file, "line 1", "file is empty: no header line");
                }
                for (int j = 0; j < first.size(); j++) {
                    columns.add(first.text(j).trim());
                }
            } else {
                int c = first == null ? 0 : first.size();
                for (int j = 1; j <= c; j++) {
                    columns.add("c" + j);
                }
            }
        }
        String label = LabelColumns.resolve(file, columns, format.header(), o);
        int labelCol = "none".equalsIgnoreCase(label) ? -1 : columnIndex(file, columns, label);
        Set<Integer> dropped = new HashSet<>();
        for (String d : o.dropColumns()) {
            dropped.add(columnIndex(file, columns, d));
        }
        List<Integer> fc = new ArrayList<>();
        for (int j = 0; j < columns.size(); j++) {
            if (j != labelCol && !dropped.contains(j)) {
                fc.add(j);
            }
        }
        return new RowChunks(file, domain, format, o.dropMissing(), columns, labelCol,
                fc.stream().mapToInt(Integer::intValue).toArray());
    }

    public Path file() {
        return file;
    }

    public String domain() {
        return domain;
    }

    /** The most values one block may hold: one Java array. */
    public static final long MAX_BLOCK_VALUES = Integer.MAX_VALUE - 8;

    /** The largest block, in rows, of a table of {@code d} features (one array of at most {@link #MAX_BLOCK_VALUES}). */
    public static int maxChunkRows(int d) {
        return (int) (MAX_BLOCK_VALUES / Math.max(1, d));
    }

    /** The number of features (the header's columns less the label and dropped ones: public, as the header is). */
    public int dimension() {
        return featureCols.length;
    }

    public List<String> featureNames() {
        return featureNames;
    }

    /** True when a label column was found (or named); its values are handed to the scan's consumer. */
    public boolean labelled() {
        return labelCol >= 0;
    }

    /** One block of consecutive (kept) rows, preprocessed. */
    public record Chunk(DenseMatrix features, String[] labels, long firstRow) {
        public int rows() {
            return features.rows();
        }
    }

    /** Receives the blocks of a scan, in file order. */
    @FunctionalInterface
    public interface Consumer {
        void accept(Chunk chunk);
    }

    /**
     * What a complete scan found: the number of rows kept (private: for the caller's local uses only, as the in-process
     * path uses a dataset's size), the class names as the whole-file loader codes them (null when unlabelled or the
     * labels are real numbers), and the SHA-256 of the file's bytes (a later scan of a changed file is refused).
     */
    public record Summary(long rows, List<String> classNames, String sha256) {
    }

    /**
     * Reads the whole file once: checks every row (see the class comment), applies {@code preprocessing} (row-local steps
     * only: a step fitted on the data is refused) to blocks of at most {@code chunkRows} rows and hands them to
     * {@code consumer}, then reports the first problem as the whole-file loader would, or returns the summary.
     *
     * @param expectedSha256 the digest of a previous scan, or null; when given and the file's differs, refused
     * @throws DataException as the whole-file loader (and the finite checks around the preprocessing) would refuse
     */
    public Summary scan(int chunkRows, Preprocessing preprocessing, Consumer consumer, String expectedSha256) throws DataException {
        if (chunkRows < 1 || (long) chunkRows * Math.max(1, featureCols.length) > MAX_BLOCK_VALUES) {
            throw new IllegalArgumentException("chunk rows must be in [1, " + maxChunkRows(featureCols.length) + "] for "
                    + featureCols.length + " features, got " + chunkRows);
        }
        if (!preprocessing.dataDependentSteps().isEmpty()) {
            throw new IllegalArgumentException("preprocessing step(s) " + preprocessing.dataDependentSteps()
                    + " are fitted on the data: they cannot be applied block by block");
        }
        ChunkScan s = new ChunkScan(this, chunkRows, preprocessing, consumer);
        String sha;
        try (RecordReader r = new RecordReader(file, format, s::parseError)) {
            if (format.header()) {
                r.next(); // the header, read by open
            }
            RecordFields f;
            while ((f = r.next()) != null) {
                s.row(f, r.line());
            }
            s.flush();
            sha = r.sha256();
        }
        s.finish();
        if (expectedSha256 != null && !expectedSha256.equals(sha)) {
            throw new DataException(file, null, "the file changed since it was first read (its SHA-256 differs); read it again");
        }
        return new Summary(s.kept, s.classNames(), sha);
    }

    // the reader's state, for the scan (ChunkScan)

    TextTable.Format format() {
        return format;
    }

    boolean dropMissing() {
        return dropMissing;
    }

    /** The header's columns (or c1, c2, ... without one). */
    List<String> columns() {
        return columns;
    }

    /** The label column's index among {@link #columns}, or -1. */
    int labelColumn() {
        return labelCol;
    }

    /** The feature columns' indices among {@link #columns} (not a copy: the scan only reads it). */
    int[] featureColumns() {
        return featureCols;
    }

    /**
     * The class name the whole-file loader gives a label (a number is named by its value, {@code 1} and {@code 1.0}
     * alike; anything else is itself).
     */
    public static String className(String label) {
        double v = parseNumber(label);
        return Double.isNaN(v) ? label : ClassLabels.fromValues(new double[] {v}).names().get(0);
    }

    /** The value of a field the loader reads as a number ({@link TableEncoder#isNumber}), else NaN. */
    static double parseNumber(String s) {
        return DecimalParser.parse(s);
    }

    /** {@link TextTable#columnIndex}, on the header alone. */
    private static int columnIndex(Path file, List<String> columns, String nameOrNumber) throws DataException {
        return TextTable.columnIndex(file, columns, nameOrNumber);
    }
}
