package org.privadapt.data.io;

import de.siegmar.fastcsv.reader.CsvReader;
import de.siegmar.fastcsv.reader.CsvRecord;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.privadapt.data.ClassLabels;
import org.privadapt.data.DataException;
import org.privadapt.data.Dataset;
import org.privadapt.data.Provenance;
import org.privadapt.data.preprocess.Preprocessing;
import org.privadapt.math.DenseMatrix;
import org.privadapt.math.FeatureMatrix;

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
 */
public final class RowChunks {
    private static final Pattern WHITESPACE = Pattern.compile("\\s+");
    private static final List<String> LABEL_NAMES = List.of("label", "labels", "class", "target", "y");
    private static final Set<String> MISSING = Set.of("", "?", "NA");

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
            String[] first = r.next();
            if (format.header()) {
                if (first == null) {
                    throw new DataException(file, "line 1", "file is empty: no header line");
                }
                for (String s : first) {
                    columns.add(s.trim());
                }
            } else {
                int c = first == null ? 0 : first.length;
                for (int j = 1; j <= c; j++) {
                    columns.add("c" + j);
                }
            }
        }
        String label = o.labelColumn();
        if (label == null) {
            for (String wanted : LABEL_NAMES) {
                for (String c : columns) {
                    if (label == null && c.toLowerCase(Locale.ROOT).equals(wanted)) {
                        label = c;
                    }
                }
            }
            if (label == null && !o.labelsOptional()) {
                throw new DataException(file, null, "no column named label, labels, class, target or y; name the label column "
                        + "with --label-column (or --label-column none for unlabelled data); columns are " + columns);
            }
            if (label == null) {
                label = "none";
            }
        } else if (o.labelsOptional() && !"none".equalsIgnoreCase(label) && !hasColumn(columns, label)) {
            label = "none";
        }
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
        if (chunkRows < 1) {
            throw new IllegalArgumentException("chunk rows must be at least 1, got " + chunkRows);
        }
        if (!preprocessing.dataDependentSteps().isEmpty()) {
            throw new IllegalArgumentException("preprocessing step(s) " + preprocessing.dataDependentSteps()
                    + " are fitted on the data: they cannot be applied block by block");
        }
        Scan s = new Scan(chunkRows, preprocessing, consumer);
        String sha;
        try (RecordReader r = new RecordReader(file, format, s::parseError)) {
            if (format.header()) {
                r.next(); // the header, read by open
            }
            String[] f;
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

    /** The state of one scan: the first problem of each kind, the block being filled. */
    private final class Scan {
        final int chunkRows;
        final Preprocessing pre;
        final Consumer consumer;
        final int d = featureCols.length;
        final double[] buf;
        final String[] labels;
        int filled;
        long kept;
        long lineRows; // rows after the header with the right field count, kept or not
        DataException parse;
        DataException fieldCount;
        DataException missing;
        // column types, per feature column: whether a number was seen, the first value that is not one
        final boolean[] hasNumber;
        final String[] firstOther;
        final long[] firstOtherLine;
        DataException label;
        boolean labelAllNumeric = true;
        boolean labelIntegral = true;
        final TreeSet<Double> numericClasses = new TreeSet<>();
        final TreeSet<String> stringClasses = new TreeSet<>();
        // after the preprocessing: the first non-finite value in column-major order, as Dataset.requireFinite finds it
        long badRow = -1;
        int badCol = Integer.MAX_VALUE;
        double badValue;
        boolean badBeforePreprocessing;

        Scan(int chunkRows, Preprocessing pre, Consumer consumer) {
            this.chunkRows = chunkRows;
            this.pre = pre;
            this.consumer = consumer;
            this.buf = new double[chunkRows * d];
            this.labels = labelCol >= 0 ? new String[chunkRows] : null;
            this.hasNumber = new boolean[d];
            this.firstOther = new String[d];
            this.firstOtherLine = new long[d];
        }

        boolean failed() {
            return parse != null || fieldCount != null || missing != null || label != null || badRow >= 0 || anyOther;
        }

        boolean anyOther;

        void parseError(DataException e) {
            if (parse == null) {
                parse = e;
            }
        }

        void row(String[] f, long line) {
            if (f.length != columns.size()) {
                if (fieldCount == null) {
                    fieldCount = new DataException(file, "line " + line, "expected " + columns.size() + " fields"
                            + (format.header() ? " (as in the header)" : "") + ", found " + f.length);
                }
                return;
            }
            lineRows++;
            int missingAt = -1;
            for (int j : featureCols) {
                if (MISSING.contains(f[j])) {
                    missingAt = j;
                    break;
                }
            }
            if (missingAt < 0 && labelCol >= 0 && MISSING.contains(f[labelCol])) {
                missingAt = labelCol;
            }
            if (missingAt >= 0) {
                if (!dropMissing && missing == null) {
                    missing = new DataException(file, pos(line, missingAt), "missing value '" + f[missingAt]
                            + "'; drop such rows with --missing drop");
                }
                return;
            }
            int at = filled * d;
            for (int c = 0; c < d; c++) {
                String s = f[featureCols[c]];
                double v = parseNumber(s);
                if (Double.isNaN(v)) {
                    if (firstOther[c] == null) {
                        firstOther[c] = s;
                        firstOtherLine[c] = line;
                        anyOther = true;
                    }
                } else {
                    hasNumber[c] = true;
                }
                buf[at + c] = v;
            }
            if (labelCol >= 0) {
                String s = f[labelCol];
                double v = parseNumber(s);
                if (!Double.isNaN(v)) {
                    labelIntegral &= v == Math.rint(v);
                    if (stringClasses.size() + numericClasses.size() <= 100_000) {
                        numericClasses.add(v);
                    }
                } else {
                    labelAllNumeric = false;
                    if (TableEncoder.isNonFinite(s) && label == null) {
                        label = new DataException(file, pos(line, labelCol), "label '" + s + "' is not a finite number");
                    }
                }
                if (stringClasses.size() <= 100_000) {
                    stringClasses.add(s);
                }
                labels[filled] = s;
            }
            filled++;
            kept++;
            if (filled == chunkRows) {
                flush();
            }
        }

        void flush() {
            if (filled == 0) {
                return;
            }
            int m = filled;
            long first = kept - m;
            filled = 0;
            if (failed()) {
                return; // nothing more is handed out after a problem; the scan goes on to report the loader's first one
            }
            double[] col = new double[m * d];
            for (int a = 0; a < m; a++) {
                for (int c = 0; c < d; c++) {
                    col[a + c * m] = buf[a * d + c];
                }
            }
            DenseMatrix x = new DenseMatrix(m, d, col);
            Dataset chunk = new Dataset(domain, x, null, featureNames, new Provenance(List.of(
                    new Provenance.SourceFile(file.toString(), "", "text", "rows " + (first + 1) + ".." + (first + m))), List.of()));
            FeatureMatrix out = pre.fitAndApply(chunk).features();
            DenseMatrix dense = out instanceof DenseMatrix dm ? dm : out.toDense();
            int[] bad = dense.firstNonFinite();
            if (bad != null) {
                badRow = first + bad[0];
                badCol = bad[1];
                badValue = dense.get(bad[0], bad[1]);
                return;
            }
            consumer.accept(new Chunk(dense, labels == null ? null : java.util.Arrays.copyOf(labels, m), first));
        }

        void finish() throws DataException {
            if (parse != null) {
                throw parse;
            }
            if (fieldCount != null) {
                throw fieldCount;
            }
            if (missing != null) {
                throw missing;
            }
            for (int c = 0; c < d; c++) {
                if (firstOther[c] != null) {
                    String s = firstOther[c];
                    String where = pos(firstOtherLine[c], featureCols[c]);
                    String colName = columns.get(featureCols[c]);
                    if (hasNumber[c]) {
                        throw new DataException(file, where, "'" + s + "' is not " + (TableEncoder.isNonFinite(s) ? "a finite number" : "a number")
                                + " (column '" + colName + "' holds numbers elsewhere)");
                    }
                    throw new DataException(file, where, "column '" + colName + "' is categorical ('" + s
                            + "'); encode it with --categorical one-hot or drop it with --drop-columns");
                }
            }
            if (label != null) {
                throw label;
            }
            if (kept == 0) {
                throw new DataException(file.toString(), null, "domain '" + domain + "' has no examples");
            }
            if (d == 0) {
                throw new DataException(file.toString(), null, "domain '" + domain + "' has no features");
            }
            if (badRow >= 0) {
                throw new DataException(file.toString(), "row " + (badRow + 1) + ", column " + (badCol + 1),
                        "value " + badValue + " is not a finite number");
            }
        }

        List<String> classNames() {
            if (labelCol < 0 || (labelAllNumeric && !labelIntegral) || stringClasses.size() > 100_000) {
                return null;
            }
            if (labelAllNumeric) {
                List<String> names = new ArrayList<>();
                for (double v : numericClasses) {
                    names.add(ClassLabels.fromValues(new double[] {v}).names().get(0));
                }
                return names;
            }
            return new ArrayList<>(stringClasses);
        }

        private String pos(long line, int j) {
            return "line " + line + ", field " + (j + 1) + " ('" + columns.get(j) + "')";
        }
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

    private static boolean hasColumn(List<String> columns, String label) {
        if (columns.contains(label)) {
            return true;
        }
        try {
            int k = Integer.parseInt(label.trim());
            return k >= 1 && k <= columns.size();
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** {@link TextTable#columnIndex}, on the header alone. */
    private static int columnIndex(Path file, List<String> columns, String nameOrNumber) throws DataException {
        return TextTable.columnIndex(file, columns, nameOrNumber);
    }

    /**
     * The records of a table file one at a time, split as {@link TextTable#read} splits them (FastCSV for delimited
     * files; lines split on white space otherwise; blank lines and lines with the skip prefix skipped), with a digest of
     * the bytes read.
     */
    private static final class RecordReader implements AutoCloseable {
        private final Path file;
        private final TextTable.Format format;
        private final java.util.function.Consumer<DataException> onParseError;
        private final MessageDigest md;
        private final InputStream in;
        private final BufferedReader reader;
        private final java.util.Iterator<CsvRecord> records;
        private final CsvReader<CsvRecord> csv;
        private long line;
        private long lineNo; // whitespace text: the number of lines read
        private boolean done;

        RecordReader(Path file, TextTable.Format format, java.util.function.Consumer<DataException> onParseError) throws DataException {
            this.file = file;
            this.format = format;
            this.onParseError = onParseError;
            try {
                md = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("SHA-256 unavailable", e);
            }
            try {
                in = new DigestInputStream(Files.newInputStream(file), md);
                reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
                reader.mark(1);
                int c = reader.read();
                if (c != '\uFEFF') {
                    reader.reset();
                }
            } catch (IOException e) {
                throw new DataException(file, null, "cannot read file: " + e.getMessage(), e);
            }
            boolean delimited = switch (format.separator()) {
                case COMMA, TAB, SEMICOLON -> true;
                default -> false;
            };
            if (delimited) {
                char sep = switch (format.separator()) {
                    case TAB -> '\t';
                    case SEMICOLON -> ';';
                    default -> ',';
                };
                csv = CsvReader.builder().fieldSeparator(sep).quoteCharacter('"').skipEmptyLines(true)
                        .ignoreDifferentFieldCount(true).ofCsvRecord((Reader) reader);
                records = csv.iterator();
            } else {
                csv = null;
                records = null;
            }
        }

        /** The line of the record last returned. */
        long line() {
            return line;
        }

        /** The next record, or null at the end (or after a parse error, reported to {@code onParseError} or thrown). */
        String[] next() throws DataException {
            if (done) {
                return null;
            }
            try {
                return csv != null ? nextDelimited() : nextLine();
            } catch (IOException | RuntimeException e) {
                done = true;
                DataException de = e instanceof IOException && !(e instanceof java.io.UncheckedIOException)
                        ? new DataException(file, null, "cannot read file: " + e.getMessage(), e)
                        : new DataException(file, null, "malformed delimited text: " + e.getMessage(), e);
                if (onParseError == null) {
                    throw de;
                }
                onParseError.accept(de);
                return null;
            }
        }

        private String[] nextDelimited() {
            while (records.hasNext()) {
                CsvRecord rec = records.next();
                List<String> f = rec.getFields();
                if (format.skipPrefix() != null && !f.isEmpty() && f.get(0).startsWith(format.skipPrefix())) {
                    continue;
                }
                if (f.size() == 1 && f.get(0).isBlank()) {
                    continue;
                }
                String[] arr = new String[f.size()];
                for (int j = 0; j < arr.length; j++) {
                    arr[j] = f.get(j).trim();
                }
                line = rec.getStartingLineNumber();
                return arr;
            }
            done = true;
            return null;
        }

        private String[] nextLine() throws IOException {
            StringBuilder sb = new StringBuilder();
            while (true) {
                sb.setLength(0);
                int c;
                boolean any = false;
                while ((c = reader.read()) >= 0 && c != '\n') {
                    sb.append((char) c);
                    any = true;
                }
                if (c < 0 && !any) {
                    done = true;
                    return null;
                }
                lineNo++;
                int len = sb.length();
                if (len > 0 && sb.charAt(len - 1) == '\r') {
                    sb.setLength(len - 1); // split("\r?\n")
                }
                String s = sb.toString();
                if (s.isBlank() || (format.skipPrefix() != null && s.startsWith(format.skipPrefix()))) {
                    if (c < 0) {
                        done = true;
                        return null;
                    }
                    continue;
                }
                line = lineNo;
                if (format.separator() != TextTable.Separator.WHITESPACE) {
                    throw new IllegalArgumentException("fixed-width text is not read in chunks");
                }
                return WHITESPACE.split(s.trim());
            }
        }

        /** The digest of every byte of the file (the rest is read first). */
        String sha256() throws DataException {
            try {
                byte[] skip = new byte[1 << 16];
                while (in.read(skip) > 0) {
                    // the remaining bytes, for the digest
                }
            } catch (IOException e) {
                throw new DataException(file, null, "cannot read file: " + e.getMessage(), e);
            }
            return HexFormat.of().formatHex(md.digest());
        }

        @Override
        public void close() throws DataException {
            try {
                if (csv != null) {
                    csv.close();
                }
                reader.close();
            } catch (IOException e) {
                throw new DataException(file, null, "cannot read file: " + e.getMessage(), e);
            }
        }
    }
}
