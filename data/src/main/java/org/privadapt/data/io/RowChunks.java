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
import org.privadapt.data.PrivateText;
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
            Fields first = r.next();
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
        Scan s = new Scan(chunkRows, preprocessing, consumer);
        String sha;
        try (RecordReader r = new RecordReader(file, format, s::parseError)) {
            if (format.header()) {
                r.next(); // the header, read by open
            }
            Fields f;
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
        boolean anyOther;
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

        void parseError(DataException e) {
            if (parse == null) {
                parse = e;
            }
        }

        void row(Fields f, long line) {
            int size = f.size();
            if (size != columns.size()) {
                if (fieldCount == null) {
                    fieldCount = new DataException(file, "line " + PrivateText.row(line), "expected " + columns.size() + " fields"
                            + (format.header() ? " (as in the header)" : "") + ", found " + PrivateText.count(size));
                }
                return;
            }
            lineRows++;
            int missingAt = -1;
            for (int j : featureCols) {
                if (f.missing(j)) {
                    missingAt = j;
                    break;
                }
            }
            if (missingAt < 0 && labelCol >= 0 && f.missing(labelCol)) {
                missingAt = labelCol;
            }
            if (missingAt >= 0) {
                if (!dropMissing && missing == null) {
                    missing = new DataException(file, pos(line, missingAt), "missing value " + PrivateText.quoted(f.text(missingAt))
                            + "; drop such rows with --missing drop");
                }
                return;
            }
            int at = filled * d;
            for (int c = 0; c < d; c++) {
                double v = f.number(featureCols[c]);
                if (Double.isNaN(v)) {
                    if (firstOther[c] == null) {
                        firstOther[c] = f.text(featureCols[c]);
                        firstOtherLine[c] = line;
                        anyOther = true;
                    }
                } else {
                    hasNumber[c] = true;
                }
                buf[at + c] = v;
            }
            if (labelCol >= 0) {
                String s = f.text(labelCol);
                double v = parseNumber(s);
                if (!Double.isNaN(v)) {
                    labelIntegral &= v == Math.rint(v);
                    if (stringClasses.size() + numericClasses.size() <= 100_000) {
                        numericClasses.add(v);
                    }
                } else {
                    labelAllNumeric = false;
                    if (label == null && TableEncoder.isNonFinite(s)) {
                        label = new DataException(file, pos(line, labelCol), "label " + PrivateText.quoted(s) + " is not a finite number");
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
            for (int a0 = 0; a0 < m; a0 += 64) { // in tiles of 64 rows: the writes run along a column
                int a1 = Math.min(m, a0 + 64);
                for (int c = 0; c < d; c++) {
                    int to = c * m;
                    for (int a = a0; a < a1; a++) {
                        col[a + to] = buf[a * d + c];
                    }
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
                        throw new DataException(file, where, PrivateText.quoted(s) + " is not " + (TableEncoder.isNonFinite(s) ? "a finite number" : "a number")
                                + " (column '" + colName + "' holds numbers elsewhere)");
                    }
                    throw new DataException(file, where, "column '" + colName + "' is categorical (" + PrivateText.quoted(s)
                            + "); encode it with --categorical one-hot or drop it with --drop-columns");
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
                throw new DataException(file.toString(), "row " + PrivateText.row(badRow + 1) + ", column " + (badCol + 1),
                        "value " + PrivateText.value(badValue) + " is not a finite number");
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
            return "line " + PrivateText.row(line) + ", field " + (j + 1) + " ('" + columns.get(j) + "')";
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

    /** {@link TextTable#columnIndex}, on the header alone. */
    private static int columnIndex(Path file, List<String> columns, String nameOrNumber) throws DataException {
        return TextTable.columnIndex(file, columns, nameOrNumber);
    }

    /** One record as the reader hands it out (valid until the next one is read). */
    private interface Fields {
        int size();

        /** The field's text: trimmed ({@code String.trim}) for delimited files, the whitespace-split token otherwise. */
        String text(int j);

        /** True for the loader's missing values: an empty field, {@code ?} or {@code NA}. */
        boolean missing(int j);

        /** {@link #parseNumber} of the field's text. */
        double number(int j);
    }

    /** A record split into strings (FastCSV's, a regular-expression split, or a line with non-ASCII text). */
    private static final class StringFields implements Fields {
        private final String[] f;

        StringFields(String[] f) {
            this.f = f;
        }

        @Override
        public int size() {
            return f.length;
        }

        @Override
        public String text(int j) {
            return f[j];
        }

        @Override
        public boolean missing(int j) {
            return MISSING.contains(f[j]);
        }

        @Override
        public double number(int j) {
            return parseNumber(f[j]);
        }
    }

    /** A record of an ASCII line, its fields as ranges of the reader's byte buffer: no string per field. */
    private static final class ByteFields implements Fields {
        byte[] buf;
        int[] from = new int[64];
        int[] to = new int[64];
        int n;

        @Override
        public int size() {
            return n;
        }

        @Override
        public String text(int j) {
            return new String(buf, from[j], to[j] - from[j], StandardCharsets.ISO_8859_1);
        }

        @Override
        public boolean missing(int j) {
            int a = from[j];
            int len = to[j] - a;
            return len == 0 || (len == 1 && buf[a] == '?') || (len == 2 && buf[a] == 'N' && buf[a + 1] == 'A');
        }

        @Override
        public double number(int j) {
            return DecimalParser.parse(buf, from[j], to[j]);
        }

        /** {@code String.trim} of every field (of ASCII text). */
        void trim() {
            byte[] b = buf;
            for (int j = 0; j < n; j++) {
                int s = from[j];
                int e = to[j];
                if (s < e && (b[s] <= ' ' || b[e - 1] <= ' ')) {
                    while (s < e && b[s] <= ' ') {
                        s++;
                    }
                    while (e > s && b[e - 1] <= ' ') {
                        e--;
                    }
                    from[j] = s;
                    to[j] = e;
                }
            }
        }

        void add(int a, int b) {
            if (n == from.length) {
                from = java.util.Arrays.copyOf(from, 2 * n);
                to = java.util.Arrays.copyOf(to, 2 * n);
            }
            from[n] = a;
            to[n] = b;
            n++;
        }
    }

    /**
     * The records of a table file one at a time, split as {@link TextTable#read} splits them (FastCSV for delimited
     * files; lines split on white space otherwise; blank lines and lines with the skip prefix skipped), with a digest of
     * the bytes read.
     *
     * <p>Lines are read as bytes, and a line of plain ASCII text is split here, without a string per field: for a
     * delimited file, a line with no quote character and no carriage return but the one before its line feed is what
     * FastCSV makes of it, its fields split at every separator (RFC 4180 quoting is the only thing that changes that);
     * a line with other bytes than ASCII is decoded (UTF-8, as a whole: the line feed and the separators are ASCII, which
     * no UTF-8 sequence, well-formed or not, includes) and split the same way. The first line with a quote character, a
     * lone carriage return, more than FastCSV's 16384 fields or more than a megabyte is left to FastCSV: the file is read
     * again from its start by FastCSV, which hands out the records from that line on (the earlier ones, one per line and
     * numbered as here, were handed out already), so that quoting, line numbers and FastCSV's own errors are as before.
     */
    private static final class RecordReader implements AutoCloseable {
        /** FastCSV's default limit on the fields of a record (CsvRecordHandler's maxFields). */
        private static final int MAX_FIELDS = 16 * 1024;
        /** A longer line is left to the slower reader. */
        private static final int MAX_LINE = 1 << 20;

        private final Path file;
        private final TextTable.Format format;
        private final java.util.function.Consumer<DataException> onParseError;
        private final MessageDigest md;
        private final boolean delimited;
        private final char sep;
        // the fast reader: bytes
        private InputStream raw;
        private byte[] buf;
        private int pos;
        private int lim;
        private boolean eof;
        private final ByteFields fields = new ByteFields();
        // the reader it hands over to (or the only one, for a skip prefix): FastCSV or whole lines as text
        private InputStream in;
        private BufferedReader reader;
        private java.util.Iterator<CsvRecord> records;
        private CsvReader<CsvRecord> csv;
        private long skipBefore; // the records (lines) before this line were handed out by the fast reader
        private long line;
        private long lineNo; // the number of lines read
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
            delimited = switch (format.separator()) {
                case COMMA, TAB, SEMICOLON -> true;
                default -> false;
            };
            sep = switch (format.separator()) {
                case TAB -> '\t';
                case SEMICOLON -> ';';
                default -> ',';
            };
            // a skip prefix, or FastCSV's buffer limited by a system property: the text readers alone
            boolean fast = format.skipPrefix() == null && (format.separator() == TextTable.Separator.WHITESPACE
                    || (delimited && System.getProperty("fastcsv.max.field.size") == null));
            try {
                if (fast) {
                    raw = Files.newInputStream(file);
                    buf = new byte[2 * MAX_LINE];
                    fields.buf = buf;
                    while (lim < 3 && !eof) {
                        fill();
                    }
                    if (lim >= 3 && buf[0] == (byte) 0xEF && buf[1] == (byte) 0xBB && buf[2] == (byte) 0xBF) {
                        pos = 3; // the byte order mark, U+FEFF
                    }
                } else {
                    openText();
                }
            } catch (IOException e) {
                throw new DataException(file, null, "cannot read file: " + e.getMessage(), e);
            }
        }

        /** Opens the text reader (FastCSV, or whole lines) at the file's start, after a byte order mark. */
        private void openText() throws IOException {
            in = new DigestInputStream(Files.newInputStream(file), md);
            reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
            reader.mark(1);
            int c = reader.read();
            if (c != '\uFEFF') {
                reader.reset();
            }
            if (delimited) {
                csv = CsvReader.builder().fieldSeparator(sep).quoteCharacter('"').skipEmptyLines(true)
                        .ignoreDifferentFieldCount(true).ofCsvRecord((Reader) reader);
                records = csv.iterator();
            }
        }

        /** Reads more bytes after {@code lim} (into the digest too). */
        private void fill() throws IOException {
            int k = raw.read(buf, lim, buf.length - lim);
            if (k < 0) {
                eof = true;
            } else {
                md.update(buf, lim, k);
                lim += k;
            }
        }

        /** The index of the line feed ending the line at {@code pos}, {@code lim} at the end of the file, -1 for a long line. */
        private int lineEnd() throws IOException {
            int i = pos;
            while (true) {
                byte[] b = buf;
                int l = lim;
                for (; i < l; i++) {
                    if (b[i] == '\n') {
                        return i;
                    }
                }
                if (eof) {
                    return lim;
                }
                if (lim - pos >= MAX_LINE) {
                    return -1;
                }
                if (pos > 0) {
                    System.arraycopy(buf, pos, buf, 0, lim - pos);
                    i -= pos;
                    lim -= pos;
                    pos = 0;
                }
                fill();
            }
        }

        /** The line of the record last returned. */
        long line() {
            return line;
        }

        /** The next record, or null at the end (or after a parse error, reported to {@code onParseError} or thrown). */
        Fields next() throws DataException {
            if (done) {
                return null;
            }
            try {
                if (raw != null) {
                    return delimited ? fastDelimited() : fastWhitespace();
                }
                return csv != null ? nextDelimited() : nextLine();
            } catch (IOException | RuntimeException e) {
                done = true;
                DataException de = e instanceof IOException && !(e instanceof java.io.UncheckedIOException)
                        ? new DataException(file, null, "cannot read file: " + e.getMessage(), e)
                        : new DataException(file, null, "malformed delimited text: " + PrivateText.foreign(e.getMessage()), e);
                if (onParseError == null) {
                    throw de;
                }
                onParseError.accept(de);
                return null;
            }
        }

        /** Hands over to the text reader, which reads the file again and hands out the records from line {@code from} on. */
        private Fields handOver(long from) throws IOException {
            raw.close();
            raw = null;
            buf = null;
            fields.buf = null;
            md.reset();
            lineNo = 0;
            skipBefore = from;
            openText();
            return csv != null ? nextDelimited() : nextLine();
        }

        private Fields fastDelimited() throws IOException {
            while (true) {
                int end;
                try {
                    end = lineEnd();
                } catch (IOException e) {
                    // as FastCSV reports a failed read (an UncheckedIOException, "malformed delimited text: ...")
                    throw new java.io.UncheckedIOException(lineNo == 0 ? "Exception when reading first record"
                            : "Exception when reading record that started in line " + (lineNo + 1), e);
                }
                if (end < 0) {
                    return handOver(lineNo + 1);
                }
                if (end == pos && end == lim) {
                    done = true;
                    return null;
                }
                int from = pos;
                int to = end;
                pos = end < lim ? end + 1 : end;
                lineNo++;
                byte[] b = buf;
                if (to > from && b[to - 1] == '\r') {
                    to--; // CRLF (or a last line ending in CR): one line end for FastCSV too
                }
                if (to == from) {
                    continue; // an empty line
                }
                // one pass: the fields (untrimmed), and whether the line is plain ASCII with no quote and no CR
                ByteFields r = fields;
                r.n = 0;
                boolean ascii = true;
                byte s = (byte) sep;
                int a = from;
                for (int i = from; i < to; i++) {
                    byte c = b[i];
                    if (c == s) {
                        r.add(a, i);
                        a = i + 1;
                    } else if (c <= '"') {
                        if (c == '"' || c == '\r') {
                            return handOver(lineNo);
                        }
                        ascii &= c >= 0;
                    }
                }
                r.add(a, to);
                if (r.n > MAX_FIELDS) {
                    return handOver(lineNo); // FastCSV refuses it
                }
                if (!ascii) {
                    String[] f = splitText(new String(b, from, to - from, StandardCharsets.UTF_8));
                    if (f.length == 1 && f[0].isBlank()) {
                        continue;
                    }
                    for (int j = 0; j < f.length; j++) {
                        f[j] = f[j].trim();
                    }
                    line = lineNo;
                    return new StringFields(f);
                }
                if (r.n == 1 && blank(b, from, to)) {
                    continue;
                }
                r.trim();
                line = lineNo;
                return r;
            }
        }

        /** The fields of a delimited line with no quote character: every separator splits. */
        private String[] splitText(String s) {
            List<String> f = new ArrayList<>();
            int a = 0;
            for (int i = 0; i <= s.length(); i++) {
                if (i == s.length() || s.charAt(i) == sep) {
                    f.add(s.substring(a, i));
                    a = i + 1;
                }
            }
            return f.toArray(new String[0]);
        }

        /** {@code String.isBlank} of ASCII bytes. */
        private static boolean blank(byte[] b, int from, int to) {
            for (int i = from; i < to; i++) {
                if (!Character.isWhitespace(b[i])) {
                    return false;
                }
            }
            return true;
        }

        private Fields fastWhitespace() throws IOException {
            while (true) {
                int end = lineEnd();
                if (end < 0) {
                    return handOver(lineNo + 1);
                }
                if (end == pos && end == lim) {
                    done = true;
                    return null;
                }
                int from = pos;
                int to = end;
                pos = end < lim ? end + 1 : end;
                lineNo++;
                byte[] b = buf;
                if (to > from && b[to - 1] == '\r') {
                    to--; // split("\r?\n")
                }
                boolean plain = true; // ASCII, and no white space but spaces and tabs
                boolean blank = true;
                for (int i = from; i < to; i++) {
                    byte c = b[i];
                    if (c == ' ' || c == '\t') {
                        continue;
                    }
                    blank = false;
                    if (c < ' ') { // a control character, or (negative) not ASCII
                        plain = false;
                        break;
                    }
                }
                if (!plain) {
                    String s = new String(b, from, to - from, StandardCharsets.UTF_8);
                    if (s.isBlank()) {
                        continue;
                    }
                    line = lineNo;
                    return new StringFields(WHITESPACE.split(s.trim()));
                }
                if (blank) {
                    continue;
                }
                ByteFields r = fields;
                r.n = 0;
                int i = from;
                while (i < to) {
                    while (i < to && (b[i] == ' ' || b[i] == '\t')) {
                        i++;
                    }
                    if (i == to) {
                        break;
                    }
                    int s = i;
                    while (i < to && b[i] != ' ' && b[i] != '\t') {
                        i++;
                    }
                    r.add(s, i);
                }
                line = lineNo;
                return r;
            }
        }

        private Fields nextDelimited() {
            while (records.hasNext()) {
                CsvRecord rec = records.next();
                if (rec.getStartingLineNumber() < skipBefore) {
                    continue; // handed out by the fast reader
                }
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
                return new StringFields(arr);
            }
            done = true;
            return null;
        }

        private Fields nextLine() throws IOException {
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
                if (lineNo < skipBefore) {
                    continue; // handed out by the fast reader
                }
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
                return new StringFields(WHITESPACE.split(s.trim()));
            }
        }

        /** The digest of every byte of the file (the rest is read first). */
        String sha256() throws DataException {
            try {
                if (raw != null) {
                    while (!eof) {
                        pos = 0;
                        lim = 0;
                        fill();
                    }
                } else {
                    byte[] skip = new byte[1 << 16];
                    while (in.read(skip) > 0) {
                        // the remaining bytes, for the digest
                    }
                }
            } catch (IOException e) {
                throw new DataException(file, null, "cannot read file: " + e.getMessage(), e);
            }
            return HexFormat.of().formatHex(md.digest());
        }

        @Override
        public void close() throws DataException {
            try {
                if (raw != null) {
                    raw.close();
                }
                if (csv != null) {
                    csv.close();
                }
                if (reader != null) {
                    reader.close();
                }
            } catch (IOException e) {
                throw new DataException(file, null, "cannot read file: " + e.getMessage(), e);
            }
        }
    }
}
